"""Atomic file writes (temporary file in the same folder, fsync, rename) and write locks.

Locks use the portable `filelock` package (fcntl on POSIX, msvcrt on Windows), so nothing here
imports a POSIX-only module. A lock file sits beside what it guards: `.suite.lock` in a suite
folder, `.<name>.lock` beside a run file.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from workbench.core import files
from workbench.core.digest import sha256_hex
from workbench.core.errors import UserError
from workbench.core.files import WriteError

NAME_MAX = 255  # bytes in one file name on every common file system


def ensure_folder(folder: Path, flag: str = "") -> Path:
    """Create `folder` (and parents) or say in one line why it cannot be."""
    folder = Path(folder)
    where = f"{flag} {folder}" if flag else str(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)   # (a folder there already: one call, no error)
    except (FileExistsError, NotADirectoryError):
        if folder.exists() and not folder.is_dir():
            raise WriteError(f"{where}: exists and is not a folder; choose another") from None
        raise WriteError(f"{where}: cannot be created (part of the path is a file); choose another") from None
    except OSError as exc:
        raise WriteError(f"{where}: cannot be created ({exc.strerror or exc}); choose another") from None
    return folder


# A temporary file's name says which process made it, `.<name>.<host>-<pid>.<random>.tmp`, so a
# later build can tell one left by a killed process from one another process is writing.
# (os.uname is the host name socket.gethostname gives, without loading socket for every command.)
_HOST = re.sub(r"[^A-Za-z0-9-]", "", os.uname().nodename)[:32] or "host"
_TEMP = re.compile(r"^\..+\.(?P<host>[A-Za-z0-9-]+)-(?P<pid>\d+)\.[A-Za-z0-9_]+\.tmp$")


def temp_prefix(name: str) -> str:
    """The start of a temporary file's name beside `name`: hidden, naming this process, and short
    enough that the random part and `.tmp` still fit in a 255-byte name."""
    short = name.encode("utf-8")[:120].decode("utf-8", "ignore")
    return f".{short}.{_HOST}-{os.getpid()}."


# How a temporary file is opened, as tempfile.mkstemp opens one: made here or not at all (never
# an existing file, nor through a link), and not inherited by a process started meanwhile.
_CREATE = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
           | getattr(os, "O_BINARY", 0))


def _create_temp(path: Path) -> tuple[int, str]:
    """A new temporary file beside `path` (`temp_prefix`, a random part, `.tmp`), open for
    writing, with the permissions the umask gives a new file (0o666 less the umask, which the
    system applies: a case file is no secret). What tempfile.mkstemp and a chmod after it did, in
    one call: the cache's writes were about a tenth of a report's crop workers' time."""
    prefix = os.path.join(path.parent, temp_prefix(path.name))
    for _ in range(100):
        tmp = f"{prefix}{os.urandom(6).hex()}.tmp"
        try:
            return os.open(tmp, _CREATE, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused name for a temporary file", prefix)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def remove_stray_temps(folder: Path) -> list[Path]:
    """Delete the temporary files in `folder` that a process of this machine, now dead (killed
    mid-write), left behind; return them. Another machine's (a shard on a shared folder) are left
    alone: its process may be alive. On Windows nothing is removed (no way to ask about a pid)."""
    gone: list[Path] = []
    if os.name == "nt":
        return gone
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return gone
    for entry in entries:
        m = _TEMP.match(entry.name)
        if not m or m["host"] != _HOST or int(m["pid"]) == os.getpid() or _alive(int(m["pid"])):
            continue
        with contextlib.suppress(FileNotFoundError):
            os.unlink(entry.path)
            gone.append(Path(entry.path))
    return gone


def check_target(path: Path | str, flag: str = "", follow: bool = False) -> Path:
    """`path`, if `write_bytes` can write a file there: nothing there yet, or a regular file
    (replaced whole). Else one line naming `flag` and `path`: a folder; a symbolic link (the
    rename would replace the link, not what it points to); a device, FIFO or socket (the rename
    would put a regular file in its place: /dev/null itself, for a command run as root). Commands
    check their output paths with it before the work, so nothing is done for a refused write.

    `follow`: a path the user typed is theirs, so a link there is followed (as for a file read)
    and the path it leads to is returned and checked; a suite folder's files are never followed."""
    path = files.typed_path(path) if follow else Path(path)
    where = f"{flag} {path}" if flag else str(path)
    try:
        mode = os.lstat(path).st_mode
    except OSError:   # nothing there (or a name the write itself will refuse, in one line)
        return path
    if stat.S_ISREG(mode):
        return path
    if stat.S_ISDIR(mode):
        raise WriteError(f"{where}: is a folder; give a file name")
    if stat.S_ISLNK(mode):
        raise WriteError(f"{where}: is a symbolic link; give the file itself (a write would replace "
                         "the link, not what it points to)")
    raise WriteError(f"{where}: is {files.kind_of(mode)}, not a file (a write would put a file in its "
                     "place); give a file name")


def write_bytes(path: Path, data: bytes, within: Path | None = None, sync: bool = True) -> None:
    """Write `data` to `path` atomically, with the permissions the umask gives a new file;
    synced to disk before it replaces `path` unless `sync` is false (a cache entry that is
    cheaper to make again than a sync: one cut short by a crash is a miss).

    What is at `path` must be a regular file, or nothing (`check_target`): a link, a device or a
    FIFO there is refused, never replaced by the rename; with `within` (the suite folder) a link
    on any step below it is refused too, so the temporary file is never made through a linked
    folder elsewhere."""
    path = Path(path)
    if within is not None:
        files.check_own(path, within)   # (the path itself is its walk's last step: a link there too)
    check_target(path)
    ensure_folder(path.parent)
    if len(path.name.encode("utf-8", "surrogateescape")) > NAME_MAX:
        raise files.write_failed(path, OSError(errno.ENAMETOOLONG, "File name too long"))
    try:
        fd, tmp = _create_temp(path)
    except OSError as exc:
        raise files.write_failed(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise files.write_failed(path, exc, " (no file was changed)") from None
        raise


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def write_json(path: Path, obj: Any, within: Path | None = None, sync: bool = True) -> None:
    write_bytes(path, dumps(obj).encode("utf-8"), within, sync)


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
    except Timeout:  # an OSError too: before the next clause
        raise UserError(f"{what} is being written by another process (lock {lock_path}); "
                        "wait for it to finish, or choose another output") from None
    except OSError as exc:  # a read-only folder, a full disk
        raise files.write_failed(lock_path, exc, f" (cannot lock {what})") from None
    try:
        yield
    finally:
        lock.release()


def try_file_lock(lock_path: Path, what: str) -> Any | None:
    """An exclusive lock on `lock_path` if no one holds it (give it back with its `release()`;
    the system gives it back when the process ends, so a crash leaves no stale lock), else None."""
    from filelock import FileLock, Timeout

    lock_path = files.refuse_link(lock_path)
    ensure_folder(lock_path.parent)
    lock = FileLock(str(lock_path), timeout=0)
    try:
        lock.acquire()
    except Timeout:  # an OSError too: before the next clause
        return None
    except OSError as exc:
        raise files.write_failed(lock_path, exc, f" (cannot lock {what})") from None
    return lock


@contextlib.contextmanager
def suite_lock(folder: Path, timeout_s: float | None = None) -> Iterator[None]:
    """Hold the suite's write lock; a second writer waits until the first is done."""
    folder = Path(folder)
    with file_lock(files.check_own(folder / ".suite.lock", folder), f"suite {folder}", timeout_s):
        yield


def lock_path_for(path: Path) -> Path:
    """The lock file that guards `path` (beside it, hidden)."""
    path = Path(path)
    name = f".{path.name}.lock"
    if len(name.encode("utf-8", "surrogateescape")) > NAME_MAX:  # the file's own name is refused, not its lock's
        digest = sha256_hex(path.name.encode("utf-8", "surrogateescape"))[:16]
        name = f".{path.name.encode('utf-8', 'surrogateescape')[:100].decode('utf-8', 'ignore')}-{digest}.lock"
    return path.with_name(name)
