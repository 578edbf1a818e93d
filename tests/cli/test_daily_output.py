"""What plain (non-JSON) CLI output tells a newcomer: hidden text marked in `inspect`, each
family's parameters in `families`, the spec's fields in `build --help`, counts in the right number."""

from __future__ import annotations

import json
import re

FAMILY = "hidden_ocr_mismatch"


def test_plain_inspect_tags_the_hidden_text_in_each_layer_when_piped(cli, tmp_path):
    cli("make", FAMILY, "--seed", "1", "--out", tmp_path)
    pdf = tmp_path / f"{FAMILY}-0001.pdf"
    code, out, _ = cli("inspect", pdf)
    assert code == 0
    _, js, _ = cli("inspect", pdf, "--json")
    hidden = [s for s in json.loads(js)["pages"][0]["spans"] if not s["visible"]]
    assert hidden
    for span in hidden:  # each hidden span is followed by its reasons, in both layers
        tag = f"{span['text'].strip()} [hidden: {', '.join(span['reasons'])}]"
        assert out.count(tag) >= 2, (tag, out)
    assert "\x1b[" not in out  # piped: no colour codes


def test_plain_inspect_colours_the_hidden_text_on_a_terminal(tmp_path):
    from workbench.cli.inspection import HIDDEN_ANSI, mark_hidden_text

    spans = [{"text": "$9,999.00", "visible": False, "reasons": ["invisible render mode"]},
             {"text": "Total", "visible": True, "reasons": []}]
    text = "Total $1,250.00\nTotal $9,999.00"
    assert mark_hidden_text(text, spans, colour=True) == f"Total $1,250.00\nTotal {HIDDEN_ANSI}$9,999.00\x1b[0m"
    assert mark_hidden_text(text, spans, colour=False) == (
        "Total $1,250.00\nTotal $9,999.00 [hidden: invisible render mode]")


def test_families_prints_each_parameter_with_type_default_and_range(cli):
    code, out, _ = cli("families")
    assert code == 0
    _, js, _ = cli("families", "--json")
    fam = next(f for f in json.loads(js) if f["name"] == FAMILY)
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(FAMILY))
    block = lines[at + 1: at + 1 + len(fam["params"])]
    assert [line.split()[0] for line in block] == [p["name"] for p in fam["params"]]
    total = next(line for line in block if line.split()[0] == "visible_total")
    assert "float" in total and "100..99999.99" in total
    currency = next(line for line in block if line.split()[0] == "currency")
    assert "one of USD, EUR, GBP" in currency and "default" in currency


def test_build_help_documents_every_spec_field_and_tier(capsys):
    import pytest

    from workbench.cli import main
    from workbench.core.scan import TEXT_LAYERS, TIERS
    from workbench.core.schema import SPEC, SPEC_GROUP

    with pytest.raises(SystemExit) as done:
        main(["build", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for name in [*SPEC, *SPEC_GROUP]:
        assert re.search(rf"^\s+(\[\[)?{name}(\]\])?\b", out, re.M), name
    for word in [*TIERS, *TEXT_LAYERS]:
        assert word in out
    assert "examples:" in out  # the examples still follow


def test_one_call_is_one_call_not_one_calls(tmp_path):
    from workbench.core.words import counted

    assert (counted(1, "call"), counted(0, "call"), counted(3, "call")) == ("1 call", "0 calls", "3 calls")


def _actualtext_pdf(path, drawn: str, fontname: str, actual_utf16: bytes) -> None:
    """A page whose last text run (`drawn`) is wrapped in /ActualText (UTF-16BE hex)."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((40, 60), "Great work team", fontsize=12)
    page.insert_text((160, 60), drawn, fontsize=12, fontname=fontname)
    xref = page.get_contents()[-1]
    s = doc.xref_stream(xref)
    j = s.rindex(b"BT")
    k = s.index(b"ET", j) + 2
    s = s[:j] + b"/Span <</ActualText <FEFF" + actual_utf16.hex().upper().encode() + b">>> BDC\n" + s[j:k] + b"\nEMC\n" + s[k:]
    doc.update_stream(xref, s)
    doc.save(path)


def test_lint_is_quiet_about_an_emoji_glyph_whose_actualtext_is_the_emoji(cli, tmp_path):
    # A dingbat glyph (its layer reads "·") whose ActualText is a thumbs-up with a skin tone, as
    # document editors write emoji: a person sees the emoji, the layer says the emoji. No finding.
    _actualtext_pdf(tmp_path / "emoji.pdf", "\u2708", "zadb", "\U0001F44D\U0001F3FD".encode("utf-16-be"))
    code, out, _ = cli("lint", tmp_path / "emoji.pdf")
    assert code == 0
    assert out.splitlines() == ["0 error(s), 0 warning(s), 0 info in 0 case(s) with findings"]


def test_lint_still_reports_an_emoji_actualtext_that_replaces_a_drawn_amount(cli, tmp_path):
    _actualtext_pdf(tmp_path / "amount.pdf", "$500.00", "helv", "\U0001F44D".encode("utf-16-be"))
    code, out, _ = cli("lint", tmp_path / "amount.pdf")
    assert "hidden-text" in out and "ActualText replaces the drawn text" in out


def test_a_terminal_that_cannot_encode_a_euro_gets_an_escape_not_a_traceback():
    """Under a Latin-1 or ASCII locale (or PYTHONIOENCODING, or a Windows code page in a pipe),
    an amount in euros ended `report` and `inspect` in a UnicodeEncodeError."""
    import os
    import subprocess
    import sys

    from tests.support.fixtures import ROOT, SAMPLE

    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    for argv in (["report", str(SAMPLE / "runs" / "probe-pypdf.jsonl")],
                 ["inspect", str(SAMPLE / "hidden_ocr_mismatch-0001.pdf")]):
        ran = subprocess.run([sys.executable, "-m", "workbench", *argv], capture_output=True, text=True,
                             encoding="ascii", errors="strict", env=env, cwd=ROOT, timeout=120)
        assert ran.returncode in (0, 1) and "Traceback" not in ran.stderr, ran.stderr[-800:]
        assert "\\u20ac" in ran.stdout   # (the euro, written as an escape)
