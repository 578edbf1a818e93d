"""Adding a case to a suite as `make --into`, `adopt` and `mutate` say it (workbench/cli/saving.py):
the case linted and saved, a new suite or the suite, added or replaced, its lint's errors and
warnings, the suite's hash; or the case's JSON with where it went."""

from __future__ import annotations

import argparse
import json

from tests.support.invoices import handmade_case, invoice_pdf
from workbench.cli.saving import add_into_suite
from workbench.core.case import sha256_hex
from workbench.core.suite import load_suite


def into(folder, **flags) -> argparse.Namespace:
    return argparse.Namespace(into=folder, overwrite=flags.get("overwrite", False),
                              allow_lint_errors=flags.get("allow_lint_errors", False), json=flags.get("json", False))


def test_a_case_added_to_a_new_suite_then_replaced_says_so(tmp_path, capsys):
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    case = handmade_case("inv-1", sha256=sha256_hex(pdf))
    assert add_into_suite(into(tmp_path / "s"), case, pdf) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"added inv-1 in a new suite {tmp_path / 's'} ({len(pdf):,} bytes, sha256 {sha256_hex(pdf)[:12]})"
    assert out[1].startswith("suite hash ") and len(out) == 2           # an info finding is not listed
    assert [c.id for c in load_suite(tmp_path / "s").cases] == ["inv-1"]
    assert add_into_suite(into(tmp_path / "s", overwrite=True, json=True), case, pdf) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["id"] == "inv-1" and printed["json_path"].endswith("inv-1.json") and printed["suite_hash"]
    add_into_suite(into(tmp_path / "s", overwrite=True), case, pdf)
    assert capsys.readouterr().out.startswith(f"replaced inv-1 in the suite {tmp_path / 's'} (")


def test_the_lints_errors_are_listed_when_the_user_saves_them_anyway(tmp_path, capsys):
    pdf = invoice_pdf("$4,711.00", "$9,999.00", total_mode=3)         # the answer drawn invisibly
    case = handmade_case("inv-2", sha256=sha256_hex(pdf))
    assert add_into_suite(into(tmp_path / "s", allow_lint_errors=True), case, pdf) == 0
    out = capsys.readouterr().out
    assert "  lint error: expected-not-visible: " in out and "invisible-render-mode" in out
