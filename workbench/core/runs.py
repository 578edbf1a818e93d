"""Run records: JSON Lines, one record per model call, appended and flushed as calls finish.

Scores are never stored: they are derived from records and answer keys when read.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from workbench import __version__
from workbench.core import atomic, files
from workbench.core.digest import sha256_hex
from workbench.core.errors import UserError
from workbench.core.schema import JSONObject, check_record, parse_json

RECORD_FORMAT = "pdfworkbench-run/1"
# A screen shows at most this much of an answer (grading reads at most
# `grading.matchers.MAX_GRADED_CHARS`): a run file from elsewhere may hold an answer of any size
# (the body cap only bounds our own calls).
SHOWN_ANSWER_CHARS = 20_000
STATUSES = ("ok", "error", "timeout", "blocked", "truncated", "refused", "cancelled",
            # an agent reader's own ends: out of turns, or done without calling submit_extraction
            "turn_limit", "no_submission")
# `tools`: an agent reader's, which reads the document through its tools (providers/agent).
MODALITIES = ("pdf", "pixels", "text", "tools")
# The keys of a record's `usage`: token counts as the provider reported them (None where it gave
# none). Providers differ in what they include: OpenAI and Gemini count cache reads inside
# input_tokens, Anthropic apart; total_tokens - input_tokens is what was billed as output
# (Gemini's thinking tokens come on top of output_tokens, OpenAI's reasoning is inside them).
USAGE_KEYS = ("input_tokens", "output_tokens", "total_tokens", "cache_read_tokens",
              "cache_creation_tokens", "reasoning_tokens")


@dataclass(frozen=True)
class CallError:
    """Why a call gave no answer: the `error` of a run record, typed (the file keeps it as JSON)."""

    type: str | None                 # timeout | network | rate_limit | auth | server_error | bad_input | ...
    message: str = ""
    http_status: int | None = None
    code: str | None = None          # the provider's own code, when it gives one

    def to_json(self) -> JSONObject:
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
    """One model call as a run file's line holds it (`from_json`, `to_json`)."""

    case_id: str
    case_sha256: str | None          # sha256 of the PDF the call saw
    key_sha256: str | None           # answer key at the time of the call
    reader: str                      # provider:model, e.g. "probe:pymupdf", "openai:gpt-4o"
    modality: str                    # pdf | pixels | text
    dpi: int | None
    prompt: str
    answer: str | None
    status: str                      # see STATUSES
    error: JSONObject | None = None      # CallError.to_json(); `call_error` reads it typed
    finish_reason: str | None = None
    latency_ms: float | None = None
    attempts: int = 1
    usage: JSONObject | None = None      # {"input_tokens", "output_tokens", ...}; None if unknown
    request_id: str | None = None
    provenance: str = "observed"             # observed | imported
    tool_version: str = __version__
    started_at: str | None = None            # ISO 8601 UTC
    trap_family: str | None = None
    suite: str | None = None
    run_id: str | None = None                # the same for every shard of one run (`run_identity`)
    shard: str | None = None                 # "i/n" when the run was sharded
    extra: JSONObject = field(default_factory=dict)
    format: str = RECORD_FORMAT

    def to_json(self) -> JSONObject:
        return asdict(self)

    @property
    def call_error(self) -> CallError | None:
        return CallError.from_json(self.error) if self.error else None

    @classmethod
    def from_json(cls, raw: JSONObject) -> RunRecord:
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in raw.items() if k in known}
        if data.get("extra") is None:
            data["extra"] = {}
        extra = {k: v for k, v in raw.items() if k not in known}
        if extra:
            data["extra"] = {**data["extra"], **extra}
        data.setdefault("case_sha256", None)
        data.setdefault("key_sha256", None)
        data.setdefault("modality", "pdf")
        data.setdefault("dpi", None)
        data.setdefault("prompt", "")
        data.setdefault("answer", None)
        return cls(**data)


