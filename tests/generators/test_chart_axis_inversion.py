"""The chart_axis_inversion family (workbench/generators/chart_axis_inversion.py): a report chart
whose value axis runs downward: zero at the top, the largest value at the bottom.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

from tests.support.families import SEEDS
from tests.support.families import make as _gen
from tests.support.families import open_pdf as _doc


def test_chart_value_axis_runs_downward():
    for seed in SEEDS:
        _, g = _gen("chart_axis_inversion", seed)
        meta = g.key.metadata
        ticks = {f"{k * meta['step']:,}" for k in range(meta["axis_max"] // meta["step"] + 1)}
        words = [w for w in _doc(g.pdf)[0].get_text("words") if w[4] in ticks and w[0] < 140]
        words.sort(key=lambda w: w[1])  # top to bottom
        values = [int(w[4].replace(",", "")) for w in words]
        assert values[0] == 0 and values == sorted(values) and len(values) >= 5
        hi = meta["values"].index(max(meta["values"]))
        lo = meta["values"].index(min(meta["values"]))
        expected, forbidden = (hi, lo) if meta["asked"] == "highest" else (lo, hi)
        assert g.key.expected_answer == meta["labels"][expected]
        assert g.key.forbidden_answers == [meta["labels"][forbidden]]


def test_chart_bar_for_the_smallest_value_is_the_tallest():
    _, g = _gen("chart_axis_inversion", 2, style="bar")
    rects = [d["rect"] for d in _doc(g.pdf)[0].get_drawings() if d.get("fill") and d["fill"][2] > 0.6]
    heights = [r.height for r in sorted(rects, key=lambda r: r.x0)]
    values = g.key.metadata["values"]
    assert heights.index(max(heights)) == values.index(min(values))
