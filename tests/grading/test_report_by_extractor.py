"""`report RUN.jsonl ... --by extractor`: the family x extractor matrix of `exposure`, from the
answers runs of probe readers recorded (no PDF read again)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fixtures import built_suite

SPEC = """name = "byx"
[[families]]
name = "optional_content_layer"
seeds = "1..2"
[[families]]
name = "white_text_injection"
seeds = "1..1"
"""


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory) -> Path:
    return built_suite(tmp_path_factory.mktemp("suite"), SPEC, "byx")


@pytest.fixture
def probe_runs(cli, suite_dir, tmp_path) -> list[Path]:
    runs = []
    for name in ("pypdf", "pymupdf"):
        out = tmp_path / f"{name}.jsonl"
        # (one process: a pool's workers, spawned under pytest-xdist, cost more than three probes)
        code, _, err = cli("run", suite_dir, "--reader", f"probe:{name}", "--out", out, "-q", "--jobs", "1")
        assert code in (0, 1), err
        runs.append(out)
    return runs


def test_the_matrix_from_probe_runs_is_the_one_exposure_prints(cli, suite_dir, probe_runs, monkeypatch):
    from workbench.providers import pagetexts

    with monkeypatch.context() as m:   # the report reads no PDF: an extractor called fails it
        for name in ("pypdf", "pymupdf"):
            m.setitem(pagetexts.PAGES, name, lambda pdf: pytest.fail("the report read a PDF"))
        code, out, err = cli("report", *probe_runs, "--by", "extractor", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["by"] == "extractor"
    from_runs = data["exposure"]
    code, out, err = cli("exposure", suite_dir, "--extractors", "pypdf,pymupdf", "--json", "--no-cache", "--jobs", "1")
    assert code == 0, err
    direct = json.loads(out)
    assert from_runs["matrix"] == direct["matrix"] and from_runs["totals"] == direct["totals"]
    assert {r["case_id"]: r["extractors"] for r in from_runs["cases"]} == \
        {r["case_id"]: r["extractors"] for r in direct["cases"]}
    assert from_runs["extractors"] == direct["extractors"]   # the library versions the records carry
    assert from_runs["runs"] == {"pypdf": "pypdf", "pymupdf": "pymupdf"} and from_runs["not_probes"] == []
    # pypdf reads the hidden optional-content layer, pymupdf does not
    assert from_runs["matrix"]["optional_content_layer"]["pypdf"]["both"] == 2
    assert from_runs["matrix"]["optional_content_layer"]["pymupdf"]["forbidden"] == 0


def test_the_text_report_ends_with_the_matrix(cli, probe_runs):
    code, out, err = cli("report", *probe_runs, "--by", "extractor")
    assert code == 0, err
    table = out.split("by extractor: what of each case's key the answers hold\n")[1].splitlines()
    assert table[0].split() == ["family", "pypdf", "pymupdf"]
    assert table[1].split() == ["optional_content_layer", "2B", "2E"]
    assert table[2].split() == ["white_text_injection", "both", "both"]
    assert table[3].split() == ["falls", "for", "the", "trap", "3/3", "100%", "1/3", "33%"]
    assert table[4].startswith("expected is missing") and "not probes" not in out


def test_a_reader_that_is_not_a_probe_is_its_own_column_and_said_so(cli, suite_dir, probe_runs, tmp_path):
    from workbench.core.suite import load_suite

    cases = load_suite(suite_dir).cases
    white = next(c for c in cases if c.trap_family == "white_text_injection")
    ocg = [c for c in cases if c.trap_family == "optional_content_layer"]
    preds = tmp_path / "preds.jsonl"
    preds.write_text("\n".join(json.dumps(row) for row in [
        {"id": white.id, "prediction": white.forbidden_answers[0]},
        {"id": ocg[0].id, "prediction": ocg[0].expected_answer},
        {"id": ocg[1].id, "error": "the server hung up"},
    ]) + "\n")
    model = tmp_path / "model.jsonl"
    code, _, err = cli("import-run", preds, "--suite", suite_dir, "--reader", "openai:gpt-4o", "--out", model)
    assert code == 0, err
    code, out, err = cli("report", probe_runs[0], model, "--by", "extractor", "--json")
    exp = json.loads(out)["exposure"]
    assert exp["runs"] == {"pypdf": "pypdf", "model": "model"} and exp["not_probes"] == ["model"]
    rows = {r["case_id"]: r for r in exp["cases"]}
    assert rows[white.id]["extractors"]["model"] == "forbidden"
    assert rows[ocg[0].id]["extractors"]["model"] == "expected"
    # a call that never finished is no text, never a state of the key
    assert rows[ocg[1].id]["extractors"]["model"] == "error" and "hung up" in rows[ocg[1].id]["errors"]["model"]
    code, out, _ = cli("report", probe_runs[0], model, "--by", "extractor")
    table = out.split("by extractor: what of each case's key the answers hold\n")[1].splitlines()
    assert table[0].split() == ["family", "pypdf", "model"]
    assert table[1].split() == ["optional_content_layer", "2B", "1E", "1!"]
    assert table[-1].startswith("not probes: model (")
