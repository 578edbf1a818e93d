"""Mutations on PDFs others made: written by pymupdf, pypdf and reportlab platypus, pages turned by
/Rotate 90, 180 and 270, encrypted by qpdf (AES-256, R6), a font dict written inline. Each input is
made by tests/support/foreign_pdfs.py; each result is checked as a user would see it: the text every
extractor reads and the pixels of the page as displayed. Each mutation's own checks on them are
tests/generators/test_<mutation>.py's (hidden_layer, tiny_print, redact_overlay, white_text)."""

from __future__ import annotations

import json

import pymupdf
import pytest

from tests.support.foreign_pdfs import (
    QUESTION,
    VALUE,
    adopt,
    glyph_boxes,
    gray,
    inline_font_pdf,
    line_dirs,
    mutated,
    pymupdf_turned,
    qpdf_encrypted,
    region,
    texts,
)
from workbench.core.contract import Arming

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
    # The mutated case keeps a decrypted copy of its source, so verify replays it with no password.
    kept = json.loads((suite / "doc-white_text-0001.json").read_text())["source"]
    assert kept["encryption"]["kept"] == "decrypted" and kept["sha256"] != sha256_hex(locked)
    with pymupdf.open(suite / kept["path"]) as doc:
        assert not doc.needs_pass
    code, out, err = cli("verify", suite)
    assert code == 0 and "2 of 2 match" in out, out + err


# ---- 9, 10: pages turned by /Rotate, free space, every glyph covered ---------------------------


@pytest.mark.parametrize("rotation", [90, 270])
def test_white_text_and_scan_on_a_turned_page(cli, tmp_path, rotation):
    source = pymupdf_turned(rotation)
    pdf, case, box = mutated(cli, tmp_path, source, "white_text", "method=white")
    decoy = case["forbidden_answers"][-1]
    assert all(decoy in t for t in texts(pdf).values())
    assert line_dirs(pdf, decoy) == {(1, 0)}
    assert (gray(pdf) == gray(source)).all()   # nothing a person sees changed
    scan, _, _ = mutated(cli, tmp_path / "scan", source, "scan")
    with pymupdf.open(stream=scan) as doc:
        assert doc[0].rect.width > doc[0].rect.height   # the page as displayed: landscape
    assert float(region(gray(scan), box).mean()) < 235  # the value is where it was shown
    assert all(VALUE in t for t in texts(scan).values())   # its faithful text layer, upright


def test_at_takes_a_box_of_the_displayed_page(cli, tmp_path):
    source = pymupdf_turned(90)
    code, _, err = adopt(cli, tmp_path, source, "doc")
    assert code == 0, err
    [*_, (x0, y0, x1, y1)] = [g for g in glyph_boxes(source, VALUE)]
    first = glyph_boxes(source, VALUE)[0]
    at = f"1:{first[0] - 1:.1f},{first[1] - 1:.1f},{x1 + 1:.1f},{y1 + 1:.1f}"
    code, out, err = cli("mutate", tmp_path / "suite" / "doc.json", "--trap", "hidden_layer", "--at", at)
    assert code == 0 and f"('{VALUE}')" in out, err


# ---- 11: the lint checks what each extractor reads ----------------------------------------------

@pytest.mark.parametrize(("x", "errors"), [
    (72, []),                                                    # on the page: both extractors read it
    (700, ["forbidden-not-in-every-text-layer"]),                # past the edge: pypdf alone reads it
])
def test_the_lint_says_which_extractor_misses_a_decoy_meant_for_every_text_layer(x, errors):
    from workbench.checks.lint import lint_case
    from workbench.core.case import Case

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), f"Total due: {VALUE}", fontsize=12)
    page.insert_text((x, 300), "Corrected figure: $999.00", fontsize=8, render_mode=3)
    data = doc.tobytes()
    case = Case(id="c", trap_family="adopted", seed=0, pdf_path="c.pdf", question=QUESTION,
                expected_answer=VALUE, forbidden_answers=["$999.00"],
                contract=(Arming("expected", "visible"), Arming("forbidden", "hidden"),
                          Arming("forbidden", "every_text_layer")))
    found = [f for f in lint_case(case, data) if f.severity == "error"]
    assert [f.code for f in found] == errors
    if errors:
        assert "as pymupdf extracts it; only pypdf reads it" in found[0].message


