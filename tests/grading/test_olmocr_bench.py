"""olmOCR-bench interop: `export --to olmocr-bench` and `import-run` of its candidate outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from tests.fixtures import built_suite

SPEC = """name = "olm"
[[families]]
name = "white_text_injection"
seeds = "1..1"
[[families]]
name = "split_table_across_pages"
seeds = "1..1"
"""
# The fields olmOCR-bench's README and its `olmocr.bench.tests` classes give a text test.
TEXT_TEST_FIELDS = {"pdf", "page", "id", "type", "text", "case_sensitive", "max_diffs", "first_n",
                    "last_n", "checked", "url"}


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory) -> Path:
    return built_suite(tmp_path_factory.mktemp("suite"), SPEC, "olm")


@pytest.fixture
def exported(cli, tmp_path, suite_dir):
    out = tmp_path / "bench"
    code, stdout, err = cli("export", suite_dir, "--to", "olmocr-bench", "--out", out)
    assert code == 0, err
    return out


def test_export_writes_single_page_pdfs_and_tests_naming_case_and_family(exported, suite_dir):
    from workbench.core.suite import load_suite

    cases = {c.id: c for c in load_suite(suite_dir).cases}
    rows = [json.loads(line) for line in (exported / "pdfworkbench_traps.jsonl").read_text().splitlines()]
    assert rows and all(set(r) == TEXT_TEST_FIELDS for r in rows)
    assert len({r["id"] for r in rows}) == len(rows)  # its loader refuses a duplicate id
    for r in rows:
        family, name = r["pdf"].split("/")
        case_id = r["id"].split(":")[0]
        assert cases[case_id].trap_family == family and name.startswith(case_id + "-p")
        with pymupdf.open(exported / "pdfs" / r["pdf"]) as doc:
            assert doc.page_count == 1 and r["page"] == 1
    split = next(c for c in cases.values() if c.trap_family == "split_table_across_pages")
    assert sorted(p.name for p in (exported / "pdfs" / split.trap_family).iterdir()) == \
        [f"{split.id}-p1.pdf", f"{split.id}-p2.pdf"]
    white = next(c for c in cases.values() if c.trap_family == "white_text_injection")
    mine = {r["type"]: r["text"] for r in rows if r["id"].startswith(white.id + ":")}
    assert mine == {"present": white.expected_answer, "absent": white.forbidden_answers[0]}


def test_olmocr_benchs_own_test_classes_load_and_judge_the_export(exported):
    """Where olmocr installs (`pip install olmocr`; its bench tests need fuzzysearch and rapidfuzz)."""
    tests_mod = pytest.importorskip("olmocr.bench.tests")
    from workbench.providers import extractors

    tests = tests_mod.load_tests(str(exported / "pdfworkbench_traps.jsonl"))
    white = [t for t in tests if t.pdf.startswith("white_text_injection/")]
    text = extractors.page_text("pymupdf", (exported / "pdfs" / white[0].pdf).read_bytes(), 1)
    verdicts = {t.type: t.run(text)[0] for t in white}
    # the text layer holds the white-on-white decoy: present passes, absent fails
    assert verdicts == {"present": True, "absent": False}


def test_import_run_reads_candidate_outputs_back_as_imported_records(exported, cli, suite_dir, tmp_path):
    from workbench.providers import extractors

    candidate = exported / "pymupdf"
    for pdf in (exported / "pdfs").rglob("*.pdf"):
        md = candidate / pdf.parent.name / f"{pdf.stem}_pg1_repeat1.md"
        md.parent.mkdir(parents=True, exist_ok=True)
        md.write_text(extractors.page_text("pymupdf", pdf.read_bytes(), 1))
    out = tmp_path / "imported.jsonl"
    code, stdout, err = cli("import-run", candidate, "--suite", suite_dir, "--reader", "olmocr:pymupdf",
                            "--out", out, "--json")
    assert code == 0, err
    assert json.loads(stdout)["records"] == 2 and json.loads(stdout)["format"] == "olmocr-bench"
    recs = {r["case_id"]: r for r in map(json.loads, out.read_text().splitlines())}
    split = next(r for r in recs.values() if r["trap_family"] == "split_table_across_pages")
    assert split["answer"].count("\f") == 1 and split["extra"]["pages"] == [1, 2]
    assert all(r["provenance"] == "imported" and r["reader"] == "olmocr:pymupdf" for r in recs.values())
    code, _, err = cli("import-run", candidate, "--suite", suite_dir, "--out", tmp_path / "x.jsonl")
    assert code == 2 and "--reader NAME" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = cli("import-run", empty, "--reader", "olmocr:x", "--out", tmp_path / "y.jsonl")
    assert code == 2 and "no olmOCR-bench candidate outputs" in err
