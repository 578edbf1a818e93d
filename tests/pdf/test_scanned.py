"""Visibility on scans (issue 38 item 3): a page that is a picture under an invisible text layer
hides only the words of the layer that the picture does not show (OCR of the rendered page does
not read them near their box: `not-in-scan`). The foreign scans are made here with pymupdf, as
an OCR tool makes them: a picture of rendered text, and a render-mode-3 layer over it."""

from __future__ import annotations

import json

import pymupdf
import pytest

from workbench.build.make import generate_case
from workbench.pdf.visibility import analyze_document, clear_cache

pytest.importorskip("rapidocr")
pytest.importorskip("onnxruntime")

PRINTED = [(72, 100, "INVOICE 2291"), (72, 140, "Vendor: Harbour Supplies Ltd."), (72, 180, "TOTAL DUE $4,711.00")]


def foreign_scan(layer: list[tuple[float, float, str]]) -> bytes:
    """A page that is a 150 DPI picture of PRINTED, with `layer` written over it invisibly."""
    src = pymupdf.open()
    page = src.new_page()
    for x, y, text in PRINTED:
        page.insert_text((x, y), text, fontsize=14)
    picture = page.get_pixmap(dpi=150).tobytes("png")
    doc = pymupdf.open()
    scan = doc.new_page()
    scan.insert_image(scan.rect, stream=picture)
    for x, y, text in layer:
        scan.insert_text((x, y), text, fontsize=14, render_mode=3)
    return doc.tobytes()


def verdicts(data: bytes) -> list[tuple[str, bool, list[str]]]:
    clear_cache()
    return [(s.text, s.visible, s.reasons) for p in analyze_document(data).pages for s in p.spans]


def test_a_foreign_ocr_layer_that_says_what_the_scan_shows_hides_nothing():
    assert verdicts(foreign_scan(PRINTED)) == [(t, True, []) for _, _, t in PRINTED]


def test_a_foreign_ocr_layer_that_says_something_else_hides_the_words_the_scan_does_not_show():
    layer = [(72, 100, "INVOICE 2291"), (72, 140, "Vendor: Lantern Supplies Ltd."), (72, 180, "TOTAL DUE $9,711.00")]
    hidden = ["invisible-render-mode", "not-in-scan"]
    assert verdicts(foreign_scan(layer)) == [
        ("INVOICE 2291", True, []),
        ("Vendor: ", True, []), ("Lantern", False, hidden), (" Supplies Ltd.", True, []),
        ("TOTAL DUE ", True, []), ("$9,711.00", False, hidden)]


def test_inspect_says_which_scanned_pages_are_past_the_pages_ocr_reads(cli, tmp_path):
    doc = pymupdf.open(stream=foreign_scan(PRINTED))
    doc.insert_pdf(pymupdf.open(stream=foreign_scan(PRINTED)))
    path = tmp_path / "scan.pdf"
    path.write_bytes(doc.tobytes())
    code, out, err = cli("inspect", path, "--json", "--limit", "scan_ocr_pages=1", "--jobs", "1")
    assert code == 0, err
    first, second = json.loads(out)["pages"]
    assert "skipped" not in first and [s["visible"] for s in first["spans"]] == [True] * 3
    assert "scan not read" in second["skipped"] and "--limit scan_ocr_pages=N" in second["skipped"]
    assert [s["visible"] for s in second["spans"]] == [False] * 3   # the drawing's verdict, as before


@pytest.mark.slow
@pytest.mark.parametrize(("family", "params", "hidden"), [
    ("invoice_extraction", {}, []),
    # The planted total, and only it: the scan prints the other total in its place.
    ("hidden_ocr_mismatch", {}, ["€53,919.68"]),
])
def test_a_mild_faithful_scan_of_our_cases_hides_only_what_its_picture_does_not_show(family, params, hidden):
    case, pdf = generate_case(family, 1, params, {"tier": "mild", "text_layer": "faithful"})
    spans = [s for p in analyze_document(pdf).pages for s in p.spans]
    assert len(spans) >= 18   # (before, every one of them was hidden: invisible-render-mode)
    assert [s.text for s in spans if not s.visible] == hidden
    assert all("not-in-scan" in s.reasons for s in spans if not s.visible)
    if hidden:
        assert case.forbidden_answers == hidden


SCAN_TIERS = """
name = "scan-tiers"
version = "1"

[[families]]
name = "hidden_ocr_mismatch"
seeds = 1
tier = "mild"
text_layer = "faithful"

[[families]]
name = "hidden_ocr_mismatch"
seeds = 1
tier = "moderate"
text_layer = "drifted"
params = { visible_total_layer = "text" }

[[families]]
name = "white_text_injection"
seeds = 1
tier = "mild"
text_layer = "faithful"

[[families]]
name = "book_scan_passage"
seeds = 1
params = { passage = "carroll", tier = "moderate" }
"""


