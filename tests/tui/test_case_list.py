"""The case list of a long suite: its families start collapsed (but the shown case's), and a
family's cases join the tree when it opens; the keys still reach every case, in the same order."""

from __future__ import annotations

import shutil

import pytest
from textual.app import App, ComposeResult

from tests.support.fixtures import SAMPLE, settle
from workbench.core.case import Case
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets import case_list
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView

FAMILIES = ("alpha", "bravo", "charlie")
PER_FAMILY = 12
LONG = 20   # lists of more cases than this collapse (COLLAPSE_FROM, lowered so the walks are short)


@pytest.fixture(autouse=True)
def _long_from(monkeypatch):
    monkeypatch.setattr(case_list, "COLLAPSE_FROM", LONG)


def cases() -> list[Case]:
    return [Case(id=f"{f}-{i:04d}", trap_family=f, seed=i, question="What is the total?", expected_answer="$1.00")
            for f in FAMILIES for i in range(1, PER_FAMILY + 1)]


class ListApp(App):
    """The case list alone, recording the cases it selects."""

    def __init__(self, listed: list[Case]) -> None:
        super().__init__()
        self.listed = listed
        self.selected: list[str] = []

    def compose(self) -> ComposeResult:
        yield CaseList(self.listed, id="cases")

    def on_mount(self) -> None:
        self.query_one(CaseList).focus()

    def on_case_list_selected(self, message: CaseList.Selected) -> None:
        self.selected.append(message.case.id)


def lines(tree: CaseList) -> list[str]:
    return [line.node.label.plain for line in tree._tree_lines]


async def test_a_long_list_opens_with_the_first_family_expanded_and_the_others_collapsed():
    app = ListApp(cases())
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        tree = app.query_one(CaseList)
        shown = lines(tree)
        assert shown[0] == f"alpha ({PER_FAMILY})"
        assert len(shown) == 3 + PER_FAMILY   # three families, alpha's cases
        assert shown[-2:] == [f"bravo ({PER_FAMILY})", f"charlie ({PER_FAMILY})"]
        assert tree.border_title == f"Cases ({3 * PER_FAMILY})"
        assert tree.cursor_node.data.id == "alpha-0001" and app.selected == ["alpha-0001"]


async def test_the_down_key_walks_every_case_in_order_across_collapsed_families():
    listed = cases()
    app = ListApp(listed)
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        for _ in range(len(listed) + len(FAMILIES)):
            await pilot.press("down")
        await pilot.pause()
        assert app.selected == [c.id for c in listed]   # the next case, family after family
        tree = app.query_one(CaseList)
        assert all(n.is_expanded and len(n.children) == PER_FAMILY for n in tree.root.children)


async def test_up_onto_a_collapsed_family_lands_on_its_last_case_and_end_on_the_last_case():
    app = ListApp(cases())
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        tree = app.query_one(CaseList)
        assert tree.select_case("charlie-0001")   # a case of a collapsed family: it opens
        await pilot.pause()
        assert tree.cursor_node.data.id == "charlie-0001"
        assert not tree.root.children[1].is_expanded   # bravo, still collapsed
        await pilot.press("up", "up")
        await pilot.pause()
        assert tree.cursor_node.data.id == f"bravo-{PER_FAMILY:04d}"
        assert app.selected[-1] == f"bravo-{PER_FAMILY:04d}"
        await pilot.press("end")   # charlie is open: its last case
        await pilot.pause()
        assert tree.cursor_node.data.id == f"charlie-{PER_FAMILY:04d}"


async def test_end_goes_to_the_last_case_of_a_collapsed_last_family():
    app = ListApp(cases())
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        tree = app.query_one(CaseList)
        await pilot.press("end")
        await pilot.pause()
        assert tree.cursor_node.data.id == f"charlie-{PER_FAMILY:04d}"
        assert app.selected[-1] == f"charlie-{PER_FAMILY:04d}"
        assert not tree.root.children[1].is_expanded   # bravo, passed over, stays collapsed


async def test_expanding_a_collapsed_family_lists_its_cases_with_their_marks():
    app = ListApp(cases())
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        tree = app.query_one(CaseList)
        # Marks set while bravo is collapsed are on its cases once it opens.
        tree.set_marks(lint={"bravo-0002": "error", "alpha-0001": "warning"})
        bravo = tree.root.children[1]
        assert not bravo.children
        bravo.expand()
        await pilot.pause()
        assert [n.data.id for n in bravo.children] == [f"bravo-{i:04d}" for i in range(1, PER_FAMILY + 1)]
        assert bravo.children[1].label.plain.startswith("✘")
        assert tree.root.children[0].children[0].label.plain.startswith("▲")
        assert f"·  bravo-{PER_FAMILY:04d}" in lines(tree)


