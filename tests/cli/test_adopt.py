"""`adopt` and `mutate` (workbench/cli/adopt.py): exit codes and --json on good input and on bad."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import files_under, printed_json, refused

ROOT = Path(__file__).resolve().parents[2]
STATEMENT = ROOT / "sample_cases" / "adopted" / "statement.pdf"
TOTAL = "$5,143.24"   # the statement's balance, printed on its page


def test_adopt_then_mutate_print_the_new_cases_as_json(command, work):
    case = printed_json(command("adopt", STATEMENT, "--into", "mine", "--question", "What is the balance?",
                                "--expected", TOTAL, "--id", "st", "--json"))
    assert (case["id"], case["expected_answer"]) == ("st", TOTAL) and (work / "mine" / "st.pdf").is_file()
    armed = printed_json(command("mutate", "mine/st.json", "--trap", "white_text", "--json"))
    assert armed["trap_family"] == "white_text" and armed["forbidden_answers"]
    assert (work / "mine" / f"{armed['id']}.pdf").is_file()


def test_adopt_and_mutate_refuse_bad_input_in_one_line_writing_nothing(command, work):
    refused(command("adopt", "missing.pdf", "--into", "mine", "--question", "Q", "--expected", "x", "--json"),
            "missing.pdf: no such file")
    # A value the page does not show: the case would not be armed, so it is not saved.
    refused(command("adopt", STATEMENT, "--into", "mine", "--question", "Q", "--expected", "$9,999.99", "--json"),
            "nowhere on the pages")
    assert files_under(work / "mine") == []
    refused(command("mutate", "missing.json", "--trap", "white_text", "--json"), "missing.json: no such file")
    printed_json(command("adopt", STATEMENT, "--into", "mine", "--question", "Q", "--expected", TOTAL,
                         "--id", "st", "--json"))
    before = files_under(work / "mine")
    refused(command("mutate", "mine/st.json", "--trap", "no_such_trap", "--json"), "unknown mutation 'no_such_trap'")
    assert files_under(work / "mine") == before


def test_a_case_id_is_made_from_any_file_name(command, work):
    """Accents are folded (`Rechnung März` was `Rechnung-M-rz`); a name with no Latin letter or
    digit (Japanese, an emoji) gets `adopted-` and a hash of it, so two such files are two cases
    (both were `adopted`, and the second was refused: "case 'adopted' already exists")."""
    import shutil

    ids = []
    for name in ("Rechnung März 2024.pdf", "日本語 請求書.pdf", "😀.pdf"):
        shutil.copy(STATEMENT, work / name)
        ids.append(printed_json(command("adopt", work / name, "--into", "mine", "--question", "Q",
                                        "--expected", TOTAL, "--json"))["id"])
    assert ids[0] == "Rechnung-Marz-2024"
    assert all(i.startswith("adopted-") for i in ids[1:]) and len(set(ids)) == 3
