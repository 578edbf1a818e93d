"""Provider batch services: a run's pending calls submitted as one batch (OpenAI Batch API,
Anthropic Message Batches, Gemini batch mode), polled, and collected into the run file as the same
records a live run writes.

The state of a run's batches is a small JSON file beside the run file (`<run>.batch.json`),
rewritten atomically before and after every step, so a process killed at any point loses nothing:

1. the intent: which case each custom id stands for, written before any request leaves;
2. `create_started_at`, written just before the create call: a restart that finds it without a
   batch id looks for the batch it may have made (OpenAI: the batch's `metadata`; Gemini: its
   display name; Anthropic, whose batches carry neither: one batch created since then with the
   same number of requests) before it creates one, so a call is never submitted twice;
3. the batch id, as soon as the provider gives it;
4. polls update the provider's status; an ended batch is collected: each result becomes a record
   (appended and synced one by one; a restart skips the cases already recorded), then the entry
   is marked collected.

Request bodies are the live ones: `reading.read_request` and each adapter's `build` make them.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import atomic, files
from workbench.core.errors import UserError
from workbench.core.runs import CallError, RunRecord, RunWriter, iter_records, utc_now
from workbench.core.words import counted
from workbench.providers.base import ReaderSpec, ReadResult, default_prompt
from workbench.providers.batchapis import PROTOCOLS, OpenAIBatches, Poll, Refused, Service, not_run

BATCH_PROVIDERS = ("openai", "anthropic", "google")
STATE_FORMAT = "pdfworkbench-batch/1"
STATE_SUFFIX = ".batch.json"
# Per batch: most requests and bytes each service takes (OpenAI: 50,000 lines and 200 MB of file;
# Anthropic: 100,000 requests and 256 MB; Gemini: inlined requests up to 20 MB), with headroom.
LIMITS = {"openai": (50_000, 190 * 2**20), "anthropic": (100_000, 240 * 2**20),
          "google": (50_000, 19 * 2**20)}
# Request lines built while preparing are kept to send, up to this many bytes (beyond it they are
# built again when sent, so memory stays bounded for a suite of any size).
PREPARED_BYTES = 512 * 2**20


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


def check_provider(reader: ReaderSpec) -> None:
    if reader.provider not in BATCH_PROVIDERS:
        what = "a probe" if reader.is_probe else reader.provider
        raise UserError(f"--batch: {what} has no batch service; readers with one: "
                        f"{', '.join(p + ':MODEL' for p in BATCH_PROVIDERS)}")


# ---- the state file ---------------------------------------------------------------------------

@dataclass
class Entry:
    """One provider batch of the run."""

    intent: str                                   # our handle, in the batch's metadata or name
    requests: dict[str, dict[str, Any]]           # custom id -> the case it asks (id, hashes, prompt)
    batch_id: str | None = None
    file_id: str | None = None                    # OpenAI's uploaded input file
    created_at: str = field(default_factory=utc_now)
    create_started_at: str | None = None          # set (and saved) just before the create call
    submitted_at: str | None = None
    status: str | None = None                     # ours: in_progress, completed, expired, ...
    provider_status: str | None = None            # the provider's own word
    counts: dict[str, Any] | None = None
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
    options: dict[str, Any] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    cache: bool = True                # collected answers go to the answer cache (not with --no-cache)
    shard: str | None = None          # "i/n" of a sharded run; its records carry it
    format: str = STATE_FORMAT

    @property
    def spec(self) -> ReaderSpec:
        from workbench.providers.base import parse_reader

        return parse_reader(self.reader)

    def open_entries(self) -> list[Entry]:
        return [e for e in self.entries if not e.collected]

    def to_json(self) -> dict[str, Any]:
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
        entries = [Entry(**e) for e in raw.pop("entries")]
        return BatchState(**raw, entries=entries)
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise UserError(f"{path}: not a pdfworkbench batch state file ({exc}); restore it, or remove it if "
                        "no batch is in flight (nothing else was changed)") from None


def save_state(path: Path, state: BatchState) -> None:
    atomic.write_json(path, state.to_json())


# ---- a run through a batch service ------------------------------------------------------------

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
    """A run file's provider batches: submit, poll, collect, cancel. Hold `lock()` around any step."""

    def __init__(self, out: Path, state: BatchState, key: str | None, password: str | None = None,
                 policy: Any = None, on_step: Callable[[str], None] | None = None,
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
        self._suite_marks: dict[str, Any] | None = None

    def suite_marks(self) -> dict[str, Any]:
        """Where the suite is and its hash (`core.suite.run_marks`), for every record collected."""
        if self._suite_marks is None:
            from workbench.core.suite import load_suite, run_marks

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
        from workbench.core.case import sha256_hex
        from workbench.core.suite import load_suite
        from workbench.pdf.document import read_pdf_bytes
        from workbench.providers.reading import prepare_parts, read_request

        suite = load_suite(Path(self.state.suite_dir))
        spec = self.state.spec
        lines = []
        for cid, meta in entry.requests.items():
            case = suite.case(meta["case_id"])
            pdf = read_pdf_bytes(case.pdf_file, self.password)
            if sha256_hex(pdf) != meta["case_sha256"]:
                raise UserError(f"case {case.id}: its PDF changed since the batch was prepared; "
                                f"remove {self.path} to prepare it again")
            req = read_request(case, prepare_parts(pdf, self.state.modality, self.state.dpi), meta["prompt"],
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
        if isinstance(self.proto, OpenAIBatches):
            if not entry.file_id:   # an input file uploaded before an interruption is used as it is
                entry.file_id = self.proto.upload(entry, self._lines(entry))
                self.save()
        else:
            self.proto.upload(entry, self._lines(entry))   # kept for the create call
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
        from workbench.providers.cache import AnswerCache
        from workbench.providers.reading import redact_result

        store = AnswerCache() if self.state.cache else None
        if self.out.exists():
            from workbench.providers.batch import drop_torn_tail

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
                if (meta["case_id"], meta["case_sha256"]) in done:
                    return
                record = self._record(entry, cid, meta, redact_result(result, self.service.keys))
                writer.append(record)
                written += 1
                if store is not None and meta.get("cache_key"):
                    store.put(meta["cache_key"], record)   # only finished answers are kept

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

    def _record(self, entry: Entry, cid: str, meta: dict[str, Any], result: ReadResult) -> RunRecord:
        extra: dict[str, Any] = {**result.extra, "batch": {"provider": self.state.spec.provider,
                                                           "id": entry.batch_id, "custom_id": cid}}
        extra.update(self.suite_marks())
        if meta.get("structured"):
            extra["structured_output"] = meta["structured"]
        if self.state.modality == "text":
            extra["extractor"] = "pymupdf"
        ran = result.status not in ("cancelled",) and not (result.error and result.error.type == "batch_expired")
        return RunRecord(
            case_id=meta["case_id"], case_sha256=meta["case_sha256"], key_sha256=meta["key_sha256"],
            reader=self.state.reader, modality=self.state.modality, dpi=self.state.dpi, prompt=meta["prompt"],
            answer=result.answer, status=result.status, error=result.error.to_json() if result.error else None,
            finish_reason=result.finish_reason, latency_ms=None, attempts=1 if ran else 0, usage=result.usage,
            request_id=result.request_id, started_at=entry.submitted_at, trap_family=meta.get("trap_family"),
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


def encode_line(item: dict[str, Any]) -> bytes:
    return json.dumps(item, ensure_ascii=False).encode("utf-8") + b"\n"


def prepare(state: BatchState, cases: list[Any], plan: Any, key: str | None, password: str | None = None,
            store: Any = None) -> tuple[list[Entry], dict[str, list[bytes]], list[RunRecord]]:
    """Entries for `cases`, split by each service's limits (the bodies are built to measure them);
    the request lines built, by intent, to send as they are (up to PREPARED_BYTES of them; the
    rest, and any after a restart, are built again from the state); and, with an answer cache
    `store`, the records of the cases it already answers (as a live run would take them)."""
    from workbench.core.case import sha256_hex
    from workbench.pdf.document import read_pdf_bytes
    from workbench.providers.cache import cache_key
    from workbench.providers.reading import (
        _from_cache,
        adapter,
        cache_options,
        prepare_parts,
        read_request,
    )

    spec = state.spec
    mod = adapter(spec.provider)
    proto = PROTOCOLS[spec.provider]
    most, most_bytes = LIMITS[spec.provider]
    entries: list[Entry] = []
    prepared: dict[str, list[bytes]] = {}
    hits: list[RunRecord] = []
    kept = 0
    current: dict[str, dict[str, Any]] = {}
    lines: list[bytes] = []
    size = 0
    intent = uuid.uuid4().hex[:16]

    def close_entry() -> None:
        nonlocal kept
        entries.append(Entry(intent, current))
        if kept + size <= PREPARED_BYTES:
            prepared[intent] = lines
            kept += size

    for n, case in enumerate(cases):
        pdf = read_pdf_bytes(case.pdf_file, password)
        prompt = plan.prompt or default_prompt(case)
        ckey = cache_key(sha256_hex(pdf), state.reader, state.modality, state.dpi, prompt,
                         cache_options(case, mod, state.options), state.base_url) if store else None
        hit = store.get(ckey) if store else None
        if hit:
            rec = _from_cache(hit, case, prompt, utc_now())
            rec.suite, rec.run_id, rec.shard = state.suite, state.run_id, state.shard
            hits.append(rec)
            continue
        req = read_request(case, prepare_parts(pdf, state.modality, state.dpi), prompt, state.options, mod)
        call = mod.build(req, spec.model, state.base_url, key)
        if current and (len(current) >= most or size + len(encode_line(proto.line("x" * 15, call))) > most_bytes):
            close_entry()
            intent, current, lines, size = uuid.uuid4().hex[:16], {}, [], 0
        cid = f"{intent[:8]}-{n:06d}"
        line = encode_line(proto.line(cid, call))
        lines.append(line)
        current[cid] = {"case_id": case.id, "case_sha256": sha256_hex(pdf), "key_sha256": case.key_sha256(),
                        "prompt": prompt, "trap_family": case.trap_family,
                        "structured": mod.structured if req.schema is not None else None,
                        "cache_key": ckey}
        size += len(line)
    if current:
        close_entry()
    return entries, prepared, hits


@contextlib.contextmanager
def run_lock(out: Path) -> Iterator[None]:
    """The run file's write lock, refused at once when another process holds it."""
    with atomic.file_lock(atomic.lock_path_for(Path(out)), f"run file {out}", timeout_s=0):
        yield


def _run_records(out: Path, state: BatchState, ids: set[str] | None = None) -> list[RunRecord]:
    if not out.exists():
        return []
    return [r for r in iter_records(out) if r.reader == state.reader and r.modality == state.modality
            and r.dpi == state.dpi and (ids is None or r.case_id in ids)]


def submit_or_advance(suite_path: Path, plan: Any, out: Path, *, shard: str | None = None,
                      retry_errors: bool = False, on_step: Callable[[str], None] | None = None,
                      run_id: str | None = None) -> BatchOutcome:
    """`run --batch`: advance the run's open batches (submit, poll, collect); when none is open,
    submit the cases that have no record yet as new batches, and return. `retry_errors` first
    drops this reader's error and timeout records (expired requests among them) so they go again."""
    from workbench.build.shards import shard_items
    from workbench.core.suite import load_suite, run_marks
    from workbench.providers import config
    from workbench.providers.batch import (
        RunIdentity,
        check_plan,
        drop_failed,
        drop_torn_tail,
        effective_modality,
        finished_cases,
        is_finished,
    )

    given_run_id = run_id
    check_provider(plan.reader)
    check_plan(plan)
    suite = load_suite(suite_path)
    cases = shard_items(list(suite.cases), shard)
    out = Path(out)
    if out.is_dir():
        raise UserError(f"--out {out}: is a folder; give a run file (.jsonl)")
    modality, dpi = effective_modality(plan)
    key = config.api_key(plan.reader.provider)
    with run_lock(out):
        path = state_path(out)
        state = load_state(path)
        if state and (state.reader, state.modality, state.dpi) != (str(plan.reader), modality, dpi):
            raise UserError(f"{path}: holds batches of {state.reader} ({state.modality}); "
                            f"give another --out for {plan.reader} ({modality})")
        url = config.base_url(plan.reader.provider, plan.base_url or (state.base_url if state else None))
        prepared: dict[str, list[bytes]] = {}
        if state is None or not state.open_entries():
            if out.exists() and out.stat().st_size:
                drop_torn_tail(out)
                if retry_errors:
                    drop_failed(out, plan)
            done, run_id = finished_cases(out, plan) if out.exists() and out.stat().st_size else ({}, None)
            todo = [c for c in cases if not is_finished(c, done)]
            if state is None:
                ident = RunIdentity.of(shard, given_run_id, suite)
                state = BatchState(run=out.name, suite_dir=str(Path(suite_path).resolve()), suite=suite.name,
                                   reader=str(plan.reader), modality=modality, dpi=dpi, base_url=url,
                                   run_id=ident.resolve(plan, out, run_id), options=dict(plan.options),
                                   shard=ident.shard)
            if not todo:
                return BatchOutcome(state, out, records=_run_records(out, state, {c.id for c in cases}))
            state.base_url, state.options, state.cache = url, dict(plan.options), bool(plan.cache)
            from workbench.providers.cache import AnswerCache

            entries, prepared, hits = prepare(state, todo, plan, key, plan.password,
                                              AnswerCache() if plan.cache else None)
            if hits:
                marks = run_marks(suite, out)
                with RunWriter(out, lock=False) as writer:
                    for rec in hits:
                        rec.extra.update(marks)
                        writer.append(rec)
            state.entries.extend(entries)
            if entries or path.exists():
                save_state(path, state)   # the intent, before any request leaves
            if not entries:
                return BatchOutcome(state, out, from_cache=len(hits),
                                    records=_run_records(out, state, {c.id for c in cases}))
        else:
            hits = []
        state.base_url = url
        job = BatchRun(out, state, key, plan.password, on_step=on_step, prepared=prepared)
        try:
            outcome = job.advance()
        finally:
            job.close()
        outcome.from_cache = len(hits)
        if outcome.done:
            outcome.records = _run_records(out, state, {c.id for c in cases})
        return outcome


def open_batches(run: Path, base_url: str | None = None, password: str | None = None,
                 on_step: Callable[[str], None] | None = None) -> BatchRun:
    """The batches of a run file (or of its state file), to poll or cancel under `run_lock`."""
    from workbench.providers import config

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
            ids = {m["case_id"] for e in job.state.entries for m in e.requests.values()}
            outcome.records = _run_records(out, job.state, ids)
        return outcome
