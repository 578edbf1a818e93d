"""Running a parsed command (workbench/cli/dispatch.py): a config.json that cannot be used is one
warning and the command still runs; its limits and .env file, and --limit and --env-file, which
refuse in one line; an option read from stdin, one at most; an error of the system as one line."""

from __future__ import annotations

import io
import json
import sys

from tests.support.cli import printed_json, refused
from tests.support.fixtures import TOTAL, load
from workbench.core import limits
from workbench.core.config import config_path


def write_config(settings: dict | str) -> None:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(settings if isinstance(settings, str) else json.dumps(settings))


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("pdfworkbench: warning: ")]


def test_a_broken_config_is_one_warning_and_the_command_runs(command, work):
    write_config("{not json")
    code, out, err = command("families", "--json")
    assert code == 0 and json.loads(out)
    (said,) = warnings(err)
    assert "config.json: ignored (malformed settings file" in said and "pdfworkbench config edit" in said


def test_config_limits_apply_and_a_bad_one_is_a_warning_while_limit_flags_win(command, work):
    write_config({"limits": {"inspect_pages": 7, "no_such_limit": 3}})
    code, _out, err = command("families", "--json")
    (said,) = warnings(err)
    assert code == 0 and said.startswith("pdfworkbench: warning: config.json limits: unknown limit 'no_such_limit'")
    assert limits.get("inspect_pages") == 7
    assert command("families", "--json", "--limit", "inspect_pages=9")[0] == 0
    assert limits.get("inspect_pages") == 9
    write_config({})
    refused(command("families", "--limit", "nope=3"), "unknown limit 'nope' in --limit 'nope=3'")
    # NaN passed `<= 0` and compares false with everything: a page budget of NaN never ran out
    refused(command("families", "--limit", "page_seconds=nan"), "--limit page_seconds takes a number, not 'nan'")


def test_an_env_file_of_the_config_that_is_missing_is_a_warning_one_given_is_an_error(command, work):
    write_config({"env_file": str(work / "missing.env")})
    code, _out, err = command("families", "--json")
    assert code == 0 and warnings(err) == [
        f"pdfworkbench: warning: config.json env_file: {work / 'missing.env'}: no such file; no keys read from it"]
    refused(command("families", "--env-file", work / "missing.env"), "missing.env: no such file")


def test_an_option_reads_stdin_and_only_one_may(command, suite, monkeypatch):
    """(On a copy of a suite: an `ask` let through would write its answer into the suite's runs.)"""
    case = load(suite, TOTAL)
    monkeypatch.setattr(sys, "stdin", io.StringIO(case.expected_answer + "\n"))
    verdict = printed_json(command("grade", suite / f"{TOTAL}.json", "--answer", "-", "--json"))
    assert verdict["outcome"] == "pass"
    refused(command("ask", suite / f"{TOTAL}.json", "--reader", "probe:pypdf", "--question", "-", "--prompt", "-"),
            "only one of --prompt, --question can read stdin")
    assert not (suite / "runs").exists()


def test_a_name_too_long_is_one_line_not_a_traceback(command, work):
    code, out, err = command("make", "hidden_ocr_mismatch", "--out", work / ("x" * 300))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("pdfworkbench: error: ") and "name too long (a name may have at most 255 bytes)" in err
