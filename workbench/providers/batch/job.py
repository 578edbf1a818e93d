"""A run file's provider batches and the steps on them: submit, poll, collect into the run file
(the same records a live run writes), cancel; `batch status RUN` and `batch cancel RUN`."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from workbench.core import atomic
from workbench.core.case import sha256_hex
from workbench.core.errors import UserError
from workbench.core.runs import CallError, RunRecord, RunWriter, iter_records, utc_now
from workbench.core.schema import JSONObject
from workbench.core.suite import load_suite, run_marks
from workbench.core.words import counted
from workbench.pdf.document import read_pdf_bytes
from workbench.providers import config
from workbench.providers.anthropic_batch import AnthropicBatches
from workbench.providers.base import HttpCall, ReadResult
from workbench.providers.batch.replies import Poll, not_run
from workbench.providers.batch.service import Refused, Service
from workbench.providers.batch.state import (
    BatchRequest,
    BatchState,
    Entry,
    load_state,
    run_of_state,
    save_state,
    state_path,
)
from workbench.providers.cache import AnswerCache
from workbench.providers.google_batch import GeminiBatches
from workbench.providers.openai_batch import OpenAIBatches
from workbench.providers.reading import prepare_parts, read_request, redact_result
from workbench.providers.retry import RetryPolicy
from workbench.providers.running import drop_torn_tail


class BatchProtocol(Protocol):
    """One provider's batch service on the wire, over a `Service` (`providers/NAME_batch.py`)."""

    def __init__(self, service: Service) -> None: ...

    @staticmethod
    def line(custom_id: str, call: HttpCall) -> JSONObject:
        """The live call as one request of the batch's input (a JSON Lines line)."""

    def upload(self, entry: Entry, lines: list[bytes]) -> str | None:
        """Send the entry's request lines: the input file's id (OpenAI), or None where they go
        with the create call (kept until then)."""

    def create(self, entry: Entry) -> str:
        """Create the batch; its id."""

    def find(self, entry: Entry) -> str | None:
        """The batch a create interrupted may have made (by the entry's intent), or None."""

    def poll(self, batch_id: str) -> Poll: ...

    def results(self, poll: Poll, entry: Entry) -> Iterator[tuple[str | None, ReadResult]]:
        """(custom id, result) of an ended batch; a result no call can be told from has None."""

    def cancel(self, batch_id: str) -> None: ...


PROTOCOLS: dict[str, type[BatchProtocol]] = {
    "openai": OpenAIBatches, "anthropic": AnthropicBatches, "google": GeminiBatches}


@dataclass
class BatchOutcome:
    state: BatchState
    out: Path
    submitted: int = 0            # requests sent in new batches by this call
    collected: int = 0            # records written by this call
    records: list[RunRecord] = field(default_factory=list)   # the run's records for this reader, when done

    from_cache: int = 0           # cases the answer cache answered (recorded, not sent)

    @property
    def done(self) -> bool:
        return not self.state.open_entries()

    def line(self) -> str:
        parts = []
        for e in self.state.entries:
            counts = ", ".join(f"{k} {v}" for k, v in (e.counts or {}).items() if v not in (None, 0, "0"))
            what = "collected" if e.collected else (e.status or ("submitted" if e.batch_id else "not yet submitted"))
            parts.append(f"{e.batch_id or e.intent} ({counted(len(e.requests), 'call')}): {what}"
                         + (f" [{counts}]" if counts and not e.collected else ""))
        return "; ".join(parts) if parts else "no batch"


