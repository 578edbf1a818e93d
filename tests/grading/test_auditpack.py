"""The audit pack (grading/auditpack.py): one zip with everything needed to check a run, the same
bytes when made twice."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

from tests.support.fixtures import mixed_run
from workbench.grading.auditpack import build_audit_pack
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
