"""Structured gold of an extraction case (`Case.gold`, graded by the `fields` matcher):

    {
      "schema": {...},                      # optional JSON Schema of the answer, sent to readers as it is
      "expected": {...} | [{...}, ...],     # one record, or a list of records (rows): any JSON
      "fields": {                           # optional; default: every key of the expected records
        "name":  {"normalizer": "text", "threshold": 0.9},
        "date":  {"normalizer": "date", "dayfirst": false},
        "qty":   {"normalizer": "number", "tolerance": 0}
      },                                    # (or a list of field names, each compared as text)
      "records_key": "rows",                # optional: where the list sits in an answer object
      "pass_f1": 1.0,                       # optional: the F1 a correct answer reaches (default 1.0)
      "evidence": {"name": {"page": 1, "box": [x0, y0, x1, y1], "quote": "...", "alternatives": []}},
      "decoys": {"name": ["a value the trap offers instead"]}
    }

Parsed once where the case is read; every value is kept as the JSON had it (a whole number stays
whole), and `to_json` writes the keys back in the order they were read, so the key's hash is the
same. Grading with it is `workbench.grading.fields`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, get_args

from workbench.core.errors import UserError
from workbench.core.schema import JSONObject, json_object

Normalizer = Literal["text", "case", "punctuation", "exact", "date", "phone", "money", "number"]
NORMALIZERS: tuple[Normalizer, ...] = get_args(Normalizer)
Number = int | float


def _number(raw: Any, what: str) -> Number:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
        raise UserError(f"{what} must be a number; got {raw!r}")
    return raw


def _ordered(values: JSONObject, written: tuple[str, ...]) -> JSONObject:
    """`values` (None: absent) as JSON: the keys read first, in their order, then any set since."""
    order = [*written, *(k for k, v in values.items() if k not in written and v is not None)]
    return {k: values[k] for k in order}


_RULE_KEYS = ("normalizer", "threshold", "tolerance", "dayfirst")


@dataclass(frozen=True)
class FieldSpec:
    """How one field's values are compared: a normaliser, a similarity threshold below 1 for
    near matches, a tolerance for numbers, and day-first dates."""

    normalizer: Normalizer | None = None
    threshold: Number | None = None
    tolerance: Number | str | None = None
    dayfirst: bool | None = None
    written: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def parse(cls, raw: Any, name: str) -> FieldSpec:
        raw = json_object(raw, f"field {name!r}", _RULE_KEYS)
        normalizer, threshold = raw.get("normalizer"), raw.get("threshold")
        tolerance, dayfirst = raw.get("tolerance"), raw.get("dayfirst")
        if normalizer is not None and normalizer not in NORMALIZERS:
            raise UserError(f"field {name!r}: unknown normalizer {normalizer!r}; use one of {', '.join(NORMALIZERS)}")
        if threshold is not None:
            _number(threshold, f"field {name!r}: threshold")
        if tolerance is not None:
            try:
                if isinstance(tolerance, bool) or not math.isfinite(Decimal(str(tolerance))):
                    raise InvalidOperation
            except (InvalidOperation, ValueError):
                raise UserError(f"field {name!r}: tolerance must be a number; got {tolerance!r}") from None
        if dayfirst is not None and not isinstance(dayfirst, bool):
            raise UserError(f"field {name!r}: dayfirst must be true or false; got {dayfirst!r}")
        return cls(normalizer, threshold, tolerance, dayfirst, tuple(raw))

    def to_json(self) -> JSONObject:
        return _ordered({"normalizer": self.normalizer, "threshold": self.threshold,
                         "tolerance": self.tolerance, "dayfirst": self.dayfirst}, self.written)


@dataclass(frozen=True)
class Evidence:
    """Where a gold value is printed: its page (1-based), its box in PDF points from the page's
    top-left corner, the line that prints it, and other readings that are also right."""

    page: int | None = None
    box: tuple[Number, Number, Number, Number] | None = None
    quote: str | None = None
    alternatives: tuple[str, ...] | None = None
    written: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def parse(cls, raw: Any, what: str = "evidence") -> Evidence:
        raw = json_object(raw, what, ("page", "box", "quote", "alternatives"))
        page, box, quote, alternatives = (raw.get(k) for k in ("page", "box", "quote", "alternatives"))
        if page is not None and (isinstance(page, bool) or not isinstance(page, int) or page < 1):
            raise UserError(f"{what}: page must be a page number from 1; got {page!r}")
        if box is not None:
            if not isinstance(box, list) or len(box) != 4:
                raise UserError(f"{what}: box must be four numbers x0, y0, x1, y1; got {box!r}")
            box = tuple(_number(v, f"{what}: box") for v in box)
        if quote is not None and not isinstance(quote, str):
            raise UserError(f"{what}: quote must be text; got {quote!r}")
        if alternatives is not None:
            if not isinstance(alternatives, list) or not all(isinstance(a, str) for a in alternatives):
                raise UserError(f"{what}: alternatives must be a list of texts; got {alternatives!r}")
            alternatives = tuple(alternatives)
        return cls(page, box, quote, alternatives, tuple(raw))

    def to_json(self) -> JSONObject:
        return _ordered({"page": self.page, "box": None if self.box is None else list(self.box),
                         "quote": self.quote,
                         "alternatives": None if self.alternatives is None else list(self.alternatives)},
                        self.written)


_GOLD_KEYS = ("schema", "expected", "fields", "records_key", "pass_f1", "evidence", "decoys")


@dataclass(frozen=True)
class ExtractionGold:
    """A case's structured gold (see the module docstring); None where the JSON lacks a key."""

    expected: Any = None                                   # the answer's records: any JSON
    fields: tuple[tuple[str, FieldSpec], ...] | None = None
    fields_listed: bool = False                            # `fields` was a list of names
    records_key: str | None = None
    pass_f1: Number | None = None
    schema: JSONObject | None = None                   # JSON Schema, sent to readers as it is
    evidence: tuple[tuple[str, Evidence], ...] | None = None
    decoys: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    written: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def has_expected(self) -> bool:
        return "expected" in self.written or self.expected is not None

    def evidence_of(self, name: str) -> Evidence | None:
        return dict(self.evidence or ()).get(name)

    @classmethod
    def parse(cls, raw: Any) -> ExtractionGold:
        """Gold from its JSON shape; a UserError names the key that is wrong."""
        raw = json_object(raw, "gold", _GOLD_KEYS)
        fields, listed = raw.get("fields"), False
        if isinstance(fields, list):
            if not all(isinstance(n, str) for n in fields):
                raise UserError(f"gold fields must be an object of field rules (or a list of names); got {fields!r}")
            fields, listed = tuple((n, FieldSpec()) for n in fields), True
        elif fields is not None:
            fields = tuple((str(n), FieldSpec.parse(r, str(n))) for n, r in json_object(fields, "gold fields").items())
        records_key, pass_f1, schema = raw.get("records_key"), raw.get("pass_f1"), raw.get("schema")
        if records_key is not None and not isinstance(records_key, str):
            raise UserError(f"gold records_key must be text; got {records_key!r}")
        if pass_f1 is not None:
            _number(pass_f1, "gold pass_f1")
        if schema is not None and not isinstance(schema, dict):
            raise UserError("gold schema must be a JSON Schema object")
        evidence = raw.get("evidence")
        if evidence is not None:
            evidence = tuple((str(n), Evidence.parse(e, f"gold evidence {n!r}"))
                             for n, e in json_object(evidence, "gold evidence").items())
        decoys = raw.get("decoys")
        if decoys is not None:
            out = []
            for n, values in json_object(decoys, "gold decoys").items():
                if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                    raise UserError(f"gold decoys {n!r} must be a list of texts; got {values!r}")
                out.append((str(n), tuple(values)))
            decoys = tuple(out)
        return cls(raw.get("expected"), fields, listed, records_key, pass_f1, schema, evidence, decoys,
                   tuple(raw))

    def to_json(self) -> JSONObject:
        fields: Any = None
        if self.fields is not None:
            fields = [n for n, _ in self.fields] if self.fields_listed else {n: r.to_json() for n, r in self.fields}
        values = {
            "schema": self.schema, "expected": self.expected, "fields": fields, "records_key": self.records_key,
            "pass_f1": self.pass_f1,
            "evidence": None if self.evidence is None else {n: e.to_json() for n, e in self.evidence},
            "decoys": None if self.decoys is None else {n: list(v) for n, v in self.decoys},
        }
        return _ordered(values, self.written)
