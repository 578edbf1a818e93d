"""A report chart whose value axis runs downward: zero at the top, the largest value at the bottom.

The tick labels say so plainly, but the eye reads "up" as "more": the highest point of the line (or
the tallest bar, which rises from the bottom edge towards the value) is the smallest value. A reader
that compares shapes instead of reading the axis names the opposite period.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "chart_axis_inversion"
VERSION = 3  # 3: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Report chart with an inverted value axis: the visually highest point is the lowest value"

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
METRICS = {
    "revenue": ("Revenue", "$ thousands", "revenue"),
    "units": ("Units shipped", "thousands", "units shipped"),
    "customers": ("New customers", "accounts", "the number of new customers"),
    "tickets": ("Support tickets resolved", "tickets", "the number of support tickets resolved"),
}
REGIONS = ("Northern", "Southern", "Western", "Eastern", "Central", "Coastal")

PARAMS = (
    Param("style", "choice", "line",
          "line: a line whose highest point is the smallest value; bar: bars rising from the bottom "
          "(largest-value) edge, so the tallest bar is the smallest value", choices=("line", "bar")),
    Param("asked", "choice", "highest", "whether the question asks for the highest or the lowest period",
          choices=("highest", "lowest")),
    Param("periods", "choice", "quarters", "what the horizontal axis shows: four quarters, or months",
          choices=("quarters", "months")),
    Param("months", "int", 6, "number of months shown when periods is months", min=5, max=12),
    Param("metric", "choice", "revenue", "what the chart measures", choices=tuple(METRICS)),
    Param("gridlines", "bool", True, "draw horizontal gridlines at every tick"),
)

CONTRACT = (
    Arming("expected", "visible", "the period's label is printed on the horizontal axis"),
    Arming("expected", "text_layer", "axis labels are ordinary text"),
    Arming("forbidden", "visible", "the visually extreme period is labelled too"),
    Arming("forbidden", "text_layer", "axis labels are ordinary text"),
)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    streams = Streams(seed, NAME)
    if p["periods"] == "quarters":
        labels = ["Q1", "Q2", "Q3", "Q4"]
        period_word = "quarter"
    else:
        start = streams.of("first_month").randint(0, 12 - p["months"])
        labels = list(MONTHS[start:start + p["months"]])
        period_word = "month"
    n = len(labels)
    title, unit, phrase = METRICS[p["metric"]]
    scale = streams.of("scale")
    step = scale.choice((20, 25, 50, 100))
    ticks = max(scale.randint(5, 8), (n + 5) // 2)
    axis_max = step * ticks
    # Values on distinct half-steps (a reader can place each against the gridlines), clear of the ends.
    vals = streams.of("values").sample(range(2, ticks * 2 - 1), n)
    values = [v * step / 2 for v in vals]
    hi = values.index(max(values))
    lo = values.index(min(values))
    expected, forbidden = (hi, lo) if p["asked"] == "highest" else (lo, hi)

    region = kit.pick(streams.of("region"), REGIONS)
    company = kit.pick(streams.of("company"), kit.VENDORS)
    author = kit.pick(streams.of("author"), kit.PEOPLE)
    c, buf = kit.new_canvas(title=f"{region} region review")
    L, R = _ledger.LEFT, _ledger.RIGHT
    y = _ledger.TOP
    c.setFont("Helvetica-Bold", 16)
    c.drawString(L, y, f"{region} Region - Performance Review")
    c.setFont("Helvetica", 10)
    c.drawString(L, y - 18, f"{company} | Prepared by {author} | Internal")
    c.setLineWidth(0.8)
    c.line(L, y - 28, R, y - 28)
    y = kit.draw_paragraph(
        c, f"This review summarises {phrase} for the {region.lower()} region over the reporting period. "
        "Figure 1 plots the figures submitted by the regional office; the scale follows the layout of the "
        "operations dashboard that the region reports from.", L, y - 50, R - L, size=10)

    # Plot area.
    x0, x1 = L + 70, R - 20
    top, bottom = y - 40, y - 320

    def ypos(v: float) -> float:  # inverted: 0 at the top, axis_max at the bottom
        return top - (v / axis_max) * (top - bottom)

    c.setFont("Helvetica", 8.5)
    for k in range(ticks + 1):
        v = k * step
        ty = ypos(v)
        if p["gridlines"]:
            c.setStrokeGray(0.85)
            c.setLineWidth(0.4)
            c.line(x0, ty, x1, ty)
        c.setStrokeGray(0)
        c.setLineWidth(0.8)
        c.line(x0 - 4, ty, x0, ty)
        c.drawRightString(x0 - 7, ty - 3, f"{v:,.0f}")
    c.line(x0, top, x0, bottom)
    c.line(x0, top, x1, top)
    c.saveState()
    c.translate(L + 8, (top + bottom) / 2)
    c.rotate(90)
    c.setFont("Helvetica", 9)
    c.drawCentredString(0, 0, f"{title} ({unit})")
    c.restoreState()

    slot = (x1 - x0) / n
    xs = [x0 + slot * (i + 0.5) for i in range(n)]
    c.setFont("Helvetica", 9)
    for x, lab in zip(xs, labels, strict=True):
        c.drawCentredString(x, bottom - 14, lab)
    if p["style"] == "bar":
        c.setFillColorRGB(0.2, 0.42, 0.68)
        bw = slot * 0.55
        for x, v in zip(xs, values, strict=True):
            c.rect(x - bw / 2, bottom, bw, ypos(v) - bottom, stroke=0, fill=1)
    else:
        c.setStrokeColorRGB(0.2, 0.42, 0.68)
        c.setFillColorRGB(0.2, 0.42, 0.68)
        c.setLineWidth(2)
        path = c.beginPath()
        path.moveTo(xs[0], ypos(values[0]))
        for x, v in zip(xs[1:], values[1:], strict=True):
            path.lineTo(x, ypos(v))
        c.drawPath(path, stroke=1, fill=0)
        for x, v in zip(xs, values, strict=True):
            c.circle(x, ypos(v), 3.2, stroke=0, fill=1)
    c.setFillGray(0)
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(L, bottom - 40, f"Figure 1. {title} by {period_word}, {region.lower()} region ({unit}).")
    c.setFont("Helvetica", 9)
    kit.draw_paragraph(
        c, "Source: regional operations dashboard, figures as submitted at period close. Figures are "
        "unaudited and may be restated.", L, bottom - 58, R - L, size=9)
    c.setFont("Helvetica", 8)
    c.drawString(L, 50, f"{company} - {region} region review - page 1 of 1")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"The attached PDF is a regional performance review. According to Figure 1, in which "
                f"{period_word} was {phrase} {p['asked']}? Respond with only the {period_word} label exactly "
                "as printed on the chart's horizontal axis, no other text."
            ),
            expected_answer=labels[expected],
            forbidden_answers=[labels[forbidden]],
            expected_failure_mode=(
                f"Names the {period_word} whose point sits visually {'highest' if p['asked'] == 'highest' else 'lowest'} "
                "(or whose bar is tallest/shortest): the reader compared shapes and missed that the value "
                "axis runs downward, with zero at the top."
            ),
            matcher={"type": "contains"},
            metadata={"labels": labels, "values": values, "axis_max": axis_max, "step": step,
                      "style": p["style"], "asked": p["asked"]},
        ),
    )
