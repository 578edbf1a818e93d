"""Entries of a cache kept by content (workbench/core/cache.py): what is not a whole entry of the
key asked (torn, a link, a FIFO, a giant file, a folder, another key's) is a miss, never trusted,
never a crash, and the next write replaces it without writing through a link."""

from __future__ import annotations

import json
import os

import pytest

from workbench.core import cache

KEY = "ab" + "0" * 62
OTHER = "ab" + "1" * 62


@pytest.fixture
def folder(tmp_path):
    return tmp_path / "cache" / "lint"


def _written(folder) -> None:
    """The entry is back, a regular file holding what was written."""
    path = cache.entry_path(folder, KEY)
    assert path.is_file() and not path.is_symlink()
    assert cache.read_entry(folder, KEY) == {"key": KEY, "value": 2}


def test_an_entry_is_read_back_under_its_own_key_only(folder):
    assert cache.read_entry(folder, KEY) is None   # no folder yet
    cache.write_entry(folder, KEY, {"value": 1})
    assert cache.read_entry(folder, KEY) == {"key": KEY, "value": 1}
    assert cache.entry_path(folder, KEY) == folder / "ab" / f"{KEY}.json"
    # Copied under another key's name, it is not that key's.
    cache.entry_path(folder, OTHER).write_bytes(cache.entry_path(folder, KEY).read_bytes())
    assert cache.read_entry(folder, OTHER) is None
    cache.write_entry(folder, KEY, {"value": 2})
    _written(folder)


def test_an_entry_has_the_permissions_the_umask_gives_and_leaves_no_temporary_file(folder):
    old = os.umask(0o027)
    try:
        cache.write_entry(folder, KEY, {"value": 1})
        cache.write_entry(folder, KEY, {"value": 2})   # (replaced: the new file's permissions too)
    finally:
        os.umask(old)
    _written(folder)
    assert oct(cache.entry_path(folder, KEY).stat().st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in folder.rglob("*")) == ["ab", f"{KEY}.json"]


@pytest.mark.parametrize("damage", ["torn", "not-an-object", "deep", "not-utf8", "empty"])
def test_a_damaged_entry_is_a_miss_and_is_written_again(folder, damage):
    cache.write_entry(folder, KEY, {"value": 1})
    path = cache.entry_path(folder, KEY)
    whole = path.read_bytes()
    path.write_bytes({"torn": whole[: len(whole) // 2], "not-an-object": json.dumps([KEY]).encode(),
                      "deep": b"[" * 100_000 + b"]" * 100_000, "not-utf8": b"\xff\xfe{", "empty": b""}[damage])
    assert cache.read_entry(folder, KEY) is None
    cache.write_entry(folder, KEY, {"value": 2})
    _written(folder)


def test_a_link_in_the_cache_is_not_followed_and_is_replaced(folder, tmp_path):
    # A whole entry of the key elsewhere, linked in: not trusted, and not written over.
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"key": KEY, "value": "planted"}))
    path = cache.entry_path(folder, KEY)
    path.parent.mkdir(parents=True)
    path.symlink_to(elsewhere)
    assert cache.read_entry(folder, KEY) is None
    cache.write_entry(folder, KEY, {"value": 2})
    _written(folder)
    assert json.loads(elsewhere.read_text())["value"] == "planted"
    # A linked subfolder likewise: the entry is made in a folder of the cache's own.
    other_place = tmp_path / "other-place"
    other_place.mkdir()
    (other_place / f"{OTHER}.json").write_text(json.dumps({"key": OTHER, "value": "planted"}))
    os.rename(folder / "ab", tmp_path / "old-ab")
    (folder / "ab").symlink_to(other_place, target_is_directory=True)
    assert cache.read_entry(folder, OTHER) is None
    cache.write_entry(folder, KEY, {"value": 2})
    _written(folder)
    assert sorted(p.name for p in other_place.iterdir()) == [f"{OTHER}.json"]


def test_a_giant_entry_is_refused_unread_and_replaced(folder):
    path = cache.entry_path(folder, KEY)
    path.parent.mkdir(parents=True)
    with open(path, "wb") as fh:
        fh.truncate(100 * 2**20)   # sparse: over the 64 MB cap without 100 MB on disk
    assert cache.read_entry(folder, KEY) is None
    cache.write_entry(folder, KEY, {"value": 2})
    _written(folder)


def test_a_fifo_is_not_waited_on_and_a_folder_in_the_way_is_a_miss(folder):
    path = cache.entry_path(folder, KEY)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    assert cache.read_entry(folder, KEY) is None   # (a blocking open would hang here)
    cache.write_entry(folder, KEY, {"value": 2})
    _written(folder)
    path.unlink()
    path.mkdir()
    assert cache.read_entry(folder, KEY) is None
    cache.write_entry(folder, KEY, {"value": 2})   # cannot be written: only slower
    assert path.is_dir() and cache.read_entry(folder, KEY) is None


def test_a_cache_folder_that_cannot_be_made_is_only_slower(tmp_path):
    (tmp_path / "cache").write_text("a file where the folder goes")
    cache.write_entry(tmp_path / "cache" / "lint", KEY, {"value": 1})
    assert cache.read_entry(tmp_path / "cache" / "lint", KEY) is None


def test_a_key_changes_with_any_part_and_the_code_s_fingerprint_with_the_limits(monkeypatch):
    from workbench.core import limits

    assert cache.key_of(1, "a", {"x": 1}) == cache.key_of(1, "a", {"x": 1})
    assert len({cache.key_of(1, "a"), cache.key_of(1, "b"), cache.key_of(2, "a"), cache.key_of(1, "a", None)}) == 4
    before = cache.code_fingerprint(("text",), ("pypdf",))
    assert before[1:3] != ["", ""] and before[3] != ""   # Python's, Unicode's and pypdf's versions
    monkeypatch.setattr(limits, "_overrides", {"page_seconds": 1.0})
    assert cache.code_fingerprint(("text",), ("pypdf",)) != before
