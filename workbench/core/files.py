"""Reading files that come from outside (a suite folder, a run, a config, a PDF): only regular
files, never more than a cap, and, inside a suite folder, never through a symbolic link.

A suite folder may come from anyone. A FIFO there would block a read forever, a device
(`/dev/zero` reports size 0) would be read until memory runs out, and a link (`runs/`,
`suite.json`, a case file) would make the workbench read or write a file elsewhere. So every read
opens without blocking, checks the open file is a regular one, and reads at most its cap (a
limit in core/limits.py, named in the one line a file over it gets). A read `within` a suite
folder also refuses a link at any step below the folder, and opens the file itself with
O_NOFOLLOW. A path the user typed is theirs: a link there is followed.

    read_bytes(path, what, limit, within=suite)   bytes
    read_text(...)                                 str (UTF-8, one line when it is not)
    read_json(...)                                 parsed JSON (schema.parse_json's checks)
    read_lines(...)                                the lines of a JSON Lines file, torn tail kept
    check_own(path, within)                        the path, or FileRefused naming the link
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from workbench.core import limits
from workbench.core.errors import UserError
from workbench.core.schema import not_text, parse_json

# os.O_NOFOLLOW and O_NONBLOCK are POSIX; elsewhere `check_own`'s lstat walk stands alone.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_READ = os.O_RDONLY | _NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_CHUNK = 1 << 20


class FileRefused(UserError):
    """A file the workbench will not read or write: a link in a suite folder, a FIFO, a device,
    a file over its cap. The message is the one line."""


class WriteError(UserError, OSError):
    """A file or folder that cannot be written: one line naming it (and still an OSError, so
    callers that shrug off a failed write, such as the answer cache, keep doing so)."""


def link_refused(path: Path | str) -> FileRefused:
    return FileRefused(f"{path} is a symbolic link; a suite folder's files must be its own: "
                       "replace the link with the file")


def kind_of(mode: int) -> str:
    """What a file of `st_mode` `mode` is, when it is not a regular file (for a one-line error)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _below(path: Path | str, folder: Path | str) -> str | None:
    """`path` relative to `folder` by name ('' for the folder itself; `..` resolved, links not),
    or None when it is not below it. On strings: pathlib's parsing was most of the time a report
    spent checking the 1,151 PDFs it crops."""
    full, top = os.path.abspath(path), os.path.abspath(folder)
    if full == top:
        return ""
    head = top if top.endswith(os.sep) else top + os.sep
    rel = full[len(head):] if full.startswith(head) else None
    return None if rel is None or rel.startswith(os.sep) else rel   # (`//x` is not below `/`)


def is_below(path: Path | str, folder: Path | str) -> bool:
    """Whether `path` is `folder` or below it, by name (`..` resolved, links not: `check_own`
    refuses a link on the way)."""
    try:
        return _below(path, folder) is not None
    except (ValueError, OSError):  # a NUL byte
        return False


def is_inside(path: Path | str, folder: Path | str) -> bool:
    """Whether `path` resolves (links followed) to `folder` or below it."""
    try:
        return Path(path).resolve().is_relative_to(Path(folder).resolve())
    except (OSError, RuntimeError, ValueError):  # a link loop, a NUL byte
        return False


SUITE_RULE = "a suite may only name files inside its own folder"


def contained(folder: Path | str, name: str, field: str, source: str = "", rule: str = SUITE_RULE) -> Path:
    """`folder / name`, refused unless it lies inside `folder` with no symbolic link on the way;
    a path leading out names the field and ends with `rule`."""
    where = f"{source}: " if source else ""
    if not isinstance(name, str) or not name or "\x00" in name:
        shown = json.dumps(name, default=str)
        raise UserError(f"{where}{field} must be a relative path inside the folder; got "
                        f"{shown if len(shown) <= 60 else shown[:59] + '…'}")
    path = Path(folder) / name
    if Path(name).is_absolute() or not is_below(path, folder):
        raise UserError(f"{where}{field} {name[:80]!r} points outside {Path(folder)}; {rule}")
    return check_own(path, folder)


