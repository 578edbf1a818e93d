"""Import a pdfhell run JSON as run records with provenance `imported`.

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
import re
from pathlib import Path
from typing import Any

from workbench.core.case import Case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.runs import RunRecord

_ERROR_RE = re.compile(r"^\[error\]\s*(?:(?P<type>[A-Za-z_][\w.]*)\s*:\s*)?(?P<message>.*)$", re.S)


def read_pdfhell_run(path: Path) -> dict[str, Any]:
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read ({exc.__class__.__name__})") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: malformed JSON at line {exc.lineno}: {exc.msg}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cases"), list):
        raise UserError(f"{path}: not a pdfhell run JSON (expected an object with a 'cases' list)")
    for i, c in enumerate(raw["cases"]):
        if not isinstance(c, dict) or "case_id" not in c:
            raise UserError(f"{path}: cases[{i}] has no case_id; is this a pdfhell run JSON?")
    return raw


def pdfhell_records(
    raw: dict[str, Any], source: str, cases_by_id: dict[str, Case] | None = None,
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
        extra: dict[str, Any] = {
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
    from workbench.core import atomic

    text = "".join(json.dumps(r.to_json(), ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    atomic.write_bytes(Path(path), text.encode("utf-8"))
