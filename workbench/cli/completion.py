"""Shell completion (bash, zsh, fish) generated from the parser by argcomplete.

`pdfworkbench completion SHELL` prints the script; at each TAB the shell runs pdfworkbench with
`_ARGCOMPLETE` set and `main` answers from the parser, completing family names, readers and
suite folders as well as commands and options.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import argcomplete
from argcomplete import shellcode

from workbench.cli.tree import walk


def cmd_completion(args: argparse.Namespace) -> int:
    sys.stdout.write(shellcode(["pdfworkbench"], shell=args.shell))
    return 0


# Each completer loads what it lists when the shell asks for it (a TAB): the family registry
# imports every family module, the readers the providers.
def complete_family(prefix: str, **_: object) -> list[str]:
    from workbench.build.make import family_registry

    return [n for n in family_registry().families if n.startswith(prefix)]


def complete_reader(prefix: str, **_: object) -> list[str]:
    from workbench.providers.base import known_readers

    return [r for r in known_readers() if r.startswith(prefix)]


def complete_suite(prefix: str, **_: object) -> list[str]:
    """Folders under the prefix's folder; suites (with suite.json) first, all folders to descend."""
    base = Path(prefix).expanduser()
    folder = base if prefix.endswith(os.sep) or prefix == "" else base.parent
    start = "" if prefix.endswith(os.sep) or prefix == "" else base.name
    try:
        entries = sorted(p for p in folder.iterdir() if p.is_dir() and p.name.startswith(start)
                         and not p.name.startswith("."))
    except OSError:
        return []
    shown = (str(folder / p.name) if str(folder) != "." or prefix.startswith("./") else p.name
             for p in entries)
    return [name + os.sep for name in shown]


# Which argument gets which completer: by dest, on every command that has one.
COMPLETERS = {"family": complete_family, "reader": complete_reader, "suite": complete_suite}


def attach_completers(parser: argparse.ArgumentParser) -> None:
    for _, child in [((), parser), *walk(parser)]:
        for action in child._actions:
            fn = COMPLETERS.get(action.dest)
            if fn is not None:
                action.completer = fn  # type: ignore[attr-defined]


def autocomplete(parser: argparse.ArgumentParser) -> None:
    """Answer a TAB (exits) when the shell asked for one; otherwise do nothing."""
    attach_completers(parser)
    argcomplete.autocomplete(parser, always_complete_options="long")
