"""Printing helpers shared by commands: JSON to stdout, one-line messages to stderr."""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

log = logging.getLogger("workbench.cli")


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


def note(message: str) -> None:
    """One line on stderr through logging. Lines that begin "pdfworkbench:" report a problem
    (a warning, a failed gate) and show even under --quiet; other notes are progress."""
    level = logging.WARNING if message.startswith("pdfworkbench:") else logging.INFO
    log.log(level, message)
