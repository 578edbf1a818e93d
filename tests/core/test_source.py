"""A pdfhell folder (cases without suite.json) opens as a suite (`core.source`)."""

from __future__ import annotations

import json
import shutil

from workbench.build.make import generate_case

FAMILY = "hidden_ocr_mismatch"


def test_pdfhell_folder_opens_as_a_suite(tmp_path):
    from workbench.core.source import open_source

    case, pdf = generate_case(FAMILY, 3)
    raw = {k: case.to_json()[k] for k in ("id", "trap_family", "seed", "question", "expected_answer",
                                         "forbidden_answers", "pdf_path", "metadata")}
    (tmp_path / f"{case.id}.json").write_text(json.dumps(raw))
    (tmp_path / f"{case.id}.pdf").write_bytes(pdf)
    src = open_source(tmp_path)
    assert src.kind == "suite" and [c.id for c in src.cases] == [case.id]
    assert src.suite is not None and not src.suite.has_manifest
    shutil.rmtree(tmp_path)
