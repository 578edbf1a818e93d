"""Import runs made elsewhere as run records with provenance `imported`: a pdfhell run JSON, an
Inspect AI eval log, or a JSON Lines file of predictions (the last two from `pdfworkbench export`).

pdfhell writes one JSON object per run: `model` (`provider:model`), `suite`, `suite_version`,
`suite_hash`, `modality` (`pdf` or `pixels`), `raster_dpi`, `pdfium_build`, its own scores, and
`cases`: one entry per case with `case_id`, `trap_family`, `model_output`, `expected`, `correct`,
`fell_for_trap`, `refused`, `matched_forbidden`, `failure_mode` and (newer runs) `api_error`.

Each case entry becomes one record. The answer is `model_output`; a provider error (`api_error`,
or an output starting with `[error]`, which older pdfhell runs wrote instead) becomes status
`error` with no answer, so it is never graded as wrong. pdfhell's own verdict is kept in
`extra["pdfhell"]` for comparison but never used as truth: scores are derived again from the keys.
With a suite folder, each record also carries the case's PDF and key hashes, the question, and
`extra["suite_dir"]`, which `pdfworkbench report` uses to find the answer keys.
"""

from __future__ import annotations

import json
import os
import re
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

from workbench.core import atomic, files, limits
from workbench.core.case import Case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.files import FileRefused
from workbench.core.runs import MODALITIES, RECORD_FORMAT, RunRecord
from workbench.core.schema import JSONObject, parse_json

_ERROR_RE = re.compile(r"^\[error\]\s*(?:(?P<type>[A-Za-z_][\w.]*)\s*:\s*)?(?P<message>.*)$", re.S)


def read_pdfhell_run(path: Path) -> JSONObject:
    path = Path(path)
    raw = files.read_json(path, "pdfhell run JSON", "run_file_bytes")
    if not isinstance(raw, dict) or not isinstance(raw.get("cases"), list):
        raise UserError(f"{path}: not a pdfhell run JSON (expected an object with a 'cases' list)")
    for i, c in enumerate(raw["cases"]):
        if not isinstance(c, dict) or "case_id" not in c:
            raise UserError(f"{path}: cases[{i}] has no case_id; is this a pdfhell run JSON?")
    return raw


def pdfhell_records(
    raw: JSONObject, source: str, cases_by_id: dict[str, Case] | None = None,
    suite_dir: str | None = None,
) -> list[RunRecord]:
    """Records for one pdfhell run, in the run's case order; `suite_dir` as the run file names its
    suite (`workbench.core.layout.named_suite_dir`)."""
    cases_by_id = cases_by_id or {}
    reader = str(raw.get("model") or "pdfhell:unknown")
    if ":" not in reader:
        reader = f"pdfhell:{reader}"
    modality = "pixels" if raw.get("modality") == "pixels" else "pdf"
    dpi = raw.get("raster_dpi") if modality == "pixels" else None
    run_id = "pdfhell-" + sha256_hex(json.dumps(raw, sort_keys=True).encode("utf-8"))[:12]
    shared = {k: raw[k] for k in ("suite_version", "suite_hash", "pdfium_build") if raw.get(k)}
    out = []
    for c in raw["cases"]:
        cid = str(c["case_id"])
        case = cases_by_id.get(cid)
        output = c.get("model_output")
        output = "" if output is None else str(output)
        err_match = _ERROR_RE.match(output.strip())
        failed = bool(c.get("api_error")) or err_match is not None
        error = None
        if failed:
            kind = (err_match["type"] if err_match and err_match["type"] else "ProviderError")
            message = err_match["message"].strip() if err_match else output.strip()
            error = {"type": kind, "message": message or "provider call failed", "http_status": None}
        extra: JSONObject = {
            "source": source,
            "pdfhell": {k: c.get(k) for k in ("correct", "fell_for_trap", "refused", "matched_forbidden",
                                               "expected", "api_error") if k in c},
            **shared,
        }
        if suite_dir is not None:
            extra["suite_dir"] = suite_dir
        out.append(RunRecord(
            case_id=cid,
            case_sha256=case.sha256 if case else None,
            key_sha256=case.key_sha256() if case else None,
            reader=reader,
            modality=modality,
            dpi=int(dpi) if isinstance(dpi, int | float) else None,
            prompt=case.question if case else "",
            answer=None if failed else output,
            status="error" if failed else "ok",
            error=error,
            finish_reason=None,
            latency_ms=None,
            attempts=1,
            usage=None,
            provenance="imported",
            trap_family=str(c.get("trap_family") or (case.trap_family if case else "")) or None,
            suite=str(raw.get("suite")) if raw.get("suite") else None,
            run_id=run_id,
            extra=extra,
        ))
    return out


