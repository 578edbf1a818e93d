"""Gold versions: a suite's answer keys, changed by accepted disputes, one version per change.

`v1` is the answer keys as generated or imported (the case JSON files). Every decision in the
dispute journal that changes the set of accepted disputes makes the next version: accepting a
dispute makes a version that applies it; reversing an accepted dispute (a later reject or defer)
makes a version without it. Gold `vN` is `v1` with the disputes accepted as of that point
applied in the order they were accepted, so a later accepted dispute on the same field wins.
The journal is append-only, so a version, once made, never changes. `latest` is the newest.

A field path names one value of a case's answer key:
- `expected_answer`, `question`, `expected_tokens[2]`, `forbidden_answers[0]`;
- a path into structured gold's expected object: `invoice.vendor_phone`, `line_items[1].amount`
  (the same as `gold.expected.invoice.vendor_phone`).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.case import Case
from workbench.core.errors import UserError

GOLD_FORMAT = "pdfworkbench-gold/1"
# Top-level names of an answer key a path may start with; any other first name is a path into
# the structured gold's expected object.
KEY_ROOTS = ("question", "expected_answer", "expected_tokens", "forbidden_answers", "gold")

_SEGMENT = re.compile(r"([^.\[\]]+)((?:\[\d+\])*)")


# ---- field paths ----------------------------------------------------------------------------

def parse_path(path: str) -> list[str | int]:
    """`invoice.items[2].qty` -> `["invoice", "items", 2, "qty"]`; a UserError if malformed."""
    text = path.strip()
    parts: list[str | int] = []
    if not text:
        raise UserError("empty field path; name a key field such as expected_answer or invoice.vendor_phone")
    for chunk in text.split("."):
        m = _SEGMENT.fullmatch(chunk)
        if not m:
            raise UserError(f"field path {path!r} is malformed; write it like invoice.items[2].qty")
        parts.append(m.group(1))
        parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return parts


def key_path(path: str) -> list[str | int]:
    """The path from the top of an answer key: structured paths gain the `gold.expected` prefix."""
    parts = parse_path(path)
    if parts[0] == "matcher":
        raise UserError("the matcher is not gold: dispute a value (expected_answer, a token, a field)")
    if parts[0] not in KEY_ROOTS:
        parts = ["gold", "expected", *parts]
    return parts


def _describe(parts: list[str | int]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def get_field(key: dict[str, Any], path: str) -> Any:
    """The value at `path` in an answer key; a UserError naming the path if it is not there."""
    node: Any = key
    parts = key_path(path)
    for i, part in enumerate(parts):
        if isinstance(part, int):
            if not isinstance(node, list) or part >= len(node):
                size = len(node) if isinstance(node, list) else 0
                raise UserError(f"field {path!r}: {_describe(parts[:i]) or 'key'} has {size} item(s), no [{part}]")
            node = node[part]
        else:
            if not isinstance(node, dict) or part not in node:
                where = _describe(parts[:i]) or "the answer key"
                if parts[:2] == ["gold", "expected"] and i <= 1:
                    raise UserError(f"field {path!r}: this case has no structured gold; use expected_answer, "
                                    "expected_tokens[N] or forbidden_answers[N]")
                raise UserError(f"field {path!r}: {where} has no {part!r}")
            node = node[part]
    return node


def set_field(key: dict[str, Any], path: str, value: Any) -> None:
    """Set the value at `path` in place. A missing last key of an object is added (a field gold left out)."""
    parts = key_path(path)
    parent: Any = key
    for i, part in enumerate(parts[:-1]):
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            raise UserError(f"field {path!r}: {_describe(parts[: i + 1])} is not in this key") from None
    last = parts[-1]
    if isinstance(last, int):
        if not isinstance(parent, list) or last >= len(parent):
            raise UserError(f"field {path!r}: no item [{last}] to change")
    elif not isinstance(parent, dict):
        raise UserError(f"field {path!r}: {_describe(parts[:-1])} is not an object")
    parent[last] = value


def can_add_field(key: dict[str, Any], path: str) -> bool:
    """True if `path` is a missing key of an existing object in structured gold (a dispute may add it)."""
    parts = key_path(path)
    if parts[:2] != ["gold", "expected"] or len(parts) < 3 or not isinstance(parts[-1], str):
        return False
    node: Any = key
    for part in parts[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    return isinstance(node, dict) and parts[-1] not in node


def apply_change(key: dict[str, Any], path: str, value: Any) -> None:
    """Set a field of an answer key in place, keeping a structured key's `expected_answer` in step.

    Extraction cases carry their expected object as JSON text in `expected_answer` too (for
    readers of pdfhell's format); when it is that JSON, it follows the change.
    """
    parts = key_path(path)
    gold = key.get("gold")
    mirrored = False
    if parts[:2] == ["gold", "expected"] and isinstance(gold, dict):
        try:
            mirrored = json.loads(key.get("expected_answer") or "null") == gold.get("expected")
        except ValueError:
            mirrored = False
    set_field(key, path, value)
    if mirrored:
        key["expected_answer"] = json.dumps(key["gold"]["expected"], ensure_ascii=False, separators=(", ", ": "))


def key_conflicts(key: dict[str, Any]) -> list[str]:
    """Contradictions inside one key: an expected value that is also a forbidden answer."""
    forbidden = {str(f).strip().lower() for f in key.get("forbidden_answers") or []}
    out = []
    for path, value in key_fields(key):
        if path.startswith("forbidden_answers") or value is None:
            continue
        if str(value).strip().lower() in forbidden:
            out.append(f"{path} is {value!r}, which is also a forbidden answer")
    return out


def key_fields(key: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every disputable field of an answer key with its value, as (path, value), in key order."""
    out: list[tuple[str, Any]] = []
    gold = key.get("gold") or {}
    structured = isinstance(gold, dict) and "expected" in gold
    if key.get("expected_answer") and not structured:
        out.append(("expected_answer", key["expected_answer"]))
    for name in ("expected_tokens", "forbidden_answers"):
        for i, v in enumerate(key.get(name) or []):
            out.append((f"{name}[{i}]", v))
    if structured:
        _leaves(gold["expected"], "", out)
    return out


def _leaves(node: Any, prefix: str, out: list[tuple[str, Any]]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _leaves(v, f"{prefix}.{k}" if prefix else k, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _leaves(v, f"{prefix}[{i}]", out)
    else:
        out.append((prefix, node))


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

    def to_json(self) -> dict[str, Any]:
        return {"version": self.name, "applied": list(self.applied), "change": self.change,
                "dispute": self.dispute_id, "at": self.at, "who": self.who}


def versions(folder: Path) -> list[GoldVersion]:
    """Every gold version of the suite at `folder`, `v1` first."""
    from workbench.core.disputes import read_events

    out = [GoldVersion(1, [])]
    accepted: list[str] = []
    status: dict[str, str] = {}
    for ev in read_events(folder):
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
    all_versions = versions(folder)
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
    keys: dict[str, dict[str, Any]]
    warnings: list[str] = field(default_factory=list)


def apply_disputes(key: dict[str, Any], disputes: list[Any]) -> tuple[dict[str, Any], list[str]]:
    """A copy of one case's key with `disputes` applied in order, and warnings about them.

    A token or forbidden answer proposed as empty (or null) is dropped from its list once every
    dispute is applied, so the indices other disputes name stay put.
    """
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


def gold_keys(folder: Path, version: str | int | None = "latest", suite: Any = None) -> GoldKeys:
    """Answer keys (`Case.answer_key()` shape) of every case at `version`."""
    from workbench.core.disputes import load_disputes
    from workbench.core.suite import load_suite

    folder = Path(folder)
    suite = suite or load_suite(folder)
    ver = resolve_version(folder, version)
    keys = {c.id: c.answer_key() for c in suite.cases}
    warnings: list[str] = []
    disputes = {d.id: d for d in load_disputes(folder)}
    per_case: dict[str, list[Any]] = {}
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


def case_with_key(case: Case, key: dict[str, Any]) -> Case:
    """A copy of `case` whose answer key is `key` (so grading sees that gold version)."""
    out = copy.copy(case)
    out.question = key["question"]
    out.expected_answer = key["expected_answer"]
    out.expected_tokens = list(key["expected_tokens"])
    out.forbidden_answers = list(key["forbidden_answers"])
    out.matcher = key.get("matcher")
    out.gold = key.get("gold")
    out.metadata = dict(case.metadata)
    return out


def cases_at(folder: Path, version: str | int | None = "latest", suite: Any = None) -> dict[str, Case]:
    """Every case of the suite, with its answer key at `version`, by id."""
    from workbench.core.suite import load_suite

    suite = suite or load_suite(Path(folder))
    gk = gold_keys(folder, version, suite)
    return {c.id: case_with_key(c, gk.keys[c.id]) for c in suite.cases}


def export(folder: Path, version: str | int | None = "latest") -> dict[str, Any]:
    """The gold keys at `version` as one JSON document (what `gold export` writes)."""
    from workbench.core.suite import load_suite

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
