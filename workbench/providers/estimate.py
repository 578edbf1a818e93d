"""What a run would send, without sending it (`run --dry-run`): the calls, and an estimate of their
input and output tokens from the documents themselves.

The estimate is rough by design, and the output says so. Text is about 4 characters a token.
A page image costs (the providers' published image rules): OpenAI, high detail, 85 + 170 per
512-pixel tile after fitting in 2048 and scaling the short side to 768; Anthropic, width x height
/ 750 after fitting the long side in 1568; Gemini, 258 a page (and a PDF page is 258 too). A
PDF sent as a file costs its text plus one page image (OpenAI and Anthropic read both). Output:
the answer key's own length ("likely", a model that answers as asked) and `max_tokens` ("at most").

An agent's case is many calls, each sending the whole conversation again (`estimate_agent_case`):
the likely loop is the one its default prompt asks for, document_info, every page read once as
text and once as an image, then submit; at most, `max_turns` turns of `max_tokens` each.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from workbench.core.prompt import default_prompt
from workbench.pdf.document import open_fitz
from workbench.providers.agent.loop import DEFAULT_MAX_TURNS, agent_prompt, tool_specs
from workbench.providers.agent.tools import DEFAULT_TOOL_DPI
from workbench.providers.base import DEFAULT_DPI, DEFAULT_MAX_TOKENS, ReaderOptions

CHARS_PER_TOKEN = 4
GEMINI_PAGE_TOKENS = 258
# What the providers render a PDF page at when they look at it (ours: the page at this DPI).
PDF_PAGE_DPI = 150


def text_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def image_tokens(provider: str, width: float, height: float) -> int:
    """Input tokens of one page image of `width` x `height` pixels."""
    if provider == "google":
        return GEMINI_PAGE_TOKENS
    if provider == "anthropic":
        scale = min(1.0, 1568 / max(width, height))
        return math.ceil(width * scale * height * scale / 750)
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


@dataclass
class CallEstimate:
    case_id: str
    pages: int
    input_tokens: int
    output_likely: int
    output_max: int
    calls: int = 1      # model calls: an agent's case makes one a turn


def estimate_call(case: Any, pdf: bytes, provider: str, modality: str, dpi: int | None,
                  prompt: str | None, options: ReaderOptions) -> CallEstimate:
    prompt = prompt or default_prompt(case)
    tokens = text_tokens(prompt)
    schema = case.answer_schema
    if schema is not None and options.get("structured", True) is not False:
        tokens += text_tokens(json.dumps(schema))
    doc = open_fitz(pdf)
    try:
        pages = doc.page_count
        for page in doc:
            w_pt, h_pt = page.rect.width, page.rect.height
            if modality == "pixels":
                zoom = (dpi or DEFAULT_DPI) / 72
                tokens += image_tokens(provider, w_pt * zoom, h_pt * zoom)
            elif modality == "text":
                tokens += text_tokens(page.get_text())
            elif provider == "google":
                tokens += GEMINI_PAGE_TOKENS
            else:
                zoom = PDF_PAGE_DPI / 72
                tokens += text_tokens(page.get_text()) + image_tokens(provider, w_pt * zoom, h_pt * zoom)
    finally:
        doc.close()
    most = int(options.get("max_tokens", DEFAULT_MAX_TOKENS))
    likely = min(most, text_tokens(case.expected_answer or "") + 2)
    return CallEstimate(case.id, pages, tokens, likely, most)


# What a model writes to call a tool (its name, the arguments, the wire's wrapping): a guess.
TOOL_CALL_TOKENS = 30


def estimate_agent_case(case: Any, pdf: bytes, provider: str, prompt: str | None,
                        options: ReaderOptions) -> CallEstimate:
    """An agent reader's case (`provider` is its model's): the loop its default prompt asks for,
    document_info, then every page read once as text (pymupdf's text standing in for the chosen
    extractor's) and once as an image at the tools' default DPI, then submit; each turn sends
    the prompt, the tool schemas and the whole conversation so far again, for at most
    `max_turns` turns (a long document's later pages are never reached). `output_max` is
    `max_turns` turns of `max_tokens` each."""
    base = text_tokens(agent_prompt(case, prompt)) + text_tokens(json.dumps(tool_specs(case)))
    turns = int(options.get("max_turns", DEFAULT_MAX_TURNS))
    reads = max(turns - 1, 0)   # the last turn submits
    doc = open_fitz(pdf)
    try:
        pages = doc.page_count
        info = {"page_count": pages, "page_sizes_pt": [[round(p.rect.width, 1), round(p.rect.height, 1)] for p in doc],
                "question": case.question, "answer_schema": case.answer_schema}
        results = [text_tokens(json.dumps(info))]   # each tool call's result, in the order made
        zoom = DEFAULT_TOOL_DPI / 72
        for page in doc:
            if len(results) >= reads:   # the loop ends at max_turns: later pages go unread
                break
            results.append(text_tokens(page.get_text()))
            results.append(image_tokens(provider, page.rect.width * zoom, page.rect.height * zoom))
    finally:
        doc.close()
    results = results[:reads]
    calls = len(results) + 1          # a call for each tool, and the one that submits
    tokens, history = 0, base
    for result in [*results, 0]:
        tokens += history             # this turn sends everything so far
        history += TOOL_CALL_TOKENS + result
    answer = text_tokens(case.expected_answer or "") + 2
    most = int(options.get("max_tokens", DEFAULT_MAX_TOKENS))
    return CallEstimate(case.id, pages, tokens, min(most, answer) + TOOL_CALL_TOKENS * (calls - 1), most * turns,
                        calls)
