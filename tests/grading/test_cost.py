"""Token totals and cost in `report`, the price table, and `run --dry-run`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fixtures import built_suite
from workbench.core.runs import RunRecord
from workbench.grading.cost import Price, call_cost, load_prices, usage_totals
from workbench.providers.base import usage_dict

PRICES = """currency = "USD"
batch_factor = 0.5
[readers."openai:gpt-4o"]
input = 2.50
output = 10.00
cached_input = 1.25
[readers."anthropic:*"]
input = 3.00
output = 15.00
cache_write = 3.75
[readers."google:gemini-2.5-flash"]
input = 0.30
output = 2.50
batch_factor = 0.4
"""
SPEC = """name = "costs"
[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..3"
"""


def rec(reader: str, usage: dict | None, case: str = "c1", **extra) -> RunRecord:
    return RunRecord(case_id=case, case_sha256=None, key_sha256=None, reader=reader, modality="pdf", dpi=None,
                     prompt="q", answer="a", status="ok", usage=usage, extra=dict(extra))


@pytest.fixture
def prices(tmp_path) -> Path:
    path = tmp_path / "prices.toml"
    path.write_text(PRICES)
    return path


def test_each_provider_is_priced_by_what_it_counts(prices):
    table = load_prices(prices)
    # OpenAI: 1,000 input of which 400 cached; 200 output (reasoning inside).
    openai = usage_dict(input_tokens=1000, output_tokens=200, total_tokens=1200, cache_read_tokens=400,
                        reasoning_tokens=50)
    assert call_cost("openai:gpt-4o", openai, table.price("openai:gpt-4o")) == pytest.approx(
        (600 * 2.5 + 400 * 1.25 + 200 * 10) / 1e6)
    # Anthropic: cache reads and writes beside input_tokens; `anthropic:*` prices every model.
    anthropic = usage_dict(input_tokens=1000, output_tokens=200, total_tokens=1200, cache_read_tokens=300,
                           cache_creation_tokens=100)
    price = table.price("anthropic:claude-haiku-4-5")
    assert call_cost("anthropic:claude-haiku-4-5", anthropic, price) == pytest.approx(
        (1000 * 3 + 300 * 3 + 100 * 3.75 + 200 * 15) / 1e6)
    # Gemini: thinking tokens on top of the output, billed as output (total - input).
    gemini = usage_dict(input_tokens=1000, output_tokens=200, total_tokens=1300, reasoning_tokens=100)
    g = table.price("google:gemini-2.5-flash")
    assert call_cost("google:gemini-2.5-flash", gemini, g) == pytest.approx((1000 * 0.3 + 300 * 2.5) / 1e6)
    assert call_cost("google:gemini-2.5-flash", gemini, g, batch=True) == pytest.approx(
        0.4 * (1000 * 0.3 + 300 * 2.5) / 1e6)
    assert table.price("ollama:llama3") is None


def test_an_agent_is_priced_as_its_model_and_summed_over_its_turns(prices):
    """An agent reader's turns are calls of its model: `agent:anthropic:M` takes `anthropic:*`'s
    price and Anthropic's way of counting cache reads (beside input_tokens)."""
    table = load_prices(prices)
    assert table.price("agent:openai:gpt-4o") == table.price("openai:gpt-4o")
    assert table.price("agent:ollama:llama3") is None and table.price("mcp:claude-code") is None
    usage = usage_dict(input_tokens=1000, output_tokens=200, total_tokens=1200, cache_read_tokens=300)
    assert call_cost("agent:anthropic:claude-haiku-4-5", usage, table.price("agent:anthropic:claude-haiku-4-5")) == \
        call_cost("anthropic:claude-haiku-4-5", usage, table.price("anthropic:claude-haiku-4-5"))
    turns = [usage_dict(input_tokens=1000, output_tokens=100, total_tokens=1100) for _ in range(3)]
    summed = usage_dict(input_tokens=3000, output_tokens=300, total_tokens=3300)   # the loop's sum of its turns
    totals = usage_totals([rec("agent:openai:gpt-4o", summed)], table)
    assert totals.cost == pytest.approx(sum(call_cost("openai:gpt-4o", u, table.price("openai:gpt-4o")) for u in turns))


def test_totals_skip_cache_hits_and_count_batches(prices):
    table = load_prices(prices)
    u = usage_dict(input_tokens=100, output_tokens=10, total_tokens=110, cache_read_tokens=0, reasoning_tokens=3)
    totals = usage_totals([rec("openai:gpt-4o", u), rec("openai:gpt-4o", u, batch={"id": "b"}),
                           rec("openai:gpt-4o", u, cached=True), rec("openai:gpt-4o", None)], table)
    assert (totals.calls, totals.reported, totals.from_cache, totals.batch_calls) == (4, 2, 1, 1)
    assert (totals.input, totals.output, totals.reasoning) == (200, 20, 6)
    one = (100 * 2.5 + 10 * 10) / 1e6
    assert totals.cost == pytest.approx(one + 0.5 * one)


@pytest.mark.parametrize("text, says", [
    ("[readers.x]\ninput = 1\noutput = 2\n", "provider:model"),
    ('[readers."openai:gpt-4o"]\ninput = 1\n', "input and output prices are required"),
    ('[readers."openai:gpt-4o"]\ninput = 1\noutput = 2\ncahced_input = 1\n', "unknown key cahced_input"),
    ('[readers."openai:gpt-4o"]\ninput = -1\noutput = 2\n', "at least 0"),
    ("readers = [", "not a TOML price table"),
    ("currency = 'EUR'\n", "no [readers"),
])
def test_a_bad_price_table_is_one_line(cli, tmp_path, text, says):
    path = tmp_path / "prices.toml"
    path.write_text(text)
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps(rec("openai:gpt-4o", None).to_json()) + "\n")
    code, _, err = cli("report", run, "--prices", path)
    assert code == 2 and says in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = cli("report", run, "--prices", tmp_path / "none.toml")
    assert code == 2 and "no such file" in err


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory) -> Path:
    return built_suite(tmp_path_factory.mktemp("costs"), SPEC)