async def test_a_filter_to_a_few_cases_lists_them_all_expanded():
    app = ListApp(cases())
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        tree = app.query_one(CaseList)
        tree.filter_text = "-0007"
        tree.rebuild()
        await pilot.pause()
        assert lines(tree) == [x for f in FAMILIES for x in (f"{f} (1)", f"·  {f}-0007")]
        assert tree.border_title == f"Cases (3/{3 * PER_FAMILY})"
        # A filter that matches nothing says so (the list was empty, not a word), and how to widen it
        tree.filter_text = "zzzz"
        tree.failures_only = True
        tree.rebuild()
        await pilot.pause()
        assert lines(tree) == ["no case matches the filter:", "/ changes the text", "f shows every verdict"]
        assert tree.border_title == f"Cases (0/{3 * PER_FAMILY})"


@pytest.mark.slow
async def test_next_case_across_collapsed_families_opens_its_page():
    """The workbench itself, on the sample (34 cases) with its families collapsed: down from the
    first family's case reaches the next family's case, and its page is shown."""
    source = open_source(SAMPLE)
    app = WorkbenchApp(source)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(CaseList)
        families = tree.root.children
        assert families[0].is_expanded and not families[1].is_expanded
        first = families[0].children[-1].data
        assert tree.select_case(first.id)
        await settle(pilot)
        await pilot.press("down", "down")
        await settle(pilot)
        following = families[1].children[0].data
        assert following.trap_family != first.trap_family
        assert tree.cursor_node.data is following
        page = app.screen.query_one(PageView)
        assert page.border_title == following.id and page.rendered_page == 0


async def test_a_held_down_key_walks_into_a_collapsed_family_s_cases():
    """A held key (a burst of presses, each handled before the highlight's message): the family
    the cursor reaches opens at once, so the next press goes to its first case, not past it."""
    listed = cases()
    app = ListApp(listed)
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        tree = app.query_one(CaseList)
        for _ in range(len(listed) + len(FAMILIES)):
            tree.action_cursor_down()   # as the key bindings run them, with no pause between
        await pilot.pause()
        assert tree.cursor_node.data.id == listed[-1].id
        assert all(n.is_expanded and len(n.children) == PER_FAMILY for n in tree.root.children)


async def test_a_narrow_list_clips_long_names_without_a_scrollbar_row_over_the_cases():
    # At 100x30 the list is 40 columns wide; a horizontal scrollbar took its last row and showed
    # its thumb glyph among the case names.
    listed = [Case(id=f"incremental_update_shadow-{i:04d}-98d8c3", trap_family="incremental_update_shadow",
                   seed=i, question="What is the total?", expected_answer="$1.00") for i in range(1, 4)]
    app = ListApp(listed)
    async with app.run_test(size=(30, 12)) as pilot:
        await pilot.pause()
        tree = app.query_one(CaseList)
        assert tree.virtual_size.width > tree.size.width  # the names are longer than the list is wide
        assert not tree.show_horizontal_scrollbar
        assert tree.size.height == 12  # every row lists cases


async def test_case_files_not_read_are_counted_in_the_title_for_good(tmp_path):
    """A folder of cases some of which could not be read (malformed JSON) said so only in toasts
    that go: the list said "Cases (33)" as if that were all. Its title keeps the count."""
    from tests.support.fixtures import mini_copy

    suite = mini_copy(tmp_path)
    (suite / "suite.json").unlink()   # (a folder of case files: one that cannot be read is skipped)
    shutil.rmtree(suite / "runs", ignore_errors=True)
    cases = sorted(p for p in suite.glob("*.json"))
    for gone in cases[4:]:   # (four cases: the screen lints each one as it starts)
        gone.unlink()
        gone.with_suffix(".pdf").unlink(missing_ok=True)
    cases[0].write_text('{"id": "x", "question": "a\tb"}', encoding="utf-8")
    source = open_source(suite)
    app = WorkbenchApp(source)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(CaseList).border_title == f"Cases ({len(source.cases)}) · 1 not read"
