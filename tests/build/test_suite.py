"""Building a suite from a spec and verifying it (build/suite.py): the spec read and checked before
anything is written, the same spec the same files and hash, and verify naming what changed."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.support.fixtures import built_suite
from workbench.build.suite import build_suite, check_items, read_spec, verify_suite
from workbench.core.errors import UserError

SPEC = """name = "two"
version = "3"
[[families]]
name = "hidden_ocr_mismatch"
seeds = [1, 2]
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The spec built once: its folder (copy it before changing anything)."""
    return built_suite(tmp_path_factory.mktemp("built"), SPEC, "two")


def spec_file(tmp_path, text: str):
    path = tmp_path / "spec.toml"
    path.write_text(text)
    return path


def test_a_spec_s_tables_seeds_and_tiers_are_its_items(tmp_path):
    name, version, items = read_spec(spec_file(tmp_path, SPEC + """
[[families]]
name = "white_text_injection"
seeds = "1..2"
tiers = ["clean", "mild"]
params = { currency = "USD" }
"""))
    assert (name, version) == ("two", "3")
    assert [(i.family, i.seed, i.group, i.degrade.tier if i.degrade else None) for i in items] == [
        ("hidden_ocr_mismatch", 1, 1, None), ("hidden_ocr_mismatch", 2, 1, None),
        ("white_text_injection", 1, 2, "clean"), ("white_text_injection", 2, 2, "clean"),
        ("white_text_injection", 1, 2, "mild"), ("white_text_injection", 2, 2, "mild")]
    assert items[2].params == {"currency": "USD"}


@pytest.mark.parametrize("text, message", [
    ('name = "x"', "a suite spec needs at least one [[families]] table with name and seeds"),
    ('[[familes]]\nname = "x"', "unknown spec key 'familes'"),
    ('[[families]]\nname = "x"\nseed = 1', "[[families]] #1: unknown family table key 'seed'"),
    ('[[families]]\nname = "x"\ntier = "grim"', "[[families]] #1: unknown tier 'grim'; choose from clean, mild"),
    ('[[families]]\nname = "x"\ntext_layer = "all"', "[[families]] #1: unknown text_layer 'all'"),
    ('[[families]]\nname = "x"\nseeds = "9..1"', "[[families]] #1: seeds '9..1' runs backwards"),
    ("name = ", "malformed TOML: "),
])
def test_a_bad_spec_is_one_line_naming_the_file_and_the_table(tmp_path, text, message):
    path = spec_file(tmp_path, text)
    with pytest.raises(UserError) as raised:
        read_spec(path)
    assert str(raised.value).startswith(str(path)) and message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_spec_is_checked_whole_before_anything_is_written(tmp_path):
    twice = spec_file(tmp_path, SPEC + '[[families]]\nname = "hidden_ocr_mismatch"\nseeds = [2]\n')
    with pytest.raises(UserError, match=r"the spec makes the same case twice: hidden_ocr_mismatch seed 2 "
                                        r"\(#1 and #2\)$"):
        build_suite(twice, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    for extra, message in [('[[families]]\nname = "nosuch"\n', r"\[\[families\]\] #2: unknown family 'nosuch'"),
                           ('[[families]]\nname = "hidden_ocr_mismatch"\nparams = { line_items = 99 }\n',
                            r"\[\[families\]\] #2: hidden_ocr_mismatch seed 1: .*between 1 and 8")]:
        path = spec_file(tmp_path, SPEC + extra)
        with pytest.raises(UserError, match=message):
            check_items(path, read_spec(path)[2])


def test_the_same_spec_builds_the_same_files_and_hash(built, tmp_path):
    manifest = json.loads((built / "suite.json").read_text())
    assert (manifest["name"], manifest["version"]) == ("two", "3")
    assert [c["id"] for c in manifest["cases"]] == ["hidden_ocr_mismatch-0001", "hidden_ocr_mismatch-0002"]
    digest, made = build_suite(spec_file(tmp_path, SPEC), tmp_path / "again")
    assert made == 2 and digest == manifest["suite_hash"]
    for name in ("hidden_ocr_mismatch-0001.pdf", "hidden_ocr_mismatch-0002.json", "suite.json"):
        assert (tmp_path / "again" / name).read_bytes() == (built / name).read_bytes()
    assert not (tmp_path / "again" / ".build").exists()   # one shard, all merged: no manifests left


def test_verify_passes_a_built_suite_and_names_a_changed_pdf_and_key(built, tmp_path):
    results, digest, recorded = verify_suite(built)
    assert [(r.case_id, r.ok, r.how) for r in results] == [("hidden_ocr_mismatch-0001", True, "regenerated"),
                                                           ("hidden_ocr_mismatch-0002", True, "regenerated")]
    assert digest == recorded
    suite = shutil.copytree(built, tmp_path / "changed")
    pdf = suite / "hidden_ocr_mismatch-0001.pdf"
    pdf.write_bytes(pdf.read_bytes() + b"\n% appended\n")
    case = suite / "hidden_ocr_mismatch-0002.json"
    case.write_text(json.dumps({**json.loads(case.read_text()), "expected_answer": "€1.00"}))
    results, digest, recorded = verify_suite(suite)
    by_id = {r.case_id: r for r in results}
    first, second = by_id["hidden_ocr_mismatch-0001"], by_id["hidden_ocr_mismatch-0002"]
    assert not first.ok and first.problems[0].startswith("PDF bytes differ (on disk ")
    assert "PDF does not match the sha256 its JSON records" in first.problems
    assert not second.ok and second.problems == ["answer key differs in expected_answer"]
    assert by_id["suite.json"].problems == [f"recorded suite hash {recorded[:12]} differs from content {digest[:12]}"]


def test_a_case_made_elsewhere_is_checked_against_the_hash_it_records(built, tmp_path):
    suite = shutil.copytree(built, tmp_path / "foreign")
    case = suite / "hidden_ocr_mismatch-0001.json"
    raw = json.loads(case.read_text())
    raw.pop("generator")
    case.write_text(json.dumps(raw))
    (suite / "suite.json").unlink()   # a pdfhell-style folder: no manifest to disagree with
    results, _, _ = verify_suite(suite)
    assert [(r.case_id, r.ok, r.how) for r in results] == [("hidden_ocr_mismatch-0001", True, "recorded hash"),
                                                           ("hidden_ocr_mismatch-0002", True, "regenerated")]
    (suite / "hidden_ocr_mismatch-0001.pdf").write_bytes(b"%PDF-1.7 other")
    (result, _) = verify_suite(suite)[0]
    assert not result.ok and result.problems[0].startswith("PDF does not match the sha256 its JSON records (on disk ")
