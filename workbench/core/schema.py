"""The declared shape of every file the tool reads (case JSON, suite.json, build spec, run record),
checked in one place, so malformed input ends in one line that names the file and the field.

Also the rule every id follows: a plain name (no separator, no leading dot, no control
character, short enough for a file name). Where a path a file names may lead: `core/files.py`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from workbench.core import limits
from workbench.core.errors import UserError

# Deeper than this is no case, suite or record we write (ours are at most ~6 deep); refusing it
# keeps recursive code (hashing, grading, the screens) away from hostile nesting.
MAX_DEPTH = 64
MAX_ID_LENGTH = 200
# Seeds are Python ints of any size; a range in a spec is capped so a typo cannot fill memory.
MAX_SEED = 2**63 - 1
MAX_SEEDS = 100_000

# Not in an id: path separators, control characters (C0, DEL, C1), and the characters that
# change how the text around them is shown without showing themselves: bidirectional overrides
# and isolates (U+202E turned "case-1\u202e9-ecnaive" into "case-1evidence-9" on the screen) and
# zero-width ones (two ids that look the same). An id is a file name and what a person reads.
# (Sets, not a character class: compiling one with these ranges was a millisecond of every
# `grade`'s start, 2% of it.)
_HIDDEN = frozenset(map(chr, (*range(0x00, 0x20), *range(0x7F, 0xA0), 0x061C, *range(0x200B, 0x2010),
                               *range(0x202A, 0x202F), *range(0x2060, 0x206A), 0xFEFF)))
_ID_BAD = _HIDDEN | {"/", "\\"}
# A name that is not a file name but is shown beside ids (a run record's reader) keeps to the
# same: no control, bidirectional or zero-width character.
_NAME_BAD = _HIDDEN


def plain_id(value: Any, field: str = "id", source: str = "") -> str:
    """`value` if it is a plain name usable as a file name; else a UserError naming the field."""
    where = f"{source}: " if source else ""
    if not isinstance(value, str) or not value.strip():
        raise UserError(f"{where}{field} must be a non-empty string; got {_show(value)}")
    if not _ID_BAD.isdisjoint(value) or value.startswith(".") or len(value.encode("utf-8", "replace")) > MAX_ID_LENGTH:
        raise UserError(f"{where}{field} {value[:60]!r} is not a plain name: use letters, digits, '-', "
                        f"'_' and '.', no '/' or '\\', not starting with '.', at most {MAX_ID_LENGTH} bytes")
    return value


def _show(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", int: "an integer",
            float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether `value` nests no deeper than `limit` (checked without recursion)."""
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            items = v.values()
        elif isinstance(v, list):
            items = v
        else:
            continue
        if d > limit:
            return False
        stack.extend((x, d + 1) for x in items)
    return True


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def not_text(data: bytes, source: str, what: str, exc: UnicodeDecodeError) -> UserError:
    """The one line for bytes that should have been a text file (`what`) and are not UTF-8: a
    PDF given where a case or a run file goes is named as one."""
    if data.lstrip()[:5] == b"%PDF-":
        adopt = " (`pdfworkbench adopt PDF --question Q --expected A` makes one of a PDF)" if "case" in what else ""
        return UserError(f"{source}: a PDF, not a {what}; give the {what}{adopt}")
    return UserError(f"{source}: {what} is not UTF-8 text (byte {exc.start}); save it as UTF-8")


