"""A case's nested JSON is typed where the case is read (`Case.from_json`): every shipped case
reads into its classes and writes back to the same bytes, and a bad field is one line naming the
file and the field (a bad matcher, contract clause, adopted source or mutation step, and gold are
tests/core/test_matcher.py's, test_contract.py's, test_adoption.py's and test_extraction.py's)."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import SAMPLES
from workbench.core import atomic
from workbench.core.adoption import AdoptedSource, Target
from workbench.core.case import Case, GeneratorRef, load_case
from workbench.core.contract import Arming
from workbench.core.errors import UserError
from workbench.core.matcher import MatcherSpec

SHIPPED = sorted(p for p in SAMPLES.glob("*/*.json") if p.name != "suite.json")


def test_every_shipped_case_writes_back_the_same_bytes(tmp_path):
    assert len(SHIPPED) > 40
    for path in SHIPPED:
        case = load_case(path)
        atomic.write_json(tmp_path / path.name, case.to_json())
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path


def test_shipped_cases_read_typed():
    cases = {p.stem: load_case(p) for p in SHIPPED}
    book = next(c for c in cases.values() if c.trap_family == "book_scan_passage")
    assert book.matcher == MatcherSpec("keywords_all", keywords=tuple(book.expected_tokens), no_hedge=True)
    assert all(c.matcher is None or isinstance(c.matcher, MatcherSpec) for c in cases.values())
    assert {c.generator for c in cases.values()} >= {GeneratorRef("adopt", 1), GeneratorRef("tiny_print", 3, "mutation", ())}
    tiny = cases["statement-tiny-print"]
    assert tiny.source.kind == "mutated" and tiny.source.key.expected_answer == "$5,143.24"
    assert tiny.mutations[0].target == Target(1, (377.36, 140.48, 426.28, 151.48), "$5,143.24")
    assert cases["statement"].source == AdoptedSource(tiny.source.sha256, "statement.pdf", 2)
    invoice = cases["invoice_extraction-0001"]
    assert invoice.gold.evidence_of("invoice.total").page == 1 and dict(invoice.gold.fields)["invoice.total"].normalizer == "money"
    injection = cases["prompt_injection_in_body-0001"]
    assert any(c.role == "instruction" for c in injection.contract)
    assert all(isinstance(c, Arming) for case in cases.values() for c in case.contract or ())


@pytest.mark.parametrize(("generator", "needle"), [
    ({"name": "x", "version": "two"}, "version must be an integer"),
    ({"name": "x", "version": 1, "kind": "family"}, "kind must be mutation"),
    ({"name": "x", "version": 1, "pinned": "a"}, "pinned must be a list"),
    ({"name": "x", "version": 1, "made": "today"}, "unknown key 'made'"),
])
def test_a_bad_generator_is_refused_where_the_case_is_read(generator, needle):
    raw = {"id": "c", "question": "q?", "expected_answer": "1", "generator": generator}
    with pytest.raises(UserError) as err:
        Case.from_json(raw, "suite/c.json")
    assert str(err.value).startswith("suite/c.json: generator: ") and needle in str(err.value)


def test_params_are_numbers_texts_or_flags():
    raw = {"id": "c", "question": "q?", "expected_answer": "1", "params": {"size": 7.5, "wrap": True}}
    assert Case.from_json(raw).params == {"size": 7.5, "wrap": True}
    raw["params"]["size"] = [7]
    with pytest.raises(UserError, match=r"suite/c.json: params: 'size' must be a number, a text or true/false"):
        Case.from_json(raw, "suite/c.json")


def test_a_bad_field_is_one_line_from_the_cli(tmp_path, cli):
    shipped = SAMPLES / "mini" / "actualtext_override-0001.json"
    raw = json.loads(shipped.read_text(encoding="utf-8"))
    raw["matcher"] = {"type": "contains", "case_sensitive": 1}
    bad = tmp_path / shipped.name
    bad.write_text(json.dumps(raw), encoding="utf-8")
    (tmp_path / shipped.with_suffix(".pdf").name).write_bytes(shipped.with_suffix(".pdf").read_bytes())
    code, out, err = cli("grade", bad, "--answer", "anything")
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"{bad}: matcher: matcher option 'case_sensitive' must be true or false" in err


def test_pdfhell_case_round_trips(tmp_path):
    raw = {
        "id": "hidden_ocr_mismatch-1002", "trap_family": "hidden_ocr_mismatch", "seed": 1002,
        "question": "What is the TOTAL AMOUNT DUE?", "expected_answer": "$12,345.67",
        "forbidden_answers": ["$22,345.67"], "pdf_path": "hidden_ocr_mismatch-1002.pdf",
        "metadata": {"vendor": "Initech", "expected_failure_mode": "trusts the hidden layer"},
    }
    case = Case.from_json(raw)
    out = case.to_json()
    assert {k: out[k] for k in raw} == raw
    assert out["expected_tokens"] == []
    assert case.expected_failure_mode == "trusts the hidden layer"
    assert case.matcher_spec.to_json() == {"type": "contains"}
