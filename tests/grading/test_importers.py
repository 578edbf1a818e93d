"""Fuzz what `import-run` reads (issue 33): Inspect eval logs (.json), Inspect .eval zips
(byte faults, every truncation, hostile members, zip bombs), pdfhell run JSON and predictions
JSON Lines, plus nesting past any sane depth and files past their caps. Every input must be read
(and its records reported) or refused with a UserError: the one line the CLI prints. Counts are
printed with -s; PDFWORKBENCH_FUZZ_N sets how many byte-fault variants each kind gets."""

from __future__ import annotations

import io
import json
import random
import zipfile
from pathlib import Path

import pytest

from tests.support.fuzzing import SEED, N, Tally, mutate
from tests.support.fuzzing import report as _report
from workbench.core import limits
from workbench.core.errors import UserError

CASE_IDS = ("c-1", "c-2", "c-3")


def _sample(cid: str, n: int) -> dict:
    return {"id": cid, "epoch": 1, "input": [{"role": "user", "content": [{"type": "text", "text": "Total?"}]}],
            "metadata": {"case_id": cid, "pdf_sha256": "ab" * 32, "key_sha256": "cd" * 32, "trap_family": "f"},
            "output": {"completion": f"{n * 100}.00", "choices": [{"stop_reason": "stop"}],
                       "usage": {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12}},
            "scores": {"match": {"value": "C"}}, "total_time": 1.5, "started_at": "2026-12-01T10:00:00.000Z"}


def _log() -> dict:
    return {"eval": {"model": "openai/gpt-4o", "task": "suite", "run_id": "r1", "eval_id": "e1"},
            "samples": [_sample(cid, n) for n, cid in enumerate(CASE_IDS, 1)]}


def _eval_zip(log: dict | None = None, extra: dict[str, bytes] | None = None,
              method: int = zipfile.ZIP_DEFLATED) -> bytes:
    log = log or _log()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as z:
        z.writestr("header.json", json.dumps({k: v for k, v in log.items() if k != "samples"}))
        for s in log["samples"]:
            z.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s))
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return buf.getvalue()


def _import(path: Path) -> int:
    """What `import-run` does with a file, in process: detect, read, make records, report them."""
    from workbench.grading import importers
    from workbench.grading.report import build_report

    kind = importers.detect_format(path)
    if kind == importers.INSPECT_SOURCE:
        records = importers.inspect_records(importers.read_inspect_log(path), path.name)
    elif kind == importers.PREDICTIONS_SOURCE:
        records = importers.prediction_records(importers.read_predictions(path), path.name, "x:y")
    else:
        records = importers.pdfhell_records(importers.read_pdfhell_run(path), path.name)
    importers.write_records(records, path.with_name("out.jsonl"))
    build_report({"r": records}, {})
    return len(records)


def _fuzz(tmp_path: Path, kind: str, name: str, source: bytes) -> Tally:
    rng = random.Random(f"{SEED}-{kind}")
    tally = Tally()
    target = tmp_path / name
    for _ in range(N):
        target.write_bytes(mutate(source, rng))
        tally(lambda: _import(target))
    _report(kind, tally)
    return tally


def test_the_unfuzzed_inputs_import(tmp_path):
    (tmp_path / "log.json").write_text(json.dumps(_log()))
    (tmp_path / "log.eval").write_bytes(_eval_zip())
    assert _import(tmp_path / "log.json") == _import(tmp_path / "log.eval") == 3


def test_fuzzed_inspect_json_logs_are_read_or_refused(tmp_path):
    t = _fuzz(tmp_path, "inspect-json", "log.json", json.dumps(_log(), indent=1).encode())
    assert t.worked + t.refused == N and t.refused > 0 and t.worked > 0


def test_fuzzed_eval_zips_are_read_or_refused(tmp_path):
    t = _fuzz(tmp_path, "inspect-eval", "log.eval", _eval_zip())
    assert t.worked + t.refused == N and t.refused > 0


def test_every_truncation_of_an_eval_zip_is_refused_in_one_line(tmp_path):
    """A truncated zip (an audit pack or a log cut short by a full disk) raised struct.error."""
    whole = _eval_zip()
    tally = Tally()
    target = tmp_path / "cut.eval"
    for end in range(len(whole)):
        target.write_bytes(whole[:end])
        tally(lambda: _import(target))
    _report("inspect-eval-truncated", tally)
    assert tally.refused == len(whole) and tally.worked == 0


