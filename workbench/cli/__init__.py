"""Command-line entry point: argument parsing only; every command calls into the packages.

Each area registers its subcommands from its own module here, so areas don't collide.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from workbench import __version__
from workbench.cli.tree import subparsers, walk
from workbench.core.errors import UserError

if TYPE_CHECKING:
    from workbench.core.config import Settings

# Modules with a `register(subparsers)` function, in the order their commands are listed.
COMMAND_MODULES = (
    "workbench.cli.cases",
    "workbench.cli.adopt",
    "workbench.cli.forensics",
    "workbench.cli.grading",
    "workbench.cli.readers",
    "workbench.cli.mcp",
    "workbench.cli.exposure",
    "workbench.cli.batchjobs",
    "workbench.cli.gold",
    "workbench.cli.authoring",
    "workbench.cli.app",
    "workbench.cli.config",
    "workbench.cli.completion",
)

EXIT_CODES = """\
exit codes:
  0    ok
  1    findings: a wrong answer, lint errors, a mismatch, a gate (--fail-threshold) failed
  2    usage or input error (one line on stderr says what to do)
  129  the workbench's terminal went away (its window closed, the connection dropped)
  130  interrupted (Ctrl-C)"""

# Values of options that take text (answers, prompts, rationales) may begin with '-'.
DASH_VALUES = """\
a value that begins with '-' is taken as it is (--answer '-$1,234.56' or --answer=-$1,234.56);
--answer - (and --prompt -, --question -, --rationale -) reads the text from stdin"""

class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line and exit 2, like every other user error
        self.exit(2, f"{self.prog}: error: {message}\n")


def _add_global_options(p: argparse.ArgumentParser, top: bool) -> None:
    """-v, -q and --env-file; on every subcommand too, with SUPPRESS defaults so a flag given
    before the command stands. A command that uses one of these names for itself keeps it."""
    g = p.add_argument_group("output (on every command)")
    flags = [
        (("-v", "--verbose"), {"action": "count", "default": 0,
                               "help": "more detail on stderr (-vv: every library message as it happens)"}),
        (("-q", "--quiet"), {"action": "store_true", "default": False,
                             "help": "only warnings and errors on stderr"}),
        (("--env-file",), {"type": Path, "metavar": "FILE", "default": None,
                           "help": "load API keys and base URLs from this .env file "
                                   "(never written; variables already set win)"}),
        (("--limit",), {"action": "append", "metavar": "NAME=N", "default": None,
                        "help": "raise a budget or size cap for a truly huge input "
                                "(`pdfworkbench config limits` lists them)"}),
    ]
    for names, kwargs in flags:
        if not top:
            kwargs = {**kwargs, "default": argparse.SUPPRESS}
        try:
            g.add_argument(*names, **kwargs)
        except argparse.ArgumentError:
            pass


# Commands whose start-up is measured (issue 40: `grade` is called once per answer by CI jobs):
# named first, their module alone registers (argparse's building of every command was a third of
# `grade`'s start); `pdfworkbench --help` and every other command build them all.
REGISTER_ALONE = {"grade": "workbench.cli.grading"}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with `only` (a module of COMMAND_MODULES) that module's commands alone."""
    import importlib

    from workbench.cli.examples import EXAMPLES

    parser = _Parser(
        prog="pdfworkbench",
        description="A workbench for adversarial PDF test cases. With no command, opens the workbench "
                    "(`pdfworkbench PATH` opens PATH).",
        epilog=f"{EXIT_CODES}\n\n{DASH_VALUES}\n\n`pdfworkbench COMMAND --help` shows a command's "
               "options and examples.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"pdfworkbench {__version__}")
    _add_global_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in (only,) if only else COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    for path, child in walk(parser):
        _add_global_options(child, top=False)
        examples = EXAMPLES.get(" ".join(path))
        if examples and not child.epilog:
            lines = "\n".join(f"  {line}" for line in examples)
            child.epilog = f"examples:\n{lines}\n\n{EXIT_CODES}"
            child.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def command_names(parser: argparse.ArgumentParser) -> list[str]:
    return list(subparsers(parser))


def _open_or_unknown(argv: list[str], commands: list[str]) -> list[str]:
    """`pdfworkbench PATH` is `pdfworkbench open PATH`; a word that is neither is an error."""
    first = argv[0]
    if first in commands:
        return argv
    looks_like_path = Path(first).exists() or os.sep in first or "/" in first or \
        Path(first).suffix.lower() in {".pdf", ".json", ".jsonl", ".toml"}
    if looks_like_path:
        return ["open", *argv]
    import difflib

    close = difflib.get_close_matches(first, commands, n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    raise UserError(f"unknown command {first!r} (and no file or folder of that name to open); "
                    f"{hint}`pdfworkbench --help` lists the commands")


def _target(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The (sub)command parser that the words name: `dispute add ...` -> the `dispute add` parser."""
    target = parser
    for word in argv:
        children = subparsers(target)
        if word not in children:
            break
        target = children[word]
    return target


def _unrecognised(parser: argparse.ArgumentParser, argv: list[str], extras: list[str]) -> UserError:
    import difflib

    target = _target(parser, argv)
    options = [s for a in target._actions for s in a.option_strings if s.startswith("--")]
    hint = ""
    for word in extras:
        if word.startswith("--"):
            close = difflib.get_close_matches(word.split("=", 1)[0], options, n=1, cutoff=0.6)
            if close:
                hint = f"; did you mean {close[0]}?"
                break
    return UserError(f"unrecognized arguments: {' '.join(extras)}{hint} "
                     f"(`{target.prog} --help` lists the options)")


def _join_dash_values(argv: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """`--answer -$5` -> `--answer=-$5`: an option that takes one value takes the next word,
    as getopt does, even when it begins with '-' (argparse alone would call it an option)."""
    takes_value: set[str] = set()
    for action in _target(parser, argv)._actions:
        if action.option_strings and action.nargs is None and action.type in (None, str):
            takes_value.update(s for s in action.option_strings if s.startswith("--"))
    out: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if word == "--":
            out.extend(argv[i:])
            break
        if word in takes_value and nxt is not None and nxt.startswith("-") and nxt != "-":
            out.append(f"{word}={nxt}")
            i += 2
            continue
        out.append(word)
        i += 1
    return out


_STDIN_TEXT = ("answer", "prompt", "question", "rationale")


def _read_stdin_values(args: argparse.Namespace) -> None:
    wanted = [name for name in _STDIN_TEXT if getattr(args, name, None) == "-"]
    if len(wanted) > 1:
        raise UserError(f"only one of {', '.join('--' + n for n in wanted)} can read stdin")
    for name in wanted:
        setattr(args, name, sys.stdin.read())


def _leading_global_flags(argv: list[str]) -> int:
    """How many words at the start are output flags (-v, -q, --env-file FILE) given before the command."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in ("--env-file", "--limit"):
            i += 2
        elif word.startswith(("--env-file=", "--limit=")) or word in ("--verbose", "--quiet") or \
                (len(word) > 1 and word[0] == "-" and word[1:] and set(word[1:]) <= {"v", "q"}):
            i += 1
        else:
            break
    return min(i, len(argv))


def _parse(argv: list[str]) -> argparse.Namespace:
    i = _leading_global_flags(argv)
    rest = argv[i:]
    completing = bool(os.environ.get("_ARGCOMPLETE"))
    parser = build_parser(None if completing or not rest else REGISTER_ALONE.get(rest[0]))
    if completing:
        from workbench.cli.completion import autocomplete

        autocomplete(parser)
    commands = command_names(parser)
    if not rest:
        rest = ["open"]
    elif rest[0] in ("-h", "--help", "--version"):
        pass
    elif rest[0].startswith("-"):
        rest = ["open", *rest]  # `pdfworkbench --graphics hires`
    else:
        rest = _open_or_unknown(rest, commands)
    words = argv[:i] + _join_dash_values(rest, parser)
    args, extras = parser.parse_known_args(words)
    if extras:
        raise _unrecognised(parser, rest, extras)
    return args


def _load_env_file(args: argparse.Namespace, settings: Settings) -> None:
    """--env-file, else config.json's `env_file`: opt-in, read only (the config's, when it cannot
    be read, is a warning: a setting stops no command)."""
    if args.env_file is not None:
        from workbench.providers.envfile import load_env_file

        load_env_file(Path(args.env_file))
        return
    path = settings.env_file
    if path:
        # (only then: `workbench.providers` is 50 modules every command without a .env paid for)
        from workbench.providers.envfile import load_env_file

        try:
            load_env_file(Path(path))
        except UserError as exc:
            print(f"pdfworkbench: warning: config.json env_file: {exc}; no keys read from it",
                  file=sys.stderr)


def _warn_settings(settings: Settings) -> None:
    """A config.json that cannot be used is said once, on stderr, for every command."""
    problem = settings.problem
    if problem:
        print(f"pdfworkbench: warning: {problem}", file=sys.stderr)


def _apply_limits(args: argparse.Namespace, settings: Settings) -> None:
    """config.json's `limits`, then --limit (the flag wins)."""
    from workbench.core import limits

    values: dict[str, int | float] = {}
    configured = settings.limits
    for name, value in (configured.items() if isinstance(configured, dict) else ()):
        try:
            values.update([limits.parse_override(f"{name}={value}")])
        except UserError as exc:
            print(f"pdfworkbench: warning: config.json limits: {exc}", file=sys.stderr)
    for text in getattr(args, "limit", None) or ():
        values.update([limits.parse_override(text)])
    limits.for_command(values)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:  # one-shot: no command module is needed to say it
        print(f"pdfworkbench {__version__}")
        return 0
    try:
        args = _parse(argv)
    except UserError as exc:
        print(f"pdfworkbench: error: {exc}", file=sys.stderr)
        return exc.exit_code
    from workbench.cli.logs import cli_logging  # after parsing: --help needs no logging

    verbosity = -1 if args.quiet else min(int(args.verbose or 0), 2)
    handler: Callable[[argparse.Namespace], int] = args.handler
    with cli_logging(verbosity):
        try:
            from workbench.core.config import load_settings

            settings = load_settings()  # once: the warning, the limits and the .env all read it
            _warn_settings(settings)
            _apply_limits(args, settings)
            _load_env_file(args, settings)
            _read_stdin_values(args)
            return int(handler(args) or 0)
        except UserError as exc:
            from workbench.providers.config import redact

            print(f"pdfworkbench: error: {redact(str(exc))}", file=sys.stderr)   # it may quote a provider
            return exc.exit_code
        except KeyboardInterrupt:
            print("pdfworkbench: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:
            return 0
        except OSError as exc:
            from workbench.core.files import os_error_line

            line = os_error_line(exc)  # a full disk, a read-only folder, a name too long
            if line is None:
                raise
            print(f"pdfworkbench: error: {line}", file=sys.stderr)
            return 2
        except Exception as exc:
            from workbench.pdf.document import is_pdf_error

            if not is_pdf_error(exc):
                raise  # a bug: keep the traceback
            # A PDF library tripping over a hostile file somewhere past the opening checks.
            first = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            print(f"pdfworkbench: error: broken PDF ({first}); check the file or regenerate it",
                  file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
