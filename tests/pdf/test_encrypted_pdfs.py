"""Encrypted PDFs as a user meets them: `lint --password` opens them (a suite, a case, a bare PDF),
and without the password, or with a wrong one, each says so in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.hostile_corpus import USER_PASSWORD, case_dict, encrypted_pdf


@pytest.fixture(scope="module")
def locked_suite(tmp_path_factory) -> Path:
    """A suite of one case whose PDF needs a password; its key expects a total the page lacks, so
    only a lint that really read the decrypted page can find that."""
    folder = tmp_path_factory.mktemp("locked")
    (folder / "locked.pdf").write_bytes(encrypted_pdf(USER_PASSWORD))
    case = case_dict("locked", "locked.pdf") | {"expected_answer": "$2.00"}
    (folder / "locked.json").write_text(json.dumps(case), encoding="utf-8")
    return folder


@pytest.mark.parametrize("target", ["suite", "case"])
def test_lint_password_opens_an_encrypted_case(cli, locked_suite, target):
    path = locked_suite if target == "suite" else locked_suite / "locked.json"
    code, out, _ = cli("lint", path)
    assert code == 1 and "pdf-unreadable" in out and "give --password" in out
    code, out, _ = cli("lint", path, "--password", "wrong")
    assert code == 1 and "does not open it" in out
    code, out, _ = cli("lint", path, "--password", USER_PASSWORD, "--json")
    codes = {f["code"] for f in json.loads(out)}
    assert "pdf-unreadable" not in codes and "expected-not-printed" in codes, codes


def test_lint_password_opens_a_bare_encrypted_pdf(cli, locked_suite):
    pdf = locked_suite / "locked.pdf"
    code, _, err = cli("lint", pdf)
    assert code == 2 and "give --password" in err
    code, out, err = cli("lint", pdf, "--password", USER_PASSWORD)
    assert code == 0 and "0 error(s)" in out, err
    code, out, _ = cli("lint", pdf, "--key", locked_suite / "locked.json", "--password", USER_PASSWORD, "--json")
    assert "expected-not-printed" in {f["code"] for f in json.loads(out)}
