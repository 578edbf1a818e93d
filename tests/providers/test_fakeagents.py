"""The fake provider's scripted tool-calling agents (providers/fakeagents.py): each kind's moves,
read from the conversation alone as a real model's are, and its answers in each wire format."""

from __future__ import annotations

import json

import pytest

from workbench.providers.fakeagents import (
    agent_reply,
    agent_script_with,
    is_agent_request,
    next_move,
)

INFO = ("document_info", json.dumps({"page_count": 2, "question": "What is the TOTAL AMOUNT DUE?"}))
SCRIPT = {"TOTAL AMOUNT": {"text": "€53,919.68", "image": "€13,144.73"}}


def test_only_a_model_named_agent_with_tools_is_a_scripted_agent():
    assert is_agent_request("agent-text+500", {"tools": [{}]})
    assert not is_agent_request("agent-text", {}) and not is_agent_request("gpt-4o", {"tools": [{}]})


@pytest.mark.parametrize("kind, moves", [
    ("text", [["document_info"], ["page_text", "page_text"], ["submit_extraction"]]),
    ("image", [["document_info"], ["page_image", "page_image"], ["submit_extraction"]]),
    ("twice", [["document_info"], ["submit_extraction", "submit_extraction"]]),
    ("loop", [["page_text"], ["page_text"], ["page_text"]]),
    ("badjson", [["document_info"], ["submit_extraction"], []]),
])
def test_each_kind_s_moves_turn_by_turn(kind, moves):
    results: list[tuple[str, str]] = []
    for turns, expected in enumerate(moves):
        _, calls = next_move(kind, turns, results, SCRIPT)
        assert [name for name, _ in calls] == expected
        results = [INFO, *[(name, "page text") for name, _ in calls if name != "document_info"]]


def test_the_text_agent_submits_the_text_layer_s_value_and_the_image_agent_the_page_s():
    _, (text,) = next_move("text", 2, [INFO], SCRIPT)
    _, (image,) = next_move("image", 2, [INFO], SCRIPT)
    assert text == ("submit_extraction", {"answer": "€53,919.68"}) and image == ("submit_extraction", {"answer": "€13,144.73"})
    _, (unscripted,) = next_move("text", 2, [INFO, ("page_text", " TOTAL DUE 1.00 ")], {})
    assert unscripted[1] == {"answer": "TOTAL DUE 1.00"}   # what the text layer said
    _, (first, second) = next_move("twice", 1, [INFO], SCRIPT)
    assert (first[1]["answer"], second[1]["answer"]) == ("€13,144.73", "€53,919.68")


def test_a_plain_script_stands_for_the_image_values_the_agents_script_lacks():
    merged = agent_script_with({"Q1": {"text": "t1"}}, {"Q1": "i1", "Q2": "i2"})
    assert merged == {"Q1": {"text": "t1", "image": "i1"}, "Q2": {"image": "i2"}}
    assert agent_script_with({"Q1": {"image": "own"}}, {"Q1": "plain"}) == {"Q1": {"image": "own"}}


@pytest.mark.parametrize("fmt, body, calls_at", [
    ("openai", {"messages": [{"role": "user", "content": "go"}]}, ("choices", 0, "message", "tool_calls")),
    ("anthropic", {"messages": [{"role": "user", "content": [{"type": "text", "text": "go"}]}]}, ("content",)),
    ("google", {"contents": [{"role": "user", "parts": [{"text": "go"}]}]}, ("candidates", 0, "content", "parts")),
])
def test_the_first_turn_asks_for_document_info_in_each_format(fmt, body, calls_at):
    reply = agent_reply(fmt, "agent-text", body, 7, {}, 100, 0.0)
    node = reply
    for step in calls_at:
        node = node[step]
    assert "document_info" in json.dumps(node)
    assert json.dumps(reply).count("submit_extraction") == 0