def check_own(path: Path | str, within: Path | str | None) -> Path:
    """`path`, if no step of it below `within` is a symbolic link (`within` None: any path, as
    the user gave it). A step that does not exist ends the walk: nothing below it can be a link.
    A path that is not below `within` at all is refused too (callers contain paths first)."""
    if within is None:
        return Path(path)
    root = Path(within)
    try:
        rel = _below(path, root)
    except ValueError:
        rel = None
    if rel is None:
        raise FileRefused(f"{Path(path)}: lies outside {root}; a suite may only name files inside its "
                          "own folder")
    step = str(root)
    for part in rel.split(os.sep) if rel else ():
        step = os.path.join(step, part)
        try:
            mode = os.lstat(step).st_mode
        except FileNotFoundError:
            break
        except OSError as exc:
            raise _os_refusal(Path(step), exc, "read") from None
        if stat.S_ISLNK(mode):
            raise link_refused(Path(step))
    return root / rel if rel else root   # as walked: `a/link/../b` would have the system follow the link


# What the file system, not the workbench, refuses: a full disk, a read-only folder, a name too
# long. Each ends in one line naming the file and what to do, wherever it is met.
_ADVICE = {
    errno.ENAMETOOLONG: "name too long (a name may have at most 255 bytes); choose a shorter one",
    errno.ENOSPC: "no space left on the device; free some space, or write elsewhere",
    errno.EDQUOT: "disk quota exceeded; free some space, or write elsewhere",
    errno.EFBIG: "file too large for this file system or process limit; write elsewhere",
    errno.EROFS: "read-only file system; write elsewhere",
    errno.EACCES: "permission denied; check the folder's permissions, or write elsewhere",
    errno.EPERM: "operation not permitted; check the file's permissions, or write elsewhere",
    errno.EIO: "input/output error from the device; check the disk",
}


def os_error_line(exc: OSError) -> str | None:
    """One line for an OSError the file system caused (see `_ADVICE`), or None for any other
    (a bug, which keeps its traceback)."""
    advice = _ADVICE.get(exc.errno or 0)
    if advice is None:
        return None
    name = str(exc.filename) if exc.filename is not None else "a file"
    if len(name) > 120:
        name = name[:120] + "…"
    return f"{name}: {advice}"


def write_failed(path: Path | str, exc: OSError, then: str = "") -> WriteError:
    """One line for a write of `path` that the system refused."""
    exc.filename = str(path)
    line = os_error_line(exc) or f"{path}: cannot write ({exc.strerror or exc.__class__.__name__})"
    return WriteError(line + then)


def _os_refusal(path: Path | str, exc: OSError, doing: str, what: str = "file") -> UserError:
    """One line for an OSError met opening, reading or writing `path`."""
    if exc.errno in _ADVICE:
        exc.filename = path
        return FileRefused(os_error_line(exc) or str(exc))
    if exc.errno == errno.ENOENT:
        return UserError(f"{path}: no such file")
    if exc.errno == errno.EISDIR:
        return UserError(f"{path}: is a folder, not a {what}")
    return UserError(f"{path}: cannot {doing} ({exc.strerror or exc.__class__.__name__})")


