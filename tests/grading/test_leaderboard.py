"""Leaderboard rows (`report --leaderboard`): what a site publishes of the shipped probe runs."""

from __future__ import annotations

import json

from tests.support.fixtures import SAMPLE

RUNS = sorted((SAMPLE / "runs").glob("*.jsonl"))


def test_leaderboard_rows_of_the_shipped_runs(cli, tmp_path):
    out = tmp_path / "board.json"
    code, _, err = cli("report", *RUNS, "--leaderboard", out)
    assert code == 0, err
    board = json.loads(out.read_text(encoding="utf-8"))
    assert board["format"] == "pdfworkbench-leaderboard/1"
    assert board["suite"] == {"name": "mini", "hash": "5219ce218909bcb3971d3629cb0906a2c30a0237888f416bd2ad896210b9a2cd"}
    assert board["gold_version"] == "v1"
    first, second = board["rows"]
    assert (first["reader"], first["passed"], first["scored"]) == ("probe:pymupdf", 4, 33)   # best first
    assert first["pass_rate_ci95"] == [0.048161, 0.273258]
    assert (second["reader"], second["passed"]) == ("probe:pypdf", 3)
    assert first["families"]["footnote_override"] == {"scored": 3, "passed": 1, "pass_rate": 0.333333,
                                                      "pass_rate_ci95": [0.06149, 0.792345]}
    # the configuration hash tells the two readers apart, and is 64 hex digits
    assert first["configuration_sha256"] != second["configuration_sha256"]
    assert len(first["configuration_sha256"]) == 64


def test_leaderboard_to_stdout_replaces_the_text_report(cli):
    code, out, _ = cli("report", *RUNS, "--leaderboard", "-")
    assert code == 0
    assert json.loads(out)["rows"][0]["run"] == "probe-pymupdf"
