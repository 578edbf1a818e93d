"""A pdfhell folder (cases made elsewhere, no suite.json): verify checks what it can without
regenerating, and every command gives the folder one suite hash."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

from reportlab.pdfgen import canvas

from tests.support.fixtures import record, write_run
from workbench.core.suite import load_suite


def _pdf(text: str) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=True)
    c.drawString(72, 720, text)
    c.save()
    return buf.getvalue()


def pdfhell_folder(root: Path, sha256: dict[str, str] | None = None) -> Path:
    """Cases written as pdfhell writes them: id.pdf beside id.json with pdfhell's fields only
    (plus, where given, a sha256 as some exporters add)."""
    folder = root / "pdfhell-mini"
    folder.mkdir()
    for i, family in enumerate(("hidden_ocr_mismatch", "stamp_layer", "mirror_image_glyphs")):
        cid = f"{family}-{i:04d}"
        pdf = _pdf(f"Total due: ${1000 + i}.00")
        (folder / f"{cid}.pdf").write_bytes(pdf)
        case = {"id": cid, "trap_family": family, "seed": i, "question": "What is the total due?",
                "expected_answer": f"${1000 + i}.00", "forbidden_answers": ["$9.99"], "expected_tokens": [],
                "pdf_path": f"pdfhell/cases/{cid}.pdf", "metadata": {"difficulty": "easy"}}
        if sha256 and cid in sha256:
            case["sha256"] = sha256[cid] or hashlib.sha256(pdf).hexdigest()
        (folder / f"{cid}.json").write_text(json.dumps(case))
    return folder


def test_verify_checks_foreign_cases_by_their_recorded_hash_not_by_regenerating(cli, tmp_path):
    folder = pdfhell_folder(tmp_path, sha256={"hidden_ocr_mismatch-0000": ""})
    code, out, _ = cli("verify", folder, "--jobs", "1")
    assert code == 0, out
    assert "unknown family" not in out and "0 of" not in out
    assert ("3 case(s) not made by pdfworkbench's generators cannot be regenerated; checked their PDF bytes "
            "against the sha256 they record instead: 1 match, 0 differ, 2 with no recorded hash") in out
    code, out, _ = cli("verify", folder, "--json", "--jobs", "1")
    hows = {c["case_id"]: c["how"] for c in json.loads(out)["cases"]}
    assert hows["hidden_ocr_mismatch-0000"] == "recorded hash" and hows["stamp_layer-0001"] == "no recorded hash"


def test_a_foreign_pdf_that_differs_from_its_recorded_hash_is_a_mismatch(cli, tmp_path):
    folder = pdfhell_folder(tmp_path, sha256={"stamp_layer-0001": "0" * 64})
    code, out, _ = cli("verify", folder, "--jobs", "1")
    assert code == 1
    assert "MISMATCH stamp_layer-0001: PDF does not match the sha256 its JSON records" in out
    assert "0 match, 1 differ, 2 with no recorded hash" in out


def test_one_folder_one_suite_hash_from_every_command(cli, tmp_path):
    folder = pdfhell_folder(tmp_path)
    code, out, _ = cli("verify", folder, "--json", "--jobs", "1")
    verified = json.loads(out)["suite_hash"]
    code, out, _ = cli("export", folder, "--to", "jsonl", "--out", tmp_path / "hf", "--json")
    exported = json.loads(out)["suite_hash"]
    cases = load_suite(folder).cases
    run = write_run(folder / "runs" / "r.jsonl", [record(c, c.expected_answer) for c in cases])
    pack = tmp_path / "pack.zip"
    code, out, _ = cli("report", run, "--json", "--audit-pack", pack)
    reported = json.loads(out)["suite"]["hash"]
    packed = json.loads(zipfile.ZipFile(pack).read("manifest.json"))["suite"]["hash"]
    assert verified == exported == reported == packed
    # and it is the content's: a changed PDF changes it
    (folder / f"{cases[0].id}.pdf").write_bytes(_pdf("Total due: $1.00"))
    code, out, _ = cli("verify", folder, "--json", "--jobs", "1")
    assert json.loads(out)["suite_hash"] != verified
