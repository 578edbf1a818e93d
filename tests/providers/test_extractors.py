"""The extractor probes (`probe:NAME`), `readers` naming their versions, and `exposure`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import built_suite
from workbench.providers import extractors, pagetexts

SPEC = """name = "exp"
[[families]]
name = "optional_content_layer"
seeds = "1..2"
[[families]]
name = "white_text_injection"
seeds = "1..1"
"""


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory) -> Path:
    return built_suite(tmp_path_factory.mktemp("suite"), SPEC, "exp")


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _installed_or_skip(name: str) -> str:
    found = extractors.version(name)
    if found is None:
        pytest.skip(extractors.missing(name))
    return found


# (tesseract reads the page by OCR: 2 s of CPU, a slow test)
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "tesseract" else n
                                  for n in extractors.EXTRACTORS if n != "ocr"])
def test_each_probe_reads_the_page_and_records_its_library_version(env, cli, cases, name):
    found = _installed_or_skip(name)
    case = next(c for c in cases if c.trap_family == "white_text_injection")
    code, out, err = cli("ask", case.json_path, "--reader", f"probe:{name}", "--out", env / f"{name}.jsonl", "--json")
    assert code in (0, 1), err
    rec = json.loads(out)
    assert rec["status"] == "ok" and rec["extra"]["extractor"] == name
    assert rec["extra"]["extractor_version"] == found
    # the expected answer is printed visibly on the page: every extractor, OCR included, reads it
    amount = lambda s: s.replace(",", "").lstrip("$€£")  # noqa: E731
    assert amount(case.expected_answer) in amount(rec["answer"])


def test_an_absent_extractor_names_its_extra_before_any_call(env, suite_dir):
    out = env / "plumber.jsonl"
    code = ("import sys; sys.modules['pdfplumber'] = None; from workbench.cli import main; "
            f"sys.exit(main(['run', {str(suite_dir)!r}, '--reader', 'probe:pdfplumber', '--out', {str(out)!r}]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "pip install 'pdfworkbench[extractors]'" in proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()


def test_readers_lists_each_probe_with_its_version_or_what_to_install(env, cli):
    code, out, _ = cli("readers", "--json")
    rows = {r["reader"]: r for r in json.loads(out)}
    for name in extractors.EXTRACTORS:
        row = rows[f"probe:{name}"]
        if name != "ocr":
            assert row["version"] == extractors.version(name)
            assert row["ready"] == (row["version"] is not None)
            assert row["missing"] == ([] if row["ready"] else [extractors.missing(name)])


def test_exposure_matrix_tells_which_extractor_drops_the_hidden_layer(env, cli, suite_dir, cases):
    _installed_or_skip("pdfplumber")
    code, out, err = cli("exposure", suite_dir, "--extractors", "pypdf,pymupdf,pdfplumber", "--json", "--jobs", "2")
    assert code == 0, err
    data = json.loads(out)
    rows = {r["case_id"]: r for r in data["cases"]}
    assert set(rows) == {c.id for c in cases}
    ocg = [r for r in rows.values() if r["family"] == "optional_content_layer"]
    # pdfplumber reads no optional-content-off text, pymupdf neither; pypdf reads it all
    assert all(r["extractors"]["pypdf"] in ("forbidden", "both") for r in ocg)
    assert all(r["extractors"]["pdfplumber"] in ("expected", "neither") for r in ocg)
    white = next(r for r in rows.values() if r["family"] == "white_text_injection")
    assert all(state in ("forbidden", "both") for state in white["extractors"].values())
    assert data["matrix"]["optional_content_layer"]["pdfplumber"]["forbidden"] == 0
    assert sum(data["matrix"]["optional_content_layer"]["pypdf"].values()) == 2
    # the table: one row per family, then the share that would fall for the trap (one process:
    # the texts read on two are above)
    code, table, _ = cli("exposure", suite_dir, "--extractors", "pypdf,pdfplumber", "--jobs", "1")
    lines = table.splitlines()
    assert lines[0].split() == ["family", "pypdf", "pdfplumber"]
    assert lines[-2].startswith("falls for the trap") and "3/3 100%" in lines[-2]
    code, csv, _ = cli("exposure", suite_dir, "--extractors", "pypdf", "--csv", "--jobs", "1")
    assert csv.splitlines()[0] == "case_id,family,pypdf" and len(csv.splitlines()) == 4


def test_exposure_refuses_an_unknown_or_absent_extractor(env, cli, suite_dir):
    code, _, err = cli("exposure", suite_dir, "--extractors", "pypdf,nosuch")
    assert code == 2 and "unknown extractor 'nosuch'" in err


def test_exposure_reads_from_its_cache_keyed_by_the_pdf_and_version(env, cli, suite_dir, cases, monkeypatch):
    from workbench.providers import exposure

    code, first, _ = cli("exposure", suite_dir, "--extractors", "pymupdf", "--json", "--jobs", "1")
    calls = []
    monkeypatch.setitem(pagetexts.PAGES, "pymupdf", lambda pdf: calls.append(1) or ["x"])
    code, second, _ = cli("exposure", suite_dir, "--extractors", "pymupdf", "--json", "--jobs", "1")
    assert code == 0 and calls == [] and json.loads(second)["cases"] == json.loads(first)["cases"]
    code, third, _ = cli("exposure", suite_dir, "--extractors", "pymupdf", "--json", "--jobs", "1", "--no-cache")
    assert len(calls) == len(cases) and {r["extractors"]["pymupdf"] for r in json.loads(third)["cases"]} == {"neither"}
    assert exposure.exposure_state(cases[0], "") == "neither"
