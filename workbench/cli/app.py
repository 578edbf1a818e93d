"""Commands that start the workbench: open (the default) and serve."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("open", help="open the workbench on a suite, a case JSON, a PDF or a run (default)")
    p.add_argument("path", nargs="?", type=Path, help="default: the shipped sample suite")
    p.set_defaults(handler=cmd_open)


def sample_suite_path() -> Path:
    return Path(__file__).resolve().parents[2] / "sample_cases" / "mini"


def cmd_open(args: argparse.Namespace) -> int:
    from workbench.core.source import open_source

    source = open_source(args.path or sample_suite_path())  # errors out before the screen takes over
    from workbench.tui.app import WorkbenchApp

    WorkbenchApp(source).run()
    return 0
