"""Authoring without the screen: new-family, user families everywhere, drafts, previews, saving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.build.authoring import (
    Draft,
    make_preview,
    reload_user_family,
    write_family_template,
)
from workbench.build.make import family_registry, get_family
from workbench.build.saving import plan_save, save
from workbench.build.suite import verify_suite
from workbench.core.case import load_case
from workbench.core.errors import UserError
from workbench.core.scan import DegradeSpec
from workbench.core.suite import suite_case_ids

SAMPLE = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("PDFWORKBENCH_FAMILY_PATH", raising=False)


@pytest.mark.slow
def test_new_family_writes_a_template_that_works_everywhere(cli, tmp_path, monkeypatch):
    code, out, _ = cli("new-family", "po_trap")
    path = tmp_path / "config" / "families" / "po_trap.py"
    assert code == 0 and str(path) in out and path.exists()
    text = path.read_text()
    assert text.startswith('"""po_trap: ') and "CONTRACT = (" in text and "def generate(" in text

    code, out, _ = cli("families", "--json")
    described = {f["name"]: f for f in json.loads(out)}
    assert described["po_trap"]["origin"] == str(path)
    assert "hidden_ocr_mismatch" in described

    monkeypatch.chdir(tmp_path)
    assert cli("make", "po_trap", "--seed", "2", "--out", "one")[0] == 0
    code, out, _ = cli("lint", "one/po_trap-0002.json")
    assert code == 0 and "0 error(s), 0 warning(s)" in out
    (tmp_path / "spec.toml").write_text('name = "mine"\n[[families]]\nname = "po_trap"\nseeds = "1..4"\n'
                                        '[[families]]\nname = "po_trap"\nseeds = 1\ntier = "mild"\ntext_layer = "faithful"\n')
    assert cli("build", "spec.toml", "--out", "suite")[0] == 0
    code, out, _ = cli("verify", "suite")
    assert code == 0 and "5 of 5 match" in out
    code, out, _ = cli("lint", "suite")
    assert code == 0 and "0 error(s)" in out
    # Scanned without a text layer, the hidden PO number is gone: the lint says the trap is.
    assert cli("make", "po_trap", "--seed", "2", "--tier", "mild", "--out", "gone")[0] == 0
    code, out, _ = cli("lint", "gone")
    assert code == 1 and "trap-disarmed" in out


def test_new_family_refuses_an_existing_file_a_builtin_name_and_a_bad_name(cli, tmp_path):
    assert cli("new-family", "mine", "--dir", tmp_path / "fams")[0] == 0
    before = (tmp_path / "fams" / "mine.py").read_bytes()
    (tmp_path / "fams" / "mine.py").write_text(before.decode() + "# my edits\n")
    code, _, err = cli("new-family", "mine", "--dir", tmp_path / "fams")
    assert code == 2 and "already exists" in err
    assert (tmp_path / "fams" / "mine.py").read_text().endswith("# my edits\n")
    code, _, err = cli("new-family", "hidden_ocr_mismatch")
    assert code == 2 and "built in" in err
    code, _, err = cli("new-family", "Not-A-Module")
    assert code == 2 and "lower-case" in err


def test_a_folder_outside_the_searched_ones_is_said_and_family_dirs_in_the_config_are_searched(cli, tmp_path):
    code, out, _ = cli("new-family", "elsewhere", "--dir", tmp_path / "other")
    assert code == 0 and "is not searched" in out
    assert "elsewhere" not in family_registry(refresh=True).families
    (tmp_path / "config").mkdir(exist_ok=True)
    (tmp_path / "config" / "config.json").write_text(json.dumps({"family_dirs": [str(tmp_path / "other")]}))
    assert get_family("elsewhere").origin == str(tmp_path / "other" / "elsewhere.py")


