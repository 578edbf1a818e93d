"""The test loop's collection (issue 40 item 4): `pytest --collect-only -q` as a whole process, in
turns with its floor, pytest's own start with every installed plugin (`pytest --version`, which
loads them and collects nothing). CPU time (user + system): on a loaded machine a process's wall
time is mostly its wait for a core. The target is the issue's 5 s on an idle 2-core machine.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.harness import ROOT, Row, progress

COLLECT = ["-m", "pytest", "--collect-only", "-q", "-p", "no:randomly"]
FLOOR = ["-m", "pytest", "--version", "-p", "no:randomly"]


def _once(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall s, CPU s, last line of output) of `python ARGV` in the repository."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *argv], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    last = (out.decode(errors="replace").strip().splitlines() or [""])[-1]
    if code != 0:
        raise RuntimeError(f"pytest {' '.join(argv[2:4])}: exit {code}: {last[:100]}")
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, last


def rows(group: str, tmp: Path, runs: int) -> list[Row]:
    # As `make test` runs it: bytecode (and pytest's rewritten test modules) may be written, so
    # the first, untimed, round leaves them cached as every later run on that checkout finds them.
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="")
    got: dict[str, list[tuple[float, float]]] = {"collect": [], "floor": []}
    try:
        for i in range(1 + runs):
            for name, argv in (("floor", FLOOR), ("collect", COLLECT)):
                wall, cpu, _ = _once(argv, env)
                if i:
                    got[name].append((wall, cpu))
    except RuntimeError as exc:
        return [Row(group, "pytest --collect-only -q: CPU", "s", [], 5.0, error=str(exc)[:120])]
    floor_cpu = [c for _, c in got["floor"]]
    mine = [c for _, c in got["collect"]]
    progress(f"collection: {statistics.median(mine):.2f} s CPU, floor {statistics.median(floor_cpu):.2f} s")
    return [Row(group, "pytest --collect-only -q: CPU", "s", mine, 5.0, floor=floor_cpu,
                floor_what="pytest --version, in turns (pytest and its plugins, nothing collected)",
                note=f"wall median {statistics.median(w for w, _ in got['collect']):.2f} s, "
                     f"floor's {statistics.median(w for w, _ in got['floor']):.2f} s")]