def test_fuzzed_pdfhell_runs_and_predictions_are_read_or_refused(tmp_path):
    pdfhell = {"model": "openai:gpt-4o", "suite": "s", "modality": "pdf", "cases": [
        {"case_id": cid, "trap_family": "f", "model_output": "12.00", "correct": True} for cid in CASE_IDS]}
    preds = "".join(json.dumps({"id": cid, "prediction": "12.00"}) + "\n" for cid in CASE_IDS)
    a = _fuzz(tmp_path, "pdfhell", "run.json", json.dumps(pdfhell, indent=1).encode())
    b = _fuzz(tmp_path, "predictions", "p.jsonl", preds.encode())
    assert a.worked + a.refused == N and b.worked + b.refused == N and a.refused and b.refused


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [65, 1_000, 100_000])
@pytest.mark.parametrize("where", ["metadata", "scores", "header"])
def test_nesting_past_any_real_log_is_refused_not_a_recursion_error(tmp_path, depth, where):
    log = _log()
    text = json.dumps(log)
    if where == "header":
        text = text.replace('"task": "suite"', f'"task": {_deep(depth)}')
    elif where == "metadata":
        text = text.replace('"trap_family": "f"', f'"trap_family": "f", "x": {_deep(depth)}', 1)
    else:
        text = text.replace('{"value": "C"}', f'{{"value": {_deep(depth)}}}', 1)
    (tmp_path / "deep.json").write_text(text)
    with pytest.raises(UserError, match="nests deeper than 64 levels"):
        _import(tmp_path / "deep.json")
    sample = json.loads(json.dumps(_sample("c-1", 1)))
    (tmp_path / "deep.eval").write_bytes(_eval_zip(extra={"samples/zz_epoch_1.json":
                                                          json.dumps(sample)[:-1].encode() + b', "x": '
                                                          + _deep(depth).encode() + b"}"}))
    with pytest.raises(UserError, match="nests deeper than 64 levels"):
        _import(tmp_path / "deep.eval")


@pytest.fixture
def low_limits():
    """Caps lowered for one test, so a bomb past them is small enough to build in the test."""
    def set_(**values: int) -> None:
        limits.set_overrides(values, export=False)
        names.update(values)

    names: dict[str, int] = {}
    yield set_
    for name in names:
        limits._overrides.pop(name, None)


def test_a_zip_bomb_eval_stops_at_the_inflated_cap(tmp_path, low_limits):
    """One member that inflates 1,000-fold: the old reader inflated all of it (a 4 GB one took
    4.2 GB of memory); now reading stops one byte past the cap."""
    low_limits(eval_log_bytes=2**20)
    bomb = json.dumps(_sample("c-9", 9))[:-1] + ', "pad": "' + " " * (64 * 2**20) + '"}'
    data = _eval_zip(extra={"samples/c-9_epoch_1.json": bomb.encode()})
    assert len(data) < 2**20 // 4
    (tmp_path / "bomb.eval").write_bytes(data)
    with pytest.raises(UserError) as err:
        _import(tmp_path / "bomb.eval")
    assert str(err.value).endswith("more than 1,048,576 bytes inflated from an Inspect .eval log (over the "
                                   "eval_log_bytes limit of 1 MB; raise it with --limit eval_log_bytes=N)")


def test_an_eval_of_too_many_members_and_a_huge_json_log_are_refused(tmp_path, low_limits):
    low_limits(eval_log_members=50, eval_log_bytes=2**20)
    many = {f"samples/x{i}_epoch_1.json": b"{}" for i in range(60)}
    (tmp_path / "many.eval").write_bytes(_eval_zip(extra=many))
    with pytest.raises(UserError, match=r"64 files in an Inspect \.eval log \(over the eval_log_members limit of 50"):
        _import(tmp_path / "many.eval")
    log = _log()
    log["samples"][0]["metadata"]["pad"] = "x" * (2 * 2**20)
    (tmp_path / "huge.json").write_text(json.dumps(log))
    with pytest.raises(UserError, match="is too large for a JSON file .over the eval_log_bytes limit of 1 MB"):
        _import(tmp_path / "huge.json")


def test_an_eval_whose_member_lies_about_its_method_is_refused(tmp_path):
    data = bytearray(_eval_zip(method=zipfile.ZIP_STORED))
    # The compression method of every local and central header: 99 (AES, which zipfile lacks).
    for sig, off in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        start = 0
        while (i := data.find(sig, start)) >= 0:
            data[i + off:i + off + 2] = (99).to_bytes(2, "little")
            start = i + 4
    (tmp_path / "aes.eval").write_bytes(bytes(data))
    with pytest.raises(UserError, match="not a readable Inspect .eval log"):
        _import(tmp_path / "aes.eval")
