"""The suite's cases grouped by family, with a lint mark and the latest verdict of one reader."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from workbench.core.case import Case
from workbench.grading.outcome import Outcome
from workbench.tui.tiers import tier_summary, tiers_help
from workbench.tui.widgets.marks import LINT_MARKS, MARKS, legend, mark_of

# More cases listed than this, and the families start collapsed but the one with the case shown,
# and a family's cases join the tree when it is expanded: Textual lays out every line of a tree
# on each change to it, and a 1,276-case suite's 1,305 lines took a fifth of a second before the
# first page (seven layouts). A family expands when the cursor reaches its line, so the arrow keys
# still walk through every case.
COLLAPSE_FROM = 200


def scan_line(case: Case) -> str:
    """A scanned case's tier and what it does, short (the list's border); '' for a case not scanned."""
    if case.degrade is None:
        return ""
    return f"{case.degrade.tier} scan: {tier_summary(case.degrade.tier, short=True)}"


class CaseList(Tree[Case]):
    """A tree of families and their cases; highlighting a case selects it."""

    HELP = f"""
## Cases

The suite's cases, grouped by family. The first mark is the lint status ({legend(LINT_MARKS)});
the second the latest outcome of the current reader ({legend(MARKS)}). A list of more than
{COLLAPSE_FROM} cases opens with only the shown case's family expanded; a family opens when the
cursor reaches it.

