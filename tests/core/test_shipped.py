"""The shipped samples and specs: package data, read-only, opened from the user's own copy."""

from __future__ import annotations

import fnmatch
import json
import tomllib
from pathlib import Path

from workbench.core.shipped import (
    MARKER,
    sample_names,
    shipped_samples,
    shipped_specs,
    working_sample,
)

ROOT = Path(__file__).resolve().parents[2]


def test_every_sample_and_spec_file_is_package_data():
    """A wheel carries every file of every folder under sample_cases/ and every spec."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = data["package-data"]
    assert {"workbench.sample_cases", "workbench.specs"} <= set(data["packages"])
    for package in ("sample_cases", "specs"):
        base = ROOT / data["package-dir"][f"workbench.{package}"]
        files = [p for p in base.rglob("*") if p.is_file() and p.suffix != ".py"
                 and "__pycache__" not in p.parts and not p.name.startswith(".")]
        assert files
        for f in files:
            rel = f.relative_to(base).as_posix()
            assert any(fnmatch.fnmatch(rel, g) for g in globs[f"workbench.{package}"]), f"{package}/{rel} is not shipped"
    assert shipped_samples() == ROOT / "sample_cases" and shipped_specs() == ROOT / "specs"
    assert {"mini", "extraction"} <= set(sample_names())


def test_the_sample_opens_from_a_copy_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PDFWORKBENCH_DATA_DIR", str(tmp_path / "data"))
    copy = working_sample()
    assert copy == tmp_path / "data" / "samples" / "mini"
    shipped = json.loads((ROOT / "sample_cases" / "mini" / "suite.json").read_text())
    assert json.loads((copy / "suite.json").read_text()) == shipped
    assert sorted(p.name for p in copy.glob("*.pdf")) == sorted(p.name for p in (ROOT / "sample_cases" / "mini").glob("*.pdf"))
    assert (copy / "runs").is_dir() and not list(copy.glob("*.py"))
    # What the user writes in the copy stays on the next start.
    (copy / "runs" / "asked.jsonl").write_text("{}\n")
    assert working_sample() == copy and (copy / "runs" / "asked.jsonl").exists()
    # A newer shipped suite: the old copy is kept aside with the user's files, a fresh one made.
    (copy / MARKER).write_text("0123456789abcdef\n")
    fresh = working_sample()
    assert fresh == copy and not (fresh / "runs" / "asked.jsonl").exists()
    assert (tmp_path / "data" / "samples" / "mini.before-0123456789ab" / "runs" / "asked.jsonl").exists()
    assert working_sample("extraction") == tmp_path / "data" / "samples" / "extraction"


def test_an_unknown_sample_is_one_clear_error(tmp_path, monkeypatch):
    import pytest

    from workbench.core.errors import UserError

    monkeypatch.setenv("PDFWORKBENCH_DATA_DIR", str(tmp_path / "data"))
    with pytest.raises(UserError, match="no shipped sample suite 'nope'; there are: .*mini"):
        working_sample("nope")
