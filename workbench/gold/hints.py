"""Answer-hint audit: gold values a reader could copy from the prompt without reading the document.

A hint is a gold value (the expected answer, an expected token, or a leaf of structured gold)
that appears literally in the question, or in the JSON schema's descriptions, examples or
defaults. Matching ignores case and runs of whitespace, and needs word boundaries, so `12` is not
found inside `2012`. Values shorter than three characters, booleans and nulls are not checked:
they occur everywhere by chance.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core.case import Case
from workbench.core.schema import JSONObject
from workbench.gold.keys import key_fields
from workbench.gold.versions import cases_at

MIN_LENGTH = 3
# Schema keywords whose text is shown to a reader and may leak an answer.
SCHEMA_HINT_KEYS = ("description", "examples", "example", "default", "title")
_NAMED_SUBSCHEMAS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


@dataclass
class Hint:
    case_id: str
    field: str            # gold field path, e.g. expected_answer or invoice.vendor_phone
    value: str
    where: str            # "question" or "schema:<path>.<keyword>"
    context: str          # the text around the occurrence

    def to_json(self) -> JSONObject:
        return dict(self.__dict__)

    def __str__(self) -> str:
        return f"{self.case_id} {self.field} = {self.value!r} appears in {self.where}: …{self.context}…"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _pattern(value: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in value.split(" ")]
    body = r"\s+".join(words)
    # Word boundaries only where the value starts or ends with a word character.
    left = r"(?<!\w)" if re.match(r"\w", value) else ""
    right = r"(?!\w)" if re.search(r"\w$", value) else ""
    return re.compile(left + body + right, re.IGNORECASE)


def _value_forms(value: Any) -> list[str]:
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, float):
        forms = [repr(value), f"{value:,.2f}", f"{value:.2f}"] if value != int(value) else [f"{value:.0f}", f"{value:,.0f}"]
    elif isinstance(value, int):
        forms = [str(value), f"{value:,}"]
    else:
        forms = [_norm(str(value))]
    return [f for f in dict.fromkeys(forms) if len(f) >= MIN_LENGTH]


def schema_texts(schema: Any, path: str = "") -> list[tuple[str, str]]:
    """(where, text) for every description, example, default and title in a JSON schema."""
    out: list[tuple[str, str]] = []
    if isinstance(schema, list):
        for i, v in enumerate(schema):
            out.extend(schema_texts(v, f"{path}[{i}]"))
        return out
    if not isinstance(schema, dict):
        return out
    for k, v in schema.items():
        here = f"{path}.{k}" if path else k
        if k in _NAMED_SUBSCHEMAS and isinstance(v, dict):
            # Property names are not keywords: a property called "description" is a schema.
            for name, sub in v.items():
                out.extend(schema_texts(sub, f"{here}.{name}"))
        elif k in SCHEMA_HINT_KEYS:
            items = v if isinstance(v, list) else [v]
            for i, t in enumerate(items):
                if t is None or isinstance(t, bool):
                    continue
                text = t if isinstance(t, str) else json.dumps(t, ensure_ascii=False)
                out.append((f"{here}[{i}]" if isinstance(v, list) else here, text))
        else:
            out.extend(schema_texts(v, here))
    return out


def audit_case(case: Case) -> list[Hint]:
    """The hints in one case's answer key (at the gold version it carries)."""
    case_id = case.id
    places: list[tuple[str, str]] = [("question", case.question)]
    if case.gold is not None and case.gold.schema is not None:
        places += [(f"schema:{w}", t) for w, t in schema_texts(case.gold.schema)]
    hints: list[Hint] = []
    for field_path, value in key_fields(case.answer_key()):
        if field_path.startswith("forbidden_answers"):
            continue  # a trap's wrong answer in the prompt is no hint of the right one
        for form in _value_forms(value):
            pat = _pattern(form)
            for where, text in places:
                m = pat.search(text)
                if m:
                    lo, hi = max(0, m.start() - 30), min(len(text), m.end() + 30)
                    hints.append(Hint(case_id, field_path, str(value), where, _norm(text[lo:hi])))
            if any(h.field == field_path for h in hints):
                break  # one form found is enough for this field
    return hints


def audit_suite(folder: Path, version: str | None = "latest") -> list[Hint]:
    """Every hint in the suite's gold at `version`."""
    cases = cases_at(Path(folder), version)
    out: list[Hint] = []
    for case_id in sorted(cases):
        out.extend(audit_case(cases[case_id]))
    return out