def test_report_totals_tokens_per_reader_and_prices_them(cli, suite_dir, prices, tmp_path):
    from workbench.core.suite import load_suite

    cases = load_suite(suite_dir).cases
    run = tmp_path / "run.jsonl"
    lines = []
    for i, c in enumerate(cases):
        for reader, usage in (("openai:gpt-4o", usage_dict(input_tokens=1000, output_tokens=10, total_tokens=1010,
                                                           cache_read_tokens=200, reasoning_tokens=0)),
                              ("google:gemini-2.5-flash", usage_dict(input_tokens=500, output_tokens=5,
                                                                     total_tokens=512, reasoning_tokens=7))):
            r = rec(reader, usage, c.id)
            r.case_sha256, r.key_sha256, r.answer = c.sha256, c.key_sha256(), c.expected_answer
            if i == 0 and reader.startswith("google"):
                r.extra["batch"] = {"id": "batches/x"}
            lines.append(json.dumps(r.to_json()))
    run.write_text("\n".join(lines) + "\n")
    code, stdout, err = cli("report", run, "--suite", suite_dir, "--prices", prices)
    assert code == 0, err
    assert "tokens      3.0k in (600 cached), 30 out (0 reasoning); 3 of 3 calls reported usage" in stdout
    assert "tokens      1.5k in (0 cached), 15 out (21 reasoning)" in stdout
    code, stdout, _ = cli("report", run, "--suite", suite_dir, "--prices", prices, "--json")
    runs = {r["readers"][0]: r["tokens"] for r in json.loads(stdout)["runs"]}
    assert runs["openai:gpt-4o"]["cost"] == pytest.approx(3 * (800 * 2.5 + 200 * 1.25 + 10 * 10) / 1e6)
    one = (500 * 0.3 + 12 * 2.5) / 1e6
    assert runs["google:gemini-2.5-flash"]["cost"] == pytest.approx(2 * one + 0.4 * one, abs=1e-9)
    assert runs["google:gemini-2.5-flash"]["batch_calls"] == 1
    code, stdout, _ = cli("report", run, "--suite", suite_dir)   # no table: tokens, no money
    assert "tokens      " in stdout and "  cost  " not in stdout


