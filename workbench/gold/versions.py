"""Gold versions: a suite's answer keys, changed by accepted disputes, one version per change.

`v1` is the answer keys as generated or imported (the case JSON files). Every decision in the
dispute journal that changes the set of accepted disputes makes the next version: accepting a
dispute makes a version that applies it; reversing an accepted dispute (a later reject or defer)
makes a version without it. Gold `vN` is `v1` with the disputes accepted as of that point
applied in the order they were accepted, so a later accepted dispute on the same field wins.
The journal is append-only, so a version, once made, never changes. `latest` is the newest.
Field paths are in `workbench.gold.keys`.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.layout import journal_path, require_suite_folder
from workbench.core.matcher import MatcherSpec
from workbench.core.schema import JSONObject
from workbench.grading import grade

if TYPE_CHECKING:
    from workbench.core.suite import Suite
    from workbench.gold.journal import Dispute

GOLD_FORMAT = "pdfworkbench-gold/1"


# ---- versions --------------------------------------------------------------------------------

@dataclass
class GoldVersion:
    """One version of a suite's gold: the disputes applied (in order) and the decision that made it."""

    number: int
    applied: list[str]                       # dispute ids, in the order they are applied
    change: str = "answer keys as generated or imported"
    dispute_id: str | None = None            # the dispute whose decision made this version
    at: str | None = None
    who: str | None = None

    @property
    def name(self) -> str:
        return f"v{self.number}"

    def to_json(self) -> JSONObject:
        return {"version": self.name, "applied": list(self.applied), "change": self.change,
                "dispute": self.dispute_id, "at": self.at, "who": self.who}


def _events(folder: Path) -> list[JSONObject]:
    """The journal's events (`journal.read_events`). A suite without a journal has none, and
    the journal's module (its classes, the evidence types) is not loaded for it: `grade
    CASE.json` pays a class per module it loads."""
    require_suite_folder(folder)
    if not os.path.lexists(journal_path(folder)):
        return []
    from workbench.gold.journal import read_events

    return read_events(folder)


def versions(folder: Path) -> list[GoldVersion]:
    """Every gold version of the suite at `folder`, `v1` first."""
    return _versions(_events(folder))


def _versions(events: list[JSONObject]) -> list[GoldVersion]:
    """The gold versions the journal's `events` make, `v1` first."""
    out = [GoldVersion(1, [])]
    accepted: list[str] = []
    status: dict[str, str] = {}
    for ev in events:
        did = ev["id"]
        if ev["event"] == "opened":
            status[did] = "open"
            continue
        if ev["event"] != "decided":
            continue
        before, after = status.get(did, "open"), ev["decision"]
        status[did] = after
        if after == "accepted" and before != "accepted":
            accepted = [*accepted, did]
            change = f"accepted {did}"
        elif before == "accepted" and after != "accepted":
            accepted = [d for d in accepted if d != did]
            change = f"{after} {did} (was accepted)"
        else:
            continue
        out.append(GoldVersion(len(out) + 1, accepted, change, did, ev.get("at"), ev.get("who")))
    return out


def resolve_version(folder: Path, version: str | int | None) -> GoldVersion:
    """`v3`, `3`, `latest` (or None) -> that version; a UserError naming the versions there are."""
    return _pick(versions(folder), version)


def _pick(all_versions: list[GoldVersion], version: str | int | None) -> GoldVersion:
    """`resolve_version` among the suite's versions, read already."""
    if version is None or str(version).strip().lower() in ("latest", ""):
        return all_versions[-1]
    text = str(version).strip().lower().removeprefix("v")
    if not text.isdigit() or not 1 <= int(text) <= len(all_versions):
        raise UserError(f"gold version {version!r} does not exist; this suite has v1..v{len(all_versions)} "
                        "(or use latest)")
    return all_versions[int(text) - 1]


@dataclass
class GoldKeys:
    """The answer keys of every case at one gold version."""

    version: GoldVersion
    keys: dict[str, JSONObject]
    warnings: list[str] = field(default_factory=list)


