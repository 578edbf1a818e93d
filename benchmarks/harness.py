"""What every measurement of `python -m benchmarks` shares: a row of the table, timing with a
warm-up and several runs, and the peak memory of a command's whole process tree."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


@dataclass
class Row:
    """One line of the table. `target` is an upper bound in `unit` unless `at_least` is set."""

    group: str
    what: str
    unit: str                      # "s", "ms", "MB" or "x"
    values: list[float]
    target: float | None = None
    at_least: bool = False
    note: str = ""
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def p95(self) -> float | None:
        return p95(self.values) if self.values else None

    @property
    def met(self) -> bool | None:
        if self.error or self.median is None or self.target is None:
            return None if not self.error else False
        # A ratio is judged on its median; a time or a size on its median too (p95 is shown).
        return self.median >= self.target if self.at_least else self.median <= self.target

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.update(median=self.median, p95=self.p95, met=self.met)
        return out


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "ms":
        return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "MB":
        return f"{value:.0f} MB"
    if unit == "x":
        return f"{value:.2f}x"
    return f"{value:g} {unit}"


def table(rows: list[Row]) -> str:
    lines = [f"{'measure':<58} {'median':>10} {'p95':>10} {'target':>11} {'met':>4}  n"]
    group = None
    for r in rows:
        if r.group != group:
            group = r.group
            machine = (f"  [load {r.extra['load_1min']:.2f}, {r.extra['cores']} cores]"
                       if "load_1min" in r.extra else "")
            lines.append(f"-- {group}{machine}")
        target = "-" if r.target is None else ("≥ " if r.at_least else "< ") + fmt(r.target, r.unit)
        met = {True: "yes", False: "NO", None: "-"}[r.met]
        if r.error:
            lines.append(f"  {r.what:<56} {'failed':>10} {'':>10} {target:>11} {met:>4}  {r.error}")
            continue
        line = (f"  {r.what:<56} {fmt(r.median, r.unit):>10} {fmt(r.p95, r.unit):>10} {target:>11} "
                f"{met:>4}  {len(r.values)}")
        if r.note:
            line += f"  ({r.note})"
        lines.append(line)
    return "\n".join(lines)


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants, in MB (0 once it has exited)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total / 1024


@dataclass
class Ran:
    seconds: float
    peak_mb: float
    cpu_s: float          # user + system time of the command and every process it waited for
    stdout: str
    stderr: str
    code: int


def run_cli(args: list[str], env: dict[str, str] | None = None, timeout: float = 900,
            module: str = "workbench") -> Ran:
    """Run `python -m MODULE ARGS` (the workbench's CLI unless told), timing it and sampling its
    process tree's memory."""
    cmd = [sys.executable, "-m", module, *args]
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    out_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-out-{os.getpid()}.txt"
    with open(out_path, "w+b") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=full_env)
        peak = 0.0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                proc.returncode = os.waitstatus_to_exitcode(status)
                break
            peak = max(peak, tree_rss_mb(proc.pid))
            if time.perf_counter() - t0 > timeout:
                proc.kill()
                proc.wait()
                raise TimeoutError(f"{' '.join(args)}: still running after {timeout:.0f} s")
            time.sleep(0.05)
        seconds = time.perf_counter() - t0
        cpu = usage.ru_utime + usage.ru_stime
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        out.seek(0)
        text = out.read().decode(errors="replace")
    out_path.unlink(missing_ok=True)
    progress(f"{' '.join(args)[-70:]}: {seconds:.1f} s wall, {cpu:.1f} s CPU, {peak:.0f} MB")
    return Ran(seconds, peak, cpu, text, err, proc.returncode)


def progress(line: str) -> None:
    """One line on stderr as each measurement finishes, so a long run shows where it is."""
    print(f"[bench]   {line}", file=sys.stderr, flush=True)


def repeat(fn: Callable[[], Any], runs: int, warmup: int = 1) -> list[Any]:
    """Call `fn` warmup + runs times and keep the last `runs` results."""
    results = []
    for i in range(warmup + runs):
        r = fn()
        if i >= warmup:
            results.append(r)
    return results
