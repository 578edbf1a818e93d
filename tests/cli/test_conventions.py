"""The command line behaves like the tools people already use: run as a user would, in a new process."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.support.cli import PLANTED
from tests.support.cli import run_command as run

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_cases" / "mini"
CASE = SAMPLE / "hidden_ocr_mismatch-0001.json"


# ---- unknown commands --------------------------------------------------------------------------

def test_unknown_command_is_an_error_with_did_you_mean(home):
    proc = run("famlies", cwd=home)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "unknown command 'famlies'" in proc.stderr and "did you mean 'families'?" in proc.stderr


def test_unknown_word_with_no_close_command_still_says_unknown(home):
    proc = run("frobnicate", cwd=home)
    assert proc.returncode == 2 and "unknown command 'frobnicate'" in proc.stderr
    assert "no such file" not in proc.stderr


def test_a_mistyped_family_suggests_the_right_one(tmp_path):
    proc = run("make", "footnote_overide", "--out", tmp_path)
    assert proc.returncode == 2 and "did you mean 'footnote_override'?" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_mistyped_option_suggests_the_right_one():
    proc = run("families", "--jsn")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "unrecognized arguments: --jsn; did you mean --json?" in proc.stderr
    proc = run("dispute", "list", SAMPLE, "--stats")
    assert proc.returncode == 2 and "did you mean --status?" in proc.stderr


def test_a_path_that_exists_still_opens(home):
    # A file that exists goes to `open`, which refuses it for what it is (not "unknown command").
    (home / "frobnicate").write_text("not a pdf")
    proc = run("frobnicate", cwd=home)
    assert proc.returncode == 2 and "unknown command" not in proc.stderr
    from workbench.cli import _parse

    assert _parse([str(SAMPLE)]).command == "open"
    assert _parse(["-q", str(SAMPLE)]).command == "open"
    assert _parse([]).command == "open"


# ---- values that begin with '-' ------------------------------------------------------------------

@pytest.fixture
def negative_case(tmp_path):
    """A case whose right answer is a negative amount."""
    doc = json.loads(CASE.read_text())
    doc["expected_answer"], doc["forbidden_answers"] = "-$1,234.56", []
    doc.pop("gold", None)
    shutil.copy(CASE.with_suffix(".pdf"), tmp_path / CASE.with_suffix(".pdf").name)
    path = tmp_path / CASE.name
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("how", ["next-word", "equals", "file", "stdin"])
def test_answers_beginning_with_a_dash_are_graded(negative_case, tmp_path, how):
    answer = "-$1,234.56"
    args: list[str] = ["grade", negative_case, "--json"]
    stdin = None
    if how == "next-word":
        args += ["--answer", answer]
    elif how == "equals":
        args += [f"--answer={answer}"]
    elif how == "file":
        (tmp_path / "answer.txt").write_text(answer + "\n")
        args += ["--answer-file", tmp_path / "answer.txt"]
    else:
        args += ["--answer", "-"]
        stdin = answer
    proc = run(*args, input=stdin)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["correct"] is True


def test_a_wrong_negative_answer_is_wrong_not_a_usage_error(negative_case):
    proc = run("grade", negative_case, "--answer", "-$9.99")
    assert proc.returncode == 1 and proc.stdout.startswith("FAIL")


def test_grade_help_says_how_to_give_a_dash_answer():
    proc = run("grade", "--help")
    assert "--answer-file" in proc.stdout and "--answer '-$1,234.56'" in proc.stdout
    assert "reads it from stdin" in proc.stdout


def test_rationale_beginning_with_a_dash_is_accepted(tmp_path):
    suite = tmp_path / "mini"
    shutil.copytree(SAMPLE, suite)
    (suite / "disputes.jsonl").unlink(missing_ok=True)
    proc = run("dispute", "add", suite, "--case", "hidden_ocr_mismatch-0001", "--field", "expected_answer",
               "--proposed", "-€13,144.73", "--rationale", "-- the credit note makes it negative", "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["proposed"] == "-€13,144.73"
    assert "-- the credit note makes it negative" in json.dumps(d)


# ---- --json, exit codes, examples ---------------------------------------------------------------

def test_build_import_run_and_new_family_print_json(tmp_path, home):
    spec = tmp_path / "spec.toml"
    spec.write_text('name = "j"\n[[families]]\nname = "footnote_override"\nseeds = [1, 2]\n')
    proc = run("build", spec, "--out", tmp_path / "suite", "--json")
    doc = json.loads(proc.stdout)
    assert doc["cases"] == 2 and len(doc["suite_hash"]) == 64
    assert doc["suite_hash"] == json.loads((tmp_path / "suite" / "suite.json").read_text())["suite_hash"]

    pdfhell = {"model": "openai:gpt-4o", "modality": "pdf", "cases": [
        {"case_id": "footnote_override-0001", "model_output": "$1.00"},
        {"case_id": "footnote_override-0002", "model_output": "[error] RateLimitError: slow down"}]}
    (tmp_path / "r.json").write_text(json.dumps(pdfhell))
    proc = run("import-run", tmp_path / "r.json", "--suite", tmp_path / "suite", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["records"] == 2 and doc["provider_errors"] == 1 and doc["unknown_cases"] == []
    assert len(Path(doc["out"]).read_text().splitlines()) == 2

    proc = run("new-family", "receipt_rounding", "--json", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert doc["family"] == "receipt_rounding" and doc["searched"] is True
    assert Path(doc["path"]).read_text().strip()


# Commands that print no data of their own (a screen, a server, a script, a path, an editor) or
# print JSON already (gold export); mcp's stdout is the MCP protocol itself.
NO_JSON = {"open", "serve", "fake-server", "completion", "config path", "config edit", "gold export", "mcp"}


def test_every_command_that_prints_data_takes_json():
    from workbench.cli import build_parser
    from workbench.cli.tree import subparsers, walk

    lacking = [" ".join(path) for path, p in walk(build_parser())
               if not subparsers(p) and " ".join(path) not in NO_JSON
               and not any("--json" in a.option_strings for a in p._actions)]
    assert not lacking, f"give these --json (or add them to NO_JSON with a reason): {lacking}"


def test_exit_codes_are_documented_in_help_and_readme():
    top = run("--help").stdout
    readme = (ROOT / "README.md").read_text()
    for code, word in (("0", "ok"), ("1", "a check failed"), ("2", "usage"), ("129", "the workbench's terminal"),
                       ("130", "interrupted")):
        assert re.search(rf"^\s*{code}\s+{word}", top, re.M), code
        assert re.search(rf"\|\s*`?{code}`?\s*\|[^|\n]*{word}", readme, re.I), code


def test_every_command_has_examples_in_its_help():
    from workbench.cli import build_parser
    from workbench.cli.tree import walk

    missing = [" ".join(path) for path, p in walk(build_parser()) if "pdfworkbench" not in (p.epilog or "")]
    assert not missing, f"add examples for {missing} to workbench/cli/examples.py"
    assert "examples:" in run("make", "--help").stdout


def test_readme_command_section_matches_help():
    from workbench.cli import build_parser, command_names

    commands = set(command_names(build_parser()))
    block = (ROOT / "README.md").read_text().split("## Command line", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    in_readme = set(re.findall(r"^pdfworkbench ([a-z][a-z-]*)", block, re.M))
    assert commands - in_readme == set(), "commands missing from the README's command section"
    assert in_readme - commands == set(), "the README lists commands that do not exist"


def test_readme_command_lines_name_only_real_subcommands_and_options():
    from workbench.cli import build_parser
    from workbench.cli.tree import subparsers, walk

    parser = build_parser()
    block = (ROOT / "README.md").read_text().split("## Command line", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    entries: list[str] = []
    for line in block.splitlines():
        if line.startswith("pdfworkbench "):
            entries.append(line)
        elif line.strip() and entries:
            entries[-1] += " " + line
    problems = []
    for entry in entries:
        command = entry.split()[1]
        top = subparsers(parser)[command]
        known = {s for _, p in [((), top), *walk(top)] for a in p._actions for s in a.option_strings}
        words = entry.split("#", 1)[0].split()
        if subparsers(top) and len(words) > 2:
            named = set(words[2].split("|"))
            if not named <= set(subparsers(top)):
                problems.append(f"{command}: {sorted(named - set(subparsers(top)))}")
        for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]*", entry):
            if flag not in known:
                problems.append(f"{command} {flag}")
    assert not problems, f"the README's command lines disagree with --help: {problems}"


# ---- readers ------------------------------------------------------------------------------------

def test_ollama_reader_defaults_to_page_images(tmp_path):
    from workbench.providers.fakeserver import FakeServer

    spec = tmp_path / "spec.toml"
    spec.write_text('name = "o"\n[[families]]\nname = "footnote_override"\nseeds = [1]\n')
    assert run("build", spec, "--out", tmp_path / "s").returncode == 0
    with FakeServer() as server:
        proc = run("run", tmp_path / "s", "--reader", "ollama:fake-vision", "--json",
                   env={"OLLAMA_HOST": server.url, "PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache")})
    assert "--modality" not in proc.stderr and proc.returncode in (0, 1), proc.stderr
    records = [json.loads(x) for x in next((tmp_path / "s" / "runs").glob("*.jsonl")).read_text().splitlines()]
    assert [r["modality"] for r in records] == ["pixels"] and records[0]["status"] == "ok"
    from workbench.providers.adapters import default_modality

    assert default_modality("openai:gpt-4o") == "pdf" and default_modality("probe:pypdf") == "text"


# ---- .env, opt-in ---------------------------------------------------------------------------------

def test_env_file_supplies_keys_only_when_asked_and_is_never_written(tmp_path, home):
    env_file = tmp_path / ".env"
    env_file.write_text(f"# keys\nexport ANTHROPIC_API_KEY='{PLANTED}'\nUNRELATED=1\n")
    before = env_file.read_bytes()
    clean = {"ANTHROPIC_API_KEY": ""}
    ready = lambda out: {r["reader"]: r["ready"] for r in json.loads(out)}["anthropic:claude-sonnet-4-5"]  # noqa: E731
    assert ready(run("readers", "--json", env=clean, cwd=tmp_path).stdout) is False  # not loaded unasked
    proc = run("--env-file", env_file, "readers", "--json", env=clean, cwd=tmp_path)
    assert proc.returncode == 0 and ready(proc.stdout) is True
    assert PLANTED not in proc.stdout + proc.stderr
    proc = run("-v", "readers", "--env-file", env_file, env=clean, cwd=tmp_path)
    assert PLANTED not in proc.stdout + proc.stderr
    # opting in from config.json works the same
    (home / "config").mkdir(exist_ok=True)
    (home / "config" / "config.json").write_text(json.dumps({"env_file": str(env_file)}))
    assert ready(run("readers", "--json", env=clean, cwd=tmp_path).stdout) is True
    assert env_file.read_bytes() == before
    bad = tmp_path / "bad.env"
    bad.write_text("ANTHROPIC_API_KEY\n")
    proc = run("--env-file", bad, "readers", env=clean)
    assert proc.returncode == 2 and "bad.env:1" in proc.stderr and proc.stderr.count("\n") == 1


def _command_words_used(path: Path) -> set[tuple[str, ...]]:
    """Every run of string constants in a call's arguments, a list or a tuple of the test module
    (`command("dispute", "add", ...)`, `[sys.executable, "-m", "workbench", "mcp", ...]`)."""
    import ast

    runs: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        items = node.args if isinstance(node, ast.Call) else node.elts if isinstance(node, ast.List | ast.Tuple) else []
        words = [i.value if isinstance(i, ast.Constant) and isinstance(i.value, str) else None for i in items]
        for start in range(len(words)):
            for end in range(start + 1, min(len(words), start + 3) + 1):
                if None not in words[start:end]:
                    runs.add(tuple(words[start:end]))
    return runs


def test_every_command_is_run_by_the_test_module_of_its_cli_module():
    """tests/cli/test_<module>.py runs each command whose function workbench/cli/<module>.py holds
    (the command table's), its exit codes and --json, on good input and on bad."""
    from workbench.cli import build_parser
    from workbench.cli.commands import BY_NAME
    from workbench.cli.tree import subparsers, walk

    missing = []
    for path, p in walk(build_parser()):
        if subparsers(p):
            continue
        target = BY_NAME[path[0]].target(path[1] if len(path) > 1 else None)
        short = target.partition(":")[0].rsplit(".", 1)[-1]
        test_module = ROOT / "tests" / "cli" / f"test_{short}.py"
        used = _command_words_used(test_module) if test_module.exists() else set()
        if path not in used:
            missing.append(f"{' '.join(path)} (tests/cli/test_{short}.py)")
    assert not missing, f"commands no test in tests/cli runs: {missing}"
