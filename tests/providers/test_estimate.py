"""What a run would send (providers/estimate.py): tokens estimated from the documents themselves by
each provider's published image rules, and an agent's loop a call a turn."""

from __future__ import annotations

import json
import math

import pytest

from tests.support.fixtures import ONE_CASE, SAMPLE
from workbench.core.case import load_case
from workbench.core.prompt import default_prompt
from workbench.pdf.textlayer import text_pymupdf
from workbench.providers.estimate import (
    GEMINI_PAGE_TOKENS,
    estimate_agent_case,
    estimate_call,
    image_tokens,
    text_tokens,
)

CASE = load_case(ONE_CASE)
PDF = CASE.pdf_file.read_bytes()   # one US-letter page


@pytest.mark.parametrize("provider, width, height, tokens", [
    ("openai", 1275, 1650, 85 + 170 * 2 * 2),   # US letter at 150 dpi: short side to 768, 768 x 994, 2 x 2 tiles
    ("anthropic", 1275, 1650, math.ceil(1275 * (1568 / 1650) * 1568 / 750)),
    ("google", 1275, 1650, GEMINI_PAGE_TOKENS),
    ("openai", 400, 300, 85 + 170),              # small: one tile, no scaling up
])
def test_a_page_image_costs_what_each_provider_s_rule_says(provider, width, height, tokens):
    assert image_tokens(provider, width, height) == tokens


def test_a_call_s_tokens_by_modality():
    prompt = text_tokens(default_prompt(CASE))
    page_text = text_tokens(text_pymupdf(PDF)[0])
    text = estimate_call(CASE, PDF, "openai", "text", None, None, {})
    assert (text.pages, text.input_tokens, text.calls) == (1, prompt + page_text, 1)
    pixels = estimate_call(CASE, PDF, "openai", "pixels", 150, None, {})
    assert pixels.input_tokens == prompt + image_tokens("openai", 612 * 150 / 72, 792 * 150 / 72) == prompt + 765
    assert estimate_call(CASE, PDF, "google", "pdf", None, None, {}).input_tokens == prompt + GEMINI_PAGE_TOKENS
    as_file = estimate_call(CASE, PDF, "anthropic", "pdf", None, None, {})   # its text and one page image
    assert as_file.input_tokens == prompt + page_text + image_tokens("anthropic", 1275, 1650)


def test_the_likely_answer_is_the_key_s_length_and_at_most_max_tokens():
    est = estimate_call(CASE, PDF, "openai", "text", None, "Total?", {"max_tokens": 64})
    assert (est.output_likely, est.output_max) == (text_tokens("€13,144.73") + 2, 64)
    assert estimate_call(CASE, PDF, "openai", "text", None, None, {"max_tokens": 2}).output_likely == 2


def test_an_extraction_s_schema_counts_unless_structured_output_is_off():
    invoice = load_case(SAMPLE / "invoice_extraction-0001.json")
    pdf = invoice.pdf_file.read_bytes()
    sent = estimate_call(invoice, pdf, "openai", "text", None, None, {}).input_tokens
    off = estimate_call(invoice, pdf, "openai", "text", None, None, {"structured": False}).input_tokens
    assert sent - off == text_tokens(json.dumps(invoice.answer_schema)) > 0


def test_an_agent_s_case_is_a_call_a_turn_each_sending_the_conversation_so_far():
    agent = estimate_agent_case(CASE, PDF, "openai", None, {})
    one = estimate_call(CASE, PDF, "openai", "pixels", 150, None, {})
    assert agent.calls == 4   # document_info, the page as text, the page as an image, submit
    assert agent.input_tokens > 2 * one.input_tokens and agent.output_max == 30 * 1024
    two = estimate_agent_case(CASE, PDF, "openai", None, {"max_turns": 2})
    assert two.calls == 2   # stops at max_turns
    # turns 3 and 4 send all that came before, the page's text and image among it: more than twice turns 1 and 2
    assert agent.input_tokens - 2 * two.input_tokens > 2 * text_tokens(text_pymupdf(PDF)[0])
    assert estimate_agent_case(CASE, PDF, "openai", None, {"max_turns": 1}).calls == 1
