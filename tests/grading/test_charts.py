"""The HTML report's charts (workbench/grading/html/charts.py): Vega-Lite rendered offline to SVG
that scales with the page, the same data giving the same bytes however many charts were drawn
before, ids of their own per chart, one line naming the extra when vl-convert is missing, and the
same bytes from the engine's own process."""

from __future__ import annotations

import builtins
import json
import re
import subprocess
import sys

import pytest

from workbench.core.errors import UserError
from workbench.grading.html import charts

pytest.importorskip("vl_convert", reason="the charts need the report extra (vl-convert)")

ROWS = [{"reader": "probe:pypdf", "rate": 0.25, "lo": 0.1, "hi": 0.45, "label": "25.0% of 20"},
        {"reader": "probe:pymupdf", "rate": 0.6, "lo": 0.39, "hi": 0.78, "label": "60.0% of 20"}]


def test_a_pass_rate_chart_names_each_reader_scales_with_the_page_and_is_the_same_bytes_again():
    first = charts.pass_rate_chart(ROWS, name="pass")
    charts.heat_map([{"family": "f", "reader": "r", "rate": None, "label": "0/0"}], ["r"], name="other")
    again = charts.pass_rate_chart(ROWS, name="pass")
    assert first == again   # Vega's process-wide id counter moved between the two
    assert first.startswith("<svg ") and 'role="img"' in first and "max-width:" in first
    assert "probe:pypdf" in first and "60.0% of 20" in first and "http" not in first.split(">", 1)[1]


def test_two_charts_on_one_page_never_share_an_id():
    cells = [{"family": "f", "reader": "r", "rate": 0.5, "label": "1/2"}]
    a, b = charts.heat_map(cells, ["r"], name="families"), charts.heat_map(cells, ["r"], name="heat")
    ids_a, ids_b = set(re.findall(r'\bid="([^"]+)"', a)), set(re.findall(r'\bid="([^"]+)"', b))
    assert ids_a and ids_b and not ids_a & ids_b   # (the legend's gradient, its clip paths)
    assert all(i.startswith("families-") for i in ids_a) and all(i.startswith("heat-") for i in ids_b)
    assert a.replace("families-", "heat-") == b
    assert charts._own_ids('<g id="clip7"><use href="#clip7"/></g>', "x") == '<g id="x-0"><use href="#x-0"/></g>'


def test_without_vl_convert_a_chart_is_one_line_naming_the_extra(monkeypatch):
    real_import = builtins.__import__

    def no_vl_convert(name, *args, **kwargs):
        if name == "vl_convert":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_vl_convert)
    with pytest.raises(UserError, match=r"pip install 'pdfworkbench\[report\]'"):
        charts.pass_rate_chart(ROWS)


def test_charts_drawn_by_the_engines_process_are_the_bytes_drawn_here_and_it_ends_with_its_block():
    """`report --html` draws its charts in a process forked at its start (`engine_process`), which
    loads the engine while the report reads its inputs: the same bytes, nothing of the engine
    loaded here, no process left after; and one that dies is drawn for here. (In a process of its
    own: under pytest-xdist this one runs threads, so none would be forked.)"""
    probe = ("import json, multiprocessing, os, signal, sys\n"
             "from workbench.grading.html import charts\n"
             f"rows = {ROWS!r}\n"
             "with charts.engine_process():\n"
             "    forked = charts._ENGINE is not None\n"
             "    there = charts.pass_rate_chart(rows)\n"
             "    loaded = 'vl_convert' in sys.modules\n"
             "    os.kill(charts._ENGINE._process.pid, signal.SIGKILL)\n"
             "    charts._ENGINE._process.join(5)\n"
             "    after_death = charts.pass_rate_chart(rows)\n"
             "left = len(multiprocessing.active_children())\n"
             "here = charts.pass_rate_chart(rows)\n"
             "print(json.dumps([forked, loaded, there == here, after_death == here, left]))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [True, False, True, True, 0]
