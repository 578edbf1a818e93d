"""Printing helpers shared by commands: JSON to stdout, one-line messages to stderr."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("workbench.cli")


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


def print_json_stream(head: dict[str, Any], key: str, items: Iterable[Any],
                      tail: dict[str, Any] | None = None) -> None:
    """Print `{**head, key: list(items), **tail}` exactly as `print_json` would, writing each item
    as it comes, so a long list is never held in memory."""
    def enc(value: Any, level: int) -> str:
        return json.dumps(value, indent=2, ensure_ascii=False, default=str).replace("\n", "\n" + "  " * level)

    out = sys.stdout
    out.write("{\n")
    for k, v in head.items():
        out.write(f"  {enc(k, 0)}: {enc(v, 1)},\n")
    out.write(f"  {enc(key, 0)}: [")
    first = True
    for item in items:
        out.write(("\n    " if first else ",\n    ") + enc(item, 2))
        out.flush()
        first = False
    out.write("]" if first else "\n  ]")
    for k, v in (tail or {}).items():
        out.write(f",\n  {enc(k, 0)}: {enc(v, 1)}")
    out.write("\n}\n")
    out.flush()


def note(message: str) -> None:
    """One line on stderr through logging. Lines that begin "pdfworkbench:" report a problem
    (a warning, a failed gate) and show even under --quiet; other notes are progress."""
    level = logging.WARNING if message.startswith("pdfworkbench:") else logging.INFO
    log.log(level, message)


def add_jobs_option(p: Any, what: str = "local work") -> None:
    """`--jobs N`: processes for a command's local work (default every core; output unchanged)."""
    p.add_argument("--jobs", type=int, default=0, metavar="N",
                   help=f"processes for {what} (default 0: every core); the output does not depend on it")
