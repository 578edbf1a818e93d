"""Mutations on PDFs others made: written by pymupdf, pypdf and reportlab platypus, pages turned by
/Rotate 90, 180 and 270, encrypted by qpdf (AES-256, R6), a font dict written inline. Each input is
made here; each result is checked as a user would see it: the text every extractor reads and the
pixels of the page as displayed."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest
from pypdf import PdfReader

VALUE = "$1,234.56"
QUESTION = "What is the total due?"


# ---- foreign inputs ------------------------------------------------------------------------

def inline_font_pdf(text: bytes = b"Total due: $1,234.56") -> bytes:
    """A one-page PDF written by hand whose font dict is inline in the page's resources (no xref)."""
    content = b"BT /F1 12 Tf 72 700 Td (" + text + b") Tj ET"
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font "
        b"<< /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def qpdf_encrypted(tmp_path: Path, data: bytes, user: str, owner: str = "owner-pw") -> bytes:
    """`data` encrypted by qpdf with AES-256 (R6); `user` "" for an owner-password-only PDF."""
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf is not installed (apt-get install qpdf; .ci/run installs it)")
    src, out = tmp_path / "plain-for-qpdf.pdf", tmp_path / "qpdf-out.pdf"
    src.write_bytes(data)
    subprocess.run(["qpdf", "--encrypt", user, owner, "256", "--", str(src), str(out)], check=True)
    return out.read_bytes()


def texts(data: bytes, page: int = 0) -> dict[str, str]:
    """What each extractor we have reads on `page`."""
    with pymupdf.open(stream=data) as doc:
        fitz = doc[page].get_text()
    return {"pymupdf": fitz, "pypdf": PdfReader(io.BytesIO(data)).pages[page].extract_text()}


def adopt(cli, tmp_path: Path, data: bytes, name: str, *extra: str, expected: str = VALUE):
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(data)
    return cli("adopt", pdf, "--into", tmp_path / "suite", "--question", QUESTION, "--expected", expected,
               *extra)


# ---- 12: encrypted input, one rule -------------------------------------------------------------

def test_an_r6_owner_password_pdf_with_an_inline_font_adopts_lints_and_mutates(cli, tmp_path):
    locked = qpdf_encrypted(tmp_path, inline_font_pdf(), user="")
    code, out, err = adopt(cli, tmp_path, locked, "inline")
    assert code == 0, err
    assert "Traceback" not in err and "owner password only): kept as it is" in out
    suite = tmp_path / "suite"
    case = json.loads((suite / "inline.json").read_text())
    assert case["source"]["encryption"] == {"method": "Standard V5 R6 256-bit AES",
                                            "password": "owner only", "kept": "as it is"}
    assert (suite / "inline.pdf").read_bytes() == locked  # the user's file, byte for byte
    for command in ("inspect", "lint"):
        code, _, err = cli(command, tmp_path / "inline.pdf")
        assert code == 0 and "Traceback" not in err, err
    code, out, err = cli("mutate", suite / "inline.json", "--trap", "hidden_layer")
    assert code == 0, err
    assert "is written without encryption" in out
    made = suite / "inline-hidden_layer-0001.pdf"
    with pymupdf.open(made) as doc:
        assert not (doc.metadata or {}).get("encryption")
    decoy = json.loads(made.with_suffix(".json").read_text())["forbidden_answers"][-1]
    assert all(decoy in t for t in texts(made.read_bytes()).values())
    code, out, err = cli("verify", suite)
    assert code == 0 and "2 of 2 match" in out, out + err


def test_a_user_password_pdf_asks_for_it_in_one_line_and_is_kept_decrypted(cli, tmp_path):
    locked = qpdf_encrypted(tmp_path, inline_font_pdf(), user="user-pw")
    code, out, err = adopt(cli, tmp_path, locked, "locked")
    assert code == 2 and err.count("\n") == 1 and "give --password" in err and "Traceback" not in err
    for command in ("inspect", "lint"):
        code, _, err = cli(command, tmp_path / "locked.pdf")
        assert code == 2 and err.count("\n") == 1 and "give --password" in err, err
    code, _, err = cli("inspect", tmp_path / "locked.pdf", "--password", "wrong")
    assert code == 2 and "check --password" in err
    code, out, err = adopt(cli, tmp_path, locked, "locked", "--password", "user-pw")
    assert code == 0, err
    assert "user password): kept decrypted" in out
    suite = tmp_path / "suite"
    kept = (suite / "locked.pdf").read_bytes()
    with pymupdf.open(stream=kept) as doc:
        assert not doc.needs_pass and not (doc.metadata or {}).get("encryption")
    assert "user-pw" not in (suite / "locked.json").read_text()  # no password is written down
    assert json.loads((suite / "locked.json").read_text())["source"]["encryption"]["password"] == "user"
    code, out, err = cli("mutate", suite / "locked.json", "--trap", "hidden_layer")
    assert code == 0 and "without encryption" not in out, err
    assert cli("verify", suite)[0] == 0


def test_mutate_of_a_source_that_needs_a_password_takes_the_same_password(cli, tmp_path):
    from workbench.core.case import sha256_hex

    plain = inline_font_pdf()
    assert adopt(cli, tmp_path, plain, "doc")[0] == 0
    suite = tmp_path / "suite"
    # A suite whose adopted copy still needs its password (adopted by an older version, or by hand).
    locked = qpdf_encrypted(tmp_path, plain, user="user-pw")
    (suite / "doc.pdf").write_bytes(locked)
    raw = json.loads((suite / "doc.json").read_text())
    raw["sha256"] = raw["source"]["sha256"] = sha256_hex(locked)
    (suite / "doc.json").write_text(json.dumps(raw))
    code, _, err = cli("mutate", suite / "doc.json", "--trap", "white_text")
    assert code == 2 and err.count("\n") == 1 and "give --password" in err and "Traceback" not in err
    code, out, err = cli("mutate", suite / "doc.json", "--trap", "white_text", "--password", "user-pw")
    assert code == 0, err
    made = (suite / "doc-white_text-0001.pdf").read_bytes()
    with pymupdf.open(stream=made) as doc:
        assert not doc.needs_pass and "Total due" in doc[0].get_text()
