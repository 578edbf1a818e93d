"""Run the CLI with every file write slowed down, so a test can SIGKILL it inside a write.

    python tests/support/slow_writer.py ARGS...      (SLOW_WRITE_S seconds between the halves of a write)

Each write is split in two with a pause between, at the three places the tool writes files: the
run file's appends, atomic writes (temporary file, then rename: also paused before the rename)
and the disputes journal's os.write. Nothing else about the writers changes.
"""

from __future__ import annotations

import os
import sys
import time

PAUSE = float(os.environ.get("SLOW_WRITE_S", "0.05"))
_write = os.write
_fdopen = os.fdopen
_replace = os.replace


def _slow_os_write(fd: int, data) -> int:
    data = bytes(data)
    if len(data) < 2 or fd <= 2:
        return _write(fd, data)
    half = len(data) // 2
    n = _write(fd, data[:half])
    time.sleep(PAUSE)
    return n + _write(fd, data[half:])


class _SlowFile:
    def __init__(self, fh) -> None:
        self._fh = fh

    def write(self, data):
        half = len(data) // 2
        self._fh.write(data[:half])
        self._fh.flush()
        time.sleep(PAUSE)
        return self._fh.write(data[half:])

    def __getattr__(self, name):
        return getattr(self._fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()


def _slow_fdopen(*args, **kwargs):
    return _SlowFile(_fdopen(*args, **kwargs))


def _slow_replace(src, dst, *args, **kwargs):
    time.sleep(PAUSE)
    return _replace(src, dst, *args, **kwargs)


def main() -> int:
    os.write = _slow_os_write
    os.fdopen = _slow_fdopen
    os.replace = _slow_replace
    from workbench.core import runs

    init = runs.RunWriter.__init__

    def slow_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self._fh = _SlowFile(self._fh)

    runs.RunWriter.__init__ = slow_init
    from workbench.cli import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
