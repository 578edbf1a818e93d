"""Cases as pdfhell writes them read and write back unchanged (`core.case`)."""

from __future__ import annotations


def test_pdfhell_case_round_trips(tmp_path):
    raw = {
        "id": "hidden_ocr_mismatch-1002", "trap_family": "hidden_ocr_mismatch", "seed": 1002,
        "question": "What is the TOTAL AMOUNT DUE?", "expected_answer": "$12,345.67",
        "forbidden_answers": ["$22,345.67"], "pdf_path": "hidden_ocr_mismatch-1002.pdf",
        "metadata": {"vendor": "Initech", "expected_failure_mode": "trusts the hidden layer"},
    }
    from workbench.core.case import Case

    case = Case.from_json(raw)
    out = case.to_json()
    assert {k: out[k] for k in raw} == raw
    assert out["expected_tokens"] == []
    assert case.expected_failure_mode == "trusts the hidden layer"
    assert case.matcher_spec == {"type": "contains"}
