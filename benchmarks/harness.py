"""What every measurement of `python -m benchmarks` shares: a row of the table, timing with a
warm-up and several runs, and the peak memory of a command's whole process tree."""

from __future__ import annotations

import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def scratch(prefix: str = "pdfwb-bench-") -> str:
    """A new temporary folder removed when this process exits: a benchmark's configuration,
    browser profile or inputs leave nothing behind in the system's temporary folder."""
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
    return folder


def machine_load() -> float:
    """The 1-minute load average now: every row is read against the machine's state when it ran."""
    return round(os.getloadavg()[0], 2)


@dataclass
class Row:
    """One line of the table. `target` is an upper bound in `unit` unless `at_least` is set.

    `floor` is the same measure of the least the work could take (a bare library call, a bare
    interpreter, the ideal time), measured in the same run, in turns with `values` where it can be:
    the table prints it beside the row with the ratio, so a row reads the same on a fast machine
    and on a loaded one. `ratios` are per-pair ratios when the pairs are not `values`/`floor` one
    for one (default: each value over its floor when they pair, else median over median)."""

    group: str
    what: str
    unit: str                      # "s", "ms", "MB", "/s" or "x"
    values: list[float]
    target: float | None = None
    at_least: bool = False
    note: str = ""
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    floor: list[float] | None = None
    floor_what: str = ""
    ratios: list[float] | None = None
    ratio_target: float | None = None   # an upper bound on the ratio to the floor (the aims)
    load: float = field(default_factory=machine_load)
    cores: int = field(default_factory=lambda: os.cpu_count() or 1)

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def p95(self) -> float | None:
        return p95(self.values) if self.values else None

    @property
    def floor_median(self) -> float | None:
        return statistics.median(self.floor) if self.floor else None

    @property
    def ratio(self) -> float | None:
        """The row over its floor (a rate, "/s": the floor over the row, so more is still slower)."""
        if self.ratios:
            return statistics.median(self.ratios)
        if not self.values or not self.floor:
            return None
        if len(self.values) == len(self.floor):
            pairs = [(f / v if self.unit == "/s" else v / f) for v, f in zip(self.values, self.floor, strict=True)
                     if (v if self.unit == "/s" else f)]
            return statistics.median(pairs) if pairs else None
        m, f = self.median, self.floor_median
        return (f / m if self.unit == "/s" else m / f) if (m if self.unit == "/s" else f) else None

    @property
    def met(self) -> bool | None:
        if self.error:
            return False
        checks = []
        # A time, a size or a ratio is judged on its median (p95 is shown).
        if self.median is not None and self.target is not None:
            checks.append(self.median >= self.target if self.at_least else self.median <= self.target)
        if self.ratio is not None and self.ratio_target is not None:
            checks.append(self.ratio <= self.ratio_target)
        return all(checks) if checks else None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.update(median=self.median, p95=self.p95, met=self.met, floor_median=self.floor_median,
                   ratio=self.ratio)
        return out


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "ms":
        return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "MB":   # (a page of 4.5 MB against its 5 MB aim is not "4 MB")
        return f"{value:.0f} MB" if value >= 10 else f"{value:.1f} MB"
    if unit == "x":
        return f"{value:.2f}x"
    if unit == "/s":
        return f"{value:,.0f}/s"
    return f"{value:g} {unit}"


def table(rows: list[Row]) -> str:
    """Every row with its floor and its ratio to it, the target, and the load and cores it ran at."""
    lines = [f"{'measure':<58} {'median':>9} {'p95':>9} {'floor':>9} {'ratio':>7} {'target':>10} {'met':>4} "
             f"{'n':>3} {'load/cores':>10}"]
    group = None
    for r in rows:
        if r.group != group:
            group = r.group
            lines.append(f"-- {group}")
        target = "-" if r.target is None else ("≥ " if r.at_least else "< ") + fmt(r.target, r.unit)
        if r.ratio_target is not None:   # the aim on the ratio is the one shown; both are judged
            target = f"< {r.ratio_target:.2f}x"
        met = {True: "yes", False: "NO", None: "-"}[r.met]
        machine = f"{r.load:.1f}/{r.cores}"
        if r.error:
            lines.append(f"  {r.what:<56} {'failed':>9} {'':>9} {'':>9} {'':>7} {target:>10} {met:>4} {'':>3} "
                         f"{machine:>10}  {r.error}")
            continue
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}x"
        floor = fmt(r.floor_median, r.unit) if r.floor else ("-" if r.unit == "x" else "none")
        line = (f"  {r.what:<56} {fmt(r.median, r.unit):>9} {fmt(r.p95, r.unit):>9} {floor:>9} {ratio:>7} "
                f"{target:>10} {met:>4} {len(r.values):>3} {machine:>10}")
        notes = [f"floor: {r.floor_what}"] if r.floor_what else []
        if r.note:
            notes.append(r.note)
        if notes:
            line += f"  ({'; '.join(notes)})"
        lines.append(line)
    return "\n".join(lines)


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants, in MB (0 once it has exited)."""
    return tree_memory_mb(pid)[0]


def tree_memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of a process and all its descendants, summed, in MB ((0, 0) once it has exited).
    RSS counts a page shared by forked workers in every process that maps it (the imports the
    workers inherit: some 90 MB each for pymupdf, pypdf and numpy); PSS counts it once, split
    between them: what the tree takes from the machine. (PSS is the RSS where smaps_rollup is
    missing.)"""
    rss = pss = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        own = int(line.split()[1])
                        rss += own
                        break
                else:
                    own = 0
            try:
                with open(f"/proc/{p}/smaps_rollup") as f:
                    for line in f:
                        if line.startswith("Pss:"):
                            own = int(line.split()[1])
                            break
            except OSError:
                pass
            pss += own
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return rss / 1024, pss / 1024


@dataclass
class Ran:
    seconds: float
    peak_mb: float        # the process tree's RSS, summed (`tree_memory_mb`)
    cpu_s: float          # user + system time of the command and every process it waited for
    stdout: str
    stderr: str
    code: int
    peak_pss_mb: float = 0.0   # its PSS


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
        peak = peak_pss = 0.0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                proc.returncode = os.waitstatus_to_exitcode(status)
                break
            rss, pss = tree_memory_mb(proc.pid)
            peak, peak_pss = max(peak, rss), max(peak_pss, pss)
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
    progress(f"{' '.join(args)[-70:]}: {seconds:.1f} s wall, {cpu:.1f} s CPU, {peak:.0f} MB "
             f"(PSS {peak_pss:.0f} MB)")
    return Ran(seconds, peak, cpu, text, err, proc.returncode, peak_pss)


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
