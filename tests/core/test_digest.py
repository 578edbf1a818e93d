"""The one SHA-256 in hex (workbench/core/digest.py): the digest of the bytes, the same function
where `core.case` names it, and no hashlib loaded until a first hash (a light command makes none)."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from workbench.core import case, digest


def test_the_digest_is_sha256_in_hex_and_core_case_names_the_same_function():
    assert digest.sha256_hex(b"") == hashlib.sha256(b"").hexdigest()
    assert digest.sha256_hex(b"%PDF-1.7\n") == hashlib.sha256(b"%PDF-1.7\n").hexdigest()
    assert case.sha256_hex is digest.sha256_hex


def test_importing_it_loads_no_hashlib_until_the_first_hash():
    code = ("import sys; from workbench.core.digest import sha256_hex; a = 'hashlib' in sys.modules; "
            "sha256_hex(b'x'); print(a, 'hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "True"], out.stderr
