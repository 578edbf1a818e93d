"""Fuzz: byte flips, insertions and truncations of the sample PDFs and of case, suite and run JSON,
through inspect and lint in-process (fixed seed). Every input must either work or raise a
UserError (the CLI's one line): no other exception escapes. About 500 inputs per kind in CI;
PDFWORKBENCH_FUZZ_N sets how many."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from tests.support.fixtures import SAMPLE
from tests.support.fuzzing import SEED, N, Tally, mutate
from tests.support.fuzzing import report as _report


def _samples() -> list[Path]:
    # The smallest few, so 500 renders stay within CI's budget.
    return sorted(SAMPLE.glob("*.pdf"), key=lambda p: p.stat().st_size)[:3]


@pytest.mark.slow   # a fuzzer over PDFs: 51 s at load 15
def test_fuzzed_pdfs_are_read_or_refused(tmp_path):
    from workbench.checks.inspect import inspect_document
    from workbench.checks.lint import lint_case
    from workbench.pdf.document import read_pdf_bytes

    rng = random.Random(SEED)
    sources = [p.read_bytes() for p in _samples()]
    case_json = {p.stem: json.loads(p.with_suffix(".json").read_text()) for p in _samples()}
    from workbench.core.case import Case

    tally = Tally()
    target = tmp_path / "f.pdf"
    for n in range(N):
        k = n % len(sources)
        data = mutate(sources[k], rng)
        target.write_bytes(data)
        stem = _samples()[k].stem

        def one(stem: str = stem) -> None:
            pdf = read_pdf_bytes(target)
            # Lint and inspect at a low DPI: the same code paths, a quarter of the pixels.
            lint_case(Case.from_json(case_json[stem]), pdf, dpi=36)
            inspect_document(pdf, str(target), dpi=36)

        tally(one)
    _report("pdf", tally)
    assert tally.tried == N and tally.worked + tally.refused + tally.library == N
    assert tally.refused > 0 and tally.worked > 0   # the mutations both break and spare


def _fuzz_json_files(tmp_path: Path, kind: str, source: bytes, target_name: str, action) -> Tally:
    rng = random.Random(f"{SEED}-{kind}")
    tally = Tally()
    for _ in range(N):
        (tmp_path / target_name).write_bytes(mutate(source, rng))
        tally(action)
    _report(kind, tally)
    return tally


@pytest.fixture
def suite_copy(tmp_path) -> Path:
    dest = tmp_path / "suite"
    dest.mkdir()
    for p in _samples():
        shutil.copy(p, dest)
        shutil.copy(p.with_suffix(".json"), dest)
    from workbench.core.suite import compute_entries, load_suite, write_manifest

    write_manifest(dest, "fuzz", "1", compute_entries(load_suite(dest)))
    return dest


def test_fuzzed_case_json_is_loaded_or_refused(suite_copy):
    from workbench.checks.lint import lint_path
    from workbench.core.case import load_case

    # The PDF stays the same, so lint's page analysis is computed once and cached by content.
    stem = _samples()[0].stem
    path = suite_copy / f"{stem}.json"
    source = path.read_bytes()

    def one() -> None:
        case = load_case(path, root=suite_copy)
        case.pdf_file  # noqa: B018  (resolves and contains the path)
        lint_path(path)

    t = _fuzz_json_files(suite_copy, "case", source, path.name, one)
    assert t.worked + t.refused + t.library == N and t.refused > 0


def test_fuzzed_suite_json_is_loaded_or_refused(suite_copy):
    from workbench.checks.lint import lint_path
    from workbench.core.suite import load_suite

    source = (suite_copy / "suite.json").read_bytes()

    def one() -> None:
        suite = load_suite(suite_copy)
        for c in suite.cases:
            c.pdf_file  # noqa: B018
        lint_path(suite_copy)

    t = _fuzz_json_files(suite_copy, "suite", source, "suite.json", one)
    assert t.worked + t.refused + t.library == N and t.refused > 0


def test_fuzzed_run_files_are_read_or_refused(tmp_path):
    from workbench.core.runs import iter_records
    from workbench.core.suite import load_suite
    from workbench.grading.report import build_report

    run = sorted((SAMPLE / "runs").glob("*.jsonl"))[0]
    lines = run.read_bytes().splitlines(keepends=True)[:6]
    source = b"".join(lines)
    cases = {c.id: c for c in load_suite(SAMPLE).cases}
    target = tmp_path / "r.jsonl"

    def one() -> None:
        records = list(iter_records(target))
        build_report({"r": records}, cases)

    t = _fuzz_json_files(tmp_path, "run", source, target.name, one)
    assert t.worked + t.refused + t.library == N and t.refused > 0
