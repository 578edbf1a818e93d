"""Command-line entry point: parsing the words, then running the command they name.

The command table (`workbench.cli.commands`) names each command's options and its function;
only the command typed is built in full and imported (`pdfworkbench --help` builds none), and
what runs it (`workbench.cli.dispatch`) is imported once --help and --version have answered.
The program itself (its script, `python -m workbench`) is `run`: `main`, then the process's end.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
import types
from _thread import allocate_lock
from collections.abc import Sequence
from pathlib import Path

from workbench import __version__
from workbench.cli.commands import BY_NAME, COMMANDS, Command, resolve
from workbench.cli.examples import EXAMPLES
from workbench.cli.tree import subparsers, walk
from workbench.core import collector
from workbench.core.errors import UserError
from workbench.core.process import cap_library_threads, end_now, only_thread

EXIT_CODES = """\
exit codes:
  0    ok
  1    a check failed: a wrong answer, lint errors, a mismatch, a gate (--fail-threshold)
  2    usage or input error (one line on stderr says what to do)
  129  the workbench's terminal went away (its window closed, the connection dropped)
  130  interrupted (Ctrl-C)"""

# Values of options that take text (answers, prompts, rationales) may begin with '-'.
DASH_VALUES = """\
a value that begins with '-' is taken as it is (--answer '-$1,234.56' or --answer=-$1,234.56);
--answer - (and --prompt -, --question -, --rationale -) reads the text from stdin"""

def _columns() -> int:
    """`shutil.get_terminal_size().columns`, without shutil's import (zlib, bz2 and lzma with it:
    2 ms of `grade`'s start), which argparse makes for the first option a parser adds."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line and exit 2, like every other user error
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse's own (3.11-3.13) with the width it would find (less its margin of 2): see `_columns`
        return self.formatter_class(prog=self.prog, width=_columns() - 2)


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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command (`only` None: completion, tests), of the one command `only`
    names, or ("") of none: every command a name and a help line, all `pdfworkbench --help` lists.
    (Each parser argparse makes costs about 0.1 ms, mostly gettext looking for translations:
    building every command was a third of `grade`'s start.)"""
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
    for command in COMMANDS if not only else (BY_NAME[only],):
        p = sub.add_parser(command.name, help=command.help)
        if only != "":
            _fill(command, p)
    return parser


def _fill(command: Command, p: argparse.ArgumentParser) -> None:
    """A command's options (and its actions'), the function each runs, the output options and
    the examples that end each one's --help."""
    resolve(command.options)(p)
    for path, child in [((command.name,), p), *walk(p, (command.name,))]:
        if not subparsers(child):
            child.set_defaults(handler=command.target(path[1] if len(path) > 1 else None))
        _add_global_options(child, top=False)
        examples = EXAMPLES.get(" ".join(path))
        if examples and not child.epilog:
            lines = "\n".join(f"  {line}" for line in examples)
            child.epilog = f"examples:\n{lines}\n\n{EXIT_CODES}"
            child.formatter_class = argparse.RawDescriptionHelpFormatter


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
    import difflib  # a mistyped word only: `grade` and the other one-shots never load it

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
    import difflib  # a mistyped option only (see `_open_or_unknown`)

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
    if os.environ.get("_ARGCOMPLETE"):
        # The shell asks for completions (a TAB): argcomplete answers from the whole parser and exits.
        from workbench.cli.completion import autocomplete

        autocomplete(build_parser())
    if not rest:
        rest = ["open"]
    elif rest[0] in ("-h", "--help", "--version"):
        pass
    elif rest[0].startswith("-"):
        rest = ["open", *rest]  # `pdfworkbench --graphics hires`
    else:
        rest = _open_or_unknown(rest, list(BY_NAME))
    parser = build_parser(rest[0] if rest[0] in BY_NAME else "")
    words = argv[:i] + _join_dash_values(rest, parser)
    args, extras = parser.parse_known_args(words)
    if extras:
        raise _unrecognised(parser, rest, extras)
    return args


class _InspectOnFirstUse(types.ModuleType):
    """Stands in for `inspect` until something reads from it, then imports it (see `_defer_inspect`)."""

    def __getattr__(self, name: str):
        with _IMPORT_LOCK:
            if sys.modules.get("inspect") is self:
                del sys.modules["inspect"]
        return getattr(importlib.import_module("inspect"), name)


_IMPORT_LOCK = allocate_lock()   # (`threading` is not loaded yet: its `Lock` is this)


def _defer_inspect() -> None:
    """`inspect` (with ast, dis and tokenize: a fifth of what `grade` adds to a bare interpreter's
    start) is imported when something first uses it, not when `dataclasses` imports it: dataclasses
    (3.11-3.13) uses it only to write the docstring of a class that has none, and every dataclass
    `grade` reads has one (tests/cli/test_start_imports.py checks that it never loads inspect).
    For the light commands alone (`Command.light`), in a process that has imported neither yet."""
    if "inspect" in sys.modules or "dataclasses" in sys.modules:
        return
    spec = importlib.util.find_spec("inspect")
    stand_in = _InspectOnFirstUse("inspect")
    stand_in.__spec__ = spec    # (read by the import statement: a module not being initialised)
    sys.modules["inspect"] = stand_in


def _argparse_untranslated() -> None:
    """argparse's own words (`usage:`, `options`, its errors) as written, in English like every
    other line the workbench prints. It looks each one up in the system's message catalogues
    (gettext's default domain, which no catalogue of argparse's fills) at every use, the first
    importing `locale`: 2 ms of a `grade`'s 49, 4% of it. (Its methods read the module's names
    `_` and `ngettext` at each call; an argparse without those names is left as it is.)"""
    if hasattr(argparse, "_") and hasattr(argparse, "ngettext"):
        argparse._ = lambda message: message
        argparse.ngettext = lambda singular, plural, n: singular if n == 1 else plural


_light_ran = False   # the last `main` ran a light command (`Command.light`): see `run`


def _unencodable_escaped() -> None:
    """Where stdout or stderr cannot encode every character (a Latin-1 or ASCII locale, a
    PYTHONIOENCODING, a Windows code page in a pipe), what it cannot is written as `\\u20ac`
    escapes: an amount in euros or a check mark ended a report in a traceback."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if encoding not in ("utf8", "utf16", "utf32") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    global _light_ran
    _light_ran = False   # (set below for a light command: `run` ends its process at once)
    _unencodable_escaped()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:  # one-shot: no command module is needed to say it
        print(f"pdfworkbench {__version__}")
        return 0
    _argparse_untranslated()
    try:
        args = _parse(argv)
    except UserError as exc:
        print(f"pdfworkbench: error: {exc}", file=sys.stderr)
        return exc.exit_code
    if BY_NAME[args.command].light:
        _light_ran = True
        _defer_inspect()
        collector.pause()   # while its modules load: `dispatch._run` resumes it before it runs
    try:
        # What runs a command (settings, limits, logging, its errors): --help and --version have
        # exited by now and need none of it.
        from workbench.cli.dispatch import run_command

        return run_command(args)
    finally:
        collector.resume()   # (a start that failed)


def run() -> None:
    """The program: `main`, then the end of the process. After a light command the end skips the
    interpreter's finalization (every module torn down, every object freed: about 6 ms of
    `grade`'s 50, and 80 ms of `grade --explain`'s 350 with pymupdf and numpy loaded) as
    `os._exit` does, once the exit handlers have run (logs flushed) and stdout and stderr are
    flushed; the exit code is the same. Not while another thread runs (an exit waits for it), nor
    when a flush fails (a closed pipe: the usual end says so as before), nor for other commands,
    which may leave files or processes for the finalization to close. Before anything, the math
    libraries' threads are capped (`core.process.cap_library_threads`), for its workers too."""
    cap_library_threads()
    code = main()
    if _light_ran and only_thread():
        end_now(code, strict=True)   # returns only when a flush failed
    sys.exit(code)


if __name__ == "__main__":
    run()
