"""`make` (workbench/cli/make.py): one case, its resolved parameters, the same bytes for the same
seed; bad input is one line and writes nothing."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import one_line_error
from workbench.build.make import generate_case
from workbench.core.case import load_case

FAMILY = "hidden_ocr_mismatch"


def test_make_writes_pdf_and_json_with_resolved_params(cli, tmp_path):
    code, out, err = cli("make", FAMILY, "--seed", "7", "--out", tmp_path)
    assert code == 0, err
    case = load_case(tmp_path / f"{FAMILY}-0007.json")
    pdf = (tmp_path / f"{FAMILY}-0007.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    families = json.loads(cli("families", "--json")[1])
    fam_params = {p["name"] for f in families if f["name"] == FAMILY for p in f["params"]}
    assert set(case.params) == fam_params
    assert case.generator.name == FAMILY and case.generator.pinned == ()
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
    assert pinned.generator.pinned == ("vendor",)


def test_pinned_value_is_exactly_what_the_pdf_shows(cli, tmp_path):
    code, _, err = cli("make", FAMILY, "--seed", "2", "--param", "visible_total=4321.09",
                       "--param", "currency=USD", "--param", "visible_total_layer=text", "--out", tmp_path)
    assert code == 0, err
    [json_path] = tmp_path.glob("*.json")
    case = load_case(json_path)
    assert case.expected_answer == "$4,321.09"
    code, out, _ = cli("inspect", json_path)
    assert "$4,321.09" in out


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
    one_line_error(code, out, err, *needles)
    assert not out_dir.exists() or not any(out_dir.iterdir())


def test_make_json_and_its_bad_input(command, work):
    from tests.support.cli import files_under, printed_json, refused

    made = printed_json(command("make", FAMILY, "--seed", "1", "--out", "made", "--json"))
    assert made["id"] == f"{FAMILY}-0001" and (work / "made" / f"{FAMILY}-0001.pdf").is_file()
    refused(command("make", "no_such_family", "--out", "bad", "--json"), "unknown family 'no_such_family'")
    refused(command("make", FAMILY, "--seed", "x", "--json"), "--seed")
    assert files_under(work / "bad") == []
