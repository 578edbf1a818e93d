"""A live run: every case of a suite (or a shard of it) asked of one reader, `workers` calls at a
time, each record appended to the run file as its call finishes (`pdfworkbench run`; a run
through the providers' batch services is `workbench.providers.batch`).

An interrupted run (Ctrl-C, a crash) leaves a valid JSON Lines file; `resume=True` skips every
case that already has a record for this reader, modality and DPI, so no finished call is repeated.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from workbench.build.shards import Shard, shard_items
from workbench.core import atomic, files
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.pool import process_pool, resolve_jobs
from workbench.core.prompt import default_prompt
from workbench.core.runs import (
    MODALITIES,
    CallError,
    RunRecord,
    RunWriter,
    iter_records,
    run_identity,
    utc_now,
)
from workbench.core.schema import JSONObject
from workbench.core.suite import Suite, content_hash, load_suite, run_marks
from workbench.pdf.document import read_case_pdf
from workbench.providers import config, extractors
from workbench.providers.adapters import adapter, check_options
from workbench.providers.agent.documents import DocumentProcess
from workbench.providers.agent.tools import (
    DEFAULT_EXTRACTOR,
    DocumentFacts,
    check_schemas,
    read_document,
)
from workbench.providers.base import DEFAULT_DPI, ReaderOptions, ReaderSpec
from workbench.providers.probes import check_probe
from workbench.providers.reading import read
from workbench.providers.retry import RetryPolicy


@dataclass
class Progress:
    total: int
    done: int = 0
    skipped: int = 0          # finished in an earlier, interrupted run
    errors: int = 0           # error or timeout
    tokens: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    def line(self) -> str:
        tok = f"{self.tokens / 1000:.1f}k" if self.tokens >= 1000 else str(self.tokens)
        skipped = f" ({self.skipped} from before)" if self.skipped else ""
        return (f"{self.done + self.skipped}/{self.total} done{skipped}  {self.errors} errors  "
                f"{tok} tokens  {self.elapsed_s:.1f}s")


@dataclass
class RunPlan:
    reader: ReaderSpec
    modality: str
    dpi: int | None
    workers: int = 4
    prompt: str | None = None
    options: ReaderOptions = field(default_factory=ReaderOptions)
    cache: bool = True
    base_url: str | None = None
    policy: RetryPolicy | None = None
    jobs: int = 1             # processes for local work (pixels, probes); 0: every core
    password: str | None = None       # of encrypted PDFs; they are sent decrypted


def effective_modality(plan: RunPlan) -> tuple[str, int | None]:
    """The modality and DPI the records will carry (probes have their own modality)."""
    modality = plan.modality
    if plan.reader.is_probe:
        modality = extractors.modality(plan.reader.model)
    return modality, ((plan.dpi or DEFAULT_DPI) if modality == "pixels" else None)


def check_plan(plan: RunPlan) -> None:
    """Raise the user's mistakes (no key, wrong modality) before any call is made."""
    if plan.modality not in MODALITIES:
        raise UserError(f"unknown modality {plan.modality!r}; choose one of {', '.join(MODALITIES)}")
    if plan.workers < 1:
        raise UserError("--workers must be at least 1")
    check_options(plan.options)
    if plan.reader.is_probe:
        check_probe(plan.reader.model)
        return
    if plan.reader.is_agent:
        if plan.modality != "tools":
            raise UserError(f"{plan.reader} reads the document through its tools: leave out --modality")
        config.api_key(plan.reader.inner.provider)
        config.base_url(plan.reader.inner.provider, plan.base_url)
        return
    config.api_key(plan.reader.provider)
    config.base_url(plan.reader.provider, plan.base_url)
    if plan.modality == "pdf" and not adapter(plan.reader.provider).takes_pdf:
        raise UserError(f"{plan.reader.provider} takes page images, not PDF files: use --modality pixels or text")


RETRIED_STATUSES = ("error", "timeout")


def finished_cases(path: Path, plan: RunPlan) -> tuple[dict[str, set[str | None]], str | None]:
    """Case id -> PDF hashes already answered in `path` by this reader/modality/DPI, and the run id."""
    modality, dpi = effective_modality(plan)
    done: dict[str, set[str | None]] = {}
    run_id = None
    for rec in iter_records(path):
        if rec.reader == str(plan.reader) and rec.modality == modality and rec.dpi == dpi:
            done.setdefault(rec.case_id, set()).add(rec.case_sha256)
            run_id = run_id or rec.run_id
    return done, run_id