def apply_disputes(key: JSONObject, disputes: list[Dispute]) -> tuple[JSONObject, list[str]]:
    """A copy of one case's key with `disputes` applied in order, and warnings about them.

    A token or forbidden answer proposed as empty (or null) is dropped from its list once every
    dispute is applied, so the indices other disputes name stay put.
    """
    from workbench.gold.keys import apply_change, get_field, key_conflicts

    key = copy.deepcopy(key)
    warnings: list[str] = []
    for d in disputes:
        try:
            current = get_field(key, d.field)
        except UserError:
            current = _MISSING
        if current is not _MISSING and current != d.original:
            warnings.append(f"{d.id}: {d.case_id} {d.field} was {current!r}, not {d.original!r} as the "
                            "dispute says; applied anyway")
        try:
            apply_change(key, d.field, d.proposed)
        except UserError as exc:
            warnings.append(f"{d.id}: not applied: {exc}")
    for name in ("expected_tokens", "forbidden_answers"):
        key[name] = [v for v in key.get(name) or [] if v not in (None, "")]
    warnings.extend(f"{d.case_id}: {c}" for c in key_conflicts(key) for d in disputes[-1:])
    return key, warnings


def gold_keys(folder: Path, version: str | int | None = "latest", suite: Suite | None = None) -> GoldKeys:
    """Answer keys (`Case.answer_key()` shape) of every case at `version`."""
    folder = Path(folder)
    from workbench.core.suite import load_suite  # grade CASE.json reads no suite

    suite = suite or load_suite(folder)
    events = _events(folder)   # (read once, for the versions and the disputes, as case_at does)
    ver = _pick(_versions(events), version)
    keys = {c.id: c.answer_key() for c in suite.cases}
    warnings: list[str] = []
    disputes: dict[str, Dispute] = {}
    if ver.applied:
        from workbench.gold.journal import fold

        disputes = {d.id: d for d in fold(events)}
    per_case: dict[str, list[Dispute]] = {}
    for did in ver.applied:
        d = disputes[did]
        if d.case_id not in keys:
            warnings.append(f"{did}: case {d.case_id!r} is no longer in the suite; not applied")
            continue
        per_case.setdefault(d.case_id, []).append(d)
    for case_id, ds in per_case.items():
        keys[case_id], notes = apply_disputes(keys[case_id], ds)
        warnings.extend(notes)
    return GoldKeys(ver, {k: copy.deepcopy(v) for k, v in keys.items()}, list(dict.fromkeys(warnings)))


_MISSING = object()


def case_with_key(case: Case, key: JSONObject, version: str | None = None) -> Case:
    """A copy of `case` whose answer key is `key` (so grading sees that gold version), named
    `version` (verdicts say which gold they used)."""
    out = copy.copy(case)
    out.gold_version = version or case.gold_version
    # As a case file is read (`Case.from_json`): a number in the key grades as its text.
    out.question = str(key["question"])
    out.expected_answer = str(key["expected_answer"] or "")
    out.expected_tokens = [str(v) for v in key["expected_tokens"]]
    out.forbidden_answers = [str(v) for v in key["forbidden_answers"]]
    out.matcher = MatcherSpec.parse(key["matcher"])
    out.gold = None
    if key["gold"] is not None:   # (an extraction case's: the others need none of its types)
        from workbench.core.extraction import ExtractionGold

        out.gold = ExtractionGold.parse(key["gold"])
    out.metadata = dict(case.metadata)
    return out


def contradictions(case: Case, key: JSONObject) -> list[tuple[int, str]]:
    """Where `key` fails itself: (index of the forbidden answer, why) for each expected value that
    is also a forbidden answer, compared as grading compares them ("$1,200" and "1200" agree)."""
    from workbench.gold.keys import key_fields

    out: list[tuple[int, str]] = []
    forbidden = [str(f) for f in key.get("forbidden_answers") or []]
    folded = [f.strip().lower() for f in forbidden]
    for path, value in key_fields(key):
        if path.startswith("forbidden_answers") or value is None or str(value).strip().lower() not in folded:
            continue
        out.append((folded.index(str(value).strip().lower()),
                    f"{path} is {value!r}, which is also a forbidden answer"))
    graded = case_with_key(case, key)
    if graded.expected_answer and graded.matcher_spec.kind != "fields":
        verdict = grade(graded, graded.expected_answer)
        for part in verdict.forbidden:
            i = forbidden.index(part.expected) if part.expected in forbidden else 0
            if all(i != j for j, _ in out):
                out.append((i, f"the expected answer {graded.expected_answer!r} grades as the forbidden "
                               f"answer {part.expected!r}"))
    return out


