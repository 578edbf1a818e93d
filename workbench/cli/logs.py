"""--verbose and --quiet, behind the standard `logging` module; library warnings shown once.

Our own messages go to the `workbench` logger and print as they are (one line on stderr).
Libraries' warnings (pypdf prints "fontTools is required ..." once per font per page) are
collected while a command runs and shown at the end, one line per distinct warning with a count;
`-vv` shows each one as it happens instead.
"""

from __future__ import annotations

import logging
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

OUR_LOGGERS = ("workbench",)

log = logging.getLogger("workbench.cli")


def note(message: str) -> None:
    """One line on stderr through logging. Lines that begin "pdfworkbench:" report a problem
    (a warning, a failed gate) and show even under --quiet; other notes are progress."""
    level = logging.WARNING if message.startswith("pdfworkbench:") else logging.INFO
    log.log(level, message)


class _Stderr:
    """sys.stderr looked up at each write: Textual and pytest swap it while we run."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


class _Redacting(logging.Formatter):
    """No API key reaches stderr, whoever logs it (a library may log a URL or a header)."""

    def format(self, record: logging.LogRecord) -> str:
        return _redact(super().format(record))


def _redact(text: str) -> str:
    """`providers.config.redact`, loaded with the first line said: a command that logs nothing
    never pays for `workbench.providers`' 50 modules."""
    from workbench.providers.config import redact

    return redact(text) or ""


def _is_ours(name: str) -> bool:
    return name.split(".", 1)[0] in OUR_LOGGERS


class WarningCollector(logging.Handler):
    """Counts library warnings by (library, message template); keeps the first one's text."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: dict[tuple[str, str], list] = {}

    def emit(self, record: logging.LogRecord) -> None:
        if _is_ours(record.name):
            return
        library = record.name.split(".", 1)[0]
        key = (library, str(record.msg))
        entry = self.seen.get(key)
        if entry is None:
            try:
                text = record.getMessage()
            except Exception:  # a library's own formatting bug must not stop the command
                text = str(record.msg)
            text = text.splitlines()[0] if text else ""
            self.seen[key] = [text if len(text) <= 300 else text[:299] + "…", 1]
        else:
            entry[1] += 1

    def summary(self) -> list[str]:
        lines = []
        for (library, _), (text, count) in self.seen.items():
            times = f" ({count:,} times)" if count > 1 else ""
            lines.append(f"pdfworkbench: warning: {library}: {text}{times}")
        return lines


def _show_python_warning(message, category, filename, lineno, file=None, line=None) -> None:
    # `warnings.warn` from a library: log it under the library's top-level package name.
    module = "python"
    for marker in ("site-packages/", "dist-packages/"):
        if marker in filename:
            module = filename.split(marker, 1)[1].split("/", 1)[0].removesuffix(".py")
            break
    logging.getLogger(module).warning("%s: %s", category.__name__, message)


def levels(verbosity: int) -> tuple[int, int]:
    """(our level, libraries' level) for -q (-1), the default (0), -v (1) and -vv (2)."""
    if verbosity < 0:
        return logging.WARNING, logging.WARNING
    if verbosity == 0:
        return logging.INFO, logging.WARNING
    if verbosity == 1:
        return logging.DEBUG, logging.INFO
    return logging.DEBUG, logging.DEBUG


@contextmanager
def cli_logging(verbosity: int = 0) -> Iterator[WarningCollector]:
    """Set up logging for one command; on the way out print the collected library warnings."""
    ours, libraries = levels(verbosity)
    console = logging.StreamHandler(_Stderr())
    console.setFormatter(_Redacting("%(message)s"))
    library_console = logging.StreamHandler(_Stderr())
    library_console.setFormatter(_Redacting("%(name)s: %(levelname)s: %(message)s"))
    # Below -vv, library warnings go to the collector only; -v shows their INFO lines live.
    library_console.addFilter(lambda r: not _is_ours(r.name)
                              and (verbosity >= 2 or r.levelno < logging.WARNING))
    collector = WarningCollector()

    root = logging.getLogger()
    saved = (root.level, root.handlers[:], warnings.showwarning)
    our_saved = [(logging.getLogger(n), logging.getLogger(n).level, logging.getLogger(n).propagate,
                  logging.getLogger(n).handlers[:]) for n in OUR_LOGGERS]
    root.handlers = [library_console] if verbosity >= 1 else []
    if verbosity < 2:
        root.addHandler(collector)
    root.setLevel(libraries)
    for logger, *_ in our_saved:
        logger.handlers = [console]
        logger.setLevel(ours)
        logger.propagate = False
    warnings.showwarning = _show_python_warning
    try:
        yield collector
    finally:
        warnings.showwarning = saved[2]
        root.handlers = saved[1]
        root.setLevel(saved[0])
        for logger, level, propagate, handlers in our_saved:
            logger.handlers, logger.propagate = handlers, propagate
            logger.setLevel(level)
        if collector.seen:
            for line in collector.summary():
                print(_redact(line), file=sys.stderr)


def progress_shown() -> bool:
    """Whether progress lines are wanted (not under --quiet)."""
    return logging.getLogger("workbench.cli").isEnabledFor(logging.INFO)
