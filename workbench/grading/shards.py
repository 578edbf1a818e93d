"""The shards of a sharded run (`run --shard i/n`): their files joined into one run, each case
counted once, and which shards are missing (a run that is not whole fails `report`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from workbench.core.runs import RunRecord
from workbench.core.schema import JSONObject


@dataclass
class ShardCoverage:
    """The shards of one run id: how many there are, which sent records, and the records of a case
    already counted (another copy of a shard's file, a shard run twice) that were left out."""

    run_id: str | None
    of: int
    present: list[int]
    duplicates: int = 0

    @property
    def missing(self) -> list[int]:
        return [i for i in range(1, self.of + 1) if i not in self.present]

    def to_json(self) -> JSONObject:
        return {"run_id": self.run_id, "of": self.of, "present": self.present, "missing": self.missing,
                "duplicates": self.duplicates}

    def problem(self) -> str | None:
        """One line when shards are missing (the run is not whole), else None."""
        if not self.missing:
            return None
        names = ", ".join(f"{i}/{self.of}" for i in self.missing)
        return (f"run {self.run_id}: shard{'s' if len(self.missing) > 1 else ''} {names} missing "
                f"({len(self.present)} of {self.of} shards' records given)")


_SHARD_SUFFIX = re.compile(r"-shard\d+of\d+$")


def join_shards(runs: Mapping[str, Sequence[RunRecord]]) -> dict[str, list[RunRecord]]:
    """Run label -> records, with the files of one sharded run (records sharing a run id and
    carrying a shard) joined under one label: the first file's, without its `-shardIofN`."""
    run_of: dict[str, str] = {}
    for label, recs in runs.items():
        ids = {r.run_id for r in recs if r.shard}
        if len(ids) == 1:
            run_of[label] = str(ids.pop())
    out: dict[str, list[RunRecord]] = {}
    first: dict[str, str] = {}
    for label, recs in runs.items():
        rid = run_of.get(label)
        if rid is None:
            out[label] = list(recs)
            continue
        if rid not in first:
            joined = _SHARD_SUFFIX.sub("", label)
            taken = joined in out or (joined != label and joined in runs)
            first[rid] = f"{joined} (run {rid})" if taken else joined
            out[first[rid]] = []
        out[first[rid]].extend(recs)
    return out


def shard_coverage(records: Sequence[RunRecord]) -> tuple[list[RunRecord], ShardCoverage | None]:
    """A sharded run's records with each case counted once (its last record), and its coverage."""
    sharded = [r.shard for r in records if r.shard]
    if not sharded:
        return list(records), None
    present: set[int] = set()
    of = 0
    for text in sharded:
        i, _, n = str(text).partition("/")
        if i.isdigit() and n.isdigit():
            present.add(int(i))
            of = max(of, int(n))
    last: dict[str, RunRecord] = {}
    for r in records:
        last.pop(str(r.case_id), None)  # re-insert: the kept record stands where it came last
        last[str(r.case_id)] = r
    kept = list(last.values())
    ids = {r.run_id for r in records if r.shard}
    return kept, ShardCoverage(ids.pop() if len(ids) == 1 else None, of, sorted(present),
                               len(records) - len(kept))
