"""`families` (workbench/cli/families.py): every family and mutation with its parameters, as text
and as JSON; a bad option is one line."""

from __future__ import annotations

import json

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


def test_families_json_names_every_family_and_a_bad_option_is_one_line(command, work):
    from tests.support.cli import printed_json, refused

    names = {f["name"] for f in printed_json(command("families", "--json"))}
    assert FAMILY in names and "invoice_extraction" in names
    refused(command("families", "--json", "--colour"), "unrecognized arguments: --colour")
