"""The lint on a hand-labelled corpus: each finding fires where it must and not on its look-alike."""

from __future__ import annotations

import json

import pytest

from tests.support import lint_corpus
from workbench.checks.lint import lint_case
from workbench.core.case import load_case
from workbench.core.runs import iter_records
from workbench.grading import grade_record

ENTRIES = lint_corpus.entries()
# A scan whose text layer says what the page shows is read by OCR to be sure (2.5-3.7 s of CPU
# each, the OCR engine's start included): slow.
OCR_READ = {"scan-hidden_ocr_mismatch-faithful", "scan-white_text_injection-faithful"}


@pytest.mark.parametrize("entry", [pytest.param(e, id=e.name, marks=[pytest.mark.slow] if e.name in OCR_READ else [])
                                   for e in ENTRIES])
def test_the_lint_agrees_with_the_hand_label(entry):
    entry.loaded()
    findings = lint_case(entry.case, entry.pdf)
    shown = [f"{f.severity} {f.code}: {f.message}" for f in findings]
    assert entry.fires(findings) is entry.truth, shown


def test_the_confusion_table_is_clean():
    table, wrong = lint_corpus.confusion()
    assert wrong == [] and table["FP"] == table["FN"] == 0 and table["TP"] >= 10 and table["TN"] >= 10


def test_the_messages_say_what_the_issue_asks(tmp_path, cli):
    by_name = {e.name: e for e in ENTRIES}
    computed = lint_case(by_name["no-contract-computed"].case, by_name["no-contract-computed"].pdf)
    assert [f.severity for f in computed] == ["warning"]
    assert "answer not printed: cannot verify; declare it derived" in computed[0].message
    derived = lint_case(by_name["derived-parts-visible"].case, by_name["derived-parts-visible"].pdf)
    assert [f.code for f in derived] == ["expected-derived"] and "subtotal plus tax" in derived[0].message
    # The same through the command line, on the files as a user has them.
    entry = by_name["scan-hidden_ocr_mismatch-none"].loaded()
    (tmp_path / "scan.pdf").write_bytes(entry.pdf)
    raw = entry.case.to_json() | {"pdf_path": "scan.pdf"}
    (tmp_path / "scan.json").write_text(json.dumps(raw))
    code, out, _ = cli("lint", tmp_path / "scan.json")
    assert code == 1 and "trap-disarmed" in out and "text layer none" in out


def test_an_extraction_answer_without_json_is_unparsable_never_a_trap():
    """The shipped extraction sample: the pypdf probe answers with the page text, no JSON."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "sample_cases" / "extraction"
    records = [r for r in iter_records(folder / "runs" / "probe-pypdf.jsonl") if r.case_id.startswith("invoice")]
    assert records
    mentions_decoy = 0
    for r in records:
        case = load_case(folder / f"{r.case_id}.json")
        mentions_decoy += any(f.lower() in (r.answer or "").lower() for f in case.forbidden_answers)
        v = grade_record(case, r)
        assert v.outcome == "unparsable" and not v.fell_for_trap and v.forbidden == []
        assert v.reason.startswith("unparsable")
    assert mentions_decoy  # the free text names the decoy, and still it is no trap
