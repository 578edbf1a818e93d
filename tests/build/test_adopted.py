"""Adopting a PDF we did not make, arming traps in it with mutations, and keeping it reproducible."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from workbench.build.adopted import mutated_case, read_source
from workbench.build.suite import verify_suite
from workbench.checks.lint import lint_case
from workbench.checks.search import find_evidence
from workbench.core.adoption import MutationStep
from workbench.core.case import sha256_hex
from workbench.core.suite import load_suite
from workbench.generators.mutations import get_mutation

ROOT = Path(__file__).resolve().parents[2]


def _statement_module():
    spec = importlib.util.spec_from_file_location("sample_statement", ROOT / "sample_cases" / "statement.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


STATEMENT = _statement_module()


@pytest.fixture(scope="module")
def adopted(tmp_path_factory):
    """A suite with the platypus statement adopted, keyed by hand through the CLI."""
    from workbench.cli import main

    folder = tmp_path_factory.mktemp("adopted")
    pdf = folder.parent / "statement.pdf"
    pdf.write_bytes(STATEMENT.statement_pdf())
    assert main(["adopt", str(pdf), "--into", str(folder / "suite"), "--question", STATEMENT.QUESTION,
                 "--expected", STATEMENT.NEW_BALANCE]) == 0
    return folder / "suite"


def errors(case, pdf):
    return [f"{f.code}: {f.message}" for f in lint_case(case, pdf) if f.severity == "error"]


def mutate(suite: Path, trap: str, seed: int = 1, base: str = "statement", page: int = 2, **pinned):
    """`trap` armed in `base` at its answer where page `page` prints it (the summary's new balance)."""
    from workbench.build.adopted import mutation
    from workbench.cli.adopt import locate_target

    case = load_suite(suite).case(base)
    mut = mutation(trap)
    target = locate_target(case, case.pdf_file.read_bytes(), mut.needs_target, None, page)
    return mutated_case(case, read_source(case), [MutationStep(trap, mut.version, seed, pinned, target=target)])


def test_adopt_copies_the_pdf_records_its_hash_and_lints_clean(adopted, cli, tmp_path):
    case = load_suite(adopted).case("statement")
    data = case.pdf_file.read_bytes()
    assert data == STATEMENT.statement_pdf()
    assert case.source.sha256 == sha256_hex(data) == case.sha256 and case.source.pages == 2
    assert case.trap_family == "adopted" and case.expected_answer == STATEMENT.NEW_BALANCE
    assert lint_case(case, data) == []
    hits = [h for h in find_evidence(data, case.expected_answer) if h.visible]
    assert [h.page for h in hits] == [0, 1]  # the last row's balance, and the summary's
    results, digest, recorded = verify_suite(adopted)
    assert all(r.ok for r in results) and digest == recorded


def test_adopt_says_where_it_located_the_answer(cli, tmp_path):
    pdf = tmp_path / "mine.pdf"
    pdf.write_bytes(STATEMENT.statement_pdf())
    code, out, err = cli("adopt", pdf, "--into", tmp_path / "s", "--question", "Account number?",
                         "--expected", "4402-1187-33")
    assert code == 0, err
    assert "located '4402-1187-33' on page 1 at (" in out


def test_adopt_refuses_an_answer_the_page_does_not_print(cli, tmp_path):
    pdf = tmp_path / "mine.pdf"
    pdf.write_bytes(STATEMENT.statement_pdf())
    code, out, err = cli("adopt", pdf, "--into", tmp_path / "s", "--question", "Balance?",
                         "--expected", "$9,999.99")
    assert code == 2 and err.count("\n") == 1 and "expected-not-located" in err and "is nowhere" in err
    assert not (tmp_path / "s" / "mine.json").exists()


# (mutation, pins that disarm it, the lint code that must then fire)
DISARM = {
    "hidden_layer": ({"style": "colour", "colour": "000000"}, "forbidden-not-hidden"),
    "white_text": ({"method": "white", "colour": "000000"}, "forbidden-not-hidden"),
    "tiny_print": ({"size": "1.5"}, "expected-not-visible"),
    "redact_overlay": ({"opacity": "0.2"}, "forbidden-not-hidden"),
}


@pytest.mark.parametrize("trap", sorted(DISARM))
def test_each_mutation_arms_and_puts_its_decoy_only_where_it_said(adopted, trap):
    case, pdf, extra = mutate(adopted, trap)
    assert errors(case, pdf) == []
    assert case.source.sha256 == sha256_hex(STATEMENT.statement_pdf())
    assert list(extra) == [f"sources/{case.source.sha256}.pdf"]
    step = case.mutations[-1]
    assert step.mutation == trap and set(step.params) == {p.name for p in
                                                                __import__("workbench.generators.mutations", fromlist=["x"]).get_mutation(trap).params}
    target_page = step.target.page
    placed = {page - 1 for page, _ in case.metadata["mutation"]["places"]}
    assert target_page in placed
    decoy = case.forbidden_answers[-1]
    printed = {h.page for h in find_evidence(STATEMENT.statement_pdf(), STATEMENT.NEW_BALANCE)}
    before = {h.page for h in find_evidence(STATEMENT.statement_pdf(), decoy)}
    hits = find_evidence(pdf, decoy)
    assert hits, f"{trap}: the decoy {decoy!r} is nowhere"
    if trap == "redact_overlay":   # every place the value was printed is blacked out, text kept
        assert {h.page for h in hits} == before == placed == printed == {0, 1}
        assert not any(h.visible for h in hits)
        assert all(h.visible for h in find_evidence(pdf, "REDACTED"))
    elif trap == "tiny_print":     # the old value is the trap now; the amended one is printed small
        assert decoy == STATEMENT.NEW_BALANCE != case.expected_answer
        amended = find_evidence(pdf, case.expected_answer)
        assert {h.page for h in amended} == placed == {target_page} and all(h.visible for h in amended)
        assert not find_evidence(STATEMENT.statement_pdf(), case.expected_answer)
    else:                          # a new decoy, only where the mutation put it, never visible
        assert before == set() and {h.page for h in hits} == placed
        assert not any(h.visible for h in hits)
        if trap == "hidden_layer":  # over every place the value was printed
            assert placed == printed
            assert not [h for h in find_evidence(pdf, STATEMENT.NEW_BALANCE) if not h.visible]


@pytest.mark.parametrize("trap", sorted(DISARM))
def test_each_mutation_fails_the_lint_when_pinned_to_disarm(adopted, trap):
    pins, code = DISARM[trap]
    case, pdf, _ = mutate(adopted, trap, **pins)
    assert any(e.startswith(code) for e in errors(case, pdf)), errors(case, pdf)


@pytest.mark.slow
def test_a_stack_of_two_hidden_layer_then_scan_keeps_the_trap_with_a_faithful_layer(adopted, tmp_path):
    from workbench.build.saving import add_to_suite

    case, pdf, extra = mutate(adopted, "hidden_layer")
    add_to_suite(adopted, case, pdf, extra_files=extra)
    scanned, spdf, extra = mutate(adopted, "scan", base=case.id, text_layer="faithful", tier="mild")
    assert [s.mutation for s in scanned.mutations] == ["hidden_layer", "scan"]
    assert errors(scanned, spdf) == []
    assert scanned.forbidden_answers == case.forbidden_answers
    add_to_suite(adopted, scanned, spdf, extra_files=extra)
    # With no text layer the scan drops the decoy: the lint says the trap is gone.
    gone, gpdf, _ = mutate(adopted, "scan", base=case.id, text_layer="none", tier="mild")
    assert any(e.startswith("trap-disarmed") for e in errors(gone, gpdf)), errors(gone, gpdf)
    results, digest, recorded = verify_suite(adopted)
    assert all(r.ok for r in results), [r for r in results if not r.ok]


@pytest.mark.slow   # three CLI processes (mutate twice, verify): 2.5 s CPU in `make test-fast` at load 5 (2 cores)
def test_mutate_is_byte_identical_across_processes_and_verify_catches_an_edited_source(
        adopted, run_cli_subprocess, tmp_path):
    case_json = adopted / "statement.json"
    outs = []
    for n in (1, 2):
        proc = run_cli_subprocess("mutate", case_json, "--trap", "hidden_layer", "--seed", "3",
                                  "--param", "value_layer=pixels", "--into", tmp_path / f"s{n}", "--id", "m")
        assert proc.returncode == 0, proc.stderr
        outs.append((tmp_path / f"s{n}" / "m.pdf").read_bytes())
    assert outs[0] == outs[1]
    here, pdf, _ = mutate(adopted, "hidden_layer", seed=3, page=1, value_layer="pixels")
    assert pdf == outs[0]
    proc = run_cli_subprocess("verify", tmp_path / "s1")
    assert proc.returncode == 0, proc.stdout
    source = next((tmp_path / "s1" / "sources").glob("*.pdf"))
    source.write_bytes(source.read_bytes().replace(b"Northwind", b"Southwind", 1))
    proc = run_cli_subprocess("verify", tmp_path / "s1")
    assert proc.returncode == 1 and "was edited" in proc.stdout and "Traceback" not in proc.stderr


@pytest.mark.slow   # imports pymupdf4llm and mutates twice: 2.4 s CPU in `make test-fast` at load 5 (2 cores)
def test_a_pymupdf4llm_read_leaves_the_next_mutation_as_a_fresh_process_makes_it(adopted):
    """pymupdf4llm's import turns MuPDF's text-box corrections off for the whole process: a
    mutation made after a pymupdf4llm tab or probe in the same process placed its value
    elsewhere (CI caught it as a mutation that differed from the one made in a subprocess)."""
    if importlib.util.find_spec("pymupdf4llm") is None:  # not importorskip: its import is the bug
        pytest.skip("pymupdf4llm is not installed (the pymupdf4llm extra)")
    import pymupdf

    from workbench.providers.pagetexts import page_texts

    before = mutate(adopted, "hidden_layer", seed=3, page=1, value_layer="pixels")[1]
    case = load_suite(adopted).case("statement")
    assert page_texts("pymupdf4llm", case.pdf_file.read_bytes())
    assert pymupdf.TOOLS.unset_quad_corrections() is False
    assert mutate(adopted, "hidden_layer", seed=3, page=1, value_layer="pixels")[1] == before


def test_verify_catches_an_edited_adopted_pdf(cli, tmp_path):
    pdf = tmp_path / "mine.pdf"
    pdf.write_bytes(STATEMENT.statement_pdf())
    assert cli("adopt", pdf, "--into", tmp_path / "s", "--question", "Q?", "--expected",
               STATEMENT.NEW_BALANCE)[0] == 0
    copy = tmp_path / "s" / "mine.pdf"
    copy.write_bytes(copy.read_bytes() + b"\n% edited\n")
    code, out, _ = cli("verify", tmp_path / "s")
    assert code == 1 and "mine" in out and "was edited" in out


def test_mutation_errors_are_one_line(adopted, cli, tmp_path):
    import pymupdf

    case_json = adopted / "statement.json"
    code, _, err = cli("mutate", case_json, "--trap", "hidden_layer", "--at", "1:400,700,500,720",
                       "--into", tmp_path / "x")
    assert code == 2 and err.count("\n") == 1 and "has no text at" in err
    code, _, err = cli("mutate", case_json, "--trap", "nope")
    assert code == 2 and "unknown mutation 'nope'" in err and "hidden_layer" in err
    # An image-only PDF: nothing to locate the value in.
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.open(stream=STATEMENT.statement_pdf())[1].get_pixmap(dpi=72)
    page.insert_image(page.rect, pixmap=pix)
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(doc.tobytes())
    assert cli("adopt", scan, "--into", tmp_path / "img", "--question", "Q?", "--expected",
               STATEMENT.NEW_BALANCE, "--allow-lint-errors")[0] == 0
    code, _, err = cli("mutate", tmp_path / "img" / "scan.json", "--trap", "hidden_layer")
    assert code == 2 and err.count("\n") == 1 and "image-only" in err
    # An encrypted PDF: adopting it is refused with what to do.
    locked = tmp_path / "locked.pdf"
    src = pymupdf.open(stream=STATEMENT.statement_pdf())
    locked.write_bytes(src.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="own"))
    code, _, err = cli("adopt", locked, "--into", tmp_path / "enc", "--question", "Q?", "--expected", "x")
    assert code == 2 and err.count("\n") == 1 and "encrypted" in err and "Traceback" not in err
    # Encrypted with an owner password only: it opens, adopts and mutates; the mutation says its
    # output is written without the encryption.
    owner = tmp_path / "owner.pdf"
    owner.write_bytes(src.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="own", user_pw=""))
    assert cli("adopt", owner, "--into", tmp_path / "own", "--question", "Q?", "--expected",
               STATEMENT.NEW_BALANCE)[0] == 0
    code, out, err = cli("mutate", tmp_path / "own" / "owner.json", "--trap", "white_text")
    assert code == 0 and "written without encryption" in out, err


