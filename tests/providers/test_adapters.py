"""The adapters by name (providers/adapters.py): what a reader is sent when no modality is asked
for, and the options a reader takes."""

from __future__ import annotations

import pytest

from workbench.core.errors import UserError
from workbench.providers import extractors
from workbench.providers.adapters import ADAPTERS, adapter, check_options, default_modality
from workbench.providers.base import HTTP_PROVIDERS, parse_reader


def test_every_http_provider_has_its_adapter_under_its_own_name():
    assert set(ADAPTERS) == set(HTTP_PROVIDERS)
    assert all(adapter(name).name == name for name in HTTP_PROVIDERS)


@pytest.mark.parametrize("reader, modality", [
    ("openai:gpt-4o", "pdf"), ("anthropic:claude-sonnet-4-5", "pdf"), ("google:gemini-2.5-flash", "pdf"),
    ("ollama:llama3.2-vision", "pixels"), ("openai-compatible:local", "pixels"),   # they take no PDF file
    ("probe:pypdf", "text"), ("probe:ocr", "pixels"), ("agent:openai:gpt-4o", "tools"),
])
def test_the_modality_a_reader_gets_when_none_is_asked_for(reader, modality):
    assert default_modality(reader) == modality == default_modality(parse_reader(reader))


def test_every_probe_s_modality_is_its_extractor_s():
    assert {default_modality(f"probe:{n}") for n in extractors.EXTRACTORS} == {"text", "pixels"}


def test_options_are_checked_in_one_line():
    assert check_options(None) == {} and check_options({"max_tokens": 64, "structured": False}) == {
        "max_tokens": 64, "structured": False}
    with pytest.raises(UserError, match=r"^unknown reader option top_k, zz; known: max_tokens, temperature, structured"):
        check_options({"zz": 1, "top_k": 3})
    with pytest.raises(UserError, match="^reader option structured: give true or false$"):
        check_options({"structured": "yes"})
