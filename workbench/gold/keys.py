"""Field paths into an answer key: read, set and list the values a dispute can name.

A field path names one value of a case's answer key:
- `expected_answer`, `question`, `expected_tokens[2]`, `forbidden_answers[0]`;
- a path into structured gold's expected object: `invoice.vendor_phone`, `line_items[1].amount`
  (the same as `gold.expected.invoice.vendor_phone`).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from workbench.core.errors import UserError
from workbench.core.schema import JSONObject

# Top-level names of an answer key a path may start with; any other first name is a path into
# the structured gold's expected object.
KEY_ROOTS = ("question", "expected_answer", "expected_tokens", "forbidden_answers", "gold")

_SEGMENT = re.compile(r"([^.\[\]]+)((?:\[\d+\])*)")


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
    if parts[0] == "gold" and parts[1:2] != ["expected"]:
        raise UserError(f"field path {path!r}: only structured gold's expected values are disputable "
                        "(gold.expected.NAME, or just NAME)")
    return parts


def value_problem(path: str, value: Any) -> str | None:
    """Why `value` cannot stand at `path` of an answer key (a question that is a list, a token
    that is an object), or None. Structured gold's values may be any JSON."""
    parts = key_path(path)
    scalar = isinstance(value, (str, int, float)) and not isinstance(value, bool)
    if parts[0] == "question" and not scalar:
        return "a question must be text"
    if parts[0] == "expected_answer" and not (scalar or value is None):
        return "an expected answer must be text or a number"
    if parts[0] in ("expected_tokens", "forbidden_answers"):
        if len(parts) == 1:
            if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                                                      for v in value):
                return f"{parts[0]} must be a list of texts"
        elif not (scalar or value is None):
            return f"an item of {parts[0]} must be text (or null to drop it)"
    if isinstance(value, float) and not math.isfinite(value):
        return "a number must be finite"
    return None


def _describe(parts: list[str | int]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def get_field(key: JSONObject, path: str) -> Any:
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


def set_field(key: JSONObject, path: str, value: Any) -> None:
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


def can_add_field(key: JSONObject, path: str) -> bool:
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


def apply_change(key: JSONObject, path: str, value: Any) -> None:
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


def key_conflicts(key: JSONObject) -> list[str]:
    """Contradictions inside one key: an expected value that is also a forbidden answer."""
    forbidden = {str(f).strip().lower() for f in key.get("forbidden_answers") or []}
    out = []
    for path, value in key_fields(key):
        if path.startswith("forbidden_answers") or value is None:
            continue
        if str(value).strip().lower() in forbidden:
            out.append(f"{path} is {value!r}, which is also a forbidden answer")
    return out


def key_fields(key: JSONObject) -> list[tuple[str, Any]]:
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