class BatchRun:
    """A run file's provider batches: submit, poll, collect, cancel. Hold `run_lock` around any step."""

    def __init__(self, out: Path, state: BatchState, key: str | None, password: str | None = None,
                 policy: RetryPolicy | None = None, on_step: Callable[[str], None] | None = None,
                 prepared: dict[str, list[bytes]] | None = None) -> None:
        self.out = Path(out)
        self.path = state_path(self.out)
        self.state = state
        self.key = key
        self.password = password
        self.service = Service(state.spec, state.base_url, key, policy)
        self.proto = PROTOCOLS[state.spec.provider](self.service)
        self.on_step = on_step or (lambda _line: None)
        self.prepared = dict(prepared or {})
        self._suite_marks: dict[str, str] | None = None

    def suite_marks(self) -> dict[str, str]:
        """Where the suite is and its hash (`core.suite.run_marks`), for every record collected."""
        if self._suite_marks is None:
            try:
                self._suite_marks = run_marks(load_suite(Path(self.state.suite_dir)), self.out)
            except UserError:  # the suite moved since the batch was sent: its records say where it was
                self._suite_marks = {"suite_path": self.state.suite_dir}
        return self._suite_marks

    def close(self) -> None:
        self.service.close()

    def save(self) -> None:
        save_state(self.path, self.state)

    # -- building requests (the live request builders) --
    def _lines(self, entry: Entry) -> list[bytes]:
        if entry.intent in self.prepared:
            return self.prepared.pop(entry.intent)
        suite = load_suite(Path(self.state.suite_dir))
        spec = self.state.spec
        lines = []
        for cid, meta in entry.requests.items():
            case = suite.case(meta.case_id)
            pdf = read_pdf_bytes(case.pdf_file, self.password)
            if sha256_hex(pdf) != meta.case_sha256:
                raise UserError(f"case {case.id}: its PDF changed since the batch was prepared; "
                                f"remove {self.path} to prepare it again")
            req = read_request(case, prepare_parts(pdf, self.state.modality, self.state.dpi), meta.prompt,
                               self.state.options, self.service.mod)
            call = self.service.mod.build(req, spec.model, self.state.base_url, self.key)
            lines.append(encode_line(self.proto.line(cid, call)))
        return lines

    # -- the steps --
    def submit(self, entry: Entry) -> None:
        """Create the entry's batch, unless a restart finds the one it already made."""
        if entry.batch_id:
            return
        if entry.create_started_at:
            found = self.proto.find(entry)
            if found:
                entry.batch_id, entry.submitted_at, entry.status = found, entry.create_started_at, "in_progress"
                self.save()
                self.on_step(f"found batch {found} submitted before the interruption")
                return
        if not entry.file_id:   # an input file uploaded before an interruption is used as it is
            entry.file_id = self.proto.upload(entry, self._lines(entry))
            if entry.file_id:
                self.save()
        entry.create_started_at = utc_now()
        self.save()
        try:
            entry.batch_id = self.proto.create(entry)
        except Refused as refused:
            if refused.surely_not_done:
                # Nothing was created: the next try starts afresh (OpenAI: with a new upload, in
                # case the file the service was given is the one it cannot find).
                entry.create_started_at, entry.file_id = None, None
                self.save()
                raise
            raise UserError(f"{refused}; the batch may have been created: run the same command again, "
                            "it looks for the batch before it creates one") from None
        entry.submitted_at, entry.status = utc_now(), "in_progress"
        self.save()
        self.on_step(f"submitted batch {entry.batch_id} ({counted(len(entry.requests), 'call')})")

    def poll(self, entry: Entry) -> Poll | None:
        if not entry.batch_id:
            return None
        poll = self.proto.poll(entry.batch_id)
        entry.status, entry.provider_status, entry.counts = poll.status, poll.provider_status, dict(poll.counts)
        self.save()
        return poll

    def collect(self, entry: Entry, poll: Poll) -> int:
        """Write a record for every request of an ended batch (the ones not yet written): its
        result, or why there is none (a result line of the wrong shape is that call's error)."""
        store = AnswerCache() if self.state.cache else None
        if self.out.exists():
            drop_torn_tail(self.out)   # a collection killed mid-write: its half line goes
        done = self._recorded()
        seen: set[str] = set()
        written = 0
        unread, first_unread = 0, ""   # results no call could be told from, and what the first said
        # Results that answer no request still to answer (unknown ids, doubles, unreadable lines):
        # a real file has none, so past this many the rest of it is not read (a hostile file of
        # millions of junk lines would otherwise cost minutes of CPU).
        useless, most_useless = 0, max(1000, 2 * len(entry.requests))
        with RunWriter(self.out, lock=False) as writer:
            def write(cid: str, result: ReadResult) -> None:
                nonlocal written
                meta = entry.requests.get(cid)
                if meta is None or cid in seen:
                    return
                seen.add(cid)
                if (meta.case_id, meta.case_sha256) in done:
                    return
                record = self._record(entry, cid, meta, redact_result(result, self.service.keys))
                writer.append(record)
                written += 1
                if store is not None and meta.cache_key:
                    store.put(meta.cache_key, record)   # only finished answers are kept

            for cid, result in self.proto.results(poll, entry):
                if cid is None or cid not in entry.requests or cid in seen:
                    useless += 1
                    if cid is None:
                        unread += 1
                        first_unread = first_unread or (result.error.message if result.error else "")
                    if useless > most_useless:
                        self.on_step(f"batch {entry.batch_id}: {useless:,} results answer no request of it; "
                                     "the rest of them was not read")
                        break
                    continue
                write(cid, result)
            for cid in entry.requests:
                if cid not in seen:
                    missing = not_run(poll.status)
                    why = [poll.message] if poll.message else []
                    if unread:
                        why.append(f"{unread:,} result(s) could not be read (the first: {first_unread})")
                    if useless > most_useless:
                        why.append(f"the results went on with {useless:,} that answer no request; "
                                   "the rest was not read")
                    if why and missing.error:
                        missing.error = CallError(missing.error.type, f"{missing.error.message}: {'; '.join(why)}")
                    write(cid, missing)
        entry.collected = True
        self.save()
        self.on_step(f"collected batch {entry.batch_id}: {written} records")
        return written

    def _recorded(self) -> set[tuple[str, str | None]]:
        if not self.out.exists():
            return set()
        return {(r.case_id, r.case_sha256) for r in iter_records(self.out)
                if r.reader == self.state.reader and r.modality == self.state.modality and r.dpi == self.state.dpi}

    def _record(self, entry: Entry, cid: str, meta: BatchRequest, result: ReadResult) -> RunRecord:
        extra: JSONObject = {"batch": {"provider": self.state.spec.provider, "id": entry.batch_id,
                                           "custom_id": cid}}
        extra.update(self.suite_marks())
        if meta.structured:
            extra["structured_output"] = meta.structured
        if self.state.modality == "text":
            extra["extractor"] = "pymupdf"
        ran = result.status not in ("cancelled",) and not (result.error and result.error.type == "batch_expired")
        return RunRecord(
            case_id=meta.case_id, case_sha256=meta.case_sha256, key_sha256=meta.key_sha256,
            reader=self.state.reader, modality=self.state.modality, dpi=self.state.dpi, prompt=meta.prompt,
            answer=result.answer, status=result.status, error=result.error.to_json() if result.error else None,
            finish_reason=result.finish_reason, latency_ms=None, attempts=1 if ran else 0, usage=result.usage,
            request_id=result.request_id, started_at=entry.submitted_at, trap_family=meta.trap_family,
            suite=self.state.suite, run_id=self.state.run_id, shard=self.state.shard, extra=extra)

    def advance(self) -> BatchOutcome:
        """One step for every open batch: submit what is not submitted, poll the rest, collect the ended."""
        outcome = BatchOutcome(self.state, self.out)
        for entry in self.state.open_entries():
            if not entry.batch_id:
                self.submit(entry)
                outcome.submitted += len(entry.requests)
                continue
            poll = self.poll(entry)
            if poll is not None and poll.ended:
                outcome.collected += self.collect(entry, poll)
        return outcome

    def cancel(self) -> BatchOutcome:
        """Ask the provider to cancel every open batch; batches never created are dropped."""
        for entry in list(self.state.open_entries()):
            if not entry.batch_id and entry.create_started_at:
                entry.batch_id = self.proto.find(entry)
            if not entry.batch_id:
                self.state.entries.remove(entry)   # nothing was sent: nothing to cancel
                self.save()
                continue
            self.proto.cancel(entry.batch_id)
            self.on_step(f"asked to cancel batch {entry.batch_id}")
        return self.advance()