def write_records(records: list[RunRecord], path: Path) -> None:
    text = "".join(json.dumps(r.to_json(), ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    atomic.write_bytes(Path(path), text.encode("utf-8"))


# ---- Inspect AI eval logs and JSON Lines predictions -----------------------------------------
# Both come back from a suite written by `pdfworkbench export` (export.py): Inspect's
# samples carry the case id and the hashes of the PDF and key they were asked about in their
# metadata; a predictions file names each case by `id`. Every record is provenance `imported`,
# graded again from the answer keys when read (Inspect's own score is kept in extra for reference).

INSPECT_SOURCE = "inspect"
PREDICTIONS_SOURCE = "jsonl"
OLMOCR_SOURCE = "olmocr-bench"
# olmOCR-bench's runners write one markdown file per PDF page and repeat (`export --to olmocr-bench`
# names each PDF CASE-pN.pdf under pdfs/FAMILY/).
OLMOCR_MD = re.compile(r"^(?P<case>.+)-p(?P<part>\d+)_pg(?P<page>\d+)_repeat(?P<repeat>\d+)\.md$")
_ANSWER_KEYS = ("prediction", "answer", "output", "completion", "response")


def _read_json(path: Path, what: str) -> Any:
    try:
        return files.read_json(path, "JSON file", "eval_log_bytes")
    except FileRefused:
        raise
    except UserError as exc:
        raise UserError(f"{exc}; is this {what}?") from None


_PIECE = 1 << 20


def _read_eval(path: Path) -> JSONObject:
    """An Inspect `.eval` log (a zip of `header.json` and `samples/*.json`) as one log object.
    Read within bounds: the zip itself, its member count, and every member's bytes as they are
    inflated, so a zip bomb stops at the cap instead of filling memory."""
    cap, members = int(limits.get("eval_log_bytes")), int(limits.get("eval_log_members"))
    fd = files.open_regular(path, "Inspect .eval log")
    with os.fdopen(fd, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > cap:
            raise FileRefused(limits.exceeded("eval_log_bytes", f"{path}: {size:,} bytes is too large "
                                                                "for an Inspect .eval log"))
        try:
            with zipfile.ZipFile(fh) as z:
                infos = z.infolist()
                if len(infos) > members:
                    raise FileRefused(limits.exceeded("eval_log_members", f"{path}: {len(infos):,} files "
                                                                          "in an Inspect .eval log"))
                names = sorted(i.filename for i in infos if i.filename.startswith("samples/")
                               and i.filename.endswith(".json"))
                left = cap

                def member(name: str, what: str = "sample of an Inspect log") -> Any:
                    nonlocal left
                    data = bytearray()
                    with z.open(name) as m:  # in pieces: one read(n) holds n twice while it joins
                        while len(data) <= left and (piece := m.read(min(_PIECE, left + 1 - len(data)))):
                            data += piece
                    left -= len(data)
                    if left < 0:
                        raise FileRefused(limits.exceeded(
                            "eval_log_bytes", f"{path}: more than {cap:,} bytes inflated from an Inspect .eval log"))
                    return parse_json(bytes(data), f"{path}: {name}", what)

                header = member("header.json", "header of an Inspect log")
                samples = [member(n) for n in names]
        # What zipfile raises on a damaged or hostile zip (a truncated one: struct.error; a
        # flipped flag: "encrypted", a RuntimeError; an unknown method: NotImplementedError).
        except (KeyError, zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, ValueError,
                OSError, zlib.error, struct.error, RuntimeError, OverflowError) as exc:
            raise UserError(f"{path}: not a readable Inspect .eval log ({exc.__class__.__name__}: "
                            f"{str(exc)[:100]})") from None
    if not isinstance(header, dict):
        raise UserError(f"{path}: header.json is not an object; is this an Inspect .eval log?")
    return {**header, "samples": samples}


def detect_format(path: Path) -> str:
    """`pdfhell`, `inspect` or `jsonl`, from the file (never from a guess about its name alone)."""
    path = Path(path)
    if path.is_dir():
        if any(OLMOCR_MD.match(p.name) for p in path.rglob("*.md")):
            return OLMOCR_SOURCE
        raise UserError(f"{path}: a folder, but no olmOCR-bench candidate outputs in it "
                        "(files named CASE-pN_pg1_repeatR.md); give a run file or that folder")
    if path.suffix == ".eval":
        return INSPECT_SOURCE
    if path.suffix == ".jsonl":
        return PREDICTIONS_SOURCE
    raw = _read_json(path, "a pdfhell run JSON or an Inspect eval log")
    if isinstance(raw, dict) and "eval" in raw and "samples" in raw:
        return INSPECT_SOURCE
    return "pdfhell"


def read_inspect_log(path: Path) -> JSONObject:
    """An Inspect eval log as `{"eval": ..., "samples": [...]}`: a `.json` log, or a `.eval` one
    (a zip of `header.json` and `samples/*.json`)."""
    path = Path(path)
    if path.suffix == ".eval":
        raw: Any = _read_eval(path)
    else:
        raw = _read_json(path, "an Inspect eval log")
    if not isinstance(raw, dict) or not isinstance(raw.get("eval"), dict) or not isinstance(raw.get("samples"), list):
        raise UserError(f"{path}: not an Inspect eval log with samples (log it with --log-format json, "
                        "and not --no-log-samples)")
    for i, s in enumerate(raw["samples"]):
        if not isinstance(s, dict) or "id" not in s:
            raise UserError(f"{path}: samples[{i}] has no id; is this an Inspect eval log?")
    return raw


def _prompt_of(sample: JSONObject) -> str:
    given = sample.get("input")
    if isinstance(given, str):
        return given
    texts = [c.get("text", "") for m in given or [] if isinstance(m, dict)
             for c in (m.get("content") if isinstance(m.get("content"), list) else [])
             if isinstance(c, dict) and c.get("type") == "text"]
    return "\n".join(t for t in texts if t)


def _usage(raw: Any) -> JSONObject | None:
    if not isinstance(raw, dict):
        return None
    names = {"input_tokens": "input_tokens", "output_tokens": "output_tokens", "total_tokens": "total_tokens",
             "input_tokens_cache_read": "cache_read_tokens", "input_tokens_cache_write": "cache_creation_tokens",
             "reasoning_tokens": "reasoning_tokens"}
    return {ours: raw[theirs] for theirs, ours in names.items() if isinstance(raw.get(theirs), int)} or None


def _timestamp(text: Any) -> str | None:
    return str(text)[:19] + "Z" if isinstance(text, str) and len(text) >= 19 else None


def inspect_records(raw: JSONObject, source: str, cases_by_id: dict[str, Case] | None = None,
                    suite_dir: str | None = None) -> list[RunRecord]:
    """One record per sample (per epoch) of an Inspect eval log, in the log's order."""
    cases_by_id = cases_by_id or {}
    ev = raw["eval"]
    model = str(ev.get("model") or "inspect/unknown")
    reader = model.replace("/", ":", 1) if "/" in model else f"inspect:{model}"
    run_id = "inspect-" + str(ev.get("run_id") or ev.get("eval_id") or sha256_hex(source.encode())[:12])
    out = []
    for s in raw["samples"]:
        meta = s.get("metadata") if isinstance(s.get("metadata"), dict) else {}
        cid = str(meta.get("case_id") or s["id"])
        case = cases_by_id.get(cid)
        output = s.get("output") if isinstance(s.get("output"), dict) else {}
        choices = output.get("choices") or [{}]
        error = s.get("error")
        answer = output.get("completion")
        failed = bool(error) or answer is None
        scores = s.get("scores") if isinstance(s.get("scores"), dict) else {}
        extra: JSONObject = {
            "source": source,
            "inspect": {"task": ev.get("task"), "eval_id": ev.get("eval_id"), "epoch": s.get("epoch"),
                        "scores": {k: v.get("value") for k, v in scores.items() if isinstance(v, dict)}},
        }
        if meta.get("suite_hash"):
            extra["suite_hash"] = meta["suite_hash"]
        if suite_dir is not None:
            extra["suite_dir"] = suite_dir
        message = (error.get("message") if isinstance(error, dict) else str(error or "")) or "no answer in the log"
        total = s.get("total_time")
        out.append(RunRecord(
            case_id=cid,
            case_sha256=meta.get("pdf_sha256") or (case.sha256 if case else None),
            key_sha256=meta.get("key_sha256") or (case.key_sha256() if case else None),
            reader=reader, modality="pdf", dpi=None, prompt=_prompt_of(s),
            answer=None if failed else str(answer),
            status="error" if failed else "ok",
            error={"type": "harness", "message": message[:2000], "http_status": None} if failed else None,
            finish_reason=(choices[0] or {}).get("stop_reason") if isinstance(choices[0], dict) else None,
            latency_ms=round(float(total) * 1000, 3) if isinstance(total, int | float) else None,
            attempts=1, usage=_usage(output.get("usage")), provenance="imported",
            started_at=_timestamp(s.get("started_at")),
            trap_family=meta.get("trap_family") or (case.trap_family if case else None),
            suite=meta.get("suite"), run_id=run_id, extra=extra,
        ))
    return out


def read_predictions(path: Path) -> list[JSONObject]:
    """A JSON Lines file of predictions: one object a line with `id` (or `case_id`) and the answer
    as `prediction` (or answer, output, completion, response); optional `error` and `model`."""
    path = Path(path)
    lines, _ = files.read_lines(path, "predictions file", "run_file_bytes")
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = parse_json(line, f"{path}:{n}", "prediction")
        except UserError as exc:
            raise UserError(f"{exc}; a predictions file has one JSON object a line") from None
        if isinstance(row, dict) and row.get("format") == RECORD_FORMAT:
            raise UserError(f"{path}: is a pdfworkbench run file already; give it to report or regrade as it is")
        if not isinstance(row, dict) or not isinstance(row.get("id", row.get("case_id")), str | int):
            raise UserError(f"{path}:{n}: no id; each line needs an id and a prediction")
        if not any(k in row for k in _ANSWER_KEYS) and not row.get("error"):
            raise UserError(f"{path}:{n}: no prediction; give it as one of {', '.join(_ANSWER_KEYS)}")
        rows.append(row)
    if not rows:
        raise UserError(f"{path}: holds no predictions")
    return rows


def prediction_records(rows: list[JSONObject], source: str, reader: str | None,
                       cases_by_id: dict[str, Case] | None = None, suite_dir: str | None = None) -> list[RunRecord]:
    cases_by_id = cases_by_id or {}
    run_id = "jsonl-" + sha256_hex(json.dumps(rows, sort_keys=True, default=str).encode())[:12]
    out = []
    for row in rows:
        cid = str(row.get("id", row.get("case_id")))
        case = cases_by_id.get(cid)
        answer = next((row[k] for k in _ANSWER_KEYS if k in row), None)
        failed = bool(row.get("error")) or answer is None
        who = reader or str(row.get("model") or "jsonl:unknown")
        extra: JSONObject = {"source": source}
        if suite_dir is not None:
            extra["suite_dir"] = suite_dir
        out.append(RunRecord(
            case_id=cid, case_sha256=row.get("pdf_sha256") or (case.sha256 if case else None),
            key_sha256=row.get("key_sha256") or (case.key_sha256() if case else None),
            reader=who if ":" in who else f"jsonl:{who}",
            modality=row["modality"] if row.get("modality") in MODALITIES else "pdf",
            dpi=None, prompt=str(row.get("prompt") or (case.question if case else "")),
            answer=None if failed else str(answer), status="error" if failed else "ok",
            error={"type": "harness", "message": str(row.get("error"))[:2000], "http_status": None} if failed else None,
            provenance="imported", trap_family=case.trap_family if case else None,
            run_id=run_id, extra=extra,
        ))
    return out


def olmocr_records(folder: Path, reader: str, cases_by_id: dict[str, Case] | None = None,
                   suite_dir: str | None = None) -> list[RunRecord]:
    """One record per case and repeat from a folder of olmOCR-bench candidate outputs: the
    case's single-page outputs in page order, joined by form feeds, as the answer."""
    cases_by_id = cases_by_id or {}
    found: dict[tuple[str, int], dict[int, str]] = {}
    for path in sorted(Path(folder).rglob("*.md")):
        m = OLMOCR_MD.match(path.name)
        if m is None:
            continue
        text = files.read_text(path, "candidate output", "run_file_bytes")
        found.setdefault((m["case"], int(m["repeat"])), {})[int(m["part"])] = text
    if not found:
        raise UserError(f"{folder}: no olmOCR-bench candidate outputs (CASE-pN_pg1_repeatR.md) in it")
    run_id = "olmocr-" + sha256_hex(json.dumps(sorted(found), default=str).encode() + reader.encode())[:12]
    out = []
    for (cid, repeat), parts in sorted(found.items()):
        case = cases_by_id.get(cid)
        extra: JSONObject = {"source": Path(folder).name, "repeat": repeat, "pages": sorted(parts)}
        if suite_dir is not None:
            extra["suite_dir"] = suite_dir
        out.append(RunRecord(
            case_id=cid, case_sha256=case.sha256 if case else None, key_sha256=case.key_sha256() if case else None,
            reader=reader, modality="pdf", dpi=None, prompt=case.question if case else "",
            answer="\f".join(parts[k] for k in sorted(parts)), status="ok", provenance="imported",
            trap_family=case.trap_family if case else None, run_id=run_id, extra=extra,
        ))
    return out
