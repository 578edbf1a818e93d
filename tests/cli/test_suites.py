"""`build`, `merge-suite` and `verify` (workbench/cli/suites.py): a suite from a spec, its shards
merged, every case made again and compared; bad input is one line and writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import one_line_error
from tests.support.fixtures import reportlab_pages
from workbench.core.case import load_case

FAMILY = "hidden_ocr_mismatch"


def _build(cli, tmp_path: Path) -> Path:
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'name = "t"\nversion = "3"\n[[families]]\nname = "hidden_ocr_mismatch"\nseeds = "1..3"\n'
        '[[families]]\nname = "hidden_ocr_mismatch"\nseeds = [4]\nparams = { currency = "GBP" }\n'
    )
    out = tmp_path / "suite"
    code, stdout, err = cli("build", spec, "--out", out)
    assert code == 0, err
    assert "built 4 cases" in stdout
    return out


def test_build_writes_suite_json_with_content_hash(cli, tmp_path):
    out = _build(cli, tmp_path)
    manifest = json.loads((out / "suite.json").read_text())
    assert manifest["name"] == "t" and manifest["version"] == "3"
    assert len(manifest["cases"]) == 4
    assert len(manifest["suite_hash"]) == 64
    gbp = [c for c in manifest["cases"] if c["id"].startswith("hidden_ocr_mismatch-0004")]
    assert load_case(out / gbp[0]["json"]).params["currency"] == "GBP"


def test_verify_passes_then_catches_tampered_pdf_and_key(cli, tmp_path):
    out = _build(cli, tmp_path)
    code, stdout, _ = cli("verify", out, "--jobs", "1")
    assert code == 0
    digest = json.loads((out / "suite.json").read_text())["suite_hash"]
    assert f"suite hash {digest}" in stdout

    pdf = out / "hidden_ocr_mismatch-0002.pdf"
    data = bytearray(pdf.read_bytes())
    data[-40] ^= 1
    pdf.write_bytes(bytes(data))
    key = out / "hidden_ocr_mismatch-0003.json"
    raw = json.loads(key.read_text())
    raw["expected_answer"] = "$1.00"
    key.write_text(json.dumps(raw))
    code, stdout, _ = cli("verify", out, "--jobs", "1")
    assert code == 1
    assert "MISMATCH hidden_ocr_mismatch-0002: PDF bytes differ" in stdout
    assert "MISMATCH hidden_ocr_mismatch-0003: answer key differs in expected_answer" in stdout
    assert "suite hash" in stdout and digest not in stdout  # the content changed, so the hash did


def test_shipped_sample_suite_verifies(cli):
    root = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"
    code, stdout, _ = cli("verify", root, "--jobs", "1")
    assert code == 0, stdout


def test_build_errors(cli, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text("[[families]]\nname = 'nope'\nseeds = [1]\n")
    out = tmp_path / "suite"
    one_line_error(*cli("build", spec, "--out", out), "unknown family 'nope'")
    assert not out.exists()
    spec.write_text("this is = = not toml")
    one_line_error(*cli("build", spec, "--out", out), "malformed TOML")


def test_verify_of_a_folder_without_cases(cli, tmp_path):
    one_line_error(*cli("verify", tmp_path), "no cases found")
    # a folder of PDFs alone: the ways forward (open one, or adopt them)
    reportlab_pages(tmp_path / "a.pdf", 1)
    one_line_error(*cli("verify", tmp_path), f"its PDFs have no keys: open one (`pdfworkbench open {tmp_path / 'a.pdf'}`)")


TWO_SEEDS = 'name = "tiny"\n[[families]]\nname = "hidden_ocr_mismatch"\nseeds = [1, 2]\n'


def test_build_merge_suite_and_verify_json_and_their_bad_input(command, work):
    from tests.support.cli import printed_json, refused

    (work / "spec.toml").write_text(TWO_SEEDS)
    built = printed_json(command("build", "spec.toml", "--out", "whole", "--json"))
    assert built["cases"] == 2 and built["build"]["missing"] == []
    for i in (1, 2):
        printed_json(command("build", "spec.toml", "--out", "sharded", "--shard", f"{i}/2", "--json"))
    merged = printed_json(command("merge-suite", "sharded", "--json"))
    assert merged["suite_hash"] == built["suite_hash"]
    verified = printed_json(command("verify", "whole", "--json"))
    assert verified["ok"] and [c["ok"] for c in verified["cases"]] == [True, True]

    refused(command("build", "missing.toml", "--out", "x", "--json"), "missing.toml: no such file")
    refused(command("build", "spec.toml", "--out", "x", "--shard", "3/2", "--json"), "shard")
    refused(command("merge-suite", "whole", "--json"), "no shard manifests")
    refused(command("merge-suite", "missing", "--json"), "not a folder")
    refused(command("verify", "missing", "--json"), "not a folder")
    assert not (work / "x").exists()


def test_verify_of_a_changed_key_is_exit_1_with_json(command, work):
    from tests.support.cli import printed_json

    (work / "spec.toml").write_text(TWO_SEEDS)
    printed_json(command("build", "spec.toml", "--out", "s", "--json"))
    case = work / "s" / f"{FAMILY}-0001.json"
    case.write_text(case.read_text().replace('"seed": 1', '"seed": 5'))
    verified = printed_json(command("verify", "s", "--json"), code=1)
    assert not verified["ok"]
