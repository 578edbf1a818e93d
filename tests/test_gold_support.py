"""Shared helpers for the gold tests: a small real suite (built once, copied per test) and run records."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from workbench.core.case import Case
from workbench.core.runs import RunRecord, RunWriter

SPEC = """
name = "gold-test"

[[families]]
name = "invoice_extraction"
seeds = [1]
params = { trap = "direct_line" }

[[families]]
name = "hidden_ocr_mismatch"
seeds = [1]
"""
INVOICE = "invoice_extraction-0001-1adf03"
TOTAL = "hidden_ocr_mismatch-0001"
_BUILT: dict[str, Path] = {}


def suite_copy(tmp_path: Path) -> Path:
    """A fresh copy of the test suite in `tmp_path/suite` (built from the spec once per session)."""
    from workbench.core.suite import build_suite

    if "base" not in _BUILT:
        base = Path(tempfile.mkdtemp(prefix="gold-suite-"))
        (base / "spec.toml").write_text(SPEC)
        build_suite(base / "spec.toml", base / "suite")
        _BUILT["base"] = base / "suite"
    dest = tmp_path / "suite"
    shutil.copytree(_BUILT["base"], dest)
    return dest


def load(folder: Path, case_id: str) -> Case:
    from workbench.core.suite import load_suite

    return load_suite(folder).case(case_id)


def invoice_json(case: Case, **changes: object) -> str:
    """A model-style JSON answer for an invoice case, with some fields changed."""
    expected = json.loads(json.dumps(case.gold["expected"]))
    expected["invoice"].update(changes)
    return "```json\n" + json.dumps(expected, indent=2) + "\n```"


def record(case: Case, answer: str | None, status: str = "ok", reader: str = "test:model") -> RunRecord:
    return RunRecord(
        case_id=case.id, case_sha256=case.sha256, key_sha256=case.key_sha256(), reader=reader,
        modality="pdf", dpi=None, prompt=case.question, answer=answer, status=status,
        error={"type": "server_error", "message": "HTTP 500", "http_status": 500} if status == "error" else None,
        provenance="imported",
    )


def write_run(path: Path, records: list[RunRecord]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with RunWriter(path) as w:
        for r in records:
            w.append(r)
    return path
