"""The HTML report: one self-contained page (nothing it could fetch), the same bytes from the same
runs, the header, the charts, and a card per case answered wrong with its page crop and boxes."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import SAMPLE
from workbench.grading.loading import load_cases, load_runs
from workbench.grading.outcome import WRONG_ANSWERS
from workbench.grading.report import SuiteRef, build_report

pytest.importorskip("vl_convert", reason="the HTML report needs the report extra (vl-convert-python)")
pytest.importorskip("jinja2", reason="the HTML report needs the report extra (jinja2)")

from workbench.checks import page_crop  # noqa: E402
from workbench.checks.crops import evidence_crops  # noqa: E402
from workbench.checks.page_crop import evidence_crop  # noqa: E402
from workbench.grading.html import report_context, report_html  # noqa: E402

RUNS = sorted((SAMPLE / "runs").glob("*.jsonl"))


@pytest.fixture(scope="module")
def sample():
    cases, suites = load_cases([SAMPLE])
    report = build_report(load_runs(RUNS), cases)
    report.suite = SuiteRef(suites[0].name, suites[0].recorded_hash, str(SAMPLE))
    wrong = sorted({r.case_id for run in report.runs for r in run.rows if r.outcome in WRONG_ANSWERS})
    crops = dict(evidence_crops([cases[c] for c in wrong], jobs=1))
    return report, cases, crops


def _external_references(page: str) -> list[str]:
    """Every reference the page could load something from (none should be left)."""
    found = re.findall(r'\b(?:src|href|action|poster|data)\s*=\s*"([^"]*)"', page)
    found += re.findall(r"url\(\s*['\"]?([^'\")]+)", page)
    found += re.findall(r"@import[^;]*", page)
    return [ref for ref in found if not ref.startswith(("data:", "#"))]   # "#id": within the page


def test_the_page_holds_everything_and_refers_to_nothing_outside(sample):
    report, cases, crops = sample
    page = report_html(report, crops).decode("utf-8")
    assert _external_references(page) == []
    assert "<link" not in page and "<iframe" not in page
    assert "default-src 'none'" in page          # the browser is told to fetch nothing at all
    assert page.count("<svg") >= 3 + len([c for c in crops.values() if c])   # charts + one per crop


def test_same_runs_give_the_same_bytes(sample):
    report, cases, crops = sample
    again = dict(evidence_crops([cases[c] for c in sorted(crops)], jobs=1))
    assert report_html(report, crops) == report_html(report, again)


def test_header_states_and_cards(sample):
    report, cases, crops = sample
    ctx = report_context(report, crops)
    page = report_html(report, crops).decode("utf-8")
    assert "5219ce218909bcb3971d3629cb0906a2c30a0237888f416bd2ad896210b9a2cd" in page   # the suite hash
    assert "probe:pymupdf, probe:pypdf" in page and "2026-12-03" in page
    wrong = [(r.run, r.case_id) for run in report.runs for r in run.final_rows().values()
             if r.outcome in WRONG_ANSWERS]
    assert ctx["answers"] == len(wrong) == page.count('<section class="answer"')
    assert len(ctx["cards"]) == len({cid for _, cid in wrong}) == page.count('<article class="card"')
    # the four states apart: 34 calls, 34 finished, 33 gradable and complete, 4/33 passed
    pymupdf = next(s for s in ctx["states"] if s["label"] == "probe-pymupdf")
    assert (pymupdf["calls"], pymupdf["finished"], pymupdf["gradable"], pymupdf["complete"],
            pymupdf["passed"], pymupdf["scored"]) == (34, 34, 33, 33, 4, 33)
    assert "4.8–27.3%" in page                                   # its Wilson interval


def test_a_trap_card_draws_the_expected_and_the_forbidden_box(sample):
    report, cases, crops = sample
    page = report_html(report, crops).decode("utf-8")
    card = re.search(r'<article class="card" data-family="actualtext_override">.*?</article>', page, re.S).group(0)
    assert 'class="expected"' in card and 'class="forbidden"' in card
    assert "FELL FOR THE TRAP" in card and "€12,643.57" in card


def test_a_crop_is_around_the_evidence(sample):
    _, cases, crops = sample
    crop = crops["actualtext_override-0001"]
    assert crop.png.startswith(b"\x89PNG")
    assert crop.boxes and all(crop.inside(b.rect) for b in crop.boxes)
    x0, y0, x1, y1 = crop.clip
    assert (x1 - x0) < 620 and (y1 - y0) <= 240          # a region, not the whole page


def test_a_scan_with_no_text_gets_the_top_of_its_page_and_says_so():
    cases, _ = load_cases([SAMPLE])
    case = cases["book_scan_passage-0001-4e6dcd"]          # an image-only scan: no text layer
    crop = evidence_crop(case, Path(case.pdf_file).read_bytes())
    assert crop.boxes == () and crop.page == 0
    assert "pixels" in crop.note and crop.clip[:2] == (0.0, 0.0)


def test_a_crop_from_the_cache_is_the_crop_made_again(sample, tmp_path, monkeypatch):
    _, cases, crops = sample
    wanted = [cases[c] for c in sorted(crops)]
    cache = tmp_path / "crops"
    first = dict(evidence_crops(wanted, jobs=1, cache=cache))
    assert first == crops                                        # the cache changes nothing made
    entries = sorted(cache.rglob("*.json"))
    assert len(entries) == sum(c is not None for c in crops.values())
    entries[0].write_bytes(entries[0].read_bytes()[:100])        # an entry cut short: a miss
    made = []
    real = page_crop.evidence_crop
    monkeypatch.setattr(page_crop, "evidence_crop", lambda case, data: made.append(case.id) or real(case, data))
    again = dict(evidence_crops(wanted, jobs=1, cache=cache))
    assert again == crops and len(made) == 1                     # only the damaged one made again
    assert json.loads(entries[0].read_bytes())["png_sha256"]    # and kept whole again


def test_crops_from_the_cache_load_no_pdf_library(sample, tmp_path):
    """A report whose crops all come from the cache does not pay for pymupdf, numpy or Pillow."""
    _, cases, crops = sample
    cache = tmp_path / "crops"
    ids = sorted(c for c, crop in crops.items() if crop is not None)
    dict(evidence_crops([cases[c] for c in ids], jobs=1, cache=cache))
    probe = ("import json, sys\n"
             "from workbench.grading.loading import load_cases\n"
             "from workbench.checks.crops import evidence_crops\n"
             f"cases, _ = load_cases([{str(SAMPLE)!r}])\n"
             f"got = dict(evidence_crops([cases[c] for c in {ids!r}], jobs=1, cache={str(cache)!r}))\n"
             "print(json.dumps([sorted(m for m in sys.modules if m.split('.')[0] in ('pymupdf', 'fitz', 'numpy', 'PIL')),"
             " sum(c is not None for c in got.values())]))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [[], len(ids)]


def test_a_changed_pdf_is_cropped_afresh(tmp_path):
    cases, _ = load_cases([SAMPLE])
    suite = tmp_path / "suite"
    suite.mkdir()
    case_id = "actualtext_override-0001"
    for ext in ("json", "pdf"):
        shutil.copy(SAMPLE / f"{case_id}.{ext}", suite / f"{case_id}.{ext}")
    case = load_cases([suite])[0][case_id]
    cache = tmp_path / "crops"
    before = dict(evidence_crops([case], jobs=1, cache=cache))[case_id]
    other = cases["tiny_print_override-0001"].pdf_file          # other bytes under the same name
    shutil.copy(other, suite / f"{case_id}.pdf")
    after = dict(evidence_crops([case], jobs=1, cache=cache))[case_id]
    assert after != before and after == evidence_crop(case, other.read_bytes())
    assert len(list(cache.rglob("*.json"))) == 2


def test_report_html_from_the_command_line(cli, tmp_path):
    out = tmp_path / "report.html"
    code, stdout, err = cli("report", *RUNS, "--html", out, "--jobs", "1")
    assert code == 0, err
    assert f"wrote {out}" in err and "page crops" in err
    assert out.read_bytes().startswith(b"<!DOCTYPE html>")
    assert "pass rate" in stdout or "metric" in stdout            # the text report is still printed


def test_the_crop_cache_gives_the_same_page(cli, tmp_path):
    """Made afresh, from the cache, and with --no-cache: the same bytes (the cache is the user's
    cache folder, PDFWORKBENCH_CACHE_DIR in the tests)."""
    pages = [tmp_path / f"{name}.html" for name in ("cold", "warm", "fresh")]
    for page, extra in zip(pages, ([], [], ["--no-cache"]), strict=True):
        code, _, err = cli("report", *RUNS, "--html", page, "--jobs", "1", *extra)
        assert code == 0, err
    assert pages[0].read_bytes() == pages[1].read_bytes() == pages[2].read_bytes()
    assert list((Path(os.environ["PDFWORKBENCH_CACHE_DIR"]) / "crops").rglob("*.json"))


def test_a_hostile_answer_and_reader_stay_text(tmp_path):
    """A run file is untrusted: an answer that closes the tag and opens a script, a reader name with
    quotes and markup, are shown as text; the page's only script is its own."""
    from workbench.core.case import Case
    from workbench.core.runs import RunRecord

    case = Case(id="c1", trap_family="fam<b>", seed=1, question='What is "the" <total>?',
                expected_answer="$100.00", forbidden_answers=["$900.00"])
    evil = '</pre><script>window.pwned=1</script><img src=x onerror="window.pwned=2">$900.00'
    record = RunRecord(case_id="c1", case_sha256=None, key_sha256=None, reader='x:"><svg onload=alert(1)>',
                       modality="text", dpi=None, prompt="q", answer=evil, status="ok")
    report = build_report([record], {"c1": case})
    page = report_html(report, {}, {"c1": case.question}).decode("utf-8")
    assert page.count("<script>") == 1                       # the page's own filter script
    assert "<img" not in page and "onerror=" not in page.replace("onerror=&#34;", "")
    assert "&lt;/pre&gt;&lt;script&gt;" in page
    assert 'data-reader="x:&#34;&gt;&lt;svg onload=alert(1)&gt;"' in page or "&lt;svg onload" in page


