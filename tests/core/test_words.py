"""A count with its noun in the right number (workbench/core/words.py): what every command prints."""

from workbench.core.words import counted


def test_counted():
    assert [counted(n, "call") for n in (0, 1, 2)] == ["0 calls", "1 call", "2 calls"]
    assert counted(2, "family", "families") == "2 families" and counted(1, "family", "families") == "1 family"
