"""The command table (workbench/cli/commands.py): every command in --help's order with options
that build and a function that runs it, an action's function, and `--help` and a light command
importing no command's code."""

from __future__ import annotations


def test_every_command_of_the_table_runs_a_function_and_has_its_options():
    """Each entry of the command table names options that build and, for each command and action
    the parser has, a function that exists (resolved as dispatch resolves it)."""
    from workbench.cli import build_parser
    from workbench.cli.commands import COMMANDS, resolve
    from workbench.cli.tree import subparsers, walk

    parser = build_parser()
    assert list(subparsers(parser)) == [c.name for c in COMMANDS]
    for path, p in walk(parser):
        if not subparsers(p):
            assert callable(resolve(p.get_default("handler"))), path


def test_a_commands_target_is_its_function_or_its_actions():
    from workbench.cli.commands import BY_NAME, resolve

    assert BY_NAME["grade"].target() == "workbench.cli.grade:cmd_grade"
    assert BY_NAME["config"].target("limits") == "workbench.cli.config:cmd_limits"
    assert resolve("workbench.cli.tree:walk").__name__ == "walk"
    assert [c for c, command in BY_NAME.items() if command.light] == ["grade"]
