"""Finding trap families (workbench/generators/registry.py): the built-in ones, a folder of user
modules (from --dir or PDFWORKBENCH_FAMILY_PATH) loaded beside them, each module that fails named
with its line and the rest still loaded, an unknown name with a suggestion, and a registry that
loads again only when a user file changed."""

from __future__ import annotations

import os

import pytest

from workbench.generators import template
from workbench.generators.registry import FAMILY_PATH_ENV, UnknownFamily, discover


@pytest.fixture
def folder(tmp_path):
    """A folder of user families: a working one (the new-family template), one with a syntax
    error, one written for the old package name, one missing its parts, one named like a
    built-in, and a private module that is no family."""
    (tmp_path / "po_mismatch.py").write_text(template.render("po_mismatch"))
    (tmp_path / "broken.py").write_text("NAME = 'broken'\nVERSION = 1\ndef generate(:\n")
    (tmp_path / "old_kit.py").write_text("from generators import kit\nNAME = 'old_kit'\n")
    (tmp_path / "bare.py").write_text("NAME = 'bare'\nVERSION = 1\n")
    (tmp_path / "shadow.py").write_text(template.render("white_text_injection"))
    (tmp_path / "_helpers.py").write_text("raise RuntimeError('never imported')\n")
    return tmp_path


def test_user_families_load_beside_the_built_in_ones_and_each_failure_says_why(folder):
    reg = discover([folder])
    assert reg.get("po_mismatch").origin == str(folder / "po_mismatch.py")
    assert reg.get("white_text_injection").origin == "builtin"
    assert {"hidden_ocr_mismatch", "invoice_extraction", "po_mismatch"} <= set(reg.names())
    assert reg.names() == sorted(reg.names()) and not {"base", "kit", "template", "degrade"} & set(reg.names())
    said = {os.path.basename(p.origin): p.message for p in reg.problems}
    assert said["broken.py"] == "broken.py:3: SyntaxError: invalid syntax"
    assert said["old_kit.py"].startswith("old_kit.py:1: ModuleNotFoundError: No module named 'generators'; "
                                         "the family kit is now `workbench.generators`")
    assert said["bare.py"] == "bare.py: a family module must define DESCRIPTION, PARAMS, generate"   # its name once
    assert said["shadow.py"] == "shadow.py: family 'white_text_injection' is built in; rename it"
    assert set(said) == {"broken.py", "old_kit.py", "bare.py", "shadow.py"}      # not _helpers.py


def test_a_user_family_makes_its_case(folder):
    fam = discover([folder]).get("po_mismatch")
    made = fam.generate(fam.resolve({}, 3), 3)
    assert made.pdf.startswith(b"%PDF") and made.key.expected_answer and made.key.forbidden_answers


def test_the_family_path_setting_is_looked_in_and_a_folder_that_is_not_one_is_skipped(folder, monkeypatch, tmp_path):
    monkeypatch.setenv(FAMILY_PATH_ENV, os.pathsep.join([str(tmp_path / "missing"), str(folder)]))
    reg = discover([tmp_path / ("x" * 5000), folder / "po_mismatch.py"])
    assert "po_mismatch" in reg.names()


def test_an_unknown_family_suggests_the_nearest_name():
    reg = discover()
    with pytest.raises(UnknownFamily, match=r"^unknown family 'hiden_ocr_mismatch'; did you mean "
                                            r"'hidden_ocr_mismatch'\? run 'pdfworkbench families' to list them$"):
        reg.get("hiden_ocr_mismatch")
    with pytest.raises(UnknownFamily, match=r"^unknown family 'zzz'; run 'pdfworkbench families'"):
        reg.get("zzz")


def test_the_registry_loads_again_only_when_a_user_file_changed(folder):
    reg = discover([folder])
    assert not reg.stale() and reg.reloaded() is reg
    assert reg.reloaded(force=True) is not reg
    (folder / "po_mismatch.py").write_text(template.render("po_mismatch").replace("VERSION = 1", "VERSION = 2"))
    assert reg.stale()
    again = reg.reloaded()
    assert again is not reg and again.get("po_mismatch").version == 2 and not again.stale()
    (folder / "bare.py").unlink()
    assert again.stale() and len(again.reloaded().problems) == 3
    assert not (folder / "__pycache__").exists()          # nothing written into the user's folder
