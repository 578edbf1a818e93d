"""The report's charts: Vega-Lite specs rendered to SVG here, offline, by vl-convert (the Vega
and Vega-Lite JavaScript libraries run inside its Rust extension; nothing is fetched), and
inlined in the page. The SVG is static, so the page needs no charting script, and the same data
gives the same bytes.

Text, axes and grid are drawn in `currentColor`, so the page's light and dark styles colour them;
marks use colours that read on both.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence

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


def _vegalite_svg(full: JSONObject) -> str:
    """The SVG vl-convert draws of a whole Vega-Lite spec: by the engine's process while one
    runs (`engine_process`), else here."""
    if _ENGINE is not None:
        svg = _ENGINE.draw(full)
        if svg is not None:
            return svg
    try:
        import vl_convert
    except ImportError:
        raise UserError("the HTML report draws its charts with vl-convert: "
                        "pip install 'pdfworkbench[report]'") from None
    return vl_convert.vegalite_to_svg(full, vl_version=VEGA_LITE, allowed_base_urls=[])


def _svg(spec: JSONObject, name: str) -> str:
    full = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "config": _CONFIG, **spec}
    svg = _own_ids(_vegalite_svg(full), name)
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


# ---- the engine in a process of its own -----------------------------------------------------------

# The longest the engine's process may take over one chart (its start included: some 0.3 s)
# before the chart is drawn here instead.
DRAW_WAIT_S = 30.0


class _Engine:
    """vl-convert in a forked process, drawing the specs sent over a pipe. Its first chart loads
    the engine (some 0.3 s of CPU, the interpreter's lock held throughout), which it does as soon
    as it starts: while `report --html` reads its runs and cases on one core, the other does that,
    not this process later beside the crops' workers. No thread here (a pool's would make the
    crops' workers, forked next, spawn instead)."""

    def __init__(self) -> None:
        import multiprocessing

        from workbench.core.pool import piped_process

        self._conn, self._process = piped_process(multiprocessing.get_context("fork"), _serve, "chart-engine")

    def draw(self, full: JSONObject) -> str | None:
        """The spec's SVG, or None when the process cannot draw it (gone; or the engine refused
        the spec, which the caller then draws itself, to say why)."""
        try:
            self._conn.send(full)
            if self._conn.poll(DRAW_WAIT_S):
                return self._conn.recv()
            self._conn.close()   # (stuck: its answer must not be read as the next chart's)
        except (EOFError, OSError, ValueError):
            pass
        return None

    def close(self) -> None:
        from workbench.core.pool import end_within

        self._conn.close()   # (the process reads the end of its input, and ends)
        end_within([self._process], 1.0)


def _serve(conn, parent_end) -> None:
    """The engine's process: load the engine, then draw each spec sent (None for one it
    refuses) until the parent closes its end or is gone. Ctrl-C is the parent's to handle."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent_end.close()   # (its copy here would keep the pipe open once the parent has gone)
    try:
        import vl_convert

        vl_convert.vegalite_to_svg({"mark": "point", "config": _CONFIG}, vl_version=VEGA_LITE, allowed_base_urls=[])
    except Exception:  # (the parent draws each chart itself, and says what is wrong)
        return
    while True:
        try:
            full = conn.recv()
        except (EOFError, OSError):
            return
        try:
            svg = vl_convert.vegalite_to_svg(full, vl_version=VEGA_LITE, allowed_base_urls=[])
        except Exception:
            svg = None
        try:
            conn.send(svg)
        except OSError:   # (the parent stopped waiting)
            return


_ENGINE: _Engine | None = None


@contextlib.contextmanager
def engine_process() -> Iterator[None]:
    """Charts drawn inside this block are drawn by a process started at its start, which loads
    the engine meanwhile (see `_Engine`). Where this process cannot fork (it runs threads, or is
    not on Linux), or no process can start, they are drawn here as before."""
    from workbench.core.pool import start_context

    global _ENGINE
    if _ENGINE is not None or start_context().get_start_method() != "fork":
        yield
        return
    try:
        engine = _Engine()
    except (OSError, RuntimeError, ValueError):
        yield
        return
    _ENGINE = engine
    try:
        yield
    finally:
        _ENGINE = None
        engine.close()
