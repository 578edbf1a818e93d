"""Run records: JSON Lines, one record per model call, appended and flushed as calls finish.

Scores are never stored: they are derived from records and answer keys when read.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from workbench import __version__
from workbench.core.errors import UserError

RECORD_FORMAT = "pdfworkbench-run/1"
STATUSES = ("ok", "error", "timeout", "blocked", "truncated", "refused", "cancelled")
MODALITIES = ("pdf", "pixels", "text")


@dataclass(frozen=True)
class CallError:
    """Why a call gave no answer: the `error` of a run record, typed (the file keeps it as JSON)."""

    type: str | None                 # timeout | network | rate_limit | auth | server_error | bad_input | ...
    message: str = ""
    http_status: int | None = None
    code: str | None = None          # the provider's own code, when it gives one

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "message": self.message, "http_status": self.http_status, "code": self.code}

    @classmethod
    def from_json(cls, raw: Any) -> CallError:
        """From a record's `error` (a dict; an imported run may hold a plain string)."""
        if not isinstance(raw, dict):
            return cls(None, str(raw))
        status = raw.get("http_status")
        return cls(raw.get("type"), str(raw.get("message") or ""),
                   status if isinstance(status, int) else None, raw.get("code"))

    def line(self, status: str) -> str:
        """One line: `type (HTTP n): message`, the call's status standing in for a missing type."""
        kind = self.type or status
        http = f" (HTTP {self.http_status})" if self.http_status else ""
        message = " ".join(self.message.split())
        return f"{kind}{http}: {message[:160]}" if message else f"{kind}{http}"


@dataclass
class RunRecord:
    case_id: str
    case_sha256: str | None          # sha256 of the PDF the call saw
    key_sha256: str | None           # answer key at the time of the call
    reader: str                      # provider:model, e.g. "probe:pymupdf", "openai:gpt-4o"
    modality: str                    # pdf | pixels | text
    dpi: int | None
    prompt: str
    answer: str | None
    status: str                      # see STATUSES
    error: dict[str, Any] | None = None      # CallError.to_json(); `call_error` reads it typed
    finish_reason: str | None = None
    latency_ms: float | None = None
    attempts: int = 1
    usage: dict[str, Any] | None = None      # {"input_tokens", "output_tokens", ...}; None if unknown
    request_id: str | None = None
    provenance: str = "observed"             # observed | imported
    tool_version: str = __version__
    started_at: str | None = None            # ISO 8601 UTC
    trap_family: str | None = None
    suite: str | None = None
    run_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    format: str = RECORD_FORMAT

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def call_error(self) -> CallError | None:
        return CallError.from_json(self.error) if self.error else None

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> RunRecord:
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in raw.items() if k in known}
        extra = {k: v for k, v in raw.items() if k not in known}
        if extra:
            data.setdefault("extra", {}).update(extra)
        return cls(**data)


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class RunWriter:
    """Appends records to a run file, flushing and syncing each one as it is written."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "a", encoding="utf-8")

    def append(self, record: RunRecord) -> None:
        line = json.dumps(record.to_json(), ensure_ascii=False, sort_keys=True)
        self._fh.write(line + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> RunWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def iter_records(path: Path) -> Iterator[RunRecord]:
    """Records of a run file; a torn last line (a crash mid-write) is skipped, any other bad line is an error."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise UserError(f"{path}: no such run file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read run file ({exc.__class__.__name__})") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            yield RunRecord.from_json(raw)
        except (json.JSONDecodeError, TypeError) as exc:
            if n == len(lines):
                continue  # torn tail from an interrupted write
            raise UserError(f"{path}:{n}: not a run record ({exc}); is this a JSON Lines run file?") from None


def read_records(paths: Iterable[Path]) -> list[RunRecord]:
    out: list[RunRecord] = []
    for p in paths:
        out.extend(iter_records(p))
    return out
