"""Atomic file writes (temporary file in the same folder, fsync, rename) and write locks.

Locks use the portable `filelock` package (fcntl on POSIX, msvcrt on Windows), so nothing here
imports a POSIX-only module. A lock file sits beside what it guards: `.suite.lock` in a suite
folder, `.<name>.lock` beside a run file.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from workbench.core import files
from workbench.core.errors import UserError

NAME_MAX = 255  # bytes in one file name on every common file system


class WriteError(UserError, OSError):
    """A file or folder that cannot be written: one line naming it (and still an OSError, so
    callers that shrug off a failed write, such as the answer cache, keep doing so)."""


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# Read once at import (the main thread): os.umask is process-wide and not thread-safe to probe.
_UMASK = _current_umask()


def ensure_folder(folder: Path, flag: str = "") -> Path:
    """Create `folder` (and parents) or say in one line why it cannot be."""
    folder = Path(folder)
    where = f"{flag} {folder}" if flag else str(folder)
    try:
        if folder.exists() and not folder.is_dir():
            raise WriteError(f"{where}: exists and is not a folder; choose another")
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise WriteError(f"{where}: cannot be created (part of the path is a file); choose another") from None
    except OSError as exc:
        raise WriteError(f"{where}: cannot be created ({exc.strerror or exc}); choose another") from None
    return folder


def temp_prefix(name: str) -> str:
    """The start of a temporary file's name beside `name`: hidden, and short enough that the
    random part and `.tmp` still fit in a 255-byte name."""
    short = name.encode("utf-8")[:120].decode("utf-8", "ignore")
    return f".{short}."


def write_bytes(path: Path, data: bytes, within: Path | None = None) -> None:
    """Write `data` to `path` atomically, with the permissions the umask gives a new file.

    A link at `path` is refused (the rename would put the file where the link was, not where it
    points, and a caller that meant the target would be surprised); with `within` (the suite
    folder) a link on any step below it is refused too, so the temporary file is never made
    through a linked folder elsewhere."""
    path = Path(path)
    if within is not None:
        files.check_own(path, within)
    files.refuse_link(path)
    ensure_folder(path.parent)
    if path.is_dir():
        raise WriteError(f"{path}: is a folder; cannot write a file there")
    if len(path.name.encode("utf-8", "surrogateescape")) > NAME_MAX:
        raise WriteError(f"{str(path)[:120]}…: name too long (over {NAME_MAX} bytes); choose a shorter one")
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise WriteError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; a case file is no secret
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise WriteError(f"{path}: cannot write ({exc.strerror or exc})") from None
        raise


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def write_json(path: Path, obj: Any, within: Path | None = None) -> None:
    write_bytes(path, dumps(obj).encode("utf-8"), within)


@contextlib.contextmanager
def file_lock(lock_path: Path, what: str, timeout_s: float | None = None) -> Iterator[None]:
    """Hold an exclusive lock on `lock_path`. A second writer waits (`timeout_s` None), or after
    `timeout_s` seconds gets a UserError saying another process holds `what`."""
    from filelock import FileLock, Timeout

    lock_path = files.refuse_link(lock_path)  # filelock truncates its file: never one elsewhere
    ensure_folder(lock_path.parent)
    lock = FileLock(str(lock_path), timeout=-1 if timeout_s is None else timeout_s)
    try:
        lock.acquire()
    except Timeout:
        raise UserError(f"{what} is being written by another process (lock {lock_path}); "
                        "wait for it to finish, or choose another output") from None
    try:
        yield
    finally:
        lock.release()


@contextlib.contextmanager
def suite_lock(folder: Path, timeout_s: float | None = None) -> Iterator[None]:
    """Hold the suite's write lock; a second writer waits until the first is done."""
    folder = Path(folder)
    with file_lock(files.check_own(folder / ".suite.lock", folder), f"suite {folder}", timeout_s):
        yield


def lock_path_for(path: Path) -> Path:
    """The lock file that guards `path` (beside it, hidden)."""
    path = Path(path)
    return path.with_name(f".{path.name}.lock")