def test_mutated_case_json_records_source_mutation_and_resolved_params(adopted):
    case, pdf, _ = mutate(adopted, "white_text", seed=4)
    raw = json.loads(json.dumps(case.to_json()))
    assert raw["source"]["sha256"] == sha256_hex(STATEMENT.statement_pdf())
    assert raw["source"]["key"]["expected_answer"] == STATEMENT.NEW_BALANCE
    (step,) = raw["mutations"]
    assert step["mutation"] == "white_text" and step["seed"] == 4 and step["params"]["method"]
    assert raw["generator"] == {"name": "white_text", "version": get_mutation("white_text").version,
                                "kind": "mutation", "pinned": []}


def test_the_shipped_adopted_sample_verifies_and_lints_clean():
    from workbench.checks.lint import lint_path

    folder = ROOT / "sample_cases" / "adopted"
    results, digest, recorded = verify_suite(folder)
    assert all(r.ok for r in results) and digest == recorded and len(results) == 4
    assert [f for f in lint_path(folder) if f.severity == "error"] == []
    kinds = sorted(c.trap_family for c in load_suite(folder).cases)
    assert kinds == ["adopted", "hidden_layer", "redact_overlay", "tiny_print"]
    assert STATEMENT.statement_pdf() == (folder / "statement.pdf").read_bytes()