@pytest.mark.slow
def test_lint_keeps_the_scan_traps_armed(cli, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SCAN_TIERS)
    # (one process: a spawned worker loads the OCR model again; the lint on several is test_pool's)
    assert cli("build", spec, "--out", tmp_path / "suite", "--jobs", "1")[0] == 0
    code, out, err = cli("lint", tmp_path / "suite", "--json", "--jobs", "1")
    assert code == 0, out + err
    assert [f for f in json.loads(out) if f["severity"] != "info"] == []
    # Without a text layer the decoy is gone, and the lint says so.
    code, out, err = cli("make", "hidden_ocr_mismatch", "--seed", "1", "--tier", "mild", "--text-layer", "none",
                       "--into", tmp_path / "gone")
    assert code != 0 and "trap-disarmed" in out + err


def test_a_scan_is_read_once_by_its_pixels_whatever_file_carries_it(monkeypatch):
    from workbench.pdf import ocr

    printed = foreign_scan(PRINTED)
    first = verdicts(printed)
    # The same page in a file whose bytes differ (other metadata): its pixels are the same, so
    # OCR is not asked again, and the verdicts are the same.
    doc = pymupdf.open(stream=printed)
    doc.set_metadata({"title": "another file"})
    other = doc.tobytes()
    assert other != printed
    monkeypatch.setattr(ocr, "_read_pixmap", lambda *a, **k: pytest.fail("OCR ran again on the same pixels"))
    assert verdicts(other) == first == [(t, True, []) for _, _, t in PRINTED]


@pytest.mark.slow
def test_ocr_of_a_page_without_text_is_an_empty_result_and_says_nothing_on_stderr(tmp_path):
    """rapidocr warned "The text detection result is empty" on stderr, in the middle of a
    command's output (exposure, inspect), for every blank page or clip it was given."""
    import subprocess
    import sys
    from pathlib import Path

    blank = tmp_path / "blank.pdf"
    doc = pymupdf.open()
    doc.new_page()
    doc.save(blank)
    script = ("import sys, pymupdf\nfrom workbench.pdf import ocr\n"
              "print(ocr._read(pymupdf.open(sys.argv[1])[0], 72))\n")
    proc = subprocess.run([sys.executable, "-c", script, str(blank)], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stderr
    assert "RapidOCR" not in proc.stderr and "detection result" not in proc.stderr, proc.stderr


@pytest.mark.slow
def test_what_ocr_read_on_a_page_is_kept_and_read_back_without_the_engine(monkeypatch, tmp_path):
    """What OCR read on a page (`ocr_page_lines`: attribution's look at a scan for a value no text
    layer holds, a second or more a region) is kept in the cache folder: a process that has not
    read the page gets the same lines without OCR (here: its memory and engines let go). An entry
    made into anything else, torn JSON, lines of another shape, a link to a file of the user's, is
    read again by OCR and replaced; the linked file is left as it was."""
    from workbench.pdf import ocr

    scan = foreign_scan([])
    read = ocr.ocr_page_lines(scan, 0, 72, "scan.pdf")
    assert any("4,711.00" in line.text for line in read)
    (entry,) = [p for p in ocr.ocr_cache().rglob("*.json")]

    def again(engines: bool = True) -> list:
        """The page read again by a process that has not read it (and has no engine loaded)."""
        monkeypatch.setattr(ocr, "_CACHE", type(ocr._CACHE)())
        if not engines:
            monkeypatch.setattr(ocr, "_engines", {})
        return ocr.ocr_page_lines(scan, 0, 72, "scan.pdf")

    assert again(engines=False) == read and ocr._engines == {}      # from the cache, no engine
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({**json.loads(entry.read_text()), "lines": [["$1.00", [0, 0, 1, 1]]]}))
    for damaged in ("{torn", json.dumps({"key": entry.stem, "lines": [["x", [1, 2]]]}), mine):
        entry.unlink()
        if isinstance(damaged, str):
            entry.write_text(damaged)
        else:
            entry.symlink_to(damaged)
        assert again() == read, damaged                                  # read again by OCR,
        assert not entry.is_symlink() and json.loads(entry.read_text())["key"] == entry.stem   # and kept
    assert json.loads(mine.read_text())["lines"] == [["$1.00", [0, 0, 1, 1]]]
    # A region of the page is an entry of its own.
    ocr.ocr_page_lines(scan, 0, 72, "scan.pdf", clip=(60.0, 80.0, 400.0, 200.0))
    assert len(list(ocr.ocr_cache().rglob("*.json"))) == 2
