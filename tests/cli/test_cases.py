"""The foundation's command line: families, make, build, verify, inspect, and every error path."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from workbench.build.make import generate_case
from workbench.core.case import load_case

FAMILY = "hidden_ocr_mismatch"


def test_families_lists_name_version_and_params_as_json(cli):
    code, out, _ = cli("families", "--json")
    assert code == 0
    fams = {f["name"]: f for f in json.loads(out)}
    fam = fams[FAMILY]
    assert fam["version"] >= 1 and fam["description"]
    params = {p["name"]: p for p in fam["params"]}
    assert len(params) >= 4
    assert params["visible_total"]["type"] == "float" and params["visible_total"]["range"] == [100, 99999.99]
    assert params["currency"]["choices"] == ["USD", "EUR", "GBP"]
    assert all(p["help"] for p in params.values())


def test_families_plain_has_one_line_each(cli):
    code, out, _ = cli("families")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith(FAMILY))
    assert "Invoice" in line


def test_make_writes_pdf_and_json_with_resolved_params(cli, tmp_path):
    code, out, err = cli("make", FAMILY, "--seed", "7", "--out", tmp_path)
    assert code == 0, err
    case = load_case(tmp_path / f"{FAMILY}-0007.json")
    pdf = (tmp_path / f"{FAMILY}-0007.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    families = json.loads(cli("families", "--json")[1])
    fam_params = {p["name"] for f in families if f["name"] == FAMILY for p in f["params"]}
    assert set(case.params) == fam_params
    assert case.generator["name"] == FAMILY and case.generator["pinned"] == []
    assert case.forbidden_answers and case.expected_answer not in case.forbidden_answers


def test_same_seed_gives_identical_bytes_in_process_and_in_a_new_process(tmp_path, run_cli_subprocess):
    a, pdf_a = generate_case(FAMILY, 11)
    b, pdf_b = generate_case(FAMILY, 11)
    assert pdf_a == pdf_b and a.to_json() == b.to_json()
    proc = run_cli_subprocess("make", FAMILY, "--seed", "11", "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / f"{FAMILY}-0011.pdf").read_bytes() == pdf_a
    on_disk = json.loads((tmp_path / f"{FAMILY}-0011.json").read_text())
    assert on_disk == json.loads(json.dumps(a.to_json()))


def test_pinning_one_param_changes_that_value_and_nothing_else_drawn():
    free, _ = generate_case(FAMILY, 5)
    pinned, _ = generate_case(FAMILY, 5, {"vendor": "Acme Widgets Ltd."})
    assert pinned.params["vendor"] == "Acme Widgets Ltd."
    assert "Acme Widgets Ltd." in pinned.question
    others = {k: v for k, v in free.params.items() if k != "vendor"}
    assert {k: v for k, v in pinned.params.items() if k != "vendor"} == others
    assert pinned.generator["pinned"] == ["vendor"]


def test_pinned_value_is_exactly_what_the_pdf_shows(cli, tmp_path):
    code, _, err = cli("make", FAMILY, "--seed", "2", "--param", "visible_total=4321.09",
                       "--param", "currency=USD", "--param", "visible_total_layer=text", "--out", tmp_path)
    assert code == 0, err
    [json_path] = tmp_path.glob("*.json")
    case = load_case(json_path)
    assert case.expected_answer == "$4,321.09"
    code, out, _ = cli("inspect", json_path)
    assert "$4,321.09" in out


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


def _build(cli, tmp_path: Path) -> Path:
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'name = "t"\nversion = "3"\n[[families]]\nname = "hidden_ocr_mismatch"\nseeds = "1..3"\n'
        '[[families]]\nname = "hidden_ocr_mismatch"\nseeds = [4]\nparams = { currency = "GBP" }\n'
    )
    out = tmp_path / "suite"
    code, stdout, err = cli("build", spec, "--out", out)
    assert code == 0, err
    assert "built 4 cases" in stdout
    return out


def test_build_writes_suite_json_with_content_hash(cli, tmp_path):
    out = _build(cli, tmp_path)
    manifest = json.loads((out / "suite.json").read_text())
    assert manifest["name"] == "t" and manifest["version"] == "3"
    assert len(manifest["cases"]) == 4
    assert len(manifest["suite_hash"]) == 64
    gbp = [c for c in manifest["cases"] if c["id"].startswith("hidden_ocr_mismatch-0004")]
    assert load_case(out / gbp[0]["json"]).params["currency"] == "GBP"


def test_verify_passes_then_catches_tampered_pdf_and_key(cli, tmp_path):
    out = _build(cli, tmp_path)
    code, stdout, _ = cli("verify", out)
    assert code == 0
    digest = json.loads((out / "suite.json").read_text())["suite_hash"]
    assert f"suite hash {digest}" in stdout

    pdf = out / "hidden_ocr_mismatch-0002.pdf"
    data = bytearray(pdf.read_bytes())
    data[-40] ^= 1
    pdf.write_bytes(bytes(data))
    key = out / "hidden_ocr_mismatch-0003.json"
    raw = json.loads(key.read_text())
    raw["expected_answer"] = "$1.00"
    key.write_text(json.dumps(raw))
    code, stdout, _ = cli("verify", out)
    assert code == 1
    assert "MISMATCH hidden_ocr_mismatch-0002: PDF bytes differ" in stdout
    assert "MISMATCH hidden_ocr_mismatch-0003: answer key differs in expected_answer" in stdout
    assert "suite hash" in stdout and digest not in stdout  # the content changed, so the hash did


def test_shipped_sample_suite_verifies(cli):
    root = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"
    code, stdout, _ = cli("verify", root)
    assert code == 0, stdout


def test_inspect_json_gives_pages_sizes_and_both_layers(cli, tmp_path):
    cli("make", FAMILY, "--seed", "1", "--out", tmp_path)
    code, out, _ = cli("inspect", tmp_path / f"{FAMILY}-0001.pdf", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["page_count"] == 1
    page = report["pages"][0]
    assert (page["width_pt"], page["height_pt"]) == (612, 792)
    case = load_case(tmp_path / f"{FAMILY}-0001.json")
    # The hidden total is in both text layers; the printed (pixel) total is in neither.
    for layer in ("pypdf", "pymupdf"):
        assert case.forbidden_answers[0] in page["text"][layer]
        assert case.expected_answer not in page["text"][layer]


# ---- errors: one line, exit 2, no traceback, nothing half-written ------------------------------

def _one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0]


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["make", "no_such_family"], ["unknown family 'no_such_family'", "pdfworkbench families"]),
        (["make", FAMILY, "--param", "colour=red"], ["no parameter 'colour'"]),
        (["make", FAMILY, "--param", "line_items=99"], ["between 1 and 8"]),
        (["make", FAMILY, "--param", "line_items=three"], ["'line_items' is an int"]),
        (["make", FAMILY, "--param", "currency=YEN"], ["must be one of USD, EUR, GBP"]),
        (["make", FAMILY, "--param", "novalue"], ["NAME=VALUE"]),
        (["make", FAMILY, "--param", "hidden_change_pct=0"], ["between 5 and 400"]),
    ],
)
def test_make_errors_are_one_line_and_write_nothing(cli, tmp_path, argv, needles):
    out_dir = tmp_path / "out"
    code, out, err = cli(*argv, "--out", out_dir)
    _one_line_error(code, out, err, *needles)
    assert not out_dir.exists() or not any(out_dir.iterdir())


def test_inspect_of_non_pdf_and_broken_pdf(cli, tmp_path):
    text = tmp_path / "notes.pdf"
    text.write_text("hello")
    _one_line_error(*cli("inspect", text), "not a PDF")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj garbage\n")
    _one_line_error(*cli("inspect", broken), "broken PDF")
    _one_line_error(*cli("inspect", tmp_path / "missing.pdf"), "no such file")


def test_malformed_case_json(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "x", ')
    _one_line_error(*cli("inspect", bad), "malformed case JSON")
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"id": "x"}')
    _one_line_error(*cli("inspect", wrong), "not a case", "question")


def test_build_errors(cli, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text("[[families]]\nname = 'nope'\nseeds = [1]\n")
    out = tmp_path / "suite"
    _one_line_error(*cli("build", spec, "--out", out), "unknown family 'nope'")
    assert not out.exists()
    spec.write_text("this is = = not toml")
    _one_line_error(*cli("build", spec, "--out", out), "malformed TOML")


def test_verify_of_a_folder_without_cases(cli, tmp_path):
    _one_line_error(*cli("verify", tmp_path), "no cases found")


def test_broken_pdf_via_subprocess_has_no_traceback(tmp_path, run_cli_subprocess):
    broken = tmp_path / "x.pdf"
    broken.write_bytes(b"garbage")
    proc = run_cli_subprocess("inspect", broken)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("pdfworkbench: error:") and "Traceback" not in proc.stderr


def test_pdfhell_folder_opens_as_a_suite(tmp_path):
    from workbench.core.source import open_source

    case, pdf = generate_case(FAMILY, 3)
    raw = {k: case.to_json()[k] for k in ("id", "trap_family", "seed", "question", "expected_answer",
                                         "forbidden_answers", "pdf_path", "metadata")}
    (tmp_path / f"{case.id}.json").write_text(json.dumps(raw))
    (tmp_path / f"{case.id}.pdf").write_bytes(pdf)
    src = open_source(tmp_path)
    assert src.kind == "suite" and [c.id for c in src.cases] == [case.id]
    assert src.suite is not None and not src.suite.has_manifest
    shutil.rmtree(tmp_path)


# ---- each command of workbench/cli/cases.py: exit code and --json on good input and on bad ----

TWO_SEEDS = 'name = "tiny"\n[[families]]\nname = "hidden_ocr_mismatch"\nseeds = [1, 2]\n'


def test_families_json_names_every_family_and_a_bad_option_is_one_line(command, work):
    from tests.support.cli import printed_json, refused

    names = {f["name"] for f in printed_json(command("families", "--json"))}
    assert FAMILY in names and "invoice_extraction" in names
    refused(command("families", "--json", "--colour"), "unrecognized arguments: --colour")


def test_make_json_and_its_bad_input(command, work):
    from tests.support.cli import files_under, printed_json, refused

    made = printed_json(command("make", FAMILY, "--seed", "1", "--out", "made", "--json"))
    assert made["id"] == f"{FAMILY}-0001" and (work / "made" / f"{FAMILY}-0001.pdf").is_file()
    refused(command("make", "no_such_family", "--out", "bad", "--json"), "unknown family 'no_such_family'")
    refused(command("make", FAMILY, "--seed", "x", "--json"), "--seed")
    assert files_under(work / "bad") == []


def test_build_merge_suite_and_verify_json_and_their_bad_input(command, work):
    from tests.support.cli import printed_json, refused

    (work / "spec.toml").write_text(TWO_SEEDS)
    built = printed_json(command("build", "spec.toml", "--out", "whole", "--json"))
    assert built["cases"] == 2 and built["build"]["missing"] == []
    for i in (1, 2):
        printed_json(command("build", "spec.toml", "--out", "sharded", "--shard", f"{i}/2", "--json"))
    merged = printed_json(command("merge-suite", "sharded", "--json"))
    assert merged["suite_hash"] == built["suite_hash"]
    verified = printed_json(command("verify", "whole", "--json"))
    assert verified["ok"] and [c["ok"] for c in verified["cases"]] == [True, True]

    refused(command("build", "missing.toml", "--out", "x", "--json"), "missing.toml: no such file")
    refused(command("build", "spec.toml", "--out", "x", "--shard", "3/2", "--json"), "shard")
    refused(command("merge-suite", "whole", "--json"), "no shard manifests")
    refused(command("merge-suite", "missing", "--json"), "not a folder")
    refused(command("verify", "missing", "--json"), "not a folder")
    assert not (work / "x").exists()


def test_verify_of_a_changed_key_is_exit_1_with_json(command, work):
    from tests.support.cli import printed_json

    (work / "spec.toml").write_text(TWO_SEEDS)
    printed_json(command("build", "spec.toml", "--out", "s", "--json"))
    case = work / "s" / f"{FAMILY}-0001.json"
    case.write_text(case.read_text().replace('"seed": 1', '"seed": 5'))
    verified = printed_json(command("verify", "s", "--json"), code=1)
    assert not verified["ok"]


def test_inspect_json_and_its_bad_input(command, work):
    from tests.support.cli import printed_json, refused
    from tests.support.fixtures import ONE_CASE

    report = printed_json(command("inspect", ONE_CASE.with_suffix(".pdf"), "--json", "--pages", "1"))
    assert report["page_count"] == 1 and report["pages"][0]["text"]["pypdf"]
    refused(command("inspect", "missing.pdf", "--json"), "missing.pdf: no such file")
    (work / "not.pdf").write_text("plain text")
    refused(command("inspect", "not.pdf", "--json"), "not a PDF")
    refused(command("inspect", ONE_CASE.with_suffix(".pdf"), "--json", "--pages", "0"), "page")
