"""The marks the case list draws (workbench/tui/widgets/marks.py): the README's and the case list's
help give the legend of the marks drawn, made from them."""

from __future__ import annotations


def test_the_readme_and_the_case_list_help_give_the_marks_the_list_draws():
    """The legend is made from the marks drawn (it said "● pass/wrong", a mark never drawn)."""
    from tests.support.fixtures import ROOT
    from workbench.tui.widgets.case_list import CaseList
    from workbench.tui.widgets.marks import LINT_MARKS, MARKS, legend

    readme = " ".join((ROOT / "README.md").read_text().split())
    for marks in (LINT_MARKS, MARKS):
        assert f"({legend(marks)}" in readme
        assert legend(marks) in " ".join(CaseList.HELP.split())
