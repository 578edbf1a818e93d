"""A case's matcher: which rule grades an answer, and its options (`Case.matcher`).

The one home of the matcher vocabulary: the kinds, the options each reads, and their types. The
grading itself is `workbench.grading.matchers`; `Case.from_json` parses the recorded `matcher`
here once, so a bad option is one line naming the file and the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, get_args

from workbench.core.errors import UserError
from workbench.core.schema import JSONObject

MatcherKind = Literal["contains", "tokens_all", "keywords_all", "exact", "numeric", "fields"]
MATCHERS: tuple[MatcherKind, ...] = get_args(MatcherKind)

# An answer key's text may be a JSON number (pdfhell writes some answers as numbers).
Scalar = str | int | float


def _scalar(name: str, v: Any) -> Scalar:
    if isinstance(v, bool) or not isinstance(v, str | int | float):
        raise UserError(f"matcher option {name!r} must be text or a number; got {v!r}")
    if isinstance(v, float) and not math.isfinite(v):
        raise UserError(f"matcher option {name!r} must be a finite number; got {v!r}")
    return v


def _texts(name: str, v: Any) -> tuple[Scalar, ...]:
    if not isinstance(v, list):
        raise UserError(f"matcher option {name!r} must be a list of strings; got {v!r}")
    return tuple(_scalar(name, t) for t in v)


def _flag(name: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise UserError(f"matcher option {name!r} must be true or false; got {v!r}")
    return v


def _number(name: str, v: Any) -> Scalar:
    """A tolerance: a number, or text that reads as one (`"0.01"`, `"$0.50"`)."""
    v = _scalar(name, v)
    # (the money reader, with its patterns, only for a case that gives its tolerance as text: a
    # suite's cases are read before the workbench's first frame)
    from workbench.text.money import parse_money

    if isinstance(v, str) and parse_money(v) is None:
        try:
            Decimal(v.strip())
        except InvalidOperation:
            raise UserError(f"matcher option {name!r} must be a number; got {v!r}") from None
    return v


def _kind(name: str, v: Any) -> MatcherKind:
    if v not in MATCHERS:
        raise UserError(f"unknown matcher {v!r}; use one of {', '.join(MATCHERS)}")
    return v


# option -> how its JSON value is checked and converted
_OPTIONS = {
    "type": _kind,
    "tokens": _texts,          # tokens_all: each must appear (default: the case's expected_tokens)
    "keywords": _texts,        # keywords_all: each must appear as a whole word
    "value": _scalar,          # exact, numeric: the value compared (default: the expected answer)
    "tolerance": _number,      # numeric: how far off a number may be
    "relative": _flag,         # numeric: the tolerance is a fraction of the value
    "case_sensitive": _flag,   # exact: keep case
    "no_hedge": _flag,         # keywords_all: an answer that hedges fails
}


@dataclass(frozen=True)
class MatcherSpec:
    """The matcher a case is graded by: its kind and options, each None where the JSON lacks it.

    `parse` checks a case's recorded `matcher` and remembers the order of its keys, so `to_json`
    writes the same object back.
    """

    type: MatcherKind | None = None
    tokens: tuple[Scalar, ...] | None = None
    keywords: tuple[Scalar, ...] | None = None
    value: Scalar | None = None
    tolerance: Scalar | None = None
    relative: bool | None = None
    case_sensitive: bool | None = None
    no_hedge: bool | None = None
    # The keys of the JSON it was read from, in their order (not part of the spec).
    written: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def kind(self) -> MatcherKind:
        """The matcher that grades: `contains` where the JSON names none."""
        return self.type or "contains"

    @classmethod
    def parse(cls, raw: MatcherSpec | Mapping[str, Any]) -> MatcherSpec:
        """A spec from its JSON shape; a UserError says which option is wrong."""
        if isinstance(raw, MatcherSpec):
            return raw
        if not isinstance(raw, Mapping):
            raise UserError(f"a matcher is an object with a type and its options; got {raw!r}")
        unknown = [k for k in raw if k not in _OPTIONS]
        if unknown:
            raise UserError(f"unknown matcher option {unknown[0]!r}; a matcher takes {', '.join(_OPTIONS)}")
        values = {k: None if v is None else _OPTIONS[k](k, v) for k, v in raw.items()}
        return cls(**values, written=tuple(raw))

    def replace(self, **changes: Any) -> MatcherSpec:
        """This spec with `changes`; an option set to None is left out of the JSON."""
        written = tuple(k for k in self.written if k not in changes or changes[k] is not None)
        return replace(self, **changes, written=written)

    def to_json(self) -> JSONObject:
        names = [f.name for f in fields(self) if f.name != "written"]
        order = [*self.written, *(n for n in names if n not in self.written and getattr(self, n) is not None)]
        return {n: list(v) if isinstance(v := getattr(self, n), tuple) else v for n in order}