def test_a_folder_as_the_page_is_refused_before_any_work(cli, tmp_path):
    code, out, err = cli("report", *RUNS, "--html", tmp_path, "--jobs", "1")
    assert code == 2 and out == ""
    assert err.strip() == f"pdfworkbench: error: --html {tmp_path}: is a folder; give a file name"


def test_an_answer_card_shows_a_few_values_from_where_it_came_from_and_counts_the_rest(sample):
    report, cases, crops = sample
    report = copy.deepcopy(report)
    row = next(r for run in report.runs for r in run.final_rows().values()
               if r.outcome == "trap" and r.case_id == "actualtext_override-0001")
    # a whole page's text as the answer: a value from the hidden text among many printed ones
    row.source = "hidden"
    row.attribution = ([{"value": f"{n}", "source": "visible", "page": 1, "detail": "printed on page 1"}
                        for n in range(20)]
                       + [{"value": "€12,643.57", "source": "hidden", "page": 1, "detail": "the ActualText"}])
    page = report_html(report, crops).decode("utf-8")
    answer = re.search(rf'<section class="answer" data-answer="\d+" data-reader="{re.escape(row.run)}" '
                       r'data-verdict="trap">.*?</section>', page[page.index("actualtext_override-0001"):],
                       re.S).group(0)
    listed = re.findall(r'<li><span class="mono">(.*?)</span>', answer)
    assert listed == ["€12,643.57"]                      # the one value from where it came from
    assert "and 20 more values traced" in answer
    row.source = "rotated"                               # none from its source: the first few
    page = report_html(report, crops).decode("utf-8")
    answer = re.search(rf'<section class="answer" data-answer="\d+" data-reader="{re.escape(row.run)}" '
                       r'data-verdict="trap">.*?</section>', page[page.index("actualtext_override-0001"):],
                       re.S).group(0)
    assert re.findall(r'<li><span class="mono">(.*?)</span>', answer) == ["0", "1", "2"]
    assert "and 18 more values traced" in answer