def _unreached(raw: JSONObject) -> bool:
    """A call that never reached a server (nothing listening): no answer, no cost, so a resumed run
    asks it again, `--retry-errors` or not. A run stops after such calls (`run_cases`)."""
    error = raw.get("error")
    return raw.get("status") == "error" and isinstance(error, dict) and error.get("type") == "connect"


def drop_failed(path: Path, plan: RunPlan, only_unreached: bool = False) -> int:
    """Rewrite `path` (atomically) without this reader's error and timeout records (or, with
    `only_unreached`, its calls that never reached a server), so a resumed run asks those cases
    again and the file keeps one record per call. Returns how many went."""
    modality, dpi = effective_modality(plan)
    kept, dropped = [], 0
    text = files.read_text(path, "run file", "run_file_bytes")
    for line in text.splitlines(keepends=True):
        try:
            raw = json.loads(line)
        except (ValueError, RecursionError):
            kept.append(line)
            continue
        if (isinstance(raw, dict) and raw.get("reader") == str(plan.reader) and raw.get("modality") == modality
                and raw.get("dpi") == dpi
                and (_unreached(raw) if only_unreached else raw.get("status") in RETRIED_STATUSES)):
            dropped += 1
            continue
        kept.append(line)
    if dropped:
        atomic.write_bytes(path, "".join(kept).encode("utf-8"))
    return dropped


def drop_torn_tail(path: Path) -> None:
    """Cut a half-written last line (a crash mid-write) so appended records start on a line of their own."""
    data = files.read_bytes(path, "run file", "run_file_bytes")
    if data and not data.endswith(b"\n"):
        with files.open_append(path, "run file", text=False) as fh:
            fh.truncate(data.rfind(b"\n") + 1)


def is_finished(case: Case, done: dict[str, set[str | None]]) -> bool:
    """A case is finished when it has a record, for the same PDF where the case records its hash."""
    return case.id in done and (not case.sha256 or case.sha256 in done[case.id])


def _bad_input_record(case: Case, plan: RunPlan, message: str) -> RunRecord:
    modality, dpi = effective_modality(plan)
    return RunRecord(case_id=case.id, case_sha256=case.sha256, key_sha256=case.key_sha256(),
                     reader=str(plan.reader), modality=modality, dpi=dpi,
                     prompt=plan.prompt or default_prompt(case), answer=None, status="error",
                     error=CallError("bad_input", message).to_json(),
                     attempts=0, started_at=utc_now(), trap_family=case.trap_family)


async def run_cases(cases: list[Case], plan: RunPlan, writer: RunWriter, progress: Progress,
                    on_progress: Callable[[Progress], None] | None = None,
                    suite_name: str | None = None, run_id: str | None = None,
                    local: Executor | None = None, shard: str | None = None,
                    suite_marks: dict[str, str] | None = None,
                    documents: DocumentProcess | None = None) -> list[RunRecord]:
    """Ask every case, `plan.workers` at a time; append each record to `writer` as it finishes.

    `local` (an Executor) runs each call's local work; None: threads. `documents` reads an agent
    reader's documents; None: threads. `suite_marks` (`core.suite.run_marks`) go into every
    record's `extra`: where the suite is, and its hash."""
    calls = asyncio.Semaphore(plan.workers)
    # Documents are read and prepared up to `workers` calls ahead of the calls in flight.
    ahead = asyncio.Semaphore(2 * plan.workers)
    write_lock = asyncio.Lock()
    out: list[RunRecord] = []
    limits = httpx.Limits(max_connections=plan.workers + 2, max_keepalive_connections=plan.workers + 2)

    url = "" if plan.reader.is_probe else config.base_url(plan.reader.inner.provider, plan.base_url)
    # TLS settings matter only for https; building the default context costs ~30 ms.
    async with httpx.AsyncClient(limits=limits, verify=not url.startswith("http://")) as client:
        ready: list[RunRecord] = []   # records waiting to be written
        made = written = 0             # records made ready, and written, since the run began
        failed: list[BaseException] = []

        async def save(rec: RunRecord) -> None:
            """Append `rec` to the run file and sync it, in a thread (a write beside a sync of the
            same file can wait for the disk). One write at a time: the records made ready while
            one is written go together in the next, with one sync (each still counts as done
            only once on disk, as when each had a sync of its own)."""
            nonlocal made, written
            ready.append(rec)
            made += 1
            mine = made
            async with write_lock:
                if written >= mine:
                    return
                if failed:   # this record's write failed (and the run stops)
                    raise failed[0]
                batch = ready[:]
                ready.clear()
                try:
                    await asyncio.to_thread(writer.append, *batch)
                except BaseException as exc:
                    failed.append(exc)
                    raise
                written += len(batch)

        async def one(case: Case) -> None:
            async with ahead:
                try:
                    facts = None
                    if plan.reader.is_agent:
                        await asyncio.to_thread(case.recorded_pdf_bytes)   # (the file the case records)
                        facts = await _read_document(case, plan, documents)
                        pdf = facts.pdf
                    else:
                        pdf = await asyncio.to_thread(_read_pdf, case, plan.password)
                    rec = await read(case, pdf, plan.reader, plan.modality, plan.dpi, plan.prompt,
                                     plan.options, plan.cache, client=client, base_url=plan.base_url,
                                     policy=plan.policy, gate=calls, local=local, facts=facts)
                except UserError as exc:  # a broken or missing PDF: recorded, the run goes on
                    rec = _bad_input_record(case, plan, str(exc))
                finally:
                    _let_go(facts)
                rec.suite, rec.run_id, rec.shard = suite_name, run_id, shard
                rec.extra.update(suite_marks or {})
            await save(rec)
            out.append(rec)
            if (rec.error or {}).get("type") == "connect" and not any(r.status == "ok" for r in out):
                # Nobody is listening: every other call would fail the same way.
                raise UserError(f"{(rec.error or {}).get('message')}; is the server running? "
                                f"Check --base-url, then run again with --resume: it keeps the "
                                f"calls recorded in {writer.path} and asks again those that could "
                                "not connect")
            progress.done += 1
            if rec.status in ("error", "timeout"):
                progress.errors += 1
            if rec.usage and not rec.extra.get("cached"):
                progress.tokens += int(rec.usage.get("total_tokens") or 0)
            if on_progress:
                on_progress(progress)

        tasks = [asyncio.ensure_future(one(c)) for c in cases]
        try:
            await asyncio.gather(*tasks)
        finally:
            for t in tasks:
                t.cancel()
    return out


