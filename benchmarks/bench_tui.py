"""First paint in a real terminal (issue 40.1): the workbench's first frame with the sample suite's
case list in it (the page may follow), against a bare Textual app that paints one Static.

Both are launched the same way, in turns, in one tmux pane of the workbench's size: each process
is started by `tmux respawn-pane` with the launcher's clock in BENCH_T0, and writes when the frame
went to the terminal (benchmarks/tui_child.py --until list --out, floor_first_frame.py --static
--out). One untimed launch of each first compiles their bytecode. Prints the medians, the ratio
of the medians and each pair's ratio, with the machine's cores and load.

    python benchmarks/bench_tui.py [--runs 5] [--size 160x48] [--path FOLDER]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_cases" / "mini"
TARGET = 1.4   # issue 40.1: the workbench's first frame within 1.4x the bare app's
# Seconds a launch may take before it counts as failed (a loaded 2-core machine took 4 s).
LIMIT_S = 120


def _launch(session: str, cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Start `cmd` in the session's pane and wait for its JSON; its first frame's seconds, wall
    and CPU (the process's own, its threads included)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        env = dict(env, BENCH_T0=repr(time.time()))
        assigns = " ".join(f"{k}={_quote(v)}" for k, v in env.items())
        line = f"env {assigns} " + " ".join(_quote(c) for c in [*cmd, "--out", str(out)])
        subprocess.run(["tmux", "respawn-pane", "-k", "-t", session, line], check=True)
        deadline = time.monotonic() + LIMIT_S
        while not out.exists() or not out.stat().st_size:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{Path(cmd[1]).name}: no first frame in {LIMIT_S} s")
            time.sleep(0.02)
        time.sleep(0.05)  # (written whole: one write of a short line)
        got = json.loads(out.read_text())
        return got["first_frame_s"], got["first_frame_cpu_s"]


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def measure(runs: int = 5, size: str = "160x48", path: Path = SAMPLE) -> dict:
    """`runs` launches of each, in turns, after one untimed launch of each."""
    from benchmarks.harness import scratch

    if shutil.which("tmux") is None:
        raise RuntimeError("tmux is not installed")
    w, h = size.split("x")
    session = f"bench-tui-{os.getpid()}"
    # (PYTHONDONTWRITEBYTECODE empty: bytecode is written by the untimed launches and used after)
    env = {"PYTHONPATH": str(ROOT), "PDFWORKBENCH_CONFIG_DIR": scratch(), "TERM": "xterm-256color",
           "COLORTERM": "truecolor", "PATH": os.environ.get("PATH", ""), "PYTHONDONTWRITEBYTECODE": ""}
    workbench = [sys.executable, str(ROOT / "benchmarks" / "tui_child.py"), str(path), "--until", "list"]
    floor = [sys.executable, str(ROOT / "benchmarks" / "floor_first_frame.py"), str(path), "--static"]
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", w, "-y", h, "sleep 600"], check=True)
    try:
        subprocess.run(["tmux", "set-option", "-t", session, "remain-on-exit", "on"], check=True)
        _launch(session, floor, env)       # bytecode compiled, files in the page cache
        _launch(session, workbench, env)
        floors, ours = [], []
        for _ in range(runs):
            floors.append(_launch(session, floor, env))
            ours.append(_launch(session, workbench, env))
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False, capture_output=True)
    return {"floor_s": [f[0] for f in floors], "workbench_s": [o[0] for o in ours],
            "floor_cpu_s": [f[1] for f in floors], "workbench_cpu_s": [o[1] for o in ours],
            "cores": os.cpu_count(), "load": os.getloadavg(), "size": size}


def rows(group: str, runs: int = 5) -> list:
    """The rows `python -m benchmarks` prints (group tui)."""
    from benchmarks.harness import Row

    load_before = os.getloadavg()[0]
    try:
        got = measure(runs)
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        return [Row(group, "workbench: first frame with the case list, in tmux", "s", [], None, error=str(exc))]
    machine = f"{got['cores']} cores, load {load_before:.2f} -> {got['load'][0]:.2f}"
    ratio = statistics.median(got["workbench_s"]) / statistics.median(got["floor_s"])
    pairs = [a / b for a, b in zip(got["workbench_s"], got["floor_s"], strict=True)]
    cpu = statistics.median(got["workbench_cpu_s"]) / statistics.median(got["floor_cpu_s"])
    return [Row(group, "workbench: first frame with the case list, in tmux", "s", got["workbench_s"], None,
                floor=got["floor_s"], floor_what="a bare Textual app painting one Static, in tmux, in turns",
                ratios=[ratio], ratio_target=TARGET,
                note=f"ratio median over median; each pair {' '.join(f'{x:.2f}' for x in pairs)}; "
                     f"CPU {cpu:.2f}x the floor's (the process's own threads); {machine}")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size", default="160x48")
    ap.add_argument("--path", type=Path, default=SAMPLE)
    a = ap.parse_args()
    load_before = os.getloadavg()
    got = measure(a.runs, a.size, a.path)
    floor, ours = statistics.median(got["floor_s"]), statistics.median(got["workbench_s"])
    print(f"first paint in tmux at {got['size']}, {a.runs} launches each in turns, "
          f"{got['cores']} cores, load {load_before[0]:.2f} -> {got['load'][0]:.2f}")
    print(f"  floor (one Static)        median {floor:.3f} s  {' '.join(f'{x:.3f}' for x in got['floor_s'])}")
    print(f"  workbench (case list)     median {ours:.3f} s  {' '.join(f'{x:.3f}' for x in got['workbench_s'])}")
    pairs = [a / b for a, b in zip(got["workbench_s"], got["floor_s"], strict=True)]
    print(f"  ratio {ours / floor:.2f}x (target <= {TARGET}x); per pair "
          + " ".join(f"{x:.2f}" for x in pairs))
    cpu_floor, cpu_ours = statistics.median(got["floor_cpu_s"]), statistics.median(got["workbench_cpu_s"])
    print(f"  CPU to the first frame (the process's threads): floor {cpu_floor:.3f} s, workbench "
          f"{cpu_ours:.3f} s, {cpu_ours / cpu_floor:.2f}x")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))   # run as a script, not as a module
    main()
