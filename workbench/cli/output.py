"""Printing helpers shared by commands: JSON to stdout, one-line messages to stderr."""

from __future__ import annotations

import json
import sys
from typing import Any


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


def note(message: str) -> None:
    print(message, file=sys.stderr)


def add_jobs_option(p: Any, what: str = "local work") -> None:
    """`--jobs N`: processes for a command's local work (default every core; output unchanged)."""
    p.add_argument("--jobs", type=int, default=0, metavar="N",
                   help=f"processes for {what} (default 0: every core); the output does not depend on it")