def _read_pdf(case: Case, password: str | None = None) -> bytes:
    return read_case_pdf(case, password)


async def _read_document(case: Case, plan: RunPlan, documents: DocumentProcess | None) -> DocumentFacts:
    """An agent reader's case: its PDF and page sizes (`agent.tools.read_document`), then its texts
    (`read_texts`), read in the run's documents process, where they hold no GIL that the other
    cases' answers wait for. The texts are read while the model answers the first turn
    (`agent.loop.run_agent` waits for them at page_text): read with the PDF, pypdf's 5 ms a case
    held back the run's first calls, one case after another. In a thread where there is no such
    process, or it is gone."""
    args = (case.pdf_file, plan.password)
    if documents is not None:
        with contextlib.suppress(BrokenExecutor):
            facts, texts = documents.read(*args, str(plan.options.get("extractor", DEFAULT_EXTRACTOR)))
            return DocumentFacts((got := await facts).pdf, got.page_sizes_pt, texts)
    return await asyncio.to_thread(read_document, *args)


def _let_go(facts: DocumentFacts | None) -> None:
    """Cancel the texts a case did not wait for (the agent read no page's text, the answer was
    in the cache), or take their error, so that none is left unread."""
    texts = facts.texts if facts is not None else None
    if isinstance(texts, asyncio.Future) and not texts.cancel() and not texts.cancelled():
        texts.exception()


@dataclass
class RunOutcome:
    out: Path
    run_id: str
    records: list[RunRecord]      # every record in the run file for this reader, after the run
    ran: int
    skipped: int
    interrupted: bool = False


def run_suite(suite_path: Path, plan: RunPlan, out: Path, *, resume: bool = False,
              shard: str | None = None, retry_errors: bool = False,
              on_progress: Callable[[Progress], None] | None = None,
              run_id: str | None = None) -> RunOutcome:
    """Run a suite (or one shard of it) through a reader, writing records to `out`.

    The run file's lock is held from the first look at `out` to the last record, so a second run
    into the same file is refused at once (it would ask every case again) instead of doubling it.
    Records carry `shard` and `run_id` (given, else the resumed file's, else `run_identity`)."""
    suite = load_suite(suite_path)
    check_plan(plan)
    cases = shard_items(list(suite.cases), shard)
    if plan.reader.is_agent:
        check_schemas(cases)   # before any call: the agent's submissions could not be checked
    ident = RunIdentity.of(shard, run_id, suite)
    out = Path(out)
    if retry_errors and not resume:
        raise UserError("--retry-errors goes with --resume (it retries the failed calls of a run file)")
    with atomic.file_lock(atomic.lock_path_for(out), f"run file {out}", timeout_s=0):
        return _run_locked(suite, cases, plan, out, resume, retry_errors, on_progress, ident)


