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
from workbench.core.digest import sha256_hex
from workbench.core.errors import UserError

_PACKAGE = Path(__file__).resolve().parents[1]


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
            if os.path.lexists(step) and not keep(os.lstat(step).st_mode):
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