def test_a_broken_user_module_is_reported_and_hides_no_other_family(cli, tmp_path):
    folder = tmp_path / "config" / "families"
    write_family_template("good_one")
    (folder / "broken.py").write_text("NAME = 'broken'\nVERSION = = 1\n")
    reg = family_registry(refresh=True)
    assert "good_one" in reg.families and "hidden_ocr_mismatch" in reg.families
    assert [p.message for p in reg.problems] == ["broken.py:2: SyntaxError: invalid syntax"]
    code, out, err = cli("families")
    assert code == 0 and "good_one" in out and "broken.py:2" in err


def test_reload_picks_up_an_edit_and_reports_a_broken_one_with_its_line(tmp_path):
    path = write_family_template("po_trap")
    family = reload_user_family(path)
    first = make_preview(family, Draft("po_trap", 1))
    path.write_text(path.read_text().replace('"PURCHASE ORDER"', '"ORDER FORM"'))
    edited = make_preview(reload_user_family(path), Draft("po_trap", 1))
    assert edited.pdf != first.pdf
    assert get_family("po_trap").generate is not family.generate   # make/verify see the edit too
    path.write_text(path.read_text().replace("def generate(p", "def generate(p,,"))
    with pytest.raises(UserError, match=r"po_trap\.py:\d+: SyntaxError"):
        reload_user_family(path)


def test_an_exception_in_a_user_family_is_a_user_error_with_its_line(tmp_path):
    path = write_family_template("po_trap")
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "streams = Streams(seed, NAME)" in line)
    lines.insert(at, "    1 / 0")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(UserError, match=rf"po_trap\.py:{at + 1}: ZeroDivisionError"):
        make_preview(reload_user_family(path), Draft("po_trap", 1))


def test_a_draft_from_a_case_reproduces_it():
    case = load_case(SAMPLE / "hidden_ocr_mismatch-0002.json")
    draft = Draft.from_case(case)
    assert draft.seed == case.seed and set(draft.pinned) == set(case.generator.pinned or ())
    preview = make_preview(get_family(case.trap_family), draft)
    assert preview.case.params == case.params
    assert preview.pdf == case.pdf_file.read_bytes()


def test_a_degraded_preview_keeps_the_clean_pdf_and_saves_what_verify_expects(tmp_path):
    family = get_family("hidden_ocr_mismatch")
    draft = Draft("hidden_ocr_mismatch", 3, {"line_items": "2"},
                  DegradeSpec.parse({"tier": "mild", "overrides": {"noise": "9"}, "text_layer": "faithful"}))
    preview = make_preview(family, draft)
    clean = make_preview(family, Draft("hidden_ocr_mismatch", 3, {"line_items": "2"}))
    assert preview.clean_pdf == clean.pdf and preview.pdf != clean.pdf
    assert preview.case.degrade.knobs()["noise"] == 9.0

    def save_preview(p, case_id):   # as the Author screen saves (`build.saving`), nothing confirmed
        return save(plan_save(tmp_path / "s", p.case, p.pdf, case_id=case_id, extra_files=p.extra_files))

    added = save_preview(preview, "mine-1")
    assert added.json_path == tmp_path / "s" / "mine-1.json" and suite_case_ids(tmp_path / "s") == {"mine-1"}
    with pytest.raises(UserError, match="already exists"):
        save_preview(clean, "mine-1")
    save_preview(clean, "mine-2")
    results, now, recorded = verify_suite(tmp_path / "s")
    assert all(r.ok for r in results) and now == recorded and len(results) == 2
    with pytest.raises(UserError, match="case id"):
        save_preview(clean, "../escape")


def test_a_family_written_before_the_kit_moved_says_what_to_change(tmp_path):
    """A user family from an earlier release imports the kit as `generators`: its load problem
    says the new name, the rest of the registry loads."""
    path = write_family_template("po_trap")
    path.write_text(path.read_text().replace("from workbench.generators", "from generators"))
    with pytest.raises(UserError, match=r"po_trap\.py:\d+: ModuleNotFoundError: .*change `generators` to `workbench.generators`"):
        reload_user_family(path)
