"""`new-family` (workbench/cli/new_family.py): exit codes and --json on good input and on bad."""

from __future__ import annotations

from tests.support.cli import files_under, printed_json, refused


def test_new_family_json_names_the_module_it_wrote(command, work):
    made = printed_json(command("new-family", "my_trap", "--dir", "fams", "--json"))
    assert made["family"] == "my_trap" and (work / made["path"]).read_text().strip()


def test_new_family_refuses_bad_input_in_one_line_writing_nothing(command, work):
    refused(command("new-family", "Bad-Name", "--dir", "fams", "--json"), "family name 'Bad-Name'")
    printed_json(command("new-family", "my_trap", "--dir", "fams", "--json"))
    before = files_under(work / "fams")
    refused(command("new-family", "my_trap", "--dir", "fams", "--json"), "my_trap")   # never written over
    assert files_under(work / "fams") == before
