"""Limits: a --limit given to one command does not outlive it; a parent's reach its workers."""

from __future__ import annotations

import json

from workbench.cli import main
from workbench.core import limits


def _value(capsys, name: str) -> int | float:
    assert main(["config", "limits", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    return rows[name]["value"]


def test_a_limit_raised_by_one_command_is_back_to_its_default_for_the_next(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path))
    default = limits.LIMITS["json_file_bytes"].default
    assert main(["--limit", f"json_file_bytes={default * 2}", "config", "limits", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["json_file_bytes"]["value"] == default * 2
    assert _value(capsys, "json_file_bytes") == default


def test_config_json_limits_apply_and_the_flag_wins(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path))
    (tmp_path / "config.json").write_text(json.dumps({"limits": {"json_file_bytes": 12345}}))
    assert _value(capsys, "json_file_bytes") == 12345
    assert main(["--limit", "json_file_bytes=777", "config", "limits", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["json_file_bytes"]["value"] == 777


def test_an_unknown_limit_is_one_line_and_exit_2(capsys):
    assert main(["--limit", "no_such_thing=3", "config", "limits"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown limit 'no_such_thing'" in err[0]


def test_the_environment_s_limits_reach_every_command_under_the_flag(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv(limits.LIMIT_ENV, "json_file_bytes=4096,json_file_bytes=5000")
    assert _value(capsys, "json_file_bytes") == 5000      # a name given twice: the last
    assert main(["--limit", "json_file_bytes=777", "config", "limits", "--json"]) == 0
    capsys.readouterr()
    assert _value(capsys, "json_file_bytes") == 5000      # the flag ended with its command
