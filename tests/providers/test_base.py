"""What a reader is (providers/base.py): a `provider:model` spec, the parts of a request, the
usage every record carries, and the text modality's document."""

from __future__ import annotations

import pytest

from workbench.core.errors import UserError
from workbench.providers.base import parse_reader


@pytest.mark.parametrize("spec", ["openai", "nosuch:model", "probe:nosuch", ":x"])
def test_bad_reader_specs(spec):
    with pytest.raises(UserError):
        parse_reader(spec)


def test_model_names_keep_their_colons():
    assert parse_reader("ollama:llama3.2:3b").model == "llama3.2:3b"
