"""Command-line entry point: argument parsing only; every command calls into the packages.

Each area registers its subcommands from its own module here, so areas don't collide.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from workbench import __version__
from workbench.core.errors import UserError

# Modules with a `register(subparsers)` function, in the order their commands are listed.
COMMAND_MODULES = (
    "workbench.cli.cases",
    "workbench.cli.forensics",
    "workbench.cli.grading",
    "workbench.cli.readers",
    "workbench.cli.gold",
    "workbench.cli.authoring",
    "workbench.cli.app",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line and exit 2, like every other user error
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = _Parser(
        prog="pdfworkbench",
        description="A workbench for adversarial PDF test cases. With no command, opens the workbench.",
    )
    parser.add_argument("--version", action="version", version=f"pdfworkbench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    commands = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    # `pdfworkbench [PATH]` is `pdfworkbench open [PATH]`.
    global_flags = {"-h", "--help", "--version"}
    if not argv or (argv[0] not in commands and argv[0] not in global_flags):
        argv = ["open", *argv]
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return int(handler(args) or 0)
    except UserError as exc:
        print(f"pdfworkbench: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("pdfworkbench: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        from workbench.pdf.document import is_pdf_error

        if not is_pdf_error(exc):
            raise  # a bug: keep the traceback
        # A PDF library tripping over a hostile file somewhere past the opening checks.
        print(f"pdfworkbench: error: broken PDF ({str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__});"
              " check the file or regenerate it", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
