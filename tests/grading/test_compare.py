"""Paired comparison of two runs: the exact McNemar test, Newcombe's interval, flips per family,
the sentence, and the `compare` command (refusing runs that did not see the same suite)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.fixtures import SAMPLE
from workbench.core.case import Case
from workbench.core.runs import RunRecord
from workbench.grading.compare import compare_runs, render_compare_text
from workbench.grading.report import build_report
from workbench.grading.stats import holm, mcnemar_exact, paired_difference_ci


@pytest.mark.parametrize(("b", "c", "p"), [
    (1, 9, 22 / 1024),          # 2 * (C(10,0) + C(10,1)) / 2^10
    (0, 12, 2 / 4096),
    (5, 5, 1.0),
    (0, 0, 1.0),
    (3, 0, 0.25),
])
def test_mcnemar_exact_p_values(b, c, p):
    assert mcnemar_exact(b, c) == pytest.approx(p)
    assert mcnemar_exact(c, b) == pytest.approx(p)


def test_paired_interval_holds_the_difference_and_turns_round_with_the_runs():
    lo, hi = paired_difference_ci(12, 9, 2, 21)
    d = (9 - 2) / 44
    assert lo < d < hi and -1 <= lo and hi <= 1
    lo2, hi2 = paired_difference_ci(12, 2, 9, 21)
    assert (lo2, hi2) == (pytest.approx(-hi), pytest.approx(-lo))
    # no discordant pair: the difference is 0 and the interval straddles it
    lo3, hi3 = paired_difference_ci(20, 0, 0, 20)
    assert lo3 < 0 < hi3


def test_holm_adjusts_in_steps_and_keeps_the_order():
    assert holm([0.01, 0.04, 0.03]) == [pytest.approx(0.03), pytest.approx(0.06), pytest.approx(0.06)]


def _case(i: int, family: str) -> Case:
    return Case(id=f"{family}-{i:04d}", trap_family=family, seed=i, question="What is the total?",
                expected_answer="$100.00", forbidden_answers=["$900.00"])


def _rec(case: Case, answer: str | None, reader: str, status: str = "ok") -> RunRecord:
    return RunRecord(case_id=case.id, case_sha256=None, key_sha256=case.key_sha256(), reader=reader,
                     modality="pixels", dpi=150, prompt=case.question, answer=answer, status=status)


def test_a_family_won_clearly_is_said_and_the_noise_elsewhere_is_not_claimed():
    hidden = [_case(i, "hidden_ocr_mismatch") for i in range(12)]
    other = [_case(i, "footnote_override") for i in range(6)]
    cases = {c.id: c for c in hidden + other}
    a = [_rec(c, "$100.00", "x:a") for c in hidden]
    b = [_rec(c, "$900.00", "x:b") for c in hidden]
    # footnote_override: one flip each way, and a case B could not answer (never a flip)
    a += [_rec(c, "$100.00" if i != 1 else "$900.00", "x:a") for i, c in enumerate(other)]
    b += [_rec(c, "$100.00" if i != 0 else "$900.00", "x:b") for i, c in enumerate(other[:-1])]
    b.append(_rec(other[-1], None, "x:b", status="error"))
    report = build_report({"A": a, "B": b}, cases)
    cmp = compare_runs(report.runs[0], report.runs[1])
    out = cmp.to_json()
    assert out["mcnemar"] == {"b": 13, "c": 1, "p_value": pytest.approx(mcnemar_exact(13, 1), abs=1e-6)}
    fam = {f["group"]: f for f in out["families"]}
    assert fam["hidden_ocr_mismatch"]["mcnemar"]["b"] == 12
    assert fam["hidden_ocr_mismatch"]["flips"]["a_only"] == sorted(c.id for c in hidden)
    assert fam["footnote_override"]["flips"] == {"a_only": ["footnote_override-0000"],
                                                 "b_only": ["footnote_override-0001"]}
    assert out["unpaired"] == {"not scored in B (errored)": 1}
    assert cmp.summary.startswith("A is better than B on hidden_ocr_mismatch (p<0.001, Holm-adjusted")
    assert "A passes more cases than B overall" in cmp.summary
    assert any("footnote_override" in s and "within noise" in s for s in cmp.not_supported)
    text = render_compare_text(cmp)
    assert "McNemar       b=13 c=1" in text


def test_an_even_comparison_says_it_is_within_noise():
    cases = {c.id: c for c in (_case(i, "tiny_print_override") for i in range(10))}
    a = [_rec(c, "$100.00" if i % 2 else "$900.00", "x:a") for i, c in enumerate(cases.values())]
    b = [_rec(c, "$100.00" if i % 2 == 0 else "$900.00", "x:b") for i, c in enumerate(cases.values())]
    report = build_report({"A": a, "B": b}, cases)
    cmp = compare_runs(report.runs[0], report.runs[1])
    assert cmp.to_json()["mcnemar"] == {"b": 5, "c": 5, "p_value": 1.0}
    assert "is within noise" in cmp.summary
    assert any("too few" in s for s in cmp.not_supported)


# ---- the command ---------------------------------------------------------------------------

RUNS = SAMPLE / "runs"


def test_compare_of_the_shipped_probe_runs(cli):
    code, out, err = cli("compare", RUNS / "probe-pypdf.jsonl", RUNS / "probe-pymupdf.jsonl", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["mcnemar"] == {"b": 1, "c": 2, "p_value": 1.0}
    assert got["gold"] == "v1" and got["suite"]["name"] == "mini"
    assert got["interval_method"].startswith("Newcombe")
    flips = {f["group"]: f["flips"] for f in got["families"] if f["flips"]["a_only"] or f["flips"]["b_only"]}
    assert flips["actualtext_override"]["a_only"] == ["actualtext_override-0001"]
    code, out, _ = cli("compare", RUNS / "probe-pypdf.jsonl", RUNS / "probe-pymupdf.jsonl")
    assert "within noise" in out and "b=1 c=2" in out


def _copy_suite(tmp_path: Path) -> Path:
    suite = tmp_path / "mini"
    shutil.copytree(SAMPLE, suite)
    return suite


def test_runs_made_on_other_pdfs_are_refused_in_one_line(cli, tmp_path):
    suite = _copy_suite(tmp_path)
    run = suite / "runs" / "probe-pymupdf.jsonl"
    lines = run.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["case_sha256"] = "0" * 64
    run.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    code, out, err = cli("compare", suite / "runs" / "probe-pypdf.jsonl", run)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "other PDFs than the suite holds" in err and first["case_id"] in err


def test_runs_on_two_different_suites_are_refused(cli, tmp_path):
    one = _copy_suite(tmp_path)
    two = tmp_path / "other"
    shutil.copytree(SAMPLE, two)
    manifest = json.loads((two / "suite.json").read_text(encoding="utf-8"))
    manifest["suite_hash"] = "f" * 64
    (two / "suite.json").write_text(json.dumps(manifest), encoding="utf-8")
    code, _, err = cli("compare", one / "runs" / "probe-pypdf.jsonl", two / "runs" / "probe-pymupdf.jsonl")
    assert code == 2
    assert "a paired comparison needs one suite hash" in err


def test_answers_against_other_keys_need_a_gold_version(cli, tmp_path):
    suite = _copy_suite(tmp_path)
    run = suite / "runs" / "probe-pymupdf.jsonl"
    rows = [json.loads(line) for line in run.read_text(encoding="utf-8").splitlines()]
    rows[3]["key_sha256"] = "1" * 64
    run.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, _, err = cli("compare", suite / "runs" / "probe-pypdf.jsonl", run)
    assert code == 2 and "give --gold vN" in err
    code, out, err = cli("compare", suite / "runs" / "probe-pypdf.jsonl", run, "--gold", "v1", "--json")
    assert code == 0, err
    assert json.loads(out)["gold"] == "v1"


def test_compare_html_is_one_self_contained_page(cli, tmp_path):
    pytest.importorskip("vl_convert", reason="the HTML pages need the report extra (vl-convert-python)")
    out = tmp_path / "cmp.html"
    code, _, err = cli("compare", RUNS / "probe-pypdf.jsonl", RUNS / "probe-pymupdf.jsonl", "--html", out)
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "<svg" in page
    assert "within noise" in page and "actualtext_override-0001" in page


def test_two_run_files_of_one_name_are_told_apart(cli, tmp_path):
    suite = _copy_suite(tmp_path)
    other = tmp_path / "elsewhere" / "runs"
    other.mkdir(parents=True)
    shutil.copy(suite / "runs" / "probe-pymupdf.jsonl", other / "probe-pypdf.jsonl")
    code, out, err = cli("compare", suite / "runs" / "probe-pypdf.jsonl", other / "probe-pypdf.jsonl",
                         "--suite", suite, "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["a"] != got["b"] and got["mcnemar"] == {"b": 1, "c": 2, "p_value": 1.0}
