"""The one home of a SHA-256 in hex (`workbench.core.case` names it too, where most callers look).

Its own module so that writing a file atomically (`core.atomic`) or a run record (`core.runs`)
does not load the typed case and its parts: the settings, which every command and the
workbench's first frame read, import `core.atomic`.
"""

from __future__ import annotations


def sha256_hex(data: bytes) -> str:
    """SHA-256 of `data` in hex; hashlib (OpenSSL's start, 3 ms) is loaded on the first hash, not
    by every command that reads a case (`grade` makes none)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()