def open_regular(path: Path | str, what: str = "file", *, within: Path | str | None = None) -> int:
    """A read-only descriptor for `path`, a regular file (see the module docstring); the caller
    closes it. Never blocks on a FIFO: it is opened non-blocking and refused once seen."""
    path = check_own(path, within)
    flags = _READ | (_NOFOLLOW if within is not None else 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and within is not None:
            raise link_refused(path) from None
        if exc.errno in (errno.ENXIO, errno.EOPNOTSUPP):  # a socket, or a FIFO on some systems
            raise FileRefused(f"{path}: is not a regular file; give a {what}") from None
        raise _os_refusal(path, exc, "read", what) from None
    return _regular(fd, path, what)


def _regular(fd: int, path: Path | str, what: str) -> int:
    """`fd` if it is a regular file (set back to blocking), else closed and refused."""
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(f"{path}: is {kind_of(mode)}, not a {what}; give a regular file")
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: Path | str, what: str = "file", limit: str = "json_file_bytes", *,
               within: Path | str | None = None) -> bytes:
    """The bytes of `path`, at most `limits.get(limit)` of them (more is one line naming the
    limit). The size on disk is not trusted: the read itself stops one byte past the cap."""
    cap = int(limits.get(limit))
    fd = open_regular(path, what, within=within)
    try:
        size = os.fstat(fd).st_size
        if size > cap:
            raise FileRefused(limits.exceeded(limit, f"{path}: {size:,} bytes is too large for a {what}"))
        parts: list[bytes] = []
        got = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, cap + 1 - got))
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
            if got > cap:
                raise FileRefused(limits.exceeded(limit, f"{path}: more than {cap:,} bytes is too large "
                                                         f"for a {what}"))
    except OSError as exc:
        raise _os_refusal(path, exc, "read") from None
    finally:
        os.close(fd)
    return b"".join(parts)


def decode(data: bytes, path: Path | str, what: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_text(data, str(path), what, exc) from None
    return text[1:] if text.startswith("\ufeff") else text  # a byte-order mark, as some editors write


def read_text(path: Path | str, what: str = "file", limit: str = "json_file_bytes", *,
              within: Path | str | None = None) -> str:
    """`read_bytes` as UTF-8 text (a leading byte-order mark dropped)."""
    return decode(read_bytes(path, what, limit, within=within), path, what)


def read_json(path: Path | str, what: str = "JSON file", limit: str = "json_file_bytes", *,
              within: Path | str | None = None) -> Any:
    """`read_bytes`, parsed as JSON with `schema.parse_json`'s checks (depth, NaN, one line)."""
    return parse_json(read_bytes(path, what, limit, within=within), str(path), what)


def read_lines(path: Path | str, what: str = "JSON Lines file", limit: str = "run_file_bytes", *,
               within: Path | str | None = None) -> tuple[list[str], bool]:
    """The lines of a text file (no line ends) and whether it ended with a newline (a last line
    without one may be torn by a crash mid-write)."""
    text = read_text(path, what, limit, within=within)
    return text.splitlines(), text.endswith("\n")


def refuse_link(path: Path | str) -> Path:
    """`path`, unless it is itself a symbolic link (a file about to be written or appended to:
    through a link it would land elsewhere)."""
    path = Path(path)
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            raise link_refused(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise _os_refusal(path, exc, "write") from None
    return path


def typed_path(path: Path | str) -> Path:
    """A path the user typed for a file to write (`--out`, `--html`): a symbolic link there is
    theirs, as for a file they name to read, so it is followed to the path it names. (A suite
    folder's own links are refused where they are met, `refuse_link`.)"""
    path = Path(path)
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


def open_append(path: Path | str, what: str = "file", *, text: bool = True) -> Any:
    """`path` opened for appending (created if missing), refusing a link, a FIFO or a device
    there: a run file or a journal grows in place and must stay the file it is. `text=False`:
    an unbuffered binary file, for `append_whole`."""
    path = Path(path)
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _NONBLOCK
             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    refuse_link(path)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise link_refused(path) from None
        if exc.errno == errno.ENXIO:  # a FIFO nobody reads
            raise FileRefused(f"{path}: is a FIFO (named pipe), not a {what}; give a regular file") from None
        raise _os_refusal(path, exc, "write", what) from None
    fd = _regular(fd, path, what)
    try:
        return os.fdopen(fd, "a", encoding="utf-8") if text else os.fdopen(fd, "ab", buffering=0)
    except BaseException:
        os.close(fd)
        raise


def append_whole(fh: Any, data: bytes, path: Path | str) -> None:
    """Append all of `data` to `fh` (from `open_append(..., text=False)`) and sync it, or none
    of it: on a full disk or a file-size limit the file is cut back to where it was, so no half
    record is left to break the next read, and the error is one line."""
    fd = fh.fileno()
    before = os.fstat(fd).st_size
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, before)
        raise write_failed(path, exc, " (nothing half-written was kept)") from None
