"""A process's own peak memory, for tests that bound it.

Linux keeps a process's memory high-water mark through fork and exec: a command started from a
large process (this pytest process, near 1 GB after hundreds of tests) reports that process's peak
as its own in `ru_maxrss`, from `getrusage(RUSAGE_SELF)` and from `wait4` alike. So:

- `own_peak_mb()` is this process's own peak (VmHWM, which starts afresh at exec);
- `python tests/support/own_peak.py OUT ARGV...` runs ARGV as a child of this small process, passes its
  stdio and exit code through, and writes the child's own peak (MB) to OUT.
"""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path


def own_peak_mb() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def main(out: str, argv: list[str]) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)  # forked from this small process: its peak is its own
    Path(out).write_text(str(usage.ru_maxrss // 1024), encoding="utf-8")
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
