"""The command tree of an argument parser: its subcommands, and every command under it."""

from __future__ import annotations

import argparse
from collections.abc import Iterator


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
         ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """(command path, parser) for every command below `parser`, depth first."""
    for name, child in subparsers(parser).items():
        yield (*path, name), child
        yield from walk(child, (*path, name))