- **↑ ↓ / j k**: move through cases (the page and panes follow)
- **space**: fold or unfold the family under the cursor
- **/**: filter by text; **f**: failures only (wrong, trap or refused: scored answers that did not
  pass, as the report counts them); **escape** clears the filter

A scanned case's tier shows under the list while it is highlighted. The tiers:

{tiers_help()}
"""

    # A long name is cut at the border: a horizontal scrollbar took the last row of a narrow list
    # (at 100x30) and its thumb showed among the case names.
    DEFAULT_CSS = "CaseList { overflow-x: hidden; }"

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="case_down", tooltip="The next case (or ↓)"),
        Binding("k", "cursor_up", "Up", show=False, id="case_up", tooltip="The previous case (or ↑)"),
    ]

    @dataclass
    class Selected(Message):
        """A case was chosen in the list."""

        case_list: CaseList
        case: Case

        @property
        def control(self) -> CaseList:
            return self.case_list

    def __init__(self, cases: list[Case], unread: int = 0, **kwargs) -> None:
        # (a Text: a string label is read as Rich markup, which loads Rich's emoji table, about
        # 3 ms of the first frame)
        super().__init__(Text("cases"), **kwargs)
        self.show_root = False
        self.guide_depth = 2
        self._cases = cases
        self.unread = unread   # files of the folder not read as cases (said in the title for good)
        self._case_nodes: dict[str, TreeNode[Case]] = {}
        # Collapsed families whose cases are not in the tree yet (COLLAPSE_FROM), by node id.
        self._unlisted: dict[int, tuple[TreeNode[Case], list[Case]]] = {}
        self._family_nodes: dict[str, TreeNode[Case]] = {}
        self.lint: dict[str, str] = {}
        self.outcomes: dict[str, Outcome] = {}
        self.filter_text = ""
        self.failures_only = False
        self.family: str | None = None

    def on_mount(self) -> None:
        self.rebuild(select=self._cases[0].id if self._cases else None)

    def visible_cases(self) -> list[Case]:
        text = self.filter_text.lower()
        out = []
        for case in self._cases:
            if self.family and case.trap_family != self.family:
                continue
            if self.failures_only and not (case.id in self.outcomes and self.outcomes[case.id].failed):
                continue
            if text and text not in f"{case.id} {case.trap_family} {case.question}".lower():
                continue
            out.append(case)
        return out

    def _label(self, case: Case) -> Text:
        lint = LINT_MARKS[self.lint.get(case.id)]
        outcome = self.outcomes.get(case.id)
        mark = (mark_of(outcome).symbol, mark_of(outcome).style) if outcome else (" ", "")
        return Text.assemble((lint.symbol, lint.style), mark, " ", case.id)

    def rebuild(self, select: str | None = None) -> None:
        current = select or (self.cursor_node.data.id if self.cursor_node and self.cursor_node.data else None)
        self.clear()
        self._case_nodes = {}
        self._unlisted = {}
        self._family_nodes = {}
        cases = self.visible_cases()
        families: dict[str, list[Case]] = {}
        for case in cases:
            families.setdefault(case.trap_family, []).append(case)
        ordered = sorted(families.items())
        # Listed in full: every family of a short list; of a long one, the family of the case to
        # select (or the first family, as the cursor goes to its first case).
        listed = next((c.trap_family for c in cases if c.id == current), ordered[0][0] if ordered else None)
        collapse = len(cases) > COLLAPSE_FROM
        for family, members in ordered:
            label = Text.assemble(family, (f" ({len(members)})", "dim"))
            if collapse and family != listed:
                branch = self.root.add(label, expand=False)
                self._unlisted[branch.id] = (branch, members)
                for case in members:
                    self._family_nodes[case.id] = branch
                continue
            branch = self.root.add(label, expand=True)
            for case in members:
                self._case_nodes[case.id] = branch.add_leaf(self._label(case), data=case)
        shown = len(cases)
        total = len(self._cases)
        self.border_title = (f"Cases ({shown}/{total})" if shown != total else f"Cases ({total})") + \
            (f" · {self.unread} not read" if self.unread else "")
        if total and not shown:   # (an empty list said nothing; the page shows the case last chosen)
            ways = [f"({self.family} only)"] if self.family else []
            ways += ["/ changes the text"] if self.filter_text else []
            ways += ["f shows every verdict"] if self.failures_only else []
            for line in ["no case matches the filter:", *ways]:   # (a line each: the list is narrow)
                self.root.add_leaf(Text(line, style="dim italic"))
        if not self._case_nodes:
            return
        target = self._case_nodes.get(current or "") or next(iter(self._case_nodes.values()))
        self.call_after_refresh(self.move_cursor, target)

    def _list_family(self, branch: TreeNode[Case]) -> bool:
        """Add a collapsed family's cases to the tree (once); whether there were any to add."""
        unlisted = self._unlisted.pop(branch.id, None)
        if unlisted is None:
            return False
        for case in unlisted[1]:
            self._case_nodes[case.id] = branch.add_leaf(self._label(case), data=case)
            self._family_nodes.pop(case.id, None)
        return True

    def _node_of(self, case_id: str) -> TreeNode[Case] | None:
        """The case's node, its family expanded and listed if it was not."""
        branch = self._family_nodes.get(case_id)
        if branch is not None:
            self._list_family(branch)
            branch.expand()
            self._tree_lines  # noqa: B018 - lays the lines out now, so the node has its line
        return self._case_nodes.get(case_id)

    def select_case(self, case_id: str) -> bool:
        node = self._node_of(case_id)
        if node is None and (self.filter_text or self.failures_only or self.family):
            self.filter_text, self.failures_only, self.family = "", False, None
            self.rebuild(select=case_id)
            return case_id in self._case_nodes
        if node is not None:
            self.move_cursor(node)
        return node is not None

    def set_marks(self, lint: dict[str, str] | None = None, outcomes: dict[str, Outcome] | None = None) -> None:
        """New lint marks (of some cases) or verdicts (of all): the lines of the cases whose marks
        changed are labelled again (the lint's marks come eight cases at a time: each batch
        relabelled every line)."""
        changed: set[str] = set()
        if lint is not None:
            changed |= {case_id for case_id, mark in lint.items() if self.lint.get(case_id) != mark}
            self.lint.update(lint)
        if outcomes is not None:
            before, self.outcomes = self.outcomes, dict(outcomes)
            changed |= {case_id for case_id in before.keys() | self.outcomes.keys()
                        if before.get(case_id) != self.outcomes.get(case_id)}
        for case_id in changed:
            node = self._case_nodes.get(case_id)
            if node is not None:
                node.set_label(self._label(node.data))
        if outcomes is not None and self.failures_only:
            self.rebuild()

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Case]) -> None:
        event.stop()
        node = event.node
        if self._list_family(node):  # the cursor reached a collapsed family: it opens
            node.expand()
        elif node.data is not None:
            self.border_subtitle = scan_line(node.data)
            self.post_message(self.Selected(self, node.data))

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Case]) -> None:
        self._list_family(event.node)  # space, a click, or expand-all

    def _open_unlisted_line(self, line: int) -> None:
        """Expand the collapsed family on `line` (if it is one) and lay the tree out again."""
        node = self._get_node(line) if line >= 0 else None
        if node is not None and self._list_family(node):
            node.expand()
            self._tree_lines  # noqa: B018 - the cursor's line moves below the family's cases

    def action_cursor_down(self) -> None:
        super().action_cursor_down()
        # Onto a collapsed family: it opens now, not when the highlight's message is handled, or
        # the next press of a held key would skip its cases for the family after it.
        self._open_unlisted_line(self.cursor_line)

    def action_cursor_up(self) -> None:
        # Up from a family onto a collapsed one lands on its last case, as with every family open.
        if self.cursor_line > 0:
            self._open_unlisted_line(self.cursor_line - 1)
        super().action_cursor_up()

    def action_scroll_end(self) -> None:
        self._open_unlisted_line(self.last_line)  # End: the last case, not its family's line
        super().action_scroll_end()
