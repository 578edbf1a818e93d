"""`run`, `ask`, `readers` and `fake-server` (workbench/cli/readers.py): exit codes and --json on
good input and on bad. The reader is the offline pypdf probe (its answer is the text layer)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from tests.support.cli import files_under, printed_json, refused
from tests.support.fixtures import TOTAL, suite_copy


@pytest.fixture
def suite(work):
    return suite_copy(work)


def test_run_json_reports_the_run_it_wrote(command, suite, work):
    report = printed_json(command("run", suite, "--reader", "probe:pypdf", "--out", "run.jsonl", "-q", "--json"))
    assert report["format"] == "pdfworkbench-report/1"
    assert len((work / "run.jsonl").read_text().splitlines()) == 2      # one record per case
    # a gate the probe cannot pass: exit 1, the report printed all the same
    gated = printed_json(command("run", suite, "--reader", "probe:pypdf", "--out", "gated.jsonl", "-q", "--json",
                                 "--fail-threshold", "0.99"), code=1)
    assert gated["runs"]


def test_run_refuses_bad_input_in_one_line_writing_nothing(command, suite, work):
    refused(command("run", "missing", "--reader", "probe:pypdf", "--out", "r.jsonl", "--json"), "not a folder")
    refused(command("run", suite, "--reader", "nosuch:model", "--out", "r.jsonl", "--json"), "unknown provider 'nosuch'")
    refused(command("run", suite, "--reader", "openai:gpt-4o", "--out", "r.jsonl", "--json"), "OPENAI_API_KEY")
    refused(command("run", suite, "--reader", "probe:pypdf", "--shard", "0/2", "--out", "r.jsonl", "--json"), "shard")
    assert not (work / "r.jsonl").exists()


def test_ask_json_is_the_record_it_wrote(command, suite, work):
    rec = printed_json(command("ask", suite / f"{TOTAL}.json", "--reader", "probe:pypdf", "--out", "asked.jsonl",
                               "--json"))
    assert rec["case_id"] == TOTAL and rec["status"] == "ok"
    assert json.loads((work / "asked.jsonl").read_text())["answer"] == rec["answer"]


def test_ask_refuses_bad_input_in_one_line(command, suite, work):
    refused(command("ask", "missing.json", "--reader", "probe:pypdf", "--json"), "missing.json: no such file")
    refused(command("ask", suite / f"{TOTAL}.json", "--reader", "nosuch:x", "--json"), "unknown provider 'nosuch'")
    refused(command("ask", suite / f"{TOTAL}.json", "--reader", "probe:pypdf", "--modality", "smell", "--json"),
            "--modality")


def test_readers_json_lists_the_offline_probes_as_ready(command, work):
    readers = {r["reader"]: r for r in printed_json(command("readers", "--json"))}
    assert readers["probe:pypdf"]["ready"] and not readers["probe:pypdf"]["needs_key"]
    refused(command("readers", "--json", "--all"), "unrecognized arguments: --all")


def test_fake_server_serves_until_interrupted_then_exits_0(work):
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "fake-server", "--port", "0"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        said = [proc.stderr.readline() for _ in range(3)]   # where it listens, then how to use it
        assert "fake provider on http://127.0.0.1:" in said[0]
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    # 0 once it serves; 130 (interrupted) should the signal land before, on a loaded machine
    assert proc.returncode in (0, 130) and "Traceback" not in err


def test_fake_server_refuses_a_bad_script_in_one_line(command, work):
    (work / "script.json").write_text("{not json")
    refused(command("fake-server", "--port", "0", "--script", "script.json"), "fake-server")
    refused(command("fake-server", "--port", "zero"), "--port")


def test_fake_server_refuses_a_port_out_of_range_in_one_line(command, work):
    refused(command("fake-server", "--port", "99999"), "port")
    assert files_under(work) == []
