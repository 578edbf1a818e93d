"""Per-page forensics: `--pages`, the default cap, streaming, the page cache and its bound, the
per-page pixel bound, and evidence boxes in `inspect --json` (the boxes the Inspect screen draws)."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import SAMPLE, reportlab_pages
from workbench.core.errors import UserError
from workbench.pdf.pages import PdfPages, parse_pages


def pymupdf_drawn_pages(n: int) -> bytes:
    """Pages written with pymupdf directly: a filled grey box behind text on every page, so the
    visibility check needs the text-free render (the page is edited) and a white span on page 2."""
    import pymupdf

    doc = pymupdf.open()
    for p in range(n):
        page = doc.new_page()
        page.draw_rect(pymupdf.Rect(60, 60, 400, 200), color=None, fill=(0.8, 0.8, 0.8))
        page.insert_text((72, 100), f"Box page {p + 1} total 1,234.56", fontsize=12)
        if p == 1:
            page.insert_text((72, 150), "hidden on grey", fontsize=12, color=(0.8, 0.8, 0.8))
    data = doc.tobytes()
    doc.close()
    return data


def test_parse_pages_ranges_all_and_default_cap():
    assert parse_pages("1-3,7,2", 10) == ([0, 1, 2, 6], "")
    assert parse_pages("all", 5000) == (list(range(5000)), "")
    assert parse_pages("8-20", 10) == ([7, 8, 9], "")
    chosen, left_out = parse_pages(None, 1500)
    assert chosen == list(range(1000)) and "first 1000 pages of 1500" in left_out and "--pages all" in left_out
    assert parse_pages(None, 1500, cap=None) == (list(range(1500)), "")
    for bad in ("0", "3-1", "x", "1-", "12"):
        with pytest.raises(UserError, match="--pages"):
            parse_pages(bad, 10)


def test_inspect_pages_selects_and_streams_the_same_json(cli, tmp_path):
    pdf = tmp_path / "report.pdf"
    reportlab_pages(pdf, 6, hidden_on=5)
    code, out, err = cli("inspect", pdf, "--json", "--pages", "2,5-6", "--jobs", "1")
    assert code == 0, err
    report = json.loads(out)
    assert report["page_count"] == 6 and [p["number"] for p in report["pages"]] == [2, 5, 6]
    assert "Page 2 of the report" in report["pages"][0]["text"]["pymupdf"]
    five = report["pages"][1]
    assert five["hidden_spans"] == 1
    assert [b["kind"] for b in five["boxes"]] == ["hidden"] and "SECRET" in five["boxes"][0]["text"]
    # Written as it streams, yet byte for byte what one json.dumps of the whole would print.
    assert out == json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    assert cli("inspect", pdf, "--json", "--pages", "2,5-6", "--jobs", "2")[1] == out


def test_bare_pdf_stops_at_the_cap_and_says_so(cli, tmp_path):
    pdf = tmp_path / "long.pdf"
    reportlab_pages(pdf, 5, hidden_on=4)
    # (one process: pages on several are test_lint_of_pages_on_two_jobs_matches_one's)
    code, out, err = cli("inspect", pdf, "--json", "--limit", "inspect_pages=3", "--jobs", "1")
    report = json.loads(out)
    assert len(report["pages"]) == 3 and "first 3 pages of 5" in report["pages_left_out"]
    assert "first 3 pages of 5" in err
    code, out, _ = cli("lint", pdf, "--limit", "inspect_pages=3", "--jobs", "1")
    assert "pages-limited" in out and "first 3 pages of 5" in out and "SECRET" not in out
    code, out, _ = cli("lint", pdf, "--pages", "all", "--jobs", "1")
    assert "pages-limited" not in out and "page 4: 'SECRET INSTRUCTION" in out
    code, out, _ = cli("inspect", pdf, "--pages", "all", "--json", "--jobs", "1")
    assert len(json.loads(out)["pages"]) == 5


def test_a_case_stops_at_the_cap_as_a_bare_pdf_does(cli, tmp_path):
    """A case whose PDF is long (adopted from a 10,000-page file, say) is inspected as the bare
    PDF is: the first `inspect_pages` pages, a line saying what was left out, --pages for more."""
    import hashlib

    pdf = tmp_path / "long.pdf"
    reportlab_pages(pdf, 5, hidden_on=4)
    case = json.loads((SAMPLE / "white_text_injection-0001.json").read_text(encoding="utf-8"))
    case.update(pdf_path=pdf.name, sha256=hashlib.sha256(pdf.read_bytes()).hexdigest())
    case_json = tmp_path / "long.json"
    case_json.write_text(json.dumps(case), encoding="utf-8")
    code, out, err = cli("inspect", case_json, "--json", "--limit", "inspect_pages=3", "--jobs", "1")
    report = json.loads(out)
    assert code == 0 and report["case_id"] == "white_text_injection-0001"
    assert [p["number"] for p in report["pages"]] == [1, 2, 3] and "first 3 pages of 5" in err
    code, out, err = cli("inspect", case_json, "--limit", "inspect_pages=3", "--jobs", "1")
    assert "5 page(s) (stopped at the first 3 pages of 5;" in out and "=== page 4" not in out
    assert "stopped at" not in err   # (said once: the output's first line)
    code, out, _ = cli("inspect", case_json, "--pages", "all", "--limit", "inspect_pages=3", "--jobs", "1")
    assert "=== page 5" in out and "SECRET INSTRUCTION" in out


def test_pages_with_a_key_or_a_suite_is_one_line(cli):
    code, _, err = cli("lint", SAMPLE, "--pages", "1")
    assert code == 2 and "--pages goes with a bare PDF" in err


def test_lint_of_pages_on_two_jobs_matches_one(cli, tmp_path):
    pdf = tmp_path / "drawn.pdf"
    pdf.write_bytes(pymupdf_drawn_pages(9))
    one = cli("lint", pdf, "--jobs", "1")
    two = cli("lint", pdf, "--jobs", "2")
    assert one == two and "page 2: 'hidden on grey' is hidden (no-contrast)" in one[1]


def test_page_cache_is_bounded_and_a_page_read_again_is_the_same(tmp_path):
    """Pages whose text was removed for the bare render are analysed again on a fresh document."""
    data = pymupdf_drawn_pages(12)
    with PdfPages(data, "drawn.pdf", 150, cache_pages=3) as pdf:
        assert pdf.page_count == 12
        first = pdf.page(1)
        assert first.analysis.edited and [s.text for s in first.analysis.hidden] == ["hidden on grey"]
        for i in range(12):
            pdf.page(i)
        assert len(pdf._cache) == 3 and pdf.cached(1) is None
        again = pdf.page(1)
        assert again is not first
        assert [s.to_json() for s in again.analysis.spans] == [s.to_json() for s in first.analysis.spans]
        assert again.texts == first.texts and "Box page 2" in again.texts["pymupdf"]
        pdf.prefetch(5)
        ahead = pdf.page(5)
        assert pdf.cached(5) is ahead
        with pytest.raises(UserError, match="no page 13"):
            pdf.page(12)


def test_same_verdicts_page_by_page_as_whole_document(tmp_path):
    from workbench.pdf.visibility import analyze_document, clear_cache

    data = pymupdf_drawn_pages(4)
    clear_cache()
    whole = analyze_document(data, 150)
    with PdfPages(data, "drawn.pdf", 150) as pdf:
        for pa in whole.pages:
            assert [s.to_json() for s in pdf.page(pa.page).analysis.spans] == [s.to_json() for s in pa.spans]


def test_a_page_over_the_pixel_bound_is_skipped_with_a_line(cli, tmp_path):
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=14400, height=14400)  # 200 x 200 inches, the largest PDF page
    page.insert_text((100, 100), "A very large page", fontsize=40)
    doc.new_page().insert_text((72, 72), "A normal page", fontsize=12)
    pdf = tmp_path / "huge.pdf"
    doc.save(pdf)
    code, out, err = cli("lint", pdf)
    assert "WARNING" in out and "page-skipped" in out and "page 1: pixels not checked" in out
    assert "200 x 200 in at 150 DPI" in out and "million" in out
    code, out, err = cli("inspect", pdf, "--json")
    pages = json.loads(out)["pages"]
    assert "over the" in pages[0]["skipped"] and "skipped" not in pages[1]
    assert pages[0]["spans"][0]["text"] == "A very large page"


def test_a_page_past_the_time_budget_is_judged_by_its_operators_and_says_so(cli, tmp_path):
    """The per-page time budget (the `page_seconds` limit, 20 s) set to nothing: every page runs past
    it, so no page's pixels are checked. Each page says so, in lint and in inspect, and the grey
    text on a grey box that only the pixels show to be hidden is not called hidden."""
    from workbench.pdf import visibility

    pdf = tmp_path / "drawn.pdf"
    pdf.write_bytes(pymupdf_drawn_pages(2))
    code, out, err = cli("inspect", pdf, "--json")
    hidden = [s["text"] for s in json.loads(out)["pages"][1]["spans"] if not s["visible"]]
    assert code == 0 and hidden == ["hidden on grey"]  # within the budget the pixels show it

    visibility.clear_cache()
    nothing = ("--limit", "page_seconds=1e-9")
    code, out, err = cli("lint", pdf, "--jobs", "1", *nothing)
    assert "page-skipped" in out and "page 2:" in out and "took over 1e-09 s" in out
    assert "visibility from the drawing operators only" in out and "--limit page_seconds=N" in out
    code, out, err = cli("inspect", pdf, "--json", "--jobs", "1", *nothing)
    pages = json.loads(out)["pages"]
    assert all("spans took over 1e-09 s" in p["skipped"] for p in pages)
    assert all(s["visible"] for p in pages for s in p["spans"])


def test_inspect_json_of_a_case_has_its_evidence_boxes(cli):
    case_json = SAMPLE / "white_text_injection-0001.json"
    case = json.loads(case_json.read_text())
    code, out, err = cli("inspect", case_json, "--json")
    assert code == 0, err
    boxes = json.loads(out)["pages"][0]["boxes"]
    kinds = {b["kind"] for b in boxes}
    assert {"expected", "forbidden", "hidden"} <= kinds
    forbidden = [b for b in boxes if b["kind"] == "forbidden"]
    assert all(b["text"] in case["forbidden_answers"] for b in forbidden)
    assert all(len(b["bbox"]) == 4 and b["bbox"][0] < b["bbox"][2] for b in boxes)


def test_hidden_stretches_of_thousands_of_hidden_spans_are_each_place_once_with_the_first_why():
    """`inspect` marks a layer's hidden text: 2,000 hidden spans of one text took 154 s (each place
    compared with each found, for each span); now each text is looked for once."""
    from workbench.pdf.pages import hidden_stretches

    found = hidden_stretches("$5.00 " * 2000, [("$5.00", "white on white")] * 2000 + [("$5.00", "tiny")])
    assert len(found) == 2000 and {why for _, _, why in found} == {"white on white"}
    assert found[:2] == [(0, 5, "white on white"), (6, 11, "white on white")]
    assert hidden_stretches("a total of 5 and b 5", [("5", "tiny"), ("total of 5", "white")]) == \
        [(11, 12, "tiny"), (19, 20, "tiny")]
