"""Entries of a cache kept by content in the user's cache folder (`config.cache_dir()`), and what
their keys share.

An entry is one JSON object, `FOLDER/KEY[:2]/KEY.json`, holding its own key. The folder may be
shared, left by an older version, or tampered with, so an entry is read as untrusted (`files`): a
link, anything but a regular file, one over its cap, torn, not JSON or of another key is a miss,
and the entry made in its place replaces it (a link is removed, never written through). An entry
is written atomically (`atomic`), so a reader sees a whole one or none; a folder that cannot be
written only makes the next look slower.

A key covers everything its value depends on: the inputs, and `code_fingerprint` of the code
that made it (its source and the libraries it runs on), so an entry is never one that today's
code would make differently.

The folder's parts (`PARTS`): the model answers in the folder itself, and in subfolders what is
made again from the PDFs whenever it is missing. `usage` counts a part's entries and `clear`
removes them (`pdfworkbench config cache`): only what is named as an entry is, a file of another
name or a linked part folder is left alone, and nothing is followed through a link.
"""

from __future__ import annotations

import functools
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from workbench.core import atomic, files, limits
from workbench.core.config import cache_dir
from workbench.core.digest import sha256_hex
from workbench.core.errors import UserError

_PACKAGE = Path(__file__).resolve().parents[1]


# The cache folder's parts: name -> (its subfolder, '' for the folder itself; what it holds).
PARTS = {
    "answers": ("", "model answers (asking again costs money: cleared only when named)"),
    "extracted": ("extracted", "the extractors' text layers (exposure)"),
    "lint": ("lint", "lint findings (the case list's marks)"),
    "crops": ("crops", "the HTML report's page crops"),
    "ocr": ("ocr", "what OCR read where attribution looked"),
}
# The parts `clear` removes when none is named: all but the answers, which cost money to ask again.
REMADE = tuple(name for name in PARTS if name != "answers")


def part_folder(name: str) -> Path:
    """The folder of the cache's part `name` (a key of `PARTS`)."""
    sub = PARTS[name][0]
    return cache_dir() / sub if sub else cache_dir()


def entry_path(folder: Path, key: str) -> Path:
    return Path(folder) / key[:2] / f"{key}.json"


def read_entry(folder: Path, key: str, what: str = "cache entry") -> dict[str, Any] | None:
    """The entry of `key` (its JSON object), or None: missing, or not a whole entry of this key."""
    try:
        entry = files.read_json(entry_path(folder, key), what, within=folder)
    except UserError:
        return None
    if not isinstance(entry, dict) or entry.get("key") != key:
        return None
    return entry


def write_entry(folder: Path, key: str, entry: dict[str, Any], sync: bool = True) -> None:
    """Keep `entry` under `key`, replacing whatever is there (a link there, or in place of its
    subfolder, is removed first: the entry is never written elsewhere through it). Not synced to
    disk with `sync` false (see `atomic.write_bytes`)."""
    path = entry_path(folder, key)
    try:
        # A link, FIFO or file where the subfolder goes; a link, FIFO or socket where the entry
        # goes (a regular file is replaced by the rename; a folder is left, and the write fails).
        for step, keep in ((path.parent, stat.S_ISDIR), (path, lambda m: stat.S_ISDIR(m) or stat.S_ISREG(m))):
            try:
                mode = os.lstat(step).st_mode
            except FileNotFoundError:
                break   # (nothing there: nor below it)
            if not keep(mode):
                os.unlink(step)   # the link itself, never what it points to
        atomic.write_json(path, {**entry, "key": key}, within=folder, sync=sync)
    except (OSError, UserError):
        pass  # a cache that cannot be written is only slower


@functools.cache
def source_digest(packages: tuple[str, ...]) -> str:
    """SHA-256 of the source of `packages` (folders or .py files of the workbench package, e.g.
    `("checks", "pdf")`): any edit there changes it. Read once per process (4 ms for 140 files)."""
    digest = []
    for name in packages:
        found = [_PACKAGE / name] if name.endswith(".py") else (_PACKAGE / name).rglob("*.py")
        for path in sorted(found):
            digest.append(f"{path.relative_to(_PACKAGE).as_posix()} {sha256_hex(path.read_bytes())}")
    return sha256_hex("\n".join(digest).encode())


@functools.cache
def versions(distributions: tuple[str, ...]) -> tuple[str, ...]:
    """The installed versions of `distributions` ('' for one not installed), from their metadata:
    nothing is imported. With Python's own and its Unicode database's, which text folding uses."""
    import unicodedata
    from importlib import metadata

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return ""

    return (sys.version, unicodedata.unidata_version, *map(version, distributions))


