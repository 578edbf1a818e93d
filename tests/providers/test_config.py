"""Where each provider lives and which key it uses (providers/config.py): the base URL and where it
came from, the key from the environment only, and every key redacted from what comes back, whole,
in pieces or URL-encoded."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from workbench.core.errors import UserError
from workbench.providers.config import (
    all_keys,
    api_key,
    base_url,
    base_url_origin,
    check_base_url,
    process_keys,
    redact,
    redact_all,
)

LEAK_TEST_KEY = "sk-proj-LEAKTEST" + "a1B2c3D4e5" * 4   # test_key_echo's OpenAI key
WINDOW = 16   # config.redact's promise for a long key: no run of 16 of its characters survives


def test_a_key_echoed_in_pieces_masked_or_url_encoded_is_redacted():
    key = LEAK_TEST_KEY
    keys = [key]
    every_char_encoded = "".join(f"%{ord(c):02X}" for c in key)
    texts = {
        "whole": f"Incorrect API key provided: {key}.",
        "masked, as OpenAI echoes it": f"key {key[:16]}****{key[-4:]}",
        "cut at a field's length": f"key={key[:20]}",
        "a middle piece": f"id req_{key[10:30]}_x",
        "split in two": f"{key[:23]} / {key[23:]}",
        "URL-encoded": f"https://example.invalid/v1?key={quote(key, safe='')}&x=%20",
        "every character encoded": f"url ?k={every_char_encoded}",
    }
    for what, text in texts.items():
        clean = redact(text, keys)
        assert "[redacted]" in clean, what
        assert not any(key[i:i + WINDOW] in clean for i in range(len(key) - WINDOW + 1)), what
    assert redact("nothing secret here", keys) == "nothing secret here"


def test_every_string_of_a_structure_is_redacted_at_any_depth():
    key = LEAK_TEST_KEY
    deep: list = [key]
    for _ in range(5000):   # deeper than Python's recursion limit
        deep = [deep]
    clean = redact_all({f"k{key}": [{"v": key}, (key, 1)], "deep": deep}, [key])
    assert clean["k[redacted]"] == [{"v": "[redacted]"}, ["[redacted]", 1]]
    leaf = clean["deep"]
    for _ in range(5000):
        [leaf] = leaf
    assert leaf == ["[redacted]"]


def test_the_base_url_comes_from_the_flag_then_the_sdk_variable_then_readers_toml_then_the_default(
        tmp_path, monkeypatch):
    assert base_url_origin("openai") == ("https://api.openai.com/v1", "default")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "readers.toml").write_text('[openai]\nbase_url = "http://127.0.0.1:1/v1/"\n')
    assert base_url_origin("openai") == ("http://127.0.0.1:1/v1", "readers.toml")   # its trailing / dropped
    monkeypatch.setenv("OPENAI_BASE_URL", "HTTP://proxy.local:8080/v1")
    assert base_url_origin("openai") == ("http://proxy.local:8080/v1", "OPENAI_BASE_URL")
    assert base_url_origin("openai", "http://127.0.0.1:2/v1") == ("http://127.0.0.1:2/v1", "--base-url")


def test_ollama_host_written_as_its_server_prints_it_works(monkeypatch):
    assert check_base_url("localhost:11434", "ollama", "OLLAMA_HOST") == "http://localhost:11434"
    monkeypatch.setenv("OLLAMA_HOST", "0.0.0.0:11434")
    assert base_url("ollama") == "http://127.0.0.1:11434"   # where the server listens is not where to call


@pytest.mark.parametrize("url, origin, says", [
    ("http://user:sk-secret-123456@host/v1", "--base-url",
     "openai base URL 'http://***@host/v1' from --base-url carries credentials (user:password@): they would be "
     "sent and recorded; the key comes from the environment (OPENAI_API_KEY); give http(s)://host[:port][/path]"),
    ("ftp://host/v1", "OPENAI_BASE_URL",
     "openai base URL 'ftp://host/v1' from OPENAI_BASE_URL is not an http(s) URL (ftp:); fix or unset OPENAI_BASE_URL"),
    ("http://host/v1?key=1", "--base-url", "has a ? or # part (a base URL ends with its path)"),
    ("http://host /v1", "--base-url", "has spaces or control characters in it"),
    ("http://" + "h" * 3000, "--base-url", "is 3,007 characters long (a base URL has at most 2,048)"),
])
def test_a_base_url_that_is_no_server_s_is_one_line_saying_where_it_came_from(url, origin, says):
    with pytest.raises(UserError) as raised:
        check_base_url(url, "openai", origin)
    assert says in str(raised.value) and "sk-secret" not in str(raised.value) and "\n" not in str(raised.value)


def test_a_bad_readers_toml_says_how_to_fix_it(tmp_path):
    (tmp_path / "config").mkdir()
    path = tmp_path / "config" / "readers.toml"
    path.write_text("[openai\n")
    with pytest.raises(UserError, match=r"readers\.toml: not valid TOML \(.*\); fix it with `pdfworkbench config edit "
                                        r"--readers`, or remove it$"):
        base_url("openai")
    path.write_text("[openai]\nbase_url = 8080\n")
    with pytest.raises(UserError, match=r"\[openai\] base_url must be a quoted URL, not int '8080'"):
        base_url("openai")


def test_a_key_comes_from_the_environment_and_a_missing_one_names_its_variables(monkeypatch):
    with pytest.raises(UserError, match=r"^google needs an API key: set GOOGLE_API_KEY or GEMINI_API_KEY in the "
                                        r"environment$"):
        api_key("google")
    monkeypatch.setenv("GEMINI_API_KEY", "  gem-key-123456  ")
    assert api_key("google") == "gem-key-123456" and api_key("ollama") is None
    monkeypatch.setenv("GOOGLE_API_KEY", "goog-key-123456")
    assert api_key("google") == "goog-key-123456"   # the first variable wins
    monkeypatch.setenv("OPENAI_API_KEY", "short")
    assert sorted(all_keys()) == ["gem-key-123456", "goog-key-123456"]   # too short to be a key: words would go
    assert process_keys("sk-call-key-0001") == ["sk-call-key-0001", "goog-key-123456", "gem-key-123456"]   # longest first; "short" is no key


def test_a_short_key_is_redacted_whole_and_words_shorter_than_a_key_never():
    assert redact("key abc123def was wrong", ["abc123def"]) == "key [redacted] was wrong"
    assert redact("a b c", ["abc"]) == "a b c" and redact("", ["abc123def"]) == ""
