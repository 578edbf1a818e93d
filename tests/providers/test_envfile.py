"""`--env-file` (workbench/providers/envfile.py): reader variables only, set ones kept, the file
read and never written, and a bad line one error naming its line."""

from __future__ import annotations

import os

import pytest

from workbench.core.errors import UserError
from workbench.providers.envfile import load_env_file, parse_env_text


def test_lines_quotes_exports_and_comments():
    text = ("# keys\nexport OPENAI_API_KEY=sk-one\nANTHROPIC_API_KEY = 'sk two # not a comment'\n"
            "GOOGLE_API_KEY=g-3   # a comment\n\nEMPTY=\n")
    assert parse_env_text(text) == {"OPENAI_API_KEY": "sk-one", "ANTHROPIC_API_KEY": "sk two # not a comment",
                                    "GOOGLE_API_KEY": "g-3", "EMPTY": ""}


@pytest.mark.parametrize("text, needle", [("just words\n", "keys.env:1: not a NAME=value line"),
                                          ("A=1\nB='open\n", "keys.env:2: B: the quote is never closed")])
def test_a_bad_line_is_one_error_naming_it(text, needle):
    with pytest.raises(UserError, match=needle):
        parse_env_text(text, "keys.env")


def test_only_unset_reader_variables_are_loaded_and_the_file_is_left_as_it_was(tmp_path, monkeypatch):
    env = tmp_path / "keys.env"
    env.write_text("OPENAI_API_KEY=sk-from-file\nANTHROPIC_API_KEY=sk-file\nPATH=/evil\n")
    before = env.read_bytes()
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-already-set")
    monkeypatch.setenv("OPENAI_API_KEY", "")      # empty is unset; monkeypatch restores what the load sets
    path = os.environ["PATH"]
    assert load_env_file(env) == ["OPENAI_API_KEY"]
    assert os.environ["OPENAI_API_KEY"] == "sk-from-file" and os.environ["ANTHROPIC_API_KEY"] == "sk-already-set"
    assert os.environ["PATH"] == path and env.read_bytes() == before


def test_a_missing_file_is_one_error(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        load_env_file(tmp_path / "missing.env")
