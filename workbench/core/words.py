"""Words in output: a count with its noun in the right number."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`1 call`, `2 calls`, `0 calls` (`plural` for nouns that do not take an s)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
