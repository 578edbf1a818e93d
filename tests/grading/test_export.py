"""Suites other harnesses run: `export --to inspect|jsonl`, loaded by the real Inspect AI and
Hugging Face `datasets`, and their results read back with `import-run` so that report, regrade
and the workbench grade them exactly as our own runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import SAMPLE
from workbench.core.case import sha256_hex
from workbench.core.suite import load_suite
from workbench.grading import grade

HERE = Path(__file__).resolve().parents[1] / "support"
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "TOKENIZERS_PARALLELISM": "false"}


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, **OFFLINE, "HF_HOME": str(tmp_path / "hf"), "XDG_DATA_HOME": str(tmp_path / "xdg"),
            "XDG_CACHE_HOME": str(tmp_path / "xdg-cache"), "HOME": str(tmp_path / "home")}


def _answers(cases) -> dict[str, str]:
    """Per case: the right answer, the trap's answer, a refusal or a wrong one, in turn."""
    out = {}
    for i, c in enumerate(sorted(cases, key=lambda c: c.id)):
        kind = i % 4
        if kind == 0 or (kind == 1 and not c.forbidden_answers):
            out[c.id] = str(c.expected_answer)
        elif kind == 1:
            out[c.id] = str(c.forbidden_answers[0])
        elif kind == 2:
            out[c.id] = "I cannot tell from this document."
        else:
            out[c.id] = "42 bananas"
    return out


