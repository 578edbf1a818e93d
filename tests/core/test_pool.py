"""--jobs: build, verify, lint and run spread local work over processes, and nothing a user can see
depends on how many: the same bytes, the same suite hash, the same output in the same order."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import SAMPLE

SPEC = """name = "jobs"
version = "1"
[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..5"
[[families]]
name = "white_text_injection"
seeds = "1..4"
"""


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file() and p.name != ".suite.lock"}


def test_build_with_two_jobs_writes_the_same_bytes_and_hash_as_one(cli, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    outs = {}
    for jobs in ("1", "2"):
        code, out, err = cli("build", spec, "--out", tmp_path / f"s{jobs}", "--jobs", jobs)
        assert code == 0, err
        outs[jobs] = out.replace(str(tmp_path / f"s{jobs}"), "OUT")
    assert outs["1"] == outs["2"] and "suite hash" in outs["1"]
    one, two = _files(tmp_path / "s1"), _files(tmp_path / "s2")
    assert one == two and len(one) == 2 * 9 + 1


@pytest.mark.slow   # verify and lint on 1..N process pools: 32 s at load 13
def test_verify_and_lint_print_the_same_with_any_number_of_jobs(cli, tmp_path):
    """Lint's findings on several cases come in the suite's order with any number of jobs (the
    sample suite lints clean, so three of its cases are given an answer printed nowhere)."""
    import shutil

    suite = tmp_path / "suite"
    shutil.copytree(SAMPLE, suite, ignore=shutil.ignore_patterns("runs"))
    cases = sorted(p for p in suite.glob("*.json") if p.name not in ("suite.json", "gold.json"))
    for path in cases[:6:2]:
        raw = json.loads(path.read_text())
        raw["expected_tokens"] = []
        raw["expected_answer"] = "a sentence printed nowhere on this page at all"
        raw.pop("contract", None)
        path.write_text(json.dumps(raw))
    from workbench.core.pool import cores

    # One process, every core ("0"), and two where that is another number (on 2 cores "0" is 2:
    # each run of verify regenerates the 34 cases, a third of the test's time).
    counts = ["1", "0"] + (["2"] if cores() != 2 else [])
    outputs = {}
    for command, folder in (("verify", SAMPLE), ("lint", suite)):
        outputs[command] = [cli(command, folder, "--jobs", jobs, "--json") for jobs in counts]
        assert all(out == outputs[command][0] for out in outputs[command])
        assert outputs[command][0][0] == 0, outputs[command][0][2]
    ids = [f["case_id"] for f in json.loads(outputs["lint"][0][1])]
    assert len(set(ids)) >= 3 and ids == sorted(ids, key=[p.stem for p in cases].index)
    report = json.loads(outputs["verify"][0][1])
    assert report["ok"] and report["suite_hash"] == report["recorded_hash"]


def test_negative_jobs_is_one_line_and_exit_2(cli):
    code, out, err = cli("verify", SAMPLE, "--jobs", "-1")
    assert code == 2 and "--jobs -1" in err and "Traceback" not in err


@pytest.mark.slow   # four processes spawned, each importing the lint: 2.4 s of CPU
def test_jobs_past_twice_the_cores_are_that_many_and_said_once(cli, monkeypatch):
    """`--jobs 64` (a typo of 6) started 64 processes, each 100-150 MB, for CPU-bound work on 2
    cores: a suite of 1,276 cases with --jobs 500 would have started 500. Past twice the cores,
    twice the cores are used, and the command says so in one line."""
    from workbench.core import pool

    monkeypatch.setattr(pool, "cores", lambda: 2)
    started: list[int] = []
    real = pool.process_pool
    monkeypatch.setattr(pool, "process_pool", lambda jobs, *a, **k: started.append(jobs) or real(jobs, *a, **k))
    code, out, err = cli("verify", SAMPLE, "--jobs", "64", "--json")
    assert code == 0 and json.loads(out)["ok"], err
    assert started == [4]
    said = [line for line in err.splitlines() if "--jobs 64" in line]
    assert said == ["pdfworkbench: warning: --jobs 64: this process may run on 2 core(s); 4 processes are used "
                    "(more would only add memory, 100-150 MB each)"]
    assert pool.resolve_jobs(4) == 4 and pool.resolve_jobs(0) == 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_run_local_work_on_processes_records_the_same_answers(cli, tmp_path, jobs):
    out = tmp_path / "run.jsonl"
    code, _, err = cli("run", SAMPLE, "--reader", "probe:pymupdf", "--jobs", jobs, "--workers", "3",
                       "--out", out, "--no-cache")
    assert code in (0, 1), err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    from workbench.core.suite import load_suite
    from workbench.pdf.textlayer import text_pymupdf

    suite = load_suite(SAMPLE)
    assert sorted(r["case_id"] for r in records) == sorted(c.id for c in suite.cases)
    by_id = {c.id: c for c in suite.cases}
    for r in records[:5]:
        text = "\n".join(text_pymupdf(by_id[r["case_id"]].pdf_file.read_bytes()))
        assert r["status"] == "ok" and r["answer"].strip()[:20] in text


class _Unpicklable(Exception):
    """An error holding what pickle cannot take (as MuPDF's hold their SWIG objects)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.handle = lambda: None


def _fails_on_two(n: int) -> int:
    if n == 2:
        raise _Unpicklable("code=7: object is not a stream")
    return n


def test_a_workers_error_that_cannot_be_pickled_comes_back_as_its_text():
    """A worker's error that pickle cannot take came back as "cannot pickle ..." (a truncated PDF's
    MuPDF error through `inspect --jobs 2`: a traceback, not the one line the same error gives
    with one job). It comes back as a `WorkerError` with its message and its type's module, which
    the CLI's safety net judges as it would the error itself."""
    from workbench.core.pool import WorkerError, map_ordered
    from workbench.pdf.document import is_pdf_error

    with pytest.raises(WorkerError) as raised:
        list(map_ordered(_fails_on_two, [1, 2, 3, 4], 2))
    assert str(raised.value) == "code=7: object is not a stream"
    assert raised.value.origin == __name__ and is_pdf_error(raised.value)   # (its "code=7:")
    assert list(map_ordered(_fails_on_two, [1, 3], 2)) == [1, 3]
