"""olmOCR-bench interop: `export --to olmocr-bench` and `import-run` of its candidate outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from tests.support.fixtures import built_suite

SPEC = """name = "olm"
[[families]]
name = "white_text_injection"
seeds = "1..1"
[[families]]
name = "split_table_across_pages"
seeds = "1..1"
[[families]]
name = "split_table_across_pages"
seeds = "2..2"
params = { repeat_header = true }
[[families]]
name = "multi_column_reading_order"
seeds = "1..1"
[[families]]
name = "merged_table_cells"
seeds = "1..1"
[[families]]
name = "invoice_extraction"
seeds = "1..1"
"""
# The fields of olmOCR-bench's test classes (`olmocr.bench.tests`: BasePDFTest, TextPresenceTest,
# TextOrderTest, TableTest; its README's test types): its loader passes a line's fields to the
# class of its type, so one field more fails the file.
BASE_FIELDS = {"pdf", "page", "id", "type", "max_diffs", "checked", "url"}
TEST_FIELDS = {
    "present": BASE_FIELDS | {"text", "case_sensitive", "first_n", "last_n"},
    "absent": BASE_FIELDS | {"text", "case_sensitive", "first_n", "last_n"},
    "order": BASE_FIELDS | {"before", "after"},
    "table": BASE_FIELDS | {"cell", "up", "down", "left", "right", "top_heading", "left_heading"},
}


def _rows(exported: Path) -> list[dict]:
    return [json.loads(line) for line in (exported / "pdfworkbench_traps.jsonl").read_text().splitlines()]


def _cases(suite_dir: Path) -> dict:
    from workbench.core.suite import load_suite

    return {c.id: c for c in load_suite(suite_dir).cases}


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
    cases = _cases(suite_dir)
    rows = _rows(exported)
    assert rows and all(set(r) == TEST_FIELDS[r["type"]] for r in rows)
    assert {r["type"] for r in rows} == set(TEST_FIELDS)
    assert len({r["id"] for r in rows}) == len(rows)  # its loader refuses a duplicate id
    for r in rows:
        family, name = r["pdf"].split("/")
        case_id = r["id"].split(":")[0]
        assert cases[case_id].trap_family == family and name.startswith(case_id + "-p")
        with pymupdf.open(exported / "pdfs" / r["pdf"]) as doc:
            assert doc.page_count == 1 and r["page"] == 1
    split = next(c for c in cases.values() if c.trap_family == "split_table_across_pages" and c.seed == 1)
    assert sorted(p.name for p in (exported / "pdfs" / split.trap_family).iterdir() if p.name.startswith(split.id)) == \
        [f"{split.id}-p1.pdf", f"{split.id}-p2.pdf"]
    white = next(c for c in cases.values() if c.trap_family == "white_text_injection")
    mine = {r["type"]: r["text"] for r in rows if r["id"].startswith(white.id + ":")}
    assert mine == {"present": white.expected_answer, "absent": white.forbidden_answers[0]}


def test_an_extraction_is_tested_on_the_values_its_page_shows(exported, suite_dir):
    """An extraction's expected answer is a JSON object, no text of the page: its present tests are
    the values the contract says the page shows, and its decoy (printed too, named `meta:decoy`)
    has no absent test, which a faithful reading would fail."""
    case = next(c for c in _cases(suite_dir).values() if c.trap_family == "invoice_extraction")
    mine = [(r["type"], r["text"]) for r in _rows(exported) if r["id"].startswith(case.id + ":")]
    assert mine == [("present", case.metadata["vendor_phone"]), ("present", case.metadata["total"])]
    assert case.metadata["decoy"] in case.forbidden_answers


def test_reading_order_and_table_cells_the_keys_know_are_order_and_table_tests(exported, suite_dir):
    cases = _cases(suite_dir)
    rows = _rows(exported)

    def of(family: str, seed: int = 1) -> tuple:
        case = next(c for c in cases.values() if c.trap_family == family and c.seed == seed)
        return case, {r["type"]: r for r in rows if r["id"].startswith(case.id + ":") and r["type"] in ("order", "table")}

    # the left column's asked amount is read before the right column's decoy beside its sentence
    columns, mine = of("multi_column_reading_order")
    assert set(mine) == {"order"}
    assert (mine["order"]["before"], mine["order"]["after"]) == (columns.expected_answer, columns.forbidden_answers[0])
    assert mine["order"]["pdf"] == f"multi_column_reading_order/{columns.id}-p1.pdf"
    # the asked fee is in the row of its region's merged cell
    merged, mine = of("merged_table_cells")
    assert set(mine) == {"table"}
    assert {k: v for k, v in mine["table"].items() if k in TEST_FIELDS["table"] - BASE_FIELDS and v} == \
        {"cell": merged.expected_answer, "left_heading": merged.metadata["region"]}
    # a split table: the month heads the column only where the header is on the row's page (it
    # repeats); across the page break there is no order test, as olmOCR-bench reads one page
    split, mine = of("split_table_across_pages", 1)
    assert set(mine) == {"table"} and mine["table"]["pdf"].endswith(f"{split.id}-p2.pdf")
    assert (mine["table"]["cell"], mine["table"]["left_heading"], mine["table"]["top_heading"]) == \
        (split.expected_answer, split.metadata["row_label"], "")
    repeated, mine = of("split_table_across_pages", 2)
    assert set(mine) == {"order", "table"} and mine["order"]["pdf"].endswith(f"{repeated.id}-p2.pdf")
    assert (mine["order"]["before"], mine["order"]["after"]) == \
        (repeated.metadata["column_label"], repeated.metadata["row_label"])
    assert mine["table"]["top_heading"] == repeated.metadata["column_label"]
    # a decoy printed on the page (the contract says visible) is no `absent` test: a faithful
    # reading shows it; the white-on-white one is
    assert not [r for r in rows if r["type"] == "absent" and r["id"].split(":")[0] in (columns.id, merged.id)]


def test_olmocr_benchs_own_test_classes_load_and_judge_the_export(exported):
    """Where olmocr installs (`pip install olmocr`; its bench tests need fuzzysearch and rapidfuzz)."""
    tests_mod = pytest.importorskip("olmocr.bench.tests")
    from workbench.providers import pagetexts

    tests = tests_mod.load_tests(str(exported / "pdfworkbench_traps.jsonl"))
    white = [t for t in tests if t.pdf.startswith("white_text_injection/")]
    text = pagetexts.page_text("pymupdf", (exported / "pdfs" / white[0].pdf).read_bytes(), 1)
    verdicts = {t.type: t.run(text)[0] for t in white}
    # the text layer holds the white-on-white decoy: present passes, absent fails
    assert verdicts == {"present": True, "absent": False}
    order = next(t for t in tests if t.type == "order" and t.pdf.startswith("multi_column_reading_order/"))
    before, after = order.before, order.after
    assert order.run(f"... members will be\n{before} from 1 July ... remains\n{after} a year")[0]
    assert not order.run(f"... members will be {after} a year\n{before} from 1 July")[0]   # read across
    table = next(t for t in tests if t.type == "table" and t.pdf.startswith("merged_table_cells/"))
    head = "| Region | Plan | Annual fee |\n|---|---|---|\n"
    assert table.run(f"{head}| {table.left_heading} | Starter | $1.00 |\n| {table.left_heading} | Pro | {table.cell} |\n")[0]
    # the region printed once, in its span's first row: the asked row lost it
    assert not table.run(f"{head}| {table.left_heading} | Starter | $1.00 |\n|  | Pro | {table.cell} |\n")[0]


def test_import_run_reads_candidate_outputs_back_as_imported_records(exported, cli, suite_dir, tmp_path):
    from workbench.providers import pagetexts

    candidate = exported / "pymupdf"
    for pdf in (exported / "pdfs").rglob("*.pdf"):
        md = candidate / pdf.parent.name / f"{pdf.stem}_pg1_repeat1.md"
        md.parent.mkdir(parents=True, exist_ok=True)
        md.write_text(pagetexts.page_text("pymupdf", pdf.read_bytes(), 1))
    out = tmp_path / "imported.jsonl"
    code, stdout, err = cli("import-run", candidate, "--suite", suite_dir, "--reader", "olmocr:pymupdf",
                            "--out", out, "--json")
    assert code == 0, err
    assert json.loads(stdout)["records"] == len(_cases(suite_dir)) and json.loads(stdout)["format"] == "olmocr-bench"
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