@pytest.mark.slow
def test_jsonl_export_loads_with_datasets(tmp_path, cli):
    pytest.importorskip("datasets")
    out = tmp_path / "hf"
    code, stdout, err = cli("export", SAMPLE, "--to", "jsonl", "--out", out, "--license", "cc-by-4.0")
    assert code == 0, err
    suite = load_suite(SAMPLE)
    card = (out / "README.md").read_text()
    assert suite.recorded_hash in card and "license: cc-by-4.0" in card
    script = ("import json, sys, datasets; d = datasets.load_dataset(sys.argv[1], split='test'); "
              "print(json.dumps({'n': len(d), 'columns': d.column_names, 'rows': [dict(r) for r in d]}))")
    done = subprocess.run([sys.executable, "-c", script, str(out)], capture_output=True, text=True,
                          timeout=300, env=_env(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert loaded["n"] == len(suite.cases)
    rows = {r["id"]: r for r in loaded["rows"]}
    assert set(rows) == {c.id for c in suite.cases}
    for c in suite.cases:  # the keys as the suite has them, and the PDF beside them byte for byte
        row = rows[c.id]
        assert row["expected_answer"] == str(c.expected_answer) and row["question"] == c.question
        assert row["key_sha256"] == c.key_sha256()
        assert sha256_hex((out / row["pdf"]).read_bytes()) == c.sha256 == row["pdf_sha256"]
        assert json.loads(row["matcher"]) == c.matcher_spec.to_json()


@pytest.mark.slow   # a mock Inspect run in a child: 32 s at load 13
def test_inspect_mock_run_grades_as_we_do_and_imports_back(tmp_path, cli):
    pytest.importorskip("inspect_ai")
    suite = load_suite(SAMPLE)
    out = tmp_path / "inspect"
    assert cli("export", SAMPLE, "--to", "inspect", "--out", out)[0] == 0
    answers = _answers(suite.cases)
    (tmp_path / "answers.json").write_text(json.dumps(answers))
    done = subprocess.run([sys.executable, str(HERE / "inspect_mock_run.py"), str(out), str(tmp_path / "logs"),
                           str(tmp_path / "answers.json")], capture_output=True, text=True, timeout=600,
                          env=_env(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    log_path = Path(done.stdout.strip().splitlines()[-1].removeprefix("file://"))
    log = json.loads(log_path.read_text())
    ours = {c.id: grade(c, answers[c.id]) for c in suite.cases}
    # Inspect's scorer is our grader: the same verdict for every sample
    theirs = {s["metadata"]["case_id"]: s["scores"]["pdfworkbench_grader"] for s in log["samples"]}
    assert set(theirs) == set(ours)
    for cid, score in theirs.items():
        assert score["value"] == ("C" if ours[cid].correct else "I"), cid
        assert score["metadata"]["outcome"] == ours[cid].outcome, cid
    assert {v.outcome for v in ours.values()} >= {"pass", "trap", "refused", "fail"}

    # ... and back: imported records that report and regrade grade the same way
    work = tmp_path / "suite"
    import shutil

    shutil.copytree(SAMPLE, work, ignore=shutil.ignore_patterns("runs"))
    code, stdout, err = cli("import-run", log_path, "--suite", work)
    assert code == 0 and "(inspect)" in stdout, err
    (run,) = list((work / "runs").glob("*.jsonl"))
    records = [json.loads(line) for line in run.read_text().splitlines()]
    assert {r["provenance"] for r in records} == {"imported"}
    assert {r["reader"] for r in records} == {"mockllm:model"}
    assert all(r["usage"]["input_tokens"] == 1000 for r in records)
    code, stdout, _ = cli("report", run, "--json")
    rows = {c["case_id"]: c for c in json.loads(stdout)["runs"][0]["cases"]}
    assert {cid: r["outcome"] for cid, r in rows.items()} == {cid: v.outcome for cid, v in ours.items()}
    passed = sum(v.correct for v in ours.values())
    accuracy = log["results"]["scores"][0]["metrics"]["accuracy"]["value"]
    assert accuracy == pytest.approx(passed / len(ours))
    code, stdout, _ = cli("regrade", run, "--json")
    assert code == 0 and json.loads(stdout)["records"] == len(ours)


def test_predictions_jsonl_imports_and_grades(tmp_path, cli):
    suite = load_suite(SAMPLE)
    answers = _answers(suite.cases)
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({"id": cid, "prediction": a}) + "\n" for cid, a in answers.items()))
    code, stdout, err = cli("import-run", preds, "--suite", SAMPLE, "--reader", "hf:my-model",
                            "--out", tmp_path / "run.jsonl")
    assert code == 0, err
    code, stdout, _ = cli("report", tmp_path / "run.jsonl", "--suite", SAMPLE, "--json")
    run = json.loads(stdout)["runs"][0]
    assert run["provenance"] == ["imported"] and run["readers"] == ["hf:my-model"]
    assert {c["case_id"]: c["outcome"] for c in run["cases"]} == {c.id: grade(c, answers[c.id]).outcome
                                                                  for c in suite.cases}


def test_bad_input_is_one_line_and_leaves_nothing(tmp_path, cli):
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "keep.txt").write_text("mine")
    code, _, err = cli("export", SAMPLE, "--to", "jsonl", "--out", taken)
    assert code == 2 and err.count("\n") == 1 and "not an empty folder" in err
    assert [p.name for p in taken.iterdir()] == ["keep.txt"]
    # a PDF that is not the one its JSON records: refused before anything is written
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(SAMPLE, bad, ignore=shutil.ignore_patterns("runs"))
    victim = next(bad.glob("*.pdf"))
    victim.write_bytes(victim.read_bytes() + b"\n% edited\n")
    code, _, err = cli("export", bad, "--to", "inspect", "--out", tmp_path / "out")
    assert code == 2 and err.count("\n") == 1 and "pdfworkbench verify" in err
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out.*"))
    for name, text in {"garbage.json": "{not json", "empty.jsonl": "", "noid.jsonl": '{"prediction": "x"}\n',
                       "inspect.json": '{"eval": {}, "samples": [{"no": "id"}]}'}.items():
        (tmp_path / name).write_text(text)
        code, _, err = cli("import-run", tmp_path / name, "--out", tmp_path / f"{name}.out.jsonl")
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (name, err)
        assert not (tmp_path / f"{name}.out.jsonl").exists(), name


def test_a_suite_name_never_becomes_code_in_the_exported_task(tmp_path, cli):
    """The Inspect task is Python: a suite's name (from its folder, anyone's) went into the task's
    docstring as `repr(name)`, and a name holding three quotes closed the docstring, so the rest
    of it ran as code when `inspect eval task.py` loaded the task. The name is now a literal of
    its own; loading the task runs nothing of it, and the task's function has a plain name."""
    import shutil

    suite = tmp_path / "suite"
    shutil.copytree(SAMPLE, suite, ignore=shutil.ignore_patterns("runs"))
    marker = tmp_path / "pwned"
    name = f'x\'"""; import pathlib; pathlib.Path({json.dumps(str(marker))}).write_text("ran"); """ class'
    meta = json.loads((suite / "suite.json").read_text())
    (suite / "suite.json").write_text(json.dumps({**meta, "name": name}))
    code, _, err = cli("export", suite, "--to", "inspect", "--out", tmp_path / "out")
    assert code == 0, err
    task = tmp_path / "out" / "task.py"
    script = ("import importlib.util, sys\n"
              "spec = importlib.util.spec_from_file_location('task', sys.argv[1])\n"
              "module = importlib.util.module_from_spec(spec)\n"
              "spec.loader.exec_module(module)\n"
              "print(module.SUITE_NAME == sys.argv[2], [n for n in vars(module) if n.startswith('x_')])\n")
    done = subprocess.run([sys.executable, "-c", script, str(task), name], capture_output=True, text=True,
                          env=_env(tmp_path), timeout=120)
    assert not marker.exists(), "loading the exported task ran code from the suite's name"
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[0] == "True"
    assert "x_import_pathlib_pathlib_path" in done.stdout
