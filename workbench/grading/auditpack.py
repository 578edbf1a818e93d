"""Audit pack: one zip with everything needed to check a run, byte-identical when made twice.

Contents: `cases/<id>.pdf` and `cases/<id>.json` (the PDFs and answer keys the records refer
to), `suite.json` when the suite has one, `records/<run>.jsonl`, `report.json`, `report.txt`,
`junit.xml`, `README.txt` and `manifest.json` (every other file's sha256, the suite hash, the
modalities and DPIs, the error rate). Entries are sorted, with a fixed timestamp (1980-01-01) and
fixed permissions (0644), so the same inputs give the same bytes.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench import __version__
from workbench.core import atomic, files
from workbench.core.case import Case, sha256_hex
from workbench.core.layout import file_stem
from workbench.grading.junit import junit_xml
from workbench.grading.report import Report, Stats
from workbench.grading.report_text import render_report_text

PACK_FORMAT = "pdfworkbench-auditpack/1"
_EPOCH = (1980, 1, 1, 0, 0, 0)

_README = """pdfworkbench audit pack

manifest.json   sha256 of every other file, the suite hash, modalities, DPIs and error rate
report.json     the report (scores derived from the records and the answer keys)
report.txt      the same report as text
junit.xml       the same verdicts as JUnit XML
records/        the run records, one JSON object per line, as the tool wrote or imported them
cases/          each case's PDF and its JSON (question, answer key, generator and parameters)
suite.json      the suite manifest, when the suite has one

Check a file: sha256sum cases/*.pdf and compare with manifest.json "files".
Regrade without calling a model: pdfworkbench report records/*.jsonl --suite cases
"""


def _records_jsonl(records: Sequence[Any]) -> bytes:
    lines = [json.dumps(r.to_json(), ensure_ascii=False, sort_keys=True) for r in records]
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


def _case_json(case: Case) -> bytes:
    if case.json_path is not None and Path(case.json_path).exists():
        return files.read_bytes(case.json_path, "case JSON", within=case.root)
    return atomic.dumps(case.to_json()).encode("utf-8")


def build_audit_pack(
    report: Report,
    records_by_run: Mapping[str, Sequence[Any]],
    cases_by_id: Mapping[str, Case],
    suite_json: bytes | None = None,
    suite_name: str | None = None,
) -> bytes:
    """The zip's bytes. Reads the cases' PDFs from disk (a UserError where one is not the file its
    case records: swapped or edited since the suite was made); writes nothing."""
    members: dict[str, bytes] = {}
    used = sorted({str(r.case_id) for recs in records_by_run.values() for r in recs} & set(cases_by_id))
    missing = []
    for cid in used:
        case = cases_by_id[cid]
        members[f"cases/{cid}.json"] = _case_json(case)
        if not case.pdf_file.exists():
            missing.append(cid)
            continue
        # Refused when it is not the PDF the case records: the pack would be the evidence that
        # the records' answers were about a document they were not about.
        members[f"cases/{cid}.pdf"] = case.recorded_pdf_bytes()
    if suite_json is not None:
        members["suite.json"] = suite_json
    seen: set[str] = set()
    for label, recs in records_by_run.items():
        name = file_stem(label)
        n = 2
        while name in seen:
            name, n = f"{file_stem(label)}-{n}", n + 1
        seen.add(name)
        members[f"records/{name}.jsonl"] = _records_jsonl(recs)
    members["report.json"] = atomic.dumps(report.to_json()).encode("utf-8")
    members["report.txt"] = render_report_text(report, max_rows=10_000).encode("utf-8")
    members["junit.xml"] = junit_xml(report)
    members["README.txt"] = _README.encode("utf-8")

    total = Stats("all")
    for run in report.runs:
        for row in run.rows:
            total.add(row)
    recorded_hash = None
    if suite_json is not None:
        try:
            recorded_hash = json.loads(suite_json).get("suite_hash")
        except (json.JSONDecodeError, AttributeError):
            recorded_hash = None
    manifest = {
        "format": PACK_FORMAT,
        "tool_version": __version__,
        # The suite's hash as the report gives it (`core.suite.content_hash`, the one suite hash).
        "suite": {"name": suite_name, "hash": (report.suite.hash if report.suite else None) or recorded_hash,
                  "recorded_hash": recorded_hash,
                  "cases": len(used)},
        "modality": sorted({m for run in report.runs for m in run.modalities}),
        "dpi": sorted({d for run in report.runs for d in run.dpis if d is not None}),
        "calls": total.calls,
        "error_rate": total.error_rate,
        "pass_rate": total.pass_rate,
        "runs": [{"label": run.label, "readers": run.readers, "modalities": run.modalities,
                  "dpis": run.dpis, "calls": run.overall.calls, "error_rate": run.overall.error_rate,
                  "pass_rate": run.overall.pass_rate} for run in report.runs],
        "missing_pdfs": missing,
        "files": {name: sha256_hex(data) for name, data in sorted(members.items())},
    }
    members["manifest.json"] = atomic.dumps(manifest).encode("utf-8")

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            zf.writestr(info, members[name], compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)
    return buf.getvalue()


def write_audit_pack(
    report: Report,
    records_by_run: Mapping[str, Sequence[Any]],
    cases_by_id: Mapping[str, Case],
    path: Path,
    suite_json: bytes | None = None,
    suite_name: str | None = None,
) -> str:
    """Write the pack atomically; return its sha256."""
    data = build_audit_pack(report, records_by_run, cases_by_id, suite_json, suite_name)
    atomic.write_bytes(Path(path), data)
    return sha256_hex(data)