def test_families_json_lists_the_mutations_with_their_declared_params(cli):
    code, out, _ = cli("families", "--json")
    assert code == 0
    muts = {f["name"]: f for f in json.loads(out) if f.get("kind") == "mutation"}
    assert sorted(muts) == ["hidden_layer", "redact_overlay", "scan", "tiny_print", "white_text"]
    params = {p["name"]: p for p in muts["hidden_layer"]["params"]}
    assert params["style"]["choices"] == ["invisible", "colour"] and params["change_pct"]["range"] == [1, 400]
    assert {c["where"] for c in muts["hidden_layer"]["contract"]} == {"hidden", "not_visible", "every_text_layer"}
    code, out, _ = cli("families")
    assert "mutations (pdfworkbench mutate CASE --trap NAME" in out and "redact_overlay" in out


def test_a_mutation_that_replaces_the_answer_refuses_a_value_the_question_does_not_ask_for(adopted, cli, tmp_path):
    """redact_overlay (its label) and tiny_print (the amended value) key the case to the value they
    attack: pointed with --at at another value of the statement, they keyed "What is the new
    balance?" to that line's amended amount (or to REDACTED while the balance stayed in plain
    sight), and the lint found nothing. They say so now; white_text, which keeps the answer and
    adds a decoy, still attacks any value."""
    from workbench.checks.locate import locate_value

    case_json = adopted / "statement.json"
    other = locate_value((adopted / "statement.pdf").read_bytes(), "2,310.40")
    at = f"{other.page + 1}:" + ",".join(f"{v:g}" for v in other.box)
    for trap in ("redact_overlay", "tiny_print"):
        code, _, err = cli("mutate", case_json, "--trap", trap, "--at", at, "--into", tmp_path / trap)
        assert code == 2 and err.count("\n") == 1, err
        assert f"{trap}: it replaces the key's answer" in err and repr(STATEMENT.NEW_BALANCE) in err
        assert "'2,310.40'" in err and not (tmp_path / trap).exists()
    code, out, err = cli("mutate", case_json, "--trap", "white_text", "--at", at, "--into", tmp_path / "wt")
    assert code == 0, err
    assert load_suite(tmp_path / "wt").cases[0].expected_answer == STATEMENT.NEW_BALANCE
