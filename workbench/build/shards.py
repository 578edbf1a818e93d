"""Sharded builds: `build --shard i/n` from n processes into one folder.

Each shard keeps its own manifest, `<suite>/.build/shard-<i>of<n>.jsonl`: a header line (the
spec's content hash, n, how many cases the shard and the whole spec make), then one suite entry
per case, appended only once both of the case's files are on disk, then a `complete` line. The
suite's `suite.json` is the merge of every shard manifest of the same build, written under the
suite lock by each shard as it goes and when it ends (and by `pdfworkbench merge-suite`), so
whichever shard finishes last leaves the whole suite; the manifest's `build` block names the
shards that are missing or incomplete, and `load_suite` turns that into problems `verify` reports.

A process killed mid-build leaves its manifest listing only complete cases (a torn last line is
skipped). Shard manifests of another spec, or another n, are a stale build: the next shard to
start removes them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from workbench.core import atomic, files
from workbench.core.errors import UserError
from workbench.core.files import FileRefused
from workbench.core.layout import build_dir
from workbench.core.schema import JSONObject

SHARD_FORMAT = "pdfworkbench-shard/1"
T = TypeVar("T")


@dataclass(frozen=True)
class Shard:
    """Shard `index` of `of` (1-based): every `of`-th item starting at `index`."""

    index: int = 1
    of: int = 1

    @classmethod
    def parse(cls, text: str | None) -> Shard:
        """`--shard i/n`; None or empty is the whole spec (1/1)."""
        if not text:
            return cls()
        try:
            i, n = (int(x) for x in str(text).split("/"))
        except ValueError:
            raise UserError(f"--shard {text!r}: write it as i/n, e.g. 1/4") from None
        if not (n >= 1 and 1 <= i <= n):
            raise UserError(f"--shard {text!r}: i must be between 1 and n")
        return cls(i, n)

    def __str__(self) -> str:
        return f"{self.index}/{self.of}"

    def pick(self, items: Sequence[T]) -> list[T]:
        return list(items[self.index - 1 :: self.of])

    @property
    def file_name(self) -> str:
        return f"shard-{self.index}of{self.of}.jsonl"


def shard_items(items: list[Any], shard: str | None) -> list[Any]:
    """`--shard i/n` (1-based): every n-th item starting at i, so shards cover each item once."""
    return Shard.parse(shard).pick(items) if shard else items


def manifest_path(folder: Path, shard: Shard) -> Path:
    return build_dir(folder) / shard.file_name


class ShardManifest:
    """The manifest one shard appends to while it builds (started afresh each time it runs)."""

    def __init__(self, folder: Path, shard: Shard, header: JSONObject) -> None:
        self.path = manifest_path(folder, shard)
        atomic.ensure_folder(self.path.parent)
        head = {"format": SHARD_FORMAT, "shard": str(shard), "index": shard.index, "of": shard.of,
                "started_ns": time.time_ns(), **header}
        atomic.write_bytes(self.path, (json.dumps(head, sort_keys=True) + "\n").encode("utf-8"), within=folder)
        self._fh = files.open_append(self.path, "shard manifest", text=False)
        self.count = 0

    def _append(self, obj: JSONObject) -> None:
        files.append_whole(self._fh, (json.dumps(obj, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8"),
                           self.path)

    def add(self, entry: JSONObject) -> None:
        """Record a case whose two files are written."""
        self._append(entry)
        self.count += 1

    def finish(self) -> None:
        self._append({"complete": True, "cases": self.count})

    def close(self) -> None:
        self._fh.close()


@dataclass
class ShardState:
    shard: Shard
    header: JSONObject
    entries: list[JSONObject]
    complete: bool

    @property
    def expected(self) -> int:
        return int(self.header.get("cases") or 0)


@dataclass
class BuildState:
    """What the shard manifests of one build hold."""

    spec_sha256: str
    of: int
    total: int                       # cases the whole spec makes
    name: str
    version: str
    shards: dict[int, ShardState] = field(default_factory=dict)

    def entries(self) -> list[JSONObject]:
        """Every complete case, once (a shard run twice lists its cases again: the same ones)."""
        by_id: dict[str, JSONObject] = {}
        for i in sorted(self.shards):
            for e in self.shards[i].entries:
                by_id[e["id"]] = e
        return list(by_id.values())

    def missing(self) -> list[int]:
        return [i for i in range(1, self.of + 1) if i not in self.shards]

    def incomplete(self) -> list[int]:
        return [i for i, s in sorted(self.shards.items()) if not s.complete]

    def to_json(self) -> JSONObject:
        """The `build` block of suite.json (no clock in it, so a rebuild writes the same bytes)."""
        return {
            "spec_sha256": self.spec_sha256, "shards": self.of, "cases": self.total,
            "complete": [i for i, s in sorted(self.shards.items()) if s.complete],
            "incomplete": {str(i): [len(self.shards[i].entries), self.shards[i].expected]
                           for i in self.incomplete()},
            "missing": self.missing(),
        }


def _read_manifest(path: Path) -> ShardState | None:
    """One shard manifest, or None when it is not one (a torn header: the shard never started)."""
    try:
        lines, whole = files.read_lines(path, "shard manifest", "run_file_bytes", within=path.parent)
    except FileRefused:
        raise
    except UserError:
        return None
    rows: list[JSONObject] = []
    for n, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            if n == len(lines) and not whole:
                break  # torn tail: the entry being written when the process died
            raise UserError(f"{path}: line {n} is not JSON; delete the file and build that shard again") from None
        if not isinstance(row, dict):
            raise UserError(f"{path}: line {n} is not an object; delete the file and build that shard again")
        rows.append(row)
    if not rows or rows[0].get("format") != SHARD_FORMAT:
        return None
    head = rows[0]
    try:
        shard = Shard(int(head["index"]), int(head["of"]))
    except (KeyError, TypeError, ValueError):
        return None
    complete = bool(rows) and len(rows) > 1 and rows[-1].get("complete") is True
    entries = [r for r in rows[1:] if "id" in r]
    return ShardState(shard, head, entries, complete)


def read_build(folder: Path) -> BuildState | None:
    """The newest build whose shard manifests are in `folder` (None: no shard manifests)."""
    states = [s for p in sorted(build_dir(folder).glob("shard-*.jsonl")) if (s := _read_manifest(p))]
    if not states:
        return None
    newest = max(states, key=lambda s: int(s.header.get("started_ns") or 0))
    ident = (newest.header.get("spec_sha256"), newest.shard.of)
    head = newest.header
    build = BuildState(str(ident[0]), ident[1], int(head.get("total") or 0), str(head.get("name") or ""),
                       str(head.get("version") or "1"))
    for s in states:
        if (s.header.get("spec_sha256"), s.shard.of) == ident:
            build.shards[s.shard.index] = s
    return build


def clear_stale(folder: Path, spec_sha256: str, of: int) -> list[Path]:
    """Remove shard manifests of another build (another spec, or another n); return them."""
    gone = []
    for path in build_dir(folder).glob("shard-*.jsonl"):
        state = _read_manifest(path)
        if state is None or (state.header.get("spec_sha256"), state.shard.of) != (spec_sha256, of):
            path.unlink(missing_ok=True)
            gone.append(path)
    return gone


def remove_manifests(folder: Path) -> None:
    """Drop every shard manifest (a whole, unsharded build has merged everything into suite.json)."""
    for path in build_dir(folder).glob("shard-*.jsonl"):
        path.unlink(missing_ok=True)
    try:
        build_dir(folder).rmdir()
    except OSError:
        pass

