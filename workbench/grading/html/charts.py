"""The report's charts: Vega-Lite specs rendered to SVG here, offline, by vl-convert (the Vega
and Vega-Lite JavaScript libraries run inside its Rust extension; nothing is fetched), and
inlined in the page. The SVG is static, so the page needs no charting script, and the same data
gives the same bytes.

Text, axes and grid are drawn in `currentColor`, so the page's light and dark styles colour them;
marks use colours that read on both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.core.errors import UserError
from workbench.core.schema import JSONObject

# Pinned, so a newer vl-convert that defaults to a newer Vega-Lite does not move the bytes.
VEGA_LITE = "5.21"
WIDTH = 760            # the charts' drawing width in CSS pixels; the page scales them down
ROW_PX = 22            # height of one bar or heat-map row

# Outcomes in the order a stacked bar shows them, with their colour (the report's vocabulary,
# `workbench.grading.outcome.OUTCOMES`; the TUI's marks use the same order).
OUTCOME_COLOURS = {
    "pass": "#3a9d5d", "fail": "#d9822b", "trap": "#c23b3b", "refused": "#8e6bbf",
    "unparsable": "#b0a060", "truncated": "#7f8c99", "errored": "#5b6b7a", "timed_out": "#4a5866",
    "blocked": "#3d4854", "cancelled": "#323b45", "deadline": "#8a2f52",
    "turn_limit": "#a04468", "no_submission": "#b85c7e", "no_key": "#a3acb5",
}
SOURCE_COLOURS = ["#e0a526", "#4c9be8", "#c45ab3", "#2bb3a3", "#d46a3f", "#7c8ce0", "#8bbf3f",
                  "#b5835a", "#6b7f94", "#e07a9b", "#55a868", "#999999"]

_CONFIG: JSONObject = {
    "background": None,
    # Measured by vl-convert and drawn by the browser in the same generic family: labels fit.
    "font": "sans-serif",
    "padding": {"left": 12, "right": 12, "top": 4, "bottom": 4},
    "view": {"stroke": None},
    "axis": {"labelColor": "currentColor", "titleColor": "currentColor", "domainColor": "currentColor",
             "tickColor": "currentColor", "gridColor": "currentColor", "gridOpacity": 0.15,
             "labelFontSize": 11, "titleFontSize": 11, "labelLimit": 220},
    "legend": {"labelColor": "currentColor", "titleColor": "currentColor", "labelFontSize": 11,
               "orient": "bottom", "columns": 6, "labelLimit": 160},
    "text": {"color": "currentColor"},
}


def _own_ids(svg: str, name: str) -> str:
    """Vega numbers the ids it defines (gradients, clip paths) by a counter that lives as long as
    the process: renamed here by order of appearance under the chart's own name, so the bytes do
    not depend on what was drawn before and two charts on one page never share an id."""
    ids = list(dict.fromkeys(re.findall(r'\bid="([^"]+)"', svg)))
    for i, old in enumerate(ids):
        new = f"{name}-{i}"
        svg = re.sub(rf'\bid="{re.escape(old)}"', f'id="{new}"', svg)
        svg = re.sub(rf"#{re.escape(old)}(?=[)\"'])", f"#{new}", svg)
    return svg


def _svg(spec: JSONObject, name: str) -> str:
    try:
        import vl_convert
    except ImportError:
        raise UserError("the HTML report draws its charts with vl-convert: "
                        "pip install 'pdfworkbench[report]'") from None
    full = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "config": _CONFIG, **spec}
    svg = _own_ids(vl_convert.vegalite_to_svg(full, vl_version=VEGA_LITE, allowed_base_urls=[]), name)
    # Scale with the page: the drawn size becomes the viewBox's, the width the container's.
    return re.sub(r'^<svg ([^>]*?)width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"',
                  lambda m: f'<svg {m.group(1)}role="img" style="max-width:{m.group(2)}px" '
                            f'preserveAspectRatio="xMinYMin meet"',
                  svg, count=1)


def pass_rate_chart(rows: Sequence[JSONObject], name: str = "pass") -> str:
    """Pass rate per reader as bars, the Wilson 95% interval as whiskers. Each row: `reader`,
    `rate`, `lo`, `hi`, `label` (e.g. "41.2% of 34")."""
    y = {"field": "reader", "type": "nominal", "sort": None, "title": None}
    x = {"type": "quantitative", "scale": {"domain": [0, 1]}, "axis": {"format": ".0%"}}
    return _svg({
        "width": 320, "height": {"step": ROW_PX + 8}, "data": {"values": list(rows)},
        "layer": [
            {"mark": {"type": "bar", "color": OUTCOME_COLOURS["pass"], "opacity": 0.85, "height": ROW_PX - 4},
             "encoding": {"y": y, "x": {**x, "field": "rate", "title": "pass rate (Wilson 95% interval)"}}},
            {"mark": {"type": "rule", "color": "currentColor", "strokeWidth": 1.5},
             "encoding": {"y": y, "x": {**x, "field": "lo"}, "x2": {"field": "hi"}}},
            {"mark": {"type": "tick", "color": "currentColor", "thickness": 1.5, "size": 12},
             "encoding": {"y": y, "x": {**x, "field": "lo"}}},
            {"mark": {"type": "tick", "color": "currentColor", "thickness": 1.5, "size": 12},
             "encoding": {"y": y, "x": {**x, "field": "hi"}}},
            {"mark": {"type": "text", "align": "left", "dx": 6, "fontSize": 11},
             "encoding": {"y": y, "x": {"datum": 1, "type": "quantitative", "scale": {"domain": [0, 1]}},
                          "text": {"field": "label"}}},
        ],
    }, name)


def heat_map(cells: Sequence[JSONObject], readers: Sequence[str], name: str = "heat") -> str:
    """Family x reader: each cell's pass rate as its colour, `k/n` written in it. Each cell:
    `family`, `reader`, `rate` (None: nothing scored), `label`."""
    width = min(WIDTH - 240, max(90, 120 * len(readers)))
    enc_y = {"field": "family", "type": "nominal", "title": None, "sort": None}
    enc_x = {"field": "reader", "type": "nominal", "title": None, "sort": list(readers),
             "axis": {"orient": "top", "labelAngle": 0, "labelLimit": max(60, width // max(1, len(readers)) - 4)}}
    return _svg({
        "width": width, "height": {"step": ROW_PX}, "data": {"values": list(cells)},
        "layer": [
            {"mark": {"type": "rect", "stroke": "currentColor", "strokeOpacity": 0.12},
             "encoding": {"y": enc_y, "x": enc_x,
                          "color": {"field": "rate", "type": "quantitative", "title": "pass rate",
                                    "scale": {"domain": [0, 1], "scheme": "redyellowgreen"},
                                    "legend": {"format": ".0%", "orient": "bottom", "gradientLength": 160}}}},
            {"mark": {"type": "text", "fontSize": 10},
             "encoding": {"y": enc_y, "x": enc_x, "text": {"field": "label"},
                          # light text on the scale's dark ends, dark text between
                          "color": {"condition": [
                              {"test": "datum.rate == null", "value": "currentColor"},   # on the page
                              {"test": "datum.rate < 0.22 || datum.rate > 0.82", "value": "#ffffff"}],
                              "value": "#111111"}}},
        ],
    }, name)


def stacked_bar(rows: Sequence[JSONObject], order: Sequence[str], colours: Sequence[str],
                title: str, name: str) -> str:
    """One bar per reader split by `kind` (counts), in `order`. Each row: `reader`, `kind`,
    `count`, `share`."""
    return _svg({
        "width": 320, "height": {"step": ROW_PX + 8}, "data": {"values": list(rows)},
        "transform": [{"calculate": f"indexof({list(order)!r}, datum.kind)", "as": "order"}],
        "mark": {"type": "bar", "height": ROW_PX - 4},
        "encoding": {
            "y": {"field": "reader", "type": "nominal", "title": None, "sort": None},
            "x": {"field": "count", "type": "quantitative", "stack": "normalize", "title": title,
                  "axis": {"format": ".0%"}},
            "color": {"field": "kind", "type": "nominal", "title": None,
                      "scale": {"domain": list(order), "range": list(colours)}},
            "order": {"field": "order", "type": "quantitative"},
        },
    }, name)
