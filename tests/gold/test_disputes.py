"""Deciding a dispute: the journal is checked before the one append, a retry writes nothing, and
an accept that would make gold forbid its own answer is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.fixtures import TOTAL, suite_copy
from workbench.gold.disputes import add_dispute
from workbench.gold.journal import journal_path, load_disputes

EXTRACTION = Path(__file__).resolve().parents[2] / "sample_cases" / "extraction"


def test_a_bad_line_elsewhere_stops_the_decision_before_anything_is_written(cli, tmp_path):
    suite = suite_copy(tmp_path)
    add_dispute(suite, TOTAL, "expected_answer", "€1.00", "typo", who="ann")
    add_dispute(suite, TOTAL, "expected_answer", "€2.00", "typo", who="ann")
    journal = journal_path(suite)
    with open(journal, "ab") as fh:   # valid JSON, wrong shape: a decision without one
        fh.write(json.dumps({"format": "pdfworkbench-disputes/1", "event": "decided", "id": "d0002"}).encode() + b"\n")
    before = journal.read_bytes()
    for _ in range(2):   # the retry a user makes after the error
        code, out, err = cli("dispute", "decide", suite, "d0001", "--accept", "--rationale", "checked")
        assert code == 2 and out == "" and err.count("\n") == 1
        assert f"{journal}:3: not a dispute event: lacks 'decision'" in err
        assert journal.read_bytes() == before


def test_the_same_decision_again_writes_nothing_and_another_needs_redecide(cli, tmp_path):
    suite = suite_copy(tmp_path)
    add_dispute(suite, TOTAL, "expected_answer", "€1.00", "typo", who="ann")
    journal = journal_path(suite)
    code, out, _ = cli("dispute", "decide", suite, "d0001", "--accept", "--rationale", "checked", "--who", "bob")
    assert code == 0 and "gold is now v2" in out
    once = journal.read_bytes()
    code, out, _ = cli("dispute", "decide", suite, "d0001", "--accept", "--rationale", "checked again")
    assert code == 0 and out.startswith("d0001 is already accepted (by bob") and "nothing written" in out
    assert journal.read_bytes() == once
    code, out, err = cli("dispute", "decide", suite, "d0001", "--reject", "--rationale", "no")
    assert code == 2 and err.count("\n") == 1 and "already accepted by bob" in err and "--redecide" in err
    assert journal.read_bytes() == once
    code, out, _ = cli("dispute", "decide", suite, "d0001", "--reject", "--rationale", "the scan says .73",
                       "--redecide", "--json")
    assert code == 0 and json.loads(out)["status"] == "rejected" and json.loads(out)["written"] is True
    assert [h.decision for h in load_disputes(suite)[0].history] == ["accepted", "rejected"]
    assert journal.read_bytes().count(b"\n") == 3


def test_accepting_a_forbidden_answer_is_refused(cli, tmp_path):
    """The shipped sample's d0004 proposes the hidden decoy (€53,919.68), the key's forbidden answer."""
    suite = tmp_path / "extraction"
    shutil.copytree(EXTRACTION, suite)
    journal = journal_path(suite)
    before = journal.read_bytes()
    code, out, err = cli("dispute", "decide", suite, "d0004", "--accept", "--rationale", "the text layer says so")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "d0004: accepting it would make gold contradict itself" in err and "forbidden_answers[0]" in err
    assert journal.read_bytes() == before
    # Written another way, the same money is still the forbidden answer (grading's comparison).
    code, out, _ = cli("dispute", "add", suite, "--case", "hidden_ocr_mismatch-0001", "--field", "expected_answer",
                       "--proposed", "53919.68 EUR", "--rationale", "same decoy", "--json")
    other = json.loads(out)["id"]
    code, _, err = cli("dispute", "decide", suite, other, "--accept", "--rationale", "x")
    assert code == 2 and "grades as the forbidden answer '€53,919.68'" in err
    # Following the advice: drop the forbidden answer first, then the accept goes through, and
    # the new gold passes its own expected answer.
    code, out, _ = cli("dispute", "add", suite, "--case", "hidden_ocr_mismatch-0001", "--field", "forbidden_answers[0]",
                       "--proposed", "", "--rationale", "it is the real total", "--json")
    drop = json.loads(out)["id"]
    assert cli("dispute", "decide", suite, drop, "--accept", "--rationale", "agreed")[0] == 0
    code, out, _ = cli("dispute", "decide", suite, "d0004", "--accept", "--rationale", "the text layer says so")
    assert code == 0 and "gold is now v3" in out
    code, out, _ = cli("gold", "export", suite)
    key = json.loads(out)["keys"]["hidden_ocr_mismatch-0001"]
    assert (key["expected_answer"], key["forbidden_answers"]) == ("€53,919.68", [])


def test_evidence_off_its_page_or_not_a_number_is_refused_and_nothing_is_written(cli, tmp_path):
    """A box of NaN got past the command's check and was refused by the journal's, as "the new
    event"; a box off its page (negative, or past its edge) was written, drawn nowhere in Triage."""
    suite = suite_copy(tmp_path)
    journal = journal_path(suite)
    said = {}
    for box in ("nan,2,3,4", "-5,-5,-1,-1", "700,10,800,20"):
        code, out, err = cli("dispute", "add", suite, "--case", TOTAL, "--field", "expected_answer",
                             "--proposed", "€1.00", "--rationale", "typo", "--page", "1", "--box", box)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        said[box] = err
    assert "write it as x0,y0,x1,y1" in said["nan,2,3,4"]
    assert "is not on page 1, which is 612 x 792 points" in said["700,10,800,20"]
    for page, says in (("0", "--page 0: pages count from 1\n"), ("9", "--page 9: the case has 1 page(s)")):
        code, _, err = cli("dispute", "add", suite, "--case", TOTAL, "--field", "expected_answer",
                           "--proposed", "€1.00", "--rationale", "typo", "--page", page, "--quote", "x")
        assert code == 2 and says in err and "None" not in err, err   # ("the case has None page(s)")
    assert not journal.exists() or load_disputes(suite) == []
    code, _, err = cli("dispute", "add", suite, "--case", TOTAL, "--field", "expected_answer",
                       "--proposed", "€1.00", "--rationale", "typo", "--page", "1", "--box", "100,100,200,120")
    assert code == 0, err
