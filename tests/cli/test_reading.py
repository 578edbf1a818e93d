"""The reader options `run` and `ask` were given (workbench/cli/reading.py), as the provider takes
them, each wrong one refused in one line before anything is read; parsed by the real parser."""

from __future__ import annotations

import pytest

from workbench.cli import build_parser
from workbench.cli.reading import reader_options
from workbench.core.errors import UserError


def options(*argv: str) -> dict:
    return reader_options(build_parser().parse_args(["ask", "case.json", *argv]))


def test_the_options_given_and_only_those():
    assert options("--reader", "openai:gpt-4o") == {}
    assert options("--reader", "openai:gpt-4o", "--max-tokens", "200", "--temperature", "0", "--no-structured") == {
        "max_tokens": 200, "temperature": 0.0, "structured": False}
    assert options("--reader", "agent:openai:gpt-4o", "--max-turns", "5", "--deadline", "90",
                   "--extractor", "pymupdf") == {"max_turns": 5, "deadline_s": 90.0, "extractor": "pymupdf"}


@pytest.mark.parametrize("argv, says", [
    (("--reader", "openai:gpt-4o", "--max-tokens", "0"), "--max-tokens must be at least 1"),
    (("--reader", "openai:gpt-4o", "--temperature", "nan"), "--temperature nan: give a number from 0 up"),
    (("--reader", "openai:gpt-4o", "--temperature", "-1"), "--temperature -1.0: give a number from 0 up"),
    (("--reader", "openai:gpt-4o", "--max-turns", "3"),
     "--max-turns, --deadline and --extractor are for agent readers (agent:PROVIDER:MODEL)"),
    (("--reader", "probe:pypdf", "--extractor", "pypdf"), "are for agent readers"),
    (("--reader", "agent:openai:gpt-4o", "--max-turns", "0"), "--max-turns must be at least 1"),
    (("--reader", "agent:openai:gpt-4o", "--deadline", "0"), "--deadline must be above 0 seconds"),
    (("--reader", "agent:openai:gpt-4o", "--extractor", "ocr"),
     "agent extractor ocr: page_text takes a text-layer extractor, not OCR"),
])
def test_a_wrong_option_is_one_line_saying_what_to_give(argv, says):
    with pytest.raises(UserError, match=says.replace("(", r"\(").replace(")", r"\)")):
        options(*argv)
