"""Running a parsed command: the settings (a warning for a broken config.json, its limits and
.env file), logging, the command's function from the command table, and its errors as one line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.cli.commands import BY_NAME, resolve
from workbench.core import collector, files, limits
from workbench.core.config import Settings, load_settings
from workbench.core.errors import UserError
from workbench.core.files import os_error_line

# Options whose text may be read from stdin (`--answer -`).
_STDIN_TEXT = ("answer", "prompt", "question", "rationale")


def _read_stdin_values(args: argparse.Namespace) -> None:
    wanted = [name for name in _STDIN_TEXT if getattr(args, name, None) == "-"]
    if len(wanted) > 1:
        raise UserError(f"only one of {', '.join('--' + n for n in wanted)} can read stdin")
    for name in wanted:   # (as bytes: text that is not UTF-8 is one line, as a file's is)
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        setattr(args, name, files.decode(data, "stdin", f"--{name} -"))


def _load_env_file(args: argparse.Namespace, settings: Settings) -> None:
    """--env-file, else config.json's `env_file`: opt-in, read only (the config's, when it cannot
    be read, is a warning: a setting stops no command)."""
    path = args.env_file if args.env_file is not None else settings.env_file
    if not path:
        return
    # Only then: `workbench.providers` is 50 modules every command without a .env would pay for.
    from workbench.providers.envfile import load_env_file

    if args.env_file is not None:
        load_env_file(Path(args.env_file))
        return
    try:
        load_env_file(Path(path))
    except UserError as exc:
        print(f"pdfworkbench: warning: config.json env_file: {exc}; no keys read from it", file=sys.stderr)


def _warn_settings(settings: Settings) -> None:
    """A config.json that cannot be used is said once, on stderr, for every command."""
    problem = settings.problem
    if problem:
        print(f"pdfworkbench: warning: {problem}", file=sys.stderr)


def _apply_limits(args: argparse.Namespace, settings: Settings) -> None:
    """config.json's `limits`, then --limit (the flag wins)."""
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


def verbosity(args: argparse.Namespace) -> int:
    """-q: -1; the default: 0; -v: 1; -vv (or more): 2."""
    return -1 if args.quiet else min(int(args.verbose or 0), 2)


def run_command(args: argparse.Namespace) -> int:
    """Run the command `args` were parsed for; its exit code (errors a user can cause: one line).
    On a terminal, what the command writes shows the control characters of the text it prints
    (a PDF's layers, an answer, a message quoting either) rather than sending them
    (`text.terminal`); the workbench's screen does the same for what it draws."""
    streams = sys.stdout, sys.stderr
    if args.command != "open" and any(s.isatty() for s in streams):
        from workbench.text.terminal import ShownControls

        sys.stdout, sys.stderr = (ShownControls(s) if s.isatty() else s for s in streams)
    try:
        return _logged(args)
    finally:
        sys.stdout, sys.stderr = streams


def _logged(args: argparse.Namespace) -> int:
    if BY_NAME[args.command].light:   # it sets up logging itself, if a library loads (`Command.light`)
        return _run(args)
    # (logging, for every command but the light ones: see `Command.light`)
    from workbench.cli.logs import cli_logging

    with cli_logging(verbosity(args)):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """The settings, then the command; errors a user can cause as one line."""
    try:
        settings = load_settings()  # once: the warning, the limits and the .env all read it
        _warn_settings(settings)
        _apply_limits(args, settings)
        _load_env_file(args, settings)
        _read_stdin_values(args)
        handler = resolve(args.handler)
        collector.resume()   # (paused while a light command's modules were imported: `cli.main`)
        return int(handler(args) or 0)
    except UserError as exc:
        # (providers' redaction, loaded for an error alone: it may quote a provider's reply)
        from workbench.providers.config import redact

        print(f"pdfworkbench: error: {redact(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("pdfworkbench: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        line = os_error_line(exc)  # a full disk, a read-only folder, a name too long
        if line is None:
            raise
        print(f"pdfworkbench: error: {line}", file=sys.stderr)
        return 2
    except Exception as exc:
        # (the PDF layer, loaded for an error alone: a command that read no PDF raised no PDF error)
        from workbench.pdf.document import is_pdf_error

        if not is_pdf_error(exc):
            raise  # a bug: keep the traceback
        # A PDF library tripping over a hostile file somewhere past the opening checks.
        first = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        print(f"pdfworkbench: error: broken PDF ({first}); check the file or regenerate it",
              file=sys.stderr)
        return 2