@dataclass
class RunIdentity:
    """What every record of a run carries to say which run and shard it is: the `shard` ("i/n") and
    the run id (`--run-id`, else the one in the file being resumed, else `run_identity`'s)."""

    shard: str | None
    run_id: str | None
    suite: Suite

    @classmethod
    def of(cls, shard: str | None, run_id: str | None, suite: Suite) -> RunIdentity:
        return cls(str(Shard.parse(shard)) if shard else None, run_id, suite)

    def resolve(self, plan: RunPlan, out: Path, recorded: str | None) -> str:
        """The run id for `out`, whose records so far carry `recorded` (None: a new file)."""
        if self.run_id and recorded and self.run_id != recorded:
            raise UserError(f"{out} holds run {recorded}, not {self.run_id}: resume it without --run-id, "
                            f"or write run {self.run_id} to another --out")
        return self.run_id or recorded or self.default_run_id(plan, out)

    def default_run_id(self, plan: RunPlan, out: Path) -> str:
        modality, dpi = effective_modality(plan)
        parts = {"suite": content_hash(self.suite), "reader": str(plan.reader), "modality": modality,
                 "dpi": dpi, "prompt": plan.prompt, "options": plan.options}
        return run_identity(parts, out.parent, (c.id for c in self.suite.cases))


def _run_locked(suite: Suite, cases: list[Case], plan: RunPlan, out: Path, resume: bool, retry_errors: bool,
                on_progress: Callable[[Progress], None] | None, ident: RunIdentity | None = None) -> RunOutcome:
    ident = ident or RunIdentity(None, None, suite)
    done: dict[str, set[str | None]] = {}
    run_id = None
    if out.is_dir():
        raise UserError(f"--out {out}: is a folder; give a run file (.jsonl)")
    if out.exists() and out.stat().st_size > 0:
        if not resume:
            raise UserError(f"{out} exists: pass --resume to complete it, or choose another --out")
        drop_torn_tail(out)
        drop_failed(out, plan, only_unreached=not retry_errors)
        done, run_id = finished_cases(out, plan)
    run_id = ident.resolve(plan, out, run_id)
    todo = [c for c in cases if not is_finished(c, done)]
    progress = Progress(total=len(cases), skipped=len(cases) - len(todo))
    interrupted = False
    with RunWriter(out, lock=False) as writer, _local_pool(plan, len(todo)) as local, \
            _documents(plan, len(todo)) as documents:
        try:
            asyncio.run(run_cases(todo, plan, writer, progress, on_progress, suite.name, run_id, local,
                                  ident.shard, run_marks(suite, out), documents))
        except KeyboardInterrupt:
            interrupted = True
    modality, dpi = effective_modality(plan)
    ids = {c.id for c in cases}
    records = [r for r in iter_records(out) if r.reader == str(plan.reader) and r.modality == modality
               and r.dpi == dpi and r.case_id in ids]
    outcome = RunOutcome(out, run_id, records, progress.done, progress.skipped, interrupted)
    if interrupted:
        raise RunInterrupted(outcome)
    return outcome


@contextlib.contextmanager
def _local_pool(plan: RunPlan, todo: int) -> Iterator[Executor | None]:
    """A process pool of `plan.jobs` for the run's local work, started before the event loop's
    threads exist; None (threads) for one job or nothing to do, and for an agent reader, whose
    local work is its documents (`_documents`)."""
    jobs = min(resolve_jobs(plan.jobs), todo)
    if jobs <= 1 or plan.reader.is_agent:
        yield None
        return
    pool = process_pool(jobs)
    pool.submit(int).result()  # start the workers now, from this one thread
    try:
        yield pool
    finally:
        pool.shutdown(cancel_futures=True)


@contextlib.contextmanager
def _documents(plan: RunPlan, todo: int) -> Iterator[DocumentProcess | None]:
    """An agent run's documents process (`agent.documents`), started before the event loop's
    threads exist and not waited for; None (threads) for another reader, nothing to do, or where
    no process can be started."""
    if not plan.reader.is_agent or not todo:
        yield None
        return
    try:
        documents = DocumentProcess()
    except (OSError, RuntimeError, ValueError):
        yield None
        return
    try:
        yield documents
    finally:
        documents.close()


class RunInterrupted(Exception):
    """Ctrl-C during a run: the records written so far are kept."""

    def __init__(self, outcome: RunOutcome) -> None:
        super().__init__("interrupted")
        self.outcome = outcome

