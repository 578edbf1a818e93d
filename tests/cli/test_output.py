"""`json_text`, the encoder `inspect --json` writes each page with: the same text as
`json.dumps(value, indent=2, ensure_ascii=False, default=str)`, for any value a report holds."""

from __future__ import annotations

import enum
import json
import random
from pathlib import Path

from workbench.cli.output import json_text


class _Str(str):
    pass


class _Level(enum.IntEnum):
    HIGH = 3


def _reference(value, level: int) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str).replace("\n", "\n" + "  " * level)


def _value(rnd: random.Random, depth: int = 0):
    if depth > 4 or rnd.random() < 0.4:
        return rnd.choice([
            None, True, False, 0, -1, 2 ** 70, 1.5, -0.0, 1e300, 5e-324, float("nan"), float("inf"),
            -float("inf"), 0.1 + 0.2, "", 'line\nbreak "quoted" \\ tab\t \u2028 \x00 é 😀 \u200b',
            _Str("subclass"), _Level.HIGH, Path("/a/b.pdf"), b"bytes", 3 + 4j, rnd.random() * 1000,
        ])
    if rnd.random() < 0.6:
        items = [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
        return items if rnd.random() < 0.8 else tuple(items)
    keys = ["text", "", "é\nkey", _Str("s"), 1, 2.5, True, False, None, -3, float("nan")]
    return {rnd.choice(keys): _value(rnd, depth + 1) for _ in range(rnd.randint(0, 5))}


def test_json_text_is_json_dumps_with_indent_for_any_value_at_any_depth():
    rnd = random.Random(13)
    for _ in range(3000):
        value, level = _value(rnd), rnd.randint(0, 3)
        assert json_text(value, level) == _reference(value, level), repr(value)


def test_a_page_report_is_written_as_json_dumps_writes_it():
    page = {"number": 1, "width_pt": 612.0, "rotation": 0, "text": {"pypdf": "a\nb", "pymupdf": ""},
            "spans": [{"bbox": [72.0, 44.18, 515.02, 54.18], "visible": True, "reasons": [], "ink": 12}],
            "layers": {"missing": {"pypdf": []}, "same_order": True, "similarity": 1.0}, "boxes": []}
    assert json_text(page, 2) == _reference(page, 2)