def code_fingerprint(packages: tuple[str, ...], distributions: tuple[str, ...]) -> list[Any]:
    """What every key of one kind of entry shares: the source of the code that makes it, the
    libraries it runs on, and the limits in force (read each time: a command's `--limit` changes
    them in this process)."""
    return [source_digest(packages), *versions(distributions), limits_in_force()]


def limits_in_force() -> dict[str, float]:
    """Every limit's value now (a key's part where what is kept depends on the budgets)."""
    return {name: limits.get(name) for name in sorted(limits.LIMITS)}


def key_of(*parts: Any) -> str:
    """A key made of JSON-able parts."""
    return sha256_hex(json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8"))


# ---- a part's entries: counted and cleared -------------------------------------------------------

_HEX = frozenset("0123456789abcdef")


def _is_key(name: str) -> bool:
    return len(name) == 64 and _HEX.issuperset(name)


def _scan(folder: Path) -> tuple[list[tuple[str, int]], int, str]:
    """(the entries in `folder`: path and bytes; how many other files and folders it holds; why
    it was not read, or ''). An entry is `XX/KEY.json` as `entry_path` names it, where `XX` is a
    folder (not a link) and `KEY.json` anything but a folder (a link or FIFO is one, as
    `write_entry` replaces it); a temporary file of a write is one too. Nothing is followed."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return [], 0, ""
    except OSError as exc:
        return [], 0, f"cannot be read ({exc.strerror or exc})"
    root = folder == cache_dir()   # the answers' folder: the other parts are in it
    if not stat.S_ISDIR(mode) and not root:   # (the folder itself may be linked: the user's)
        return [], 0, "is a link or a file, not a folder of ours: left alone"
    entries: list[tuple[str, int]] = []
    others = 0
    try:
        subs = list(os.scandir(folder))
    except OSError as exc:
        return [], 0, f"cannot be read ({exc.strerror or exc})"
    for sub in subs:
        if len(sub.name) != 2 or not _HEX.issuperset(sub.name) or not sub.is_dir(follow_symlinks=False):
            others += not (root and sub.name in PARTS)
            continue
        try:
            inside = list(os.scandir(sub.path))
        except OSError:
            others += 1
            continue
        for item in inside:
            name = item.name
            # (a write's temporary file: `.KEY.json.<host>-<pid>.<random>.tmp`, atomic.temp_prefix)
            temp = name.startswith(".") and name.endswith(".tmp")
            stem = name[1:].split(".json.", 1)[0] if temp else name.removesuffix(".json")
            if not (name.endswith(".json") or temp) or not _is_key(stem) or stem[:2] != sub.name \
                    or item.is_dir(follow_symlinks=False):
                others += 1
                continue
            try:
                st = item.stat(follow_symlinks=False)
            except OSError:
                continue   # (gone meanwhile)
            entries.append((item.path, st.st_size if stat.S_ISREG(st.st_mode) else 0))
    return entries, others, ""


def usage(name: str) -> dict[str, Any]:
    """What the part `name` holds: its folder, entries, bytes, other files left alone, and a
    note where it was not read."""
    folder = part_folder(name)
    entries, others, note = _scan(folder)
    return _row(name, folder, len(entries), sum(size for _, size in entries), others, note)


def _row(name: str, folder: Path, entries: int, size: int, others: int, note: str) -> dict[str, Any]:
    return {"part": name, "folder": str(folder), "what": PARTS[name][1], "entries": entries, "bytes": size,
            "others": others, "note": note}


def clear(name: str) -> dict[str, Any]:
    """Remove the entries of the part `name` (see `_scan`; a link is removed, never what it
    points to) and the subfolders they leave empty; what was removed, as `usage` counts it. A
    write or read meanwhile only misses: an entry is made again where one is wanted."""
    folder = part_folder(name)
    entries, others, note = _scan(folder)
    removed, size = 0, 0
    for path, nbytes in entries:
        try:
            os.unlink(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise UserError(f"{path}: cannot be removed ({exc.strerror or exc}); nothing else was changed "
                            f"after it ({removed} entries of {name} removed)") from None
        removed, size = removed + 1, size + nbytes
    for sub in {os.path.dirname(path) for path, _ in entries}:
        try:
            os.rmdir(sub)
        except OSError:
            pass   # not empty: another file, or a write meanwhile
    return _row(name, folder, removed, size, others, note)