def is_agent_reader(reader: str) -> bool:
    """A reader that runs a tool loop (`agent:PROVIDER:MODEL`, or an MCP client `mcp:NAME`): its
    deadline, turn limit and missing submission are its own ends, scored as zero."""
    return str(reader).startswith(("agent:", "mcp:"))


def billed_reader(reader: str) -> str:
    """The reader whose tokens a reader's calls are billed as: an agent's model
    (`agent:openai:gpt-4o` -> `openai:gpt-4o`, every turn a call of it), else the reader itself."""
    return str(reader).removeprefix("agent:")


def run_identity(parts: Mapping[str, Any], folder: Path, case_ids: Iterable[str]) -> str:
    """The default run id: the same in every shard of one run, new once a run is complete.

    `<hash>-<k>`: the hash of `parts` (suite hash, reader, modality, DPI, prompt, options), and k
    one more than the number of runs with that hash whose records, in the run files of `folder`,
    already answer every case in `case_ids` (the whole suite). Shards of a run, started at once or
    one after another, all see the same complete runs and so agree without talking; the run after
    a complete one gets the next k. Shards on machines that share no folder all get k = 1: give
    them `--run-id` (the job system's id) to tell one such run from the next.
    """
    blob = json.dumps(dict(parts), sort_keys=True, default=str)
    base = sha256_hex(blob.encode("utf-8"))[:12]
    wanted = set(case_ids)
    answered: dict[str, set[str]] = {}
    for path in sorted(Path(folder).glob("*.jsonl")) if Path(folder).is_dir() else []:
        try:
            for rec in iter_records(path):
                if rec.run_id and rec.run_id.startswith(base + "-"):
                    answered.setdefault(rec.run_id, set()).add(rec.case_id)
        except UserError:
            continue  # not a run file of ours: it cannot hold one of these runs
    complete = sum(1 for ids in answered.values() if wanted <= ids)
    return f"{base}-{complete + 1}"


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class RunWriter:
    """Appends records to a run file, flushing and syncing them as they are written (those written
    together, with one sync). It holds the file's write lock while open (`lock=False` when the
    caller already holds it); a second writer waits up to `lock_timeout_s` seconds, then is told
    who holds it."""

    def __init__(self, path: Path, lock: bool = True, lock_timeout_s: float | None = 30.0) -> None:
        self.path = Path(path)
        atomic.ensure_folder(self.path.parent)
        if self.path.is_dir():
            raise UserError(f"{self.path}: is a folder; give a run file (.jsonl)")
        self._lock = contextlib.ExitStack()
        if lock:
            self._lock.enter_context(atomic.file_lock(atomic.lock_path_for(self.path),
                                                      f"run file {self.path}", lock_timeout_s))
        try:
            self._fh = files.open_append(self.path, "run file (.jsonl)", text=False)
        except BaseException:
            self._lock.close()
            raise

    def append(self, *records: RunRecord) -> None:
        """Write the records' lines, all or none of them, and sync them: one sync for records
        that are ready together."""
        lines = [json.dumps(r.to_json(), ensure_ascii=False, sort_keys=True) + "\n" for r in records]
        files.append_whole(self._fh, "".join(lines).encode("utf-8"), self.path)

    def close(self) -> None:
        self._fh.close()
        self._lock.close()

    def __enter__(self) -> RunWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def iter_records(path: Path, within: Path | None = None) -> Iterator[RunRecord]:
    """Records of a run file; a torn last line (a crash mid-write) is skipped, any other bad line
    is an error. `within`: the suite folder the file must be its own file of (`files`)."""
    path = Path(path)
    lines, whole = files.read_lines(path, "run file", "run_file_bytes", within=within)
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            raw = check_record(parse_json(line, f"{path}:{n}", "run record"), f"{path}:{n}")
        except UserError as exc:
            if n == len(lines) and not whole:
                continue  # torn tail from an interrupted write
            raise UserError(f"{exc}; is this a JSON Lines run file?") from None
        yield RunRecord.from_json(raw)


def read_records(paths: Iterable[Path]) -> list[RunRecord]:
    out: list[RunRecord] = []
    for p in paths:
        out.extend(iter_records(p))
    return out
