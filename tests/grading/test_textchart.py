"""Pass rates drawn in characters (workbench/grading/textchart.py), as the Runs screen shows them:
the bar to the rate, the Wilson interval as whiskers, and the figures beside it."""

from __future__ import annotations

from workbench.grading.stats import wilson
from workbench.grading.textchart import rate_cells, rate_rows, render_rows


def test_a_row_is_the_bar_its_whiskers_and_its_figures():
    rows = rate_rows([("probe:pymupdf", 4, 33, wilson(4, 33)), ("nothing", 0, 0, None),
                      ("all", 10, 10, wilson(10, 10))], 30)
    assert render_rows(rows, 14) == [
        "probe:pymupdf   ███▋────┤                        12.1% [4.8-27.3] 4/33",
        "nothing                                           n/a  nothing scored",
        "all             ██████████████████████████████  100.0% [72.2-100.0] 10/10",
    ]


def test_cells_say_what_they_are_so_the_screen_can_shade_them():
    cells = rate_cells(0.5, (0.25, 0.75), 8)
    assert "".join(c.char for c in cells) == "████──┤ "
    assert [c.kind for c in cells] == ["bar", "bar", "bar_ci", "bar_ci", "ci", "ci", "ci", "empty"]
    assert "".join(c.char for c in rate_cells(None, None, 4)) == "    "
    assert "".join(c.char for c in rate_cells(2.0, None, 3)) == "███"        # a rate past 1 is full
