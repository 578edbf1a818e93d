"""Fuzz: byte flips, insertions and truncations of the sample PDFs and of case, suite and run JSON,
through inspect and lint in-process (fixed seed). Every input must either work or raise a
UserError (the CLI's one line): no other exception escapes. About 500 inputs per kind in CI;
PDFWORKBENCH_FUZZ_N sets how many."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest

from tests.fixtures import SAMPLE
from workbench.core.errors import UserError

N = int(os.environ.get("PDFWORKBENCH_FUZZ_N", "500"))
SEED = 20261201


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four byte-level faults: flip, overwrite with a JSON/PDF delimiter, insert, delete,
    duplicate a slice, or truncate."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not buf:
            break
        i = rng.randrange(len(buf))
        op = rng.randrange(6)
        if op == 0:
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf[i] = rng.choice(b'{}[]",:0-9eE.\\/<>()%\x00\xff\n')
        elif op == 2:
            buf[i:i] = rng.choice([b"[", b"{", b"null", b"1e400", b"-", b"\xff\xfe", b"../", b"obj"])
        elif op == 3:
            del buf[i:i + rng.randint(1, 64)]
        elif op == 4:
            j = min(len(buf), i + rng.randint(1, 256))
            buf[i:i] = buf[i:j]
        else:
            del buf[i:]
    return bytes(buf)


def _samples() -> list[Path]:
    # The smallest few, so 500 renders stay within CI's budget.
    return sorted(SAMPLE.glob("*.pdf"), key=lambda p: p.stat().st_size)[:3]


class Tally:
    """Counts inputs that worked, that were refused with a UserError (one line), and that a PDF
    library refused deeper in (the CLI's safety net prints those as one line too)."""

    def __init__(self) -> None:
        self.tried = self.worked = self.refused = self.library = 0

    def __call__(self, fn) -> None:
        from workbench.pdf.document import is_pdf_error

        self.tried += 1
        try:
            fn()
        except UserError:
            self.refused += 1
        except Exception as exc:
            if not is_pdf_error(exc):
                raise
            self.library += 1
        else:
            self.worked += 1


def _report(kind: str, t: Tally) -> None:
    # Shown with -s; the note quotes these figures.
    print(f"\nfuzz {kind}: {t.tried} inputs, {t.worked} worked, {t.refused} refused in one line, "
          f"{t.library} refused by a PDF library (one line through the CLI), 0 escaped")


def test_fuzzed_pdfs_are_read_or_refused(tmp_path):
    from workbench.pdf.document import read_pdf_bytes
    from workbench.pdf.inspect import inspect_document
    from workbench.pdf.lint import lint_case

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
    from workbench.core.case import load_case
    from workbench.pdf.lint import lint_path

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
    from workbench.core.suite import load_suite
    from workbench.pdf.lint import lint_path

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