def test_dry_run_calls_nothing_and_estimates(cli, suite_dir, prices, monkeypatch):
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(var, raising=False)   # a dry run needs no key: it sends nothing
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9")   # nobody listens: a call would fail
    code, stdout, err = cli("run", suite_dir, "--reader", "openai:gpt-4o", "--dry-run", "--json",
                            "--prices", prices)
    assert code == 0, err
    live = json.loads(stdout)
    assert live["calls"] == 3 and len(live["per_call"]) == 3
    assert all(c["input_tokens"] > 100 and c["output_max"] == 1024 for c in live["per_call"])
    code, stdout, _ = cli("run", suite_dir, "--reader", "openai:gpt-4o", "--dry-run", "--json", "--batch",
                          "--prices", prices)
    batch = json.loads(stdout)
    assert batch["input_tokens"] == live["input_tokens"]
    assert batch["cost"]["likely"] == pytest.approx(0.5 * live["cost"]["likely"])   # the table's batch factor
    # A US-letter page at 150 dpi is 1275 x 1650 pixels: OpenAI's rule gives 85 + 170 x 4 tiles.
    code, stdout, _ = cli("run", suite_dir, "--reader", "openai:gpt-4o", "--dry-run", "--json",
                          "--modality", "pixels")
    pixels = json.loads(stdout)
    from workbench.providers.estimate import image_tokens

    assert image_tokens("openai", 1275, 1650) == 765
    assert all(c["input_tokens"] >= 765 * c["pages"] for c in pixels["per_call"])
    assert pixels["cost"] is None
    code, stdout, _ = cli("run", suite_dir, "--reader", "openai:gpt-4o", "--dry-run")
    assert "3 calls live" in stdout and "nothing is sent" in stdout and "--prices" in stdout


def test_an_agents_dry_run_counts_its_turns_each_sending_the_conversation_so_far(cli, suite_dir, prices,
                                                                               monkeypatch):
    """An agent's case is a call a turn, each with everything before it again: estimated as one
    call (the PDF sent once), a run of the sample suite's agents came to 1/60 of what it sent."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9")   # nobody listens: a call would fail
    code, stdout, err = cli("run", suite_dir, "--reader", "openai:gpt-4o", "--dry-run", "--json",
                            "--modality", "pixels", "--prices", prices)
    assert code == 0, err
    one = json.loads(stdout)
    code, stdout, err = cli("run", suite_dir, "--reader", "agent:openai:gpt-4o", "--dry-run", "--json",
                            "--prices", prices)
    assert code == 0, err
    agent = json.loads(stdout)
    assert agent["cases"] == 3
    # document_info, a text and an image call a page, submit: 4 calls for a one-page case
    assert [c["calls"] for c in agent["per_call"]] == [2 + 2 * c["pages"] for c in agent["per_call"]]
    assert agent["calls"] == sum(c["calls"] for c in agent["per_call"])
    for mine, single in zip(agent["per_call"], one["per_call"], strict=True):
        # the page image is sent again on every turn after the one that asked for it
        assert mine["input_tokens"] > 2 * single["input_tokens"]
        assert mine["output_max"] == 30 * 1024
    assert agent["cost"]["likely"] > one["cost"]["likely"]   # priced as its model's calls
    code, stdout, _ = cli("run", suite_dir, "--reader", "agent:openai:gpt-4o", "--dry-run")
    assert "3 cases live, about 12 model calls" in stdout and "assumed:" in stdout
    # The loop stops at --max-turns: a long document is not read past it (a 500-page PDF was
    # estimated at 1,002 calls a case under the default 30 turns).
    code, stdout, err = cli("run", suite_dir, "--reader", "agent:openai:gpt-4o", "--dry-run", "--json",
                            "--max-turns", "2")
    assert code == 0, err
    assert [c["calls"] for c in json.loads(stdout)["per_call"]] == [2, 2, 2]


def test_price_defaults(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[readers."openai:gpt-4o"]\ninput = 1\noutput = 2\n')
    table = load_prices(path)
    assert table.price("openai:gpt-4o") == Price(1.0, 2.0, None, None, 0.5)
    assert table.currency == "USD"