def parse_json(text: str | bytes, source: str, what: str) -> Any:
    """JSON text -> value, or one line naming `source` (malformed, too deep, NaN, non-UTF-8)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise not_text(text, source, what, exc) from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark, as some editors write
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        # A text of one line (a run file's record, named by its line already): the column; else the
        # line and the column. (json's "Invalid control character at" ends where its position went.)
        where = f"line {exc.lineno}, column {exc.colno}" if "\n" in text.rstrip() else f"column {exc.colno}"
        msg = exc.msg.removesuffix(" at")
        raise UserError(f"{source}: malformed {what} at {where}: {msg}") from None
    except RecursionError:
        raise UserError(f"{source}: {what} nests deeper than {MAX_DEPTH} levels; not a {what}") from None
    except ValueError as exc:
        raise UserError(f"{source}: malformed {what}: {exc}") from None
    # Nesting deeper than MAX_DEPTH takes more than MAX_DEPTH brackets: most files have fewer, so
    # the walk (a fifth of loading a 1,276-case suite) is needed only past that.
    if text.count("[") + text.count("{") > MAX_DEPTH and not depth_ok(value):
        raise UserError(f"{source}: {what} nests deeper than {MAX_DEPTH} levels; not a {what}")
    return value


# ---- JSON values ------------------------------------------------------------------------------

# A value as `json.loads` gives it and `json.dumps` takes it. Every file this tool reads or
# writes (a case, suite.json, a run record, a journal event, an export row) and every provider's
# wire format is a JSON object at its top: where one enters or leaves the typed classes (their
# `from_json` and `to_json`), it is a JSONObject. Data read by name inside the tool is a class.
JSONValue: TypeAlias = "None | bool | int | float | str | list[JSONValue] | dict[str, JSONValue]"
JSONObject: TypeAlias = dict[str, "JSONValue"]


# ---- declared shapes --------------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """One field of a format: the JSON types it may have, whether it must be there, and any check."""

    types: tuple[type, ...]
    required: bool = False
    check: Callable[[Any], str | None] | None = None   # returns a complaint, or None
    items: tuple[type, ...] | None = None              # for lists: the type of each item


STR = (str,)
SCALAR = (str, int, float)   # pdfhell writes some answers as numbers; we read them as text
NUM = (int, float)


def json_object(raw: Any, what: str, keys: tuple[str, ...] | None = None) -> Mapping[str, Any]:
    """`raw` as a JSON object named `what` in errors, with no key outside `keys` (when given): the
    one check every typed part of a case (its matcher, generator, contract, gold, adoption) starts
    its `from_json` with."""
    if not isinstance(raw, Mapping):
        raise UserError(f"{what} must be an object; got {raw!r}")
    if keys is not None:
        unknown = [k for k in raw if k not in keys]
        if unknown:
            raise UserError(f"unknown key {unknown[0]!r} in {what}; it has {', '.join(keys)}")
    return raw


def parse_items(raw: Any, what: str, item: str, parse: Callable[[Any], Any]) -> list[Any]:
    """Each element of the JSON list `raw` (named `what` in errors) by `parse`; a bad one is a
    UserError naming it as `item` N (1-based)."""
    if not isinstance(raw, list):
        raise UserError(f"{what} must be a list; got {raw!r}")
    out = []
    for n, element in enumerate(raw, 1):
        try:
            out.append(parse(element))
        except UserError as exc:
            raise UserError(f"{item} {n}: {exc}") from None
    return out


def _int_in(lo: int, hi: int) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return f"must be an integer; got {_show(v)}"
        if not lo <= v <= hi:
            return f"must be between {lo} and {hi}; got {v}"
        return None
    return check


def _finite(v: Any) -> str | None:
    if isinstance(v, float) and not math.isfinite(v):
        return f"must be a finite number; got {v}"
    return None


CASE = {
    "id": Field(STR, required=True),
    "question": Field(SCALAR, required=True),
    "trap_family": Field(STR),
    "family": Field(STR),
    "seed": Field((int,), check=_int_in(0, MAX_SEED)),
    "expected_answer": Field((*SCALAR, type(None)), check=_finite),
    "forbidden_answers": Field((list, type(None)), items=SCALAR),
    "expected_tokens": Field((list, type(None)), items=SCALAR),
    "pdf_path": Field((str, type(None))),
    "metadata": Field((dict, type(None))),
    "params": Field((dict, type(None))),
    "degrade": Field((dict, type(None))),
    "generator": Field((dict, type(None))),   # their fields: `Case.from_json`'s typed parts
    "matcher": Field((dict, type(None))),
    "gold": Field((dict, type(None))),
    "contract": Field((list, type(None))),
    "sha256": Field((str, type(None))),
    "source": Field((dict, type(None))),
    "mutations": Field((list, type(None)), items=(dict,)),
}

SUITE = {
    "cases": Field((list,), required=True, items=(dict,)),
    "name": Field(SCALAR),
    "version": Field(SCALAR),
    "format": Field(STR),
    "suite_hash": Field((str, type(None))),
    "build": Field((dict, type(None))),
}
SUITE_ENTRY = {
    "id": Field(STR, required=True),
    "json": Field(STR),
    "pdf": Field(STR),
    "family": Field((str, type(None))),
    "sha256": Field((str, type(None))),
    "key_sha256": Field((str, type(None))),
}

SPEC = {
    "name": Field(SCALAR),
    "version": Field(SCALAR),
    "description": Field(STR),
    "families": Field((list,), items=(dict,)),
    "family": Field((list,), items=(dict,)),
}
SPEC_GROUP = {
    "name": Field(STR, required=True),
    "seeds": Field((int, list, str)),
    "params": Field((dict,)),
    "degrade": Field((dict,)),
    "tiers": Field((list,), items=STR),
    "tier": Field(STR),
    "text_layer": Field(STR),
    "dpi": Field((int,)),
}

RUN_RECORD = {
    "case_id": Field(STR, required=True),
    "reader": Field(STR, required=True),
    "status": Field(STR, required=True),
    "modality": Field((str, type(None))),
    "dpi": Field((int, type(None))),
    "prompt": Field((str, type(None))),
    "answer": Field((str, type(None))),
    "case_sha256": Field((str, type(None))),
    "key_sha256": Field((str, type(None))),
    "error": Field((dict, str, type(None))),   # an imported run may hold a plain string
    "finish_reason": Field((str, type(None))),
    "latency_ms": Field((*NUM, type(None)), check=_finite),
    "attempts": Field((int,)),
    "usage": Field((dict, type(None))),
    "request_id": Field((str, type(None))),
    "provenance": Field((str, type(None))),
    "tool_version": Field((str, type(None))),
    "started_at": Field((str, type(None))),
    "trap_family": Field((str, type(None))),
    "suite": Field((str, type(None))),
    "run_id": Field((str, type(None))),
    "shard": Field((str, type(None))),
    "extra": Field((dict, type(None))),
    "format": Field((str, type(None))),
}


# The dispute journal (`workbench.gold.journal`): one event per line, opened or decided.
_TEXT = (str, type(None))
DISPUTE_EVENT = {
    "format": Field(STR),
    "event": Field(STR, required=True),
    "id": Field(STR, required=True),
    "rationale": Field(_TEXT),
    "who": Field(_TEXT),
    "at": Field(_TEXT),
}
DISPUTE_OPENED = {
    **DISPUTE_EVENT,
    "case_id": Field(STR, required=True),
    "field": Field(STR, required=True),
    "based_on": Field(_TEXT),
    "evidence": Field((dict, type(None))),
}
DISPUTE_DECIDED = {**DISPUTE_EVENT, "decision": Field(STR, required=True)}
EVIDENCE = {
    "page": Field((int, type(None)), check=_int_in(1, 100_000)),
    "box": Field((list, type(None)), items=NUM),
    "quote": Field(_TEXT),
}


def check_shape(raw: Any, shape: Mapping[str, Field], source: str, what: str,
                unknown: bool = True) -> JSONObject:
    """`raw` if it is an object of `shape`; else one UserError naming the field.
    `unknown=False` refuses keys the shape does not declare (specs: a typo must not pass silently)."""
    if not isinstance(raw, dict):
        raise UserError(f"{source}: {what} must be a JSON object; got {_type_name(raw)}")
    for name, f in shape.items():
        if name not in raw:
            if f.required:
                raise UserError(f"{source}: not a {what}: lacks {name!r}")
            continue
        v = raw[name]
        if isinstance(v, bool) and bool not in f.types or not isinstance(v, f.types):
            want = " or ".join(dict.fromkeys(_type_name(t()) if t is not type(None) else "null"
                                             for t in f.types))
            raise UserError(f"{source}: {what} field {name!r} must be {want}; got {_type_name(v)}")
        if f.items is not None and isinstance(v, list):
            for i, item in enumerate(v, 1):
                if isinstance(item, bool) or not isinstance(item, f.items):
                    want = " or ".join(_type_name(t()) for t in f.items)
                    raise UserError(f"{source}: {what} field {name!r} item {i} must be {want}; "
                                    f"got {_type_name(item)}")
        if f.check is not None and v is not None:
            complaint = f.check(v)
            if complaint:
                raise UserError(f"{source}: {what} field {name!r} {complaint}")
    if not unknown:
        extra = sorted(set(raw) - set(shape))
        if extra:
            raise UserError(f"{source}: unknown {what} key {extra[0]!r}; known keys: {', '.join(shape)}")
    return raw


def check_case(raw: Any, source: str) -> JSONObject:
    check_shape(raw, CASE, source, "case")
    if "expected_answer" not in raw and "expected_tokens" not in raw:
        raise UserError(f"{source}: not a case: lacks 'expected_answer' (or 'expected_tokens')")
    plain_id(raw["id"], "case field 'id'", source)
    for name in KEY_TEXT_FIELDS:
        check_key_text(raw.get(name), f"case field {name!r}", source)
    return raw


# The fields of a case a grader matches answers against: each string in them is a needle.
KEY_TEXT_FIELDS = ("question", "expected_answer", "forbidden_answers", "expected_tokens", "gold")


def check_key_text(value: Any, field: str, source: str = "") -> None:
    """Refuse a string in `value` (any nesting, walked without recursion) longer than the
    `key_text_chars` limit: grading turns each into a pattern, and a 10 MB expected answer took
    2 GB and a minute to grade once."""
    cap = int(limits.get("key_text_chars"))
    for v in nodes(value):
        if isinstance(v, str) and len(v) > cap:
            where = f"{source}: " if source else ""
            raise UserError(limits.exceeded("key_text_chars", f"{where}{field} holds a text of "
                                                              f"{len(v):,} characters"))


def nodes(value: Any) -> Iterator[Any]:
    """`value` and every value inside it (objects' values, lists' items), depth first, walked
    without recursion (a hostile file may nest deep)."""
    stack = [value]
    while stack:
        v = stack.pop()
        yield v
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def check_suite(raw: Any, source: str) -> JSONObject:
    check_shape(raw, SUITE, source, "suite.json")
    for i, entry in enumerate(raw["cases"], 1):
        check_shape(entry, SUITE_ENTRY, f"{source}: case {i}", "entry")
        plain_id(entry["id"], f"case {i} field 'id'", source)
    return raw


def check_record(raw: Any, source: str) -> JSONObject:
    check_shape(raw, RUN_RECORD, source, "run record")
    reader = raw.get("reader")
    if isinstance(reader, str) and not _NAME_BAD.isdisjoint(reader):
        raise UserError(f"{source}: field 'reader' {reader[:60]!r} holds a control, bidirectional or zero-width "
                        "character, which would show it as another reader's name")
    return raw


def parse_seeds(raw: Any, where: str) -> list[int]:
    """A spec's seeds: an integer, a non-empty list of integers, or a range "a..b" (inclusive),
    each between 0 and MAX_SEED, at most MAX_SEEDS of them."""
    def bad(why: str) -> UserError:
        return UserError(f"{where}: seeds {why}; give an integer, a list of integers or a range like \"1..10\"")

    if isinstance(raw, bool):
        raise bad(f"cannot be {raw}")
    if isinstance(raw, int):
        seeds = [raw]
    elif isinstance(raw, list):
        if not raw:
            raise bad("is an empty list (no cases would be made)")
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in raw):
            raise bad("must all be integers")
        seeds = list(raw)
    elif isinstance(raw, str) and ".." in raw:
        lo, _, hi = raw.partition("..")
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            raise bad(f"{raw!r} is not a range of integers") from None
        if a > b:
            raise bad(f"{raw!r} runs backwards")
        if b - a + 1 > MAX_SEEDS:
            raise bad(f"{raw!r} makes {b - a + 1:,} cases, more than the limit of {MAX_SEEDS:,}")
        seeds = list(range(a, b + 1))
    else:
        raise bad(f"cannot be {_show(raw)}")
    if len(seeds) > MAX_SEEDS:
        raise bad(f"list {len(seeds):,} long, more than the limit of {MAX_SEEDS:,}")
    wrong = [s for s in seeds if not 0 <= s <= MAX_SEED]
    if wrong:
        raise bad(f"must be between 0 and {MAX_SEED}; got {wrong[0]}")
    return seeds
