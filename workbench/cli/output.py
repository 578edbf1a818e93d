"""Printing helpers shared by commands: JSON to stdout, one-line messages to stderr."""

from __future__ import annotations

import json
import sys
from typing import Any


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


def note(message: str) -> None:
    print(message, file=sys.stderr)
