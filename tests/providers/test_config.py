"""Where each provider lives and which key it uses (providers/config.py): the base URL and where it
came from, the key from the environment only, and every key redacted from what comes back, whole,
in pieces or URL-encoded."""

from __future__ import annotations

from urllib.parse import quote

from workbench.providers.config import redact, redact_all

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
