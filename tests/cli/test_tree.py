"""The command tree of a parser (workbench/cli/tree.py): its subcommands, and every command under
it depth first with its path, as completion and the conventions tests walk it."""

from __future__ import annotations

import argparse

from workbench.cli.tree import subparsers, walk


def test_every_command_under_a_parser_depth_first_with_its_path():
    top = argparse.ArgumentParser(prog="tool")
    sub = top.add_subparsers(dest="command")
    sub.add_parser("lint")
    dispute = sub.add_parser("dispute")
    actions = dispute.add_subparsers(dest="action")
    add = actions.add_parser("add")
    actions.add_parser("list")
    sub.add_parser("grade")
    assert list(subparsers(top)) == ["lint", "dispute", "grade"]
    assert [path for path, _ in walk(top)] == [("lint",), ("dispute",), ("dispute", "add"), ("dispute", "list"),
                                               ("grade",)]
    assert dict(walk(top))[("dispute", "add")] is add
    assert subparsers(add) == {} and list(walk(add)) == []


def test_the_real_parser_has_each_commands_actions_under_it():
    from workbench.cli import build_parser

    tree = dict(walk(build_parser()))
    assert {("dispute", a) for a in ("add", "list", "show", "decide")} <= set(tree)
    assert ("config", "limits") in tree and ("families",) in tree