def encode_line(item: JSONObject) -> bytes:
    return json.dumps(item, ensure_ascii=False).encode("utf-8") + b"\n"


@contextlib.contextmanager
def run_lock(out: Path) -> Iterator[None]:
    """The run file's write lock, refused at once when another process holds it."""
    with atomic.file_lock(atomic.lock_path_for(Path(out)), f"run file {out}", timeout_s=0):
        yield


def run_records(out: Path, state: BatchState, ids: set[str] | None = None) -> list[RunRecord]:
    if not out.exists():
        return []
    return [r for r in iter_records(out) if r.reader == state.reader and r.modality == state.modality
            and r.dpi == state.dpi and (ids is None or r.case_id in ids)]


def open_batches(run: Path, base_url: str | None = None, password: str | None = None,
                 on_step: Callable[[str], None] | None = None) -> BatchRun:
    """The batches of a run file (or of its state file), to poll or cancel under `run_lock`."""
    out = run_of_state(Path(run))
    path = state_path(out)
    state = load_state(path)
    if state is None:
        raise UserError(f"{out}: no batch was submitted for this run ({path.name} is not beside it); "
                        "submit one with `pdfworkbench run SUITE --reader P:M --batch`")
    if base_url:
        state.base_url = base_url.rstrip("/")
    return BatchRun(out, state, config.api_key(state.spec.provider), password, on_step=on_step)


def advance_run(run: Path, *, cancel: bool = False, base_url: str | None = None, password: str | None = None,
                on_step: Callable[[str], None] | None = None) -> BatchOutcome:
    """`batch status RUN` (one step: poll, collect what ended) or `batch cancel RUN`."""
    out = run_of_state(Path(run))
    with run_lock(out):
        job = open_batches(out, base_url, password, on_step)
        try:
            outcome = job.cancel() if cancel else job.advance()
        finally:
            job.close()
        if outcome.done:
            ids = {m.case_id for e in job.state.entries for m in e.requests.values()}
            outcome.records = run_records(out, job.state, ids)
        return outcome
