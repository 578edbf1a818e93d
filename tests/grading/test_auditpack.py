"""The audit pack (grading/auditpack.py): one zip with everything needed to check a run, the same
bytes when made twice."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile

import pytest

from tests.support.fixtures import graded_record, mixed_run
from workbench.core.errors import UserError
from workbench.core.suite import load_suite
from workbench.grading.auditpack import build_audit_pack, write_audit_pack
from workbench.grading.report import build_report


def test_audit_pack_is_byte_identical_and_complete(graded_suite, tmp_path):
    folder, cases = graded_suite
    runs = {"mixed": mixed_run(cases)}
    by_id = {c.id: c for c in cases}
    first = build_audit_pack(build_report(runs, by_id), runs, by_id, (folder / "suite.json").read_bytes(), "s")
    second = build_audit_pack(build_report(runs, by_id), runs, by_id, (folder / "suite.json").read_bytes(), "s")
    assert first == second
    zf = zipfile.ZipFile(io.BytesIO(first))
    names = zf.namelist()
    assert names == sorted(names)
    assert {f"cases/{c.id}.pdf" for c in cases} <= set(names)
    assert {"manifest.json", "report.json", "junit.xml", "records/mixed.jsonl", "suite.json"} <= set(names)
    manifest = json.loads(zf.read("manifest.json"))
    for name, digest in manifest["files"].items():
        assert hashlib.sha256(zf.read(name)).hexdigest() == digest
    assert set(manifest["files"]) == set(names) - {"manifest.json"}
    assert manifest["suite"]["hash"] == manifest["suite"]["recorded_hash"]
    assert (manifest["modality"], manifest["dpi"], manifest["error_rate"]) == (["pixels"], [150], 0.25)
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) and i.external_attr >> 16 == 0o100644 for i in zf.infolist())


def test_runs_of_one_name_keep_apart_a_missing_pdf_is_named_and_the_pack_is_written_whole(graded_suite, tmp_path):
    folder, cases = graded_suite
    by_id = {c.id: c for c in cases}
    runs = {"gpt 4o/pixels": mixed_run(cases)[:2], "gpt_4o_pixels": mixed_run(cases)[2:3],
            # a run's label is anyone's: no hidden member (`.x`), none past a file name's length
            "..hidden": mixed_run(cases)[3:4], "r" * 300: mixed_run(cases)[3:4]}
    gone = cases[0].__class__.from_json({**cases[0].to_json(), "id": "gone", "pdf_path": "gone.pdf"})
    gone.json_path = folder / "gone.json"   # (never written: the pack reads its JSON from the case)
    by_id["gone"] = gone
    runs["gpt 4o/pixels"].append(graded_record(gone, answer="x"))
    path = tmp_path / "pack" / "audit.zip"
    digest = write_audit_pack(build_report(runs, by_id), runs, by_id, path, None, "s")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    zf = zipfile.ZipFile(path)
    names = zf.namelist()
    assert {"records/gpt_4o_pixels.jsonl", "records/gpt_4o_pixels-2.jsonl", "README.txt", "report.txt",
            "records/hidden.jsonl"} <= set(names)
    assert [len(n) for n in names if n.startswith("records/rrr")] == [len("records/") + 120 + len(".jsonl")]
    assert "cases/gone.json" in names and "cases/gone.pdf" not in names and "suite.json" not in names
    manifest = json.loads(zf.read("manifest.json"))
    assert manifest["missing_pdfs"] == ["gone"] and manifest["suite"]["recorded_hash"] is None
    assert zf.read("report.txt").decode().startswith("run gpt 4o/pixels")
    assert b"pdfworkbench report records/*.jsonl --suite cases" in zf.read("README.txt")
    assert [p.name for p in (tmp_path / "pack").iterdir()] == ["audit.zip"]   # written atomically: nothing else left


def test_a_pdf_swapped_since_the_suite_was_made_is_refused_and_no_pack_is_written(graded_suite, tmp_path):
    # The pack is the evidence of what the answers were about: with another PDF in the case's
    # place, it would hold a document the records never saw (it packed it, and the manifest
    # vouched for its hash).
    folder = tmp_path / "suite"
    shutil.copytree(graded_suite[0], folder)
    cases = load_suite(folder).cases
    swapped = cases[1].pdf_file
    swapped.write_bytes(cases[2].pdf_file.read_bytes())
    by_id = {c.id: c for c in cases}
    runs = {"mixed": mixed_run(cases)}
    out = tmp_path / "pack" / "audit.zip"
    with pytest.raises(UserError) as caught:
        write_audit_pack(build_report(runs, by_id), runs, by_id, out, None, "s")
    assert str(caught.value) == (f"{cases[1].id}: {swapped.name} is not the PDF its JSON records (its sha256 "
                                 "differs); run pdfworkbench verify")
    assert not out.exists()
