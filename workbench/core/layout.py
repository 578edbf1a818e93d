"""The suite folder layout: where a suite's cases, runs and gold disputes live, and how a run
file finds the suite it was made on. Every other module asks here instead of typing the names.

    <suite>/suite.json           the manifest (optional: a folder of case JSONs is a suite too)
    <suite>/<id>.json, <id>.pdf  the cases
    <suite>/runs/*.jsonl         saved runs; `runs/asked.jsonl` collects single calls
    <suite>/disputes.jsonl       the gold dispute journal (gold versions are derived from it)
    <suite>/.build/shard-*.jsonl the manifests of a sharded build's shards (merged into suite.json)
"""

from __future__ import annotations

from pathlib import Path

from workbench.core.runs import iter_records

SUITE_FILE = "suite.json"
RUNS_DIR = "runs"
ASK_RUN = "asked.jsonl"      # the run file single calls (`ask`, the Ask dialog) are appended to
JOURNAL = "disputes.jsonl"
BUILD_DIR = ".build"         # per-shard manifests of `build --shard` (core/shards.py)
# JSON files in a suite folder that are not cases.
NOT_CASES = frozenset({SUITE_FILE, "gold.json", JOURNAL, "manifest.json"})


def runs_dir(folder: Path) -> Path:
    return Path(folder) / RUNS_DIR


def run_files(folder: Path) -> list[Path]:
    """The suite's saved runs, `<suite>/runs/*.jsonl`, by name."""
    runs = runs_dir(folder)
    return sorted(runs.glob("*.jsonl")) if runs.is_dir() else []


def build_dir(folder: Path) -> Path:
    return Path(folder) / BUILD_DIR


def ask_run(folder: Path) -> Path:
    """Where a single call on one of the suite's cases is recorded."""
    return runs_dir(folder) / ASK_RUN


def journal_path(folder: Path) -> Path:
    return Path(folder) / JOURNAL


def case_files(folder: Path) -> list[Path]:
    """The case JSONs of a folder without a manifest, by name."""
    return [p for p in sorted(Path(folder).glob("*.json")) if p.name not in NOT_CASES and not p.name.startswith(".")]


def holds_suite(folder: Path) -> bool:
    """A folder is a suite when it has a manifest or case JSONs."""
    folder = Path(folder)
    return folder.is_dir() and ((folder / SUITE_FILE).exists() or bool(case_files(folder)))


def suite_of_run(run: Path) -> Path | None:
    """The suite a run file was made on, or None. The one rule, first found wins:

    1. the folder its first record names (`extra["suite_dir"]`, as `import-run --suite` writes, or
       a `suite` field that names an existing folder);
    2. the run file's own folder, then its parent, when either holds a `suite.json`;
    3. for `<folder>/runs/<file>`, the folder when it holds case JSONs (a suite without manifest).
    """
    run = Path(run).resolve()
    for record in iter_records(run):
        for named in (record.extra.get("suite_dir"), record.suite):
            if named and Path(named).is_dir():
                return Path(named)
        break
    for folder in (run.parent, run.parent.parent):
        if (folder / SUITE_FILE).exists():
            return folder
    if run.parent.name == RUNS_DIR and holds_suite(run.parent.parent):
        return run.parent.parent
    return None


def suites_of_runs(runs: list[Path]) -> list[Path]:
    """The suites a set of run files were made on, each once, in the order of the runs."""
    found: list[Path] = []
    for run in runs:
        folder = suite_of_run(run)
        if folder is not None and folder not in found:
            found.append(folder)
    return found
