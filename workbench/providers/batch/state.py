"""A run's provider batches on disk: `<run>.batch.json` beside the run file, rewritten atomically
before and after every step (see `workbench.providers.batch`)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from workbench.core import atomic, files
from workbench.core.errors import UserError
from workbench.core.runs import utc_now
from workbench.core.schema import JSONObject
from workbench.providers.base import ReaderOptions, ReaderSpec, parse_reader

STATE_FORMAT = "pdfworkbench-batch/1"
STATE_SUFFIX = ".batch.json"


def state_path(run: Path) -> Path:
    """`<run>.batch.json` beside the run file."""
    run = Path(run)
    return run.with_name(run.stem + STATE_SUFFIX) if run.suffix == ".jsonl" else run.with_name(run.name + STATE_SUFFIX)


def run_of_state(path: Path) -> Path:
    """The run file a state file (or the run file itself) stands for."""
    path = Path(path)
    if path.name.endswith(STATE_SUFFIX):
        return path.with_name(path.name[: -len(STATE_SUFFIX)] + ".jsonl")
    return path


@dataclass
class BatchRequest:
    """The case one request of a batch asks, and what its record will carry."""

    case_id: str
    case_sha256: str                  # of the PDF sent: a case whose PDF changed is not sent again
    key_sha256: str
    prompt: str
    trap_family: str | None = None
    structured: str | None = None     # how the answer's schema went (the adapter's `structured`), or None
    cache_key: str | None = None      # the answer cache's key for the answer (None: --no-cache)


@dataclass
class Entry:
    """One provider batch of the run."""

    intent: str                                   # our handle, in the batch's metadata or name
    requests: dict[str, BatchRequest]             # custom id -> the case it asks
    batch_id: str | None = None
    file_id: str | None = None                    # OpenAI's uploaded input file
    created_at: str = field(default_factory=utc_now)
    create_started_at: str | None = None          # set (and saved) just before the create call
    submitted_at: str | None = None
    status: str | None = None                     # ours: in_progress, completed, expired, ...
    provider_status: str | None = None            # the provider's own word
    counts: dict[str, int | str] | None = None    # the provider's request counts (Gemini's are strings)
    collected: bool = False


@dataclass
class BatchState:
    run: str
    suite_dir: str
    suite: str | None
    reader: str
    modality: str
    dpi: int | None
    base_url: str
    run_id: str
    options: ReaderOptions = field(default_factory=ReaderOptions)
    entries: list[Entry] = field(default_factory=list)
    cache: bool = True                # collected answers go to the answer cache (not with --no-cache)
    shard: str | None = None          # "i/n" of a sharded run; its records carry it
    format: str = STATE_FORMAT

    @property
    def spec(self) -> ReaderSpec:
        return parse_reader(self.reader)

    def open_entries(self) -> list[Entry]:
        return [e for e in self.entries if not e.collected]

    def to_json(self) -> JSONObject:
        return asdict(self)


def load_state(path: Path) -> BatchState | None:
    """The state in `path`, None when there is none; a damaged file is a UserError (it is kept)."""
    path = Path(path)
    if not os.path.lexists(path):
        return None
    try:  # beside a run file in a suite: a regular file, capped (a FIFO there blocked for ever)
        raw = json.loads(files.read_bytes(path, "batch state file", "json_file_bytes"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise UserError(f"{path}: batch state file is damaged ({exc.__class__.__name__}); it holds the ids "
                        "of batches in flight: restore it, or remove it if none is (nothing else was changed)") from None
    try:
        if raw.get("format") != STATE_FORMAT:
            raise ValueError(f"format {raw.get('format')!r}")
        entries = [Entry(**{**e, "requests": {cid: BatchRequest(**r) for cid, r in e["requests"].items()}})
                   for e in raw.pop("entries")]
        return BatchState(**raw, entries=entries)
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise UserError(f"{path}: not a pdfworkbench batch state file ({exc}); restore it, or remove it if "
                        "no batch is in flight (nothing else was changed)") from None


def save_state(path: Path, state: BatchState) -> None:
    atomic.write_json(path, state.to_json())
