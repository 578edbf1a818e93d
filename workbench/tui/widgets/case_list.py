"""The suite's cases, grouped by family."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from workbench.core.case import Case


class CaseList(Tree[Case]):
    """A tree of families and their cases; highlighting a case selects it."""

    BINDINGS = [
        ("j", "cursor_down", "Down"),
        ("k", "cursor_up", "Up"),
    ]

    @dataclass
    class Selected(Message):
        case_list: CaseList
        case: Case

        @property
        def control(self) -> CaseList:
            return self.case_list

    def __init__(self, cases: list[Case], **kwargs) -> None:
        super().__init__("cases", **kwargs)
        self.show_root = False
        self.guide_depth = 2
        self._cases = cases
        self._case_nodes: dict[str, TreeNode[Case]] = {}

    def on_mount(self) -> None:
        self.border_title = f"Cases ({len(self._cases)})"
        families: dict[str, list[Case]] = {}
        for case in self._cases:
            families.setdefault(case.trap_family, []).append(case)
        for family, cases in sorted(families.items()):
            branch = self.root.add(f"{family} [dim]({len(cases)})[/]", expand=True)
            for case in cases:
                self._case_nodes[case.id] = branch.add_leaf(case.id, data=case)
        self.move_to_first_case()

    def move_to_first_case(self) -> None:
        if self._cases:
            first = next(iter(self._case_nodes.values()))
            self.call_after_refresh(self.move_cursor, first)

    def select_case(self, case_id: str) -> None:
        node = self._case_nodes.get(case_id)
        if node is not None:
            self.move_cursor(node)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Case]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.Selected(self, event.node.data))
