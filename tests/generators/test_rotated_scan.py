"""The rotated_scan family (workbench/generators/rotated_scan.py): a business document placed
crooked on the page, like a sheet fed askew into a scanner.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

from tests.support.families import SEEDS
from tests.support.families import find_span as _find_span
from tests.support.families import make as _gen
from tests.support.families import open_pdf as _doc


def test_rotated_scan_turns_the_text_or_the_page():
    for seed in SEEDS:
        params, g = _gen("rotated_scan", seed, mode="content")
        span, direction = _find_span(g.pdf, g.key.expected_answer)
        import math

        angle = math.degrees(math.atan2(-direction[1], direction[0]))
        assert abs(abs(angle) - params["angle"]) < 0.2
        assert _doc(g.pdf)[0].rotation == 0
        _, g2 = _gen("rotated_scan", seed, mode="page_rotate")
        assert _doc(g2.pdf)[0].rotation == 90
        page = _doc(g2.pdf)[0]
        assert page.rect.width < page.rect.height  # shown upright, stored sideways


def test_rotated_scan_forbidden_row_sits_level_with_the_asked_description():
    for seed in SEEDS:
        _, g = _gen("rotated_scan", seed, mode="content")
        item = g.key.question.split('"')[1]
        label = _doc(g.pdf)[0].search_for(item)[0]
        own = _find_span(g.pdf, g.key.expected_answer)[0]["bbox"]
        other = _find_span(g.pdf, g.key.forbidden_answers[0])[0]["bbox"]
        mid = (label.y0 + label.y1) / 2
        assert abs((other[1] + other[3]) / 2 - mid) < abs((own[1] + own[3]) / 2 - mid)
