"""The answer cache (providers/cache.py): one JSON file per finished answer, keyed by everything
that changes the call, and never an error."""

from __future__ import annotations

import json

import pytest

from workbench.core.runs import RunRecord
from workbench.providers.cache import AnswerCache, cache_key

KEY_ARGS = dict(case_sha256="ab" * 32, reader="openai:gpt-4o", modality="pixels", dpi=150,
                prompt="What is the total?", options={"max_tokens": 64}, endpoint="http://127.0.0.1:1/v1")


def answer(status: str = "ok") -> RunRecord:
    return RunRecord(case_id="c1", case_sha256="ab" * 32, key_sha256=None, reader="openai:gpt-4o",
                     modality="pixels", dpi=150, prompt="What is the total?", answer="€13,144.73",
                     status=status, usage={"input_tokens": 10})


def test_every_part_of_the_call_changes_the_key_and_option_order_does_not():
    base = cache_key(**KEY_ARGS)
    assert len(base) == 64 and base == cache_key(**KEY_ARGS)
    for name, other in [("case_sha256", "cd" * 32), ("reader", "openai:gpt-4.1"), ("modality", "pdf"),
                        ("dpi", 72), ("prompt", "Total?"), ("options", {"max_tokens": 65}),
                        ("endpoint", "http://127.0.0.1:2/v1")]:
        assert cache_key(**{**KEY_ARGS, name: other}) != base, name
    assert cache_key(**{**KEY_ARGS, "options": {"temperature": 0, "max_tokens": 1}}) == \
        cache_key(**{**KEY_ARGS, "options": {"max_tokens": 1, "temperature": 0}})
    assert cache_key(**{**KEY_ARGS, "options": None}) == cache_key(**{**KEY_ARGS, "options": {}})


def test_a_finished_answer_is_one_json_file_read_back_whole(tmp_path):
    cache = AnswerCache(tmp_path)
    key = cache_key(**KEY_ARGS)
    assert cache.get(key) is None
    cache.put(key, answer())
    path = tmp_path / key[:2] / f"{key}.json"
    assert json.loads(path.read_text())["answer"] == "€13,144.73"
    assert cache.get(key) == answer()


@pytest.mark.parametrize("status, kept", [("ok", True), ("blocked", True), ("truncated", True), ("refused", True),
                                          ("error", False), ("timeout", False), ("cancelled", False)])
def test_only_finished_answers_are_kept(tmp_path, status, kept):
    cache = AnswerCache(tmp_path)
    cache.put("k" * 64, answer(status))
    assert (cache.get("k" * 64) is not None) is kept


def test_a_damaged_entry_is_a_miss_and_a_cache_that_cannot_be_written_only_slower(tmp_path):
    key = cache_key(**KEY_ARGS)
    (tmp_path / key[:2]).mkdir()
    (tmp_path / key[:2] / f"{key}.json").write_text('{"case_id": ')
    assert AnswerCache(tmp_path).get(key) is None
    (tmp_path / "file").write_text("")
    AnswerCache(tmp_path / "file").put(key, answer())   # its folder is a file: nothing raised


def test_the_default_folder_is_the_user_s_cache_folder(tmp_path):
    assert AnswerCache().folder == tmp_path / "cache"   # PDFWORKBENCH_CACHE_DIR, set for each test


def test_a_fifo_or_a_link_in_the_cache_is_a_miss_and_is_replaced_not_written_through(tmp_path):
    """The answer cache reads its entries as the crop and lint caches do (`core.cache`): a FIFO
    where an answer's file goes made `run` and `ask` wait for ever on it."""
    import os

    cache, key = AnswerCache(tmp_path / "cache"), cache_key(**KEY_ARGS)
    entry = tmp_path / "cache" / key[:2] / f"{key}.json"
    entry.parent.mkdir(parents=True)
    os.mkfifo(entry)
    assert cache.get(key) is None
    cache.put(key, answer())
    assert entry.is_file() and not entry.is_symlink() and cache.get(key) == answer()
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}")
    entry.unlink()
    entry.symlink_to(elsewhere)
    assert cache.get(key) is None
    cache.put(key, answer())
    assert elsewhere.read_text() == "{}" and not entry.is_symlink() and cache.get(key) == answer()
