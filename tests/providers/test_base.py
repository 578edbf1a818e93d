"""What a reader is (providers/base.py): a `provider:model` spec, the parts of a request, the
usage every record carries, and the text modality's document."""

from __future__ import annotations

import pytest

from workbench.core.errors import UserError
from workbench.core.runs import USAGE_KEYS
from workbench.providers.base import (
    Part,
    document_text,
    get_path,
    known_readers,
    parse_reader,
    usage_dict,
)


@pytest.mark.parametrize("spec", ["openai", "nosuch:model", "probe:nosuch", ":x"])
def test_bad_reader_specs(spec):
    with pytest.raises(UserError):
        parse_reader(spec)


def test_model_names_keep_their_colons():
    assert parse_reader("ollama:llama3.2:3b").model == "llama3.2:3b"


def test_an_agent_is_a_reader_around_an_http_reader():
    spec = parse_reader(" Agent:OpenAI:gpt-4o ")
    assert (spec.provider, spec.model, str(spec)) == ("agent", "openai:gpt-4o", "agent:openai:gpt-4o")
    assert spec.is_agent and not spec.is_probe and spec.inner == parse_reader("openai:gpt-4o")
    assert parse_reader("probe:pypdf").inner == parse_reader("probe:pypdf")
    for bad in ("agent:gpt-4o", "agent:probe:pypdf", "agent:openai:"):
        with pytest.raises(UserError, match="write an agent as agent:PROVIDER:MODEL"):
            parse_reader(bad)


def test_a_bad_spec_says_how_to_write_one():
    with pytest.raises(UserError, match=r"^reader 'openai': write it as provider:model, e\.g\. openai:gpt-4o"):
        parse_reader("openai")
    with pytest.raises(UserError, match=r"^reader 'nosuch:m': unknown provider 'nosuch'; choose one of openai,"):
        parse_reader("nosuch:m")


def test_every_reader_offered_in_a_picker_parses_probes_first():
    readers = known_readers()
    assert [str(parse_reader(r)) for r in readers] == readers
    assert readers[:3] == ["probe:pypdf", "probe:pymupdf", "probe:ocr"]


def test_usage_has_every_key_and_only_whole_numbers():
    usage = usage_dict(input_tokens=10, output_tokens=True, reasoning_tokens=2.5)
    assert list(usage) == list(USAGE_KEYS)
    assert usage == dict.fromkeys(USAGE_KEYS) | {"input_tokens": 10}


def test_the_text_modality_s_document_is_fenced_page_by_page_and_a_part_is_a_data_url():
    assert document_text(["one  \n", "two"]) == (
        "Document text (extracted from the PDF):\n<<<\n--- page 1 ---\none\n--- page 2 ---\ntwo\n>>>")
    assert Part("image", data=b"\x89PNG", mime="image/png").data_url() == "data:image/png;base64,iVBORw=="
    assert get_path({"a": [{"b": 1}]}, "a", 0, "b") == 1 and get_path({"a": []}, "a", 0, "b") is None