def cases_at(folder: Path, version: str | int | None = "latest", suite: Suite | None = None) -> dict[str, Case]:
    """Every case of the suite, with its answer key at `version` (named on each case), by id."""
    from workbench.core.suite import load_suite  # grade CASE.json reads no suite

    suite = suite or load_suite(Path(folder))
    gk = gold_keys(folder, version, suite)
    return {c.id: case_with_key(c, gk.keys[c.id], gk.version.name) for c in suite.cases}


class NewestGold:
    """A suite's cases at its newest gold, read again whenever the journal changes: for screens
    that grade often (a bad journal: the cases as their files hold them, v1, and `problem` says why)."""

    def __init__(self, suite: Suite) -> None:
        self.suite = suite
        self.problem: str | None = None
        self._stamp: object = ()
        self._cases: dict[str, Case] = {}

    def cases(self) -> dict[str, Case]:
        try:
            info = os.stat(journal_path(self.suite.folder))
            stamp: object = (info.st_mtime_ns, info.st_size)
        except (OSError, UserError):
            stamp = None
        if stamp != self._stamp:
            try:
                cases, self.problem = cases_at(self.suite.folder, "latest", self.suite), None
            except UserError as exc:
                cases, self.problem = {c.id: case_with_key(c, c.answer_key(), "v1") for c in self.suite.cases}, str(exc)
            self._cases, self._stamp = cases, stamp
        return self._cases

    def case(self, case: Case) -> Case:
        """`case` at the newest gold (itself when it is not in the suite)."""
        return self.cases().get(case.id, case)


@dataclass
class GoldChoice:
    """The gold a command grades with: the version used, and the newest there is."""

    used: str
    newest: str

    def to_json(self) -> dict[str, str]:
        return {"version": self.used, "newest": self.newest}

    def line(self) -> str:
        """`gold v2 (the newest)` or `gold v1 (the newest is v3; --gold vN picks)`."""
        if self.used == self.newest:
            return f"gold {self.used} (the newest)"
        return f"gold {self.used} (the newest is {self.newest}; --gold vN picks)"


def choose(folder: Path, version: str | int | None = "latest") -> GoldChoice:
    """The version `version` names in the suite at `folder` (latest by default), and the newest."""
    all_versions = versions(folder)
    return GoldChoice(_pick(all_versions, version).name, all_versions[-1].name)


def case_at(case: Case, folder: Path, version: str | int | None = "latest") -> Case:
    """One case with its key at `version` of the gold in `folder` (its suite), without reading the
    suite's other cases: what `grade CASE.json` grades against."""
    events = _events(folder)   # (read once, for the versions and the disputes)
    ver = _pick(_versions(events), version)
    mine: list[Dispute] = []
    if ver.applied:
        from workbench.gold.journal import fold

        disputes = {d.id: d for d in fold(events)}
        mine = [disputes[did] for did in ver.applied if disputes[did].case_id == case.id]
    key = apply_disputes(case.answer_key(), mine)[0] if mine else case.answer_key()
    return case_with_key(case, key, ver.name)


def export(folder: Path, version: str | int | None = "latest") -> JSONObject:
    """The gold keys at `version` as one JSON document (what `gold export` writes)."""
    from workbench.core.suite import load_suite  # grade CASE.json reads no suite

    suite = load_suite(Path(folder))
    gk = gold_keys(folder, version, suite)
    return {
        "format": GOLD_FORMAT,
        "suite": suite.name,
        "suite_hash": suite.recorded_hash,
        "version": gk.version.name,
        "latest": versions(folder)[-1].name,
        "applied": list(gk.version.applied),
        "warnings": gk.warnings,
        "keys": dict(sorted(gk.keys.items())),
    }
