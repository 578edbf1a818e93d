"""The answer cache: re-asking an unchanged question of an unchanged PDF costs nothing.

Keyed by (PDF hash, reader, modality, DPI, prompt, options, endpoint); one JSON file per answer
in the cache folder itself (`core.cache.PARTS`'s "answers"). Only finished answers are kept (ok,
blocked, truncated, refused), never errors or timeouts, and never a key: records hold none.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from workbench.core.cache import part_folder, read_entry, write_entry
from workbench.core.runs import RunRecord
from workbench.core.schema import JSONObject

CACHEABLE = frozenset({"ok", "blocked", "truncated", "refused"})
CACHE_FORMAT = 2   # 2: each entry holds its key (`core.cache`)


def cache_key(case_sha256: str | None, reader: str, modality: str, dpi: int | None, prompt: str,
              options: JSONObject | None, endpoint: str | None) -> str:
    canon = json.dumps({"v": CACHE_FORMAT, "pdf": case_sha256, "reader": reader, "modality": modality,
                        "dpi": dpi, "prompt": prompt, "options": options or {}, "endpoint": endpoint},
                       sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


class AnswerCache:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(folder) if folder else part_folder("answers")

    def get(self, key: str) -> RunRecord | None:
        """The answer kept under `key`, or None: missing, or not a whole entry of this key (a
        link, a FIFO, a giant or torn file: `core.cache.read_entry`, as the crop and lint caches
        read theirs; a FIFO there made `run` wait for ever)."""
        entry = read_entry(self.folder, key, "cached answer")
        if entry is None:
            return None
        entry.pop("key")
        try:
            return RunRecord.from_json(entry)
        except (KeyError, ValueError, TypeError):
            return None  # a damaged entry is a miss

    def put(self, key: str, record: RunRecord) -> None:
        if record.status in CACHEABLE:   # (a cache that cannot be written is only slower)
            write_entry(self.folder, key, record.to_json())
