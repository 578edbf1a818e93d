"""Making one case from a family (build/make.py): the same seed the same bytes, the record it
writes beside its PDF, and every bad input one line."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from workbench.build.make import (
    generate_case,
    make_case,
    other_version,
    parse_param_args,
    write_case,
)
from workbench.core.case import load_case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.schema import MAX_SEED

FAMILY = "hidden_ocr_mismatch"


def test_a_case_is_made_in_memory_with_its_resolved_params_and_its_pdf_s_hash():
    made = make_case(FAMILY, 3, {"currency": "USD"})
    case = made.case
    assert made.pdf == made.clean_pdf and made.pdf.startswith(b"%PDF") and case.sha256 == sha256_hex(made.pdf)
    assert case.id == f"{FAMILY}-0003-" + case.id.rsplit("-", 1)[1] and case.params["currency"] == "USD"
    assert case.generator.pinned == ("currency",) and case.pdf_path == f"{case.id}.pdf"
    assert case.expected_answer.startswith("$") and case.forbidden_answers and case.contract
    assert set(made.seconds) == {"generate"}   # no scan asked for
    again = make_case(FAMILY, 3, {"currency": "USD"})
    assert again.pdf == made.pdf and again.case.to_json() == case.to_json()   # same seed, same bytes
    assert generate_case(FAMILY, 4)[1] != made.pdf and generate_case(FAMILY, 3)[0].id == f"{FAMILY}-0003"


def test_the_pair_of_files_is_written_and_reads_back_as_made(tmp_path):
    case, pdf = generate_case(FAMILY, 1, case_id="mine")
    json_path = write_case(case, pdf, tmp_path / "out")
    assert json_path == tmp_path / "out" / "mine.json" == case.json_path
    assert (tmp_path / "out" / "mine.pdf").read_bytes() == pdf
    assert load_case(json_path).to_json() == json.loads(json_path.read_text()) == json.loads(json.dumps(case.to_json()))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["mine.json", "mine.pdf"]   # no temporary left


@pytest.mark.parametrize("call, message", [
    (lambda: make_case(FAMILY, -1), f"^seed -1: give a whole number between 0 and {MAX_SEED}$"),
    (lambda: make_case(FAMILY, True), f"^seed True: give a whole number between 0 and {MAX_SEED}$"),
    (lambda: make_case(FAMILY, 1, case_id="../up"), r"^--id '\.\./up' is not a plain name"),
    (lambda: make_case("no_such_family", 1), "^unknown family 'no_such_family'"),
    (lambda: make_case(FAMILY, 1, {"line_items": 99}), f"^{FAMILY}: .*between 1 and 8"),
    (lambda: parse_param_args(["a=1", "novalue"]), r"^--param 'novalue': write it as NAME=VALUE$"),
    (lambda: parse_param_args(["=1"]), r"^--param '=1': write it as NAME=VALUE$"),
])
def test_bad_input_is_one_line(call, message):
    with pytest.raises(UserError, match=message):
        call()


def test_param_args_keep_their_values_as_typed():
    assert parse_param_args([" vendor =Acme = Ltd", "n=3", "empty="]) == {"vendor": "Acme = Ltd", "n": "3", "empty": ""}


def test_a_case_path_is_never_a_path_outside_its_folder(tmp_path):
    case, pdf = generate_case(FAMILY, 1)
    with pytest.raises(UserError, match="case id"):
        write_case(replace(case, id="../escape"), pdf, tmp_path / "out")
    assert not (tmp_path / "escape.pdf").exists()


def test_a_case_made_by_another_version_of_its_family_says_so():
    case, _ = generate_case(FAMILY, 1)
    assert other_version(case) is None
    old = replace(case, generator=replace(case.generator, version=case.generator.version - 1))
    assert other_version(old) == (f"made by {FAMILY} version {case.generator.version - 1}, "
                                  f"installed version is {case.generator.version}")
