"""`run --batch`: the run's pending calls prepared (the live request bodies), split by each
service's limits into batches, written to the state file as the intent, then submitted."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

from workbench.build.shards import shard_items
from workbench.core.case import Case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.prompt import default_prompt
from workbench.core.runs import RunRecord, RunWriter, utc_now
from workbench.core.suite import load_suite, run_marks
from workbench.pdf.document import read_case_pdf
from workbench.providers import config
from workbench.providers.adapters import adapter
from workbench.providers.base import ReaderOptions, ReaderSpec
from workbench.providers.batch.job import (
    PROTOCOLS,
    BatchOutcome,
    BatchRun,
    encode_line,
    run_lock,
    run_records,
)
from workbench.providers.batch.state import (
    BatchRequest,
    BatchState,
    Entry,
    load_state,
    save_state,
    state_path,
)
from workbench.providers.cache import AnswerCache, cache_key
from workbench.providers.reading import cache_options, from_cache, prepare_parts, read_request
from workbench.providers.running import (
    RunIdentity,
    RunPlan,
    check_plan,
    drop_failed,
    drop_torn_tail,
    effective_modality,
    finished_cases,
    is_finished,
)

BATCH_PROVIDERS = ("openai", "anthropic", "google")
# Per batch: most requests and bytes each service takes (OpenAI: 50,000 lines and 200 MB of file;
# Anthropic: 100,000 requests and 256 MB; Gemini: inlined requests up to 20 MB), with headroom.
LIMITS = {"openai": (50_000, 190 * 2**20), "anthropic": (100_000, 240 * 2**20),
          "google": (50_000, 19 * 2**20)}
# Request lines built while preparing are kept to send, up to this many bytes (beyond it they are
# built again when sent, so memory stays bounded for a suite of any size).
PREPARED_BYTES = 512 * 2**20


def check_provider(reader: ReaderSpec) -> None:
    if reader.provider not in BATCH_PROVIDERS:
        what = "a probe" if reader.is_probe else reader.provider
        raise UserError(f"--batch: {what} has no batch service; readers with one: "
                        f"{', '.join(p + ':MODEL' for p in BATCH_PROVIDERS)}")


def prepare(state: BatchState, cases: list[Case], plan: RunPlan, key: str | None, password: str | None = None,
            store: AnswerCache | None = None) -> tuple[list[Entry], dict[str, list[bytes]], list[RunRecord]]:
    """Entries for `cases`, split by each service's limits (the bodies are built to measure them);
    the request lines built, by intent, to send as they are (up to PREPARED_BYTES of them; the
    rest, and any after a restart, are built again from the state); and, with an answer cache
    `store`, the records of the cases it already answers (as a live run would take them)."""
    spec = state.spec
    mod = adapter(spec.provider)
    proto = PROTOCOLS[spec.provider]
    most, most_bytes = LIMITS[spec.provider]
    entries: list[Entry] = []
    prepared: dict[str, list[bytes]] = {}
    hits: list[RunRecord] = []
    kept = 0
    current: dict[str, BatchRequest] = {}
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
        pdf = read_case_pdf(case, password)
        prompt = plan.prompt or default_prompt(case)
        ckey = cache_key(sha256_hex(pdf), state.reader, state.modality, state.dpi, prompt,
                         cache_options(case, mod, state.options), state.base_url) if store else None
        hit = store.get(ckey) if store else None
        if hit:
            rec = from_cache(hit, case, prompt, utc_now())
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
        current[cid] = BatchRequest(case.id, sha256_hex(pdf), case.key_sha256(), prompt, case.trap_family,
                                    mod.structured if req.schema is not None else None, ckey)
        size += len(line)
    if current:
        close_entry()
    return entries, prepared, hits


def submit_or_advance(suite_path: Path, plan: RunPlan, out: Path, *, shard: str | None = None,
                      retry_errors: bool = False, on_step: Callable[[str], None] | None = None,
                      run_id: str | None = None) -> BatchOutcome:
    """`run --batch`: advance the run's open batches (submit, poll, collect); when none is open,
    submit the cases that have no record yet as new batches, and return. `retry_errors` first
    drops this reader's error and timeout records (expired requests among them) so they go again."""
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
                                   run_id=ident.resolve(plan, out, run_id), options=ReaderOptions(**plan.options),
                                   shard=ident.shard)
            if not todo:
                return BatchOutcome(state, out, records=run_records(out, state, {c.id for c in cases}))
            state.base_url, state.options, state.cache = url, ReaderOptions(**plan.options), bool(plan.cache)
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
                                    records=run_records(out, state, {c.id for c in cases}))
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
            outcome.records = run_records(out, state, {c.id for c in cases})
        return outcome
