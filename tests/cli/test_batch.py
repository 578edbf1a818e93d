"""`batch status` and `batch cancel` (workbench/cli/batch.py): exit codes and --json on good
input and on bad, against the fake server's OpenAI batch service (real HTTP)."""

from __future__ import annotations

import pytest

from tests.support.cli import printed_json, refused
from tests.support.fixtures import suite_copy
from workbench.providers.fakeserver import FakeServer


@pytest.fixture
def submitted(command, work, monkeypatch):
    """A run of the two-case suite submitted as one OpenAI batch to a fake server: (server, run file)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-batch-cli-0123456789abcdef")
    suite = suite_copy(work)
    with FakeServer(batch_polls=3) as server:
        code, _, err = command("run", suite, "--reader", "openai:gpt-4o", "--batch", "--base-url",
                               server.base_url("openai"), "--out", "run.jsonl", "-q")
        assert code == 0, err
        yield server, work / "run.jsonl"


def test_batch_status_json_polls_then_collects(command, submitted):
    _, run = submitted
    first = printed_json(command("batch", "status", run, "--json"))
    assert first["done"] is False and first["batches"]
    done = printed_json(command("batch", "status", run, "--wait", "--every", "0", "--json"))
    assert done["runs"] and len(run.read_text().splitlines()) == 2   # a report, and a record per case


def test_batch_cancel_json_ends_the_batch(command, submitted):
    _, run = submitted
    code, out, err = command("batch", "cancel", run, "--wait", "--every", "0", "--json")
    assert code in (0, 1), err           # 1: the gate of a run whose calls were cancelled
    assert out.strip().startswith("{") and len(run.read_text().splitlines()) == 2


@pytest.mark.parametrize("action", ["status", "cancel"])
def test_batch_refuses_a_run_without_a_batch_in_one_line(command, work, action):
    refused(command("batch", action, "run.jsonl", "--json"), "no batch was submitted for this run")
    refused(command("batch", action, "run.jsonl", "--every", "soon", "--json"), "--every")
    # (NaN or below 0 polled the provider without a pause)
    refused(command("batch", action, "run.jsonl", "--every", "nan", "--json"), "--every nan: give the seconds")
