"""The answer cache: re-asking an unchanged question of an unchanged PDF costs nothing.

Keyed by (PDF hash, reader, modality, DPI, prompt, options, endpoint); one JSON file per answer
under `config.cache_dir()`. Only finished answers are kept (ok, blocked, truncated, refused), never
errors or timeouts, and never a key: records hold none.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from workbench.core import atomic
from workbench.core.config import cache_dir
from workbench.core.runs import RunRecord
from workbench.core.schema import JSONObject

CACHEABLE = frozenset({"ok", "blocked", "truncated", "refused"})
CACHE_FORMAT = 1


def cache_key(case_sha256: str | None, reader: str, modality: str, dpi: int | None, prompt: str,
              options: JSONObject | None, endpoint: str | None) -> str:
    canon = json.dumps({"v": CACHE_FORMAT, "pdf": case_sha256, "reader": reader, "modality": modality,
                        "dpi": dpi, "prompt": prompt, "options": options or {}, "endpoint": endpoint},
                       sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


class AnswerCache:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(folder) if folder else cache_dir()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> RunRecord | None:
        try:
            raw = json.loads(self._path(key).read_text(encoding="utf-8"))
            return RunRecord.from_json(raw)
        except (OSError, ValueError, TypeError):
            return None  # a missing or damaged entry is a miss

    def put(self, key: str, record: RunRecord) -> None:
        if record.status not in CACHEABLE:
            return
        try:
            atomic.write_json(self._path(key), record.to_json())
        except OSError:
            pass  # a cache that cannot be written is only slower
