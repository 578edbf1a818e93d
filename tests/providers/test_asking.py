"""Asking a reader one case's question and recording the answer (providers/asking.py): the one
function behind `ask` and the Ask dialog, against the fake provider over HTTP."""

from __future__ import annotations

import asyncio
import json
import shutil

import pytest

from tests.support.fixtures import ONE_CASE, SAMPLE_PDF
from workbench.core.case import load_case
from workbench.core.prompt import default_prompt
from workbench.core.runs import iter_records
from workbench.providers.asking import ask, suite_of_case


@pytest.fixture
def case(tmp_path, monkeypatch):
    """The sample's hidden-total case alone in a folder of its own (a suite of one, pdfhell-style)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-asking-0123456789abcdef")
    shutil.copy(ONE_CASE, tmp_path / ONE_CASE.name)
    shutil.copy(SAMPLE_PDF, tmp_path / SAMPLE_PDF.name)
    return load_case(tmp_path / ONE_CASE.name)


def test_the_answer_is_recorded_in_the_suite_s_ask_run_naming_the_suite(case, fake_server, tmp_path):
    suite = suite_of_case(case)
    assert suite is not None and suite.folder == tmp_path
    record, path = asyncio.run(ask(case, "openai:gpt-4o", cache=False, base_url=fake_server.base_url("openai"),
                                   suite=suite))
    assert path == tmp_path / "runs" / "asked.jsonl"
    (on_disk,) = iter_records(path)
    assert on_disk == record and record.suite == suite.name and record.modality == "pdf"   # openai's default
    assert record.status == "ok" and "€53,919.68" in record.answer and record.prompt == default_prompt(case)
    sent = fake_server.requests[-1]["body"]["messages"][0]["content"]
    assert sent[-1]["text"] == default_prompt(case) and sent[0]["type"] == "file"
    assert "sk-test-asking" not in path.read_text()


def test_a_question_of_one_s_own_is_asked_and_kept_apart_from_the_key(case, fake_server, tmp_path):
    out = tmp_path / "mine.jsonl"
    record, path = asyncio.run(ask(case, "openai:gpt-4o", cache=False, base_url=fake_server.base_url("openai"),
                                   question="Who is the vendor?", out=out))
    assert path == out and not (tmp_path / "runs").exists()
    assert record.extra["question"] == "Who is the vendor?"   # graded against no key
    assert record.prompt.endswith("Question: Who is the vendor?")
    assert json.loads(out.read_text())["extra"]["question"] == "Who is the vendor?"


def test_a_reader_that_takes_no_pdf_is_sent_page_images(case, fake_server):
    record, _ = asyncio.run(ask(case, "ollama:llama3.2-vision", dpi=50, cache=False,
                                base_url=fake_server.base_url("ollama")))
    assert record.modality == "pixels" and record.dpi == 50
    assert len(fake_server.requests[-1]["body"]["messages"][0]["images"]) == 1
