"""The suite folder layout: where a suite's cases, runs and gold disputes live, and how a run
file finds the suite it was made on. Every other module asks here instead of typing the names.

    <suite>/suite.json           the manifest (optional: a folder of case JSONs is a suite too)
    <suite>/<id>.json, <id>.pdf  the cases
    <suite>/runs/*.jsonl         saved runs; `runs/asked.jsonl` collects single calls
    <suite>/disputes.jsonl       the gold dispute journal (gold versions are derived from it)
    <suite>/.build/shard-*.jsonl the manifests of a sharded build's shards (merged into suite.json)
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from workbench.core import files
from workbench.core.digest import sha256_hex
from workbench.core.errors import UserError

SUITE_FILE = "suite.json"
RUNS_DIR = "runs"
ASK_RUN = "asked.jsonl"      # the run file single calls (`ask`, the Ask dialog) are appended to
JOURNAL = "disputes.jsonl"
BUILD_DIR = ".build"         # per-shard manifests of `build --shard` (build/shards.py)
# JSON files in a suite folder that are not cases.
NOT_CASES = frozenset({SUITE_FILE, "gold.json", JOURNAL, "manifest.json"})


def require_suite_folder(folder: Path) -> None:
    """A suite's folder must be there: a command given a path that is not one says so in one
    line, rather than reading it as a suite with nothing in it."""
    if not Path(folder).is_dir():
        raise UserError(f"{folder}: not a folder; give a suite folder (with suite.json or case JSON files)")


# Each place below is the suite's own: a symbolic link there (to a folder or file elsewhere) is
# refused with one line (`files.check_own`), so nothing is read or written outside the suite.

def runs_dir(folder: Path) -> Path:
    return files.check_own(Path(folder) / RUNS_DIR, folder)


# A run file's default name keeps to this many characters (a file name may have 255 bytes): a
# longer one is cut, with a hash of the whole so two long names stay two files.
_RUN_NAME_CHARS = 120


def file_stem(text: str, fallback: str = "run") -> str:
    """`text` (a suite's or a run's name, which may hold anything) as a file name without its
    suffix: letters, digits, '.', '_' and '-', anything else one '_'; no '_' or '.' at either end
    (no hidden file, no `..`); at most `_RUN_NAME_CHARS` long, a longer one cut and ended with a
    hash of the whole, so two long names stay two files; `fallback` when nothing is left."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_.") or fallback
    if len(name) > _RUN_NAME_CHARS:
        name = name[:_RUN_NAME_CHARS - 13].rstrip("_.-") + "-" + sha256_hex(text.encode("utf-8", "surrogatepass"))[:12]
    return name


def run_file_path(folder: Path, parts: list[str]) -> Path:
    """`<suite>/runs/<parts joined>.jsonl`, its name a `file_stem`."""
    return runs_dir(folder) / f"{file_stem('-'.join(parts))}.jsonl"


def run_files(folder: Path) -> list[Path]:
    """The suite's saved runs, `<suite>/runs/*.jsonl`, by name; a link among them is refused."""
    runs = runs_dir(folder)
    found = sorted(runs.glob("*.jsonl")) if runs.is_dir() else []
    for path in found:
        files.check_own(path, folder)
    return found


def build_dir(folder: Path) -> Path:
    return files.check_own(Path(folder) / BUILD_DIR, folder)


def ask_run(folder: Path) -> Path:
    """Where a single call on one of the suite's cases is recorded."""
    return files.check_own(runs_dir(folder) / ASK_RUN, folder)


def journal_path(folder: Path) -> Path:
    return files.check_own(Path(folder) / JOURNAL, folder)


def case_files(folder: Path) -> list[Path]:
    """The case JSONs of a folder without a manifest, by name."""
    folder = Path(folder)
    try:
        names = os.listdir(folder)  # names sorted as strings: 1,276 Path objects sorted took 30 ms
    except OSError:  # as glob did: a folder that cannot be listed has no cases
        return []
    return [folder / n for n in sorted(names)
            if n.endswith(".json") and n not in NOT_CASES and not n.startswith(".")]


def holds_suite(folder: Path) -> bool:
    """A folder is a suite when it has a manifest or case JSONs."""
    folder = Path(folder)
    return folder.is_dir() and ((folder / SUITE_FILE).exists() or bool(case_files(folder)))


def run_home(run: Path) -> Path:
    """The folder a run file may name paths inside: the suite for `<suite>/runs/<file>`, else the
    run file's own folder. A run someone sent cannot point the workbench at files elsewhere."""
    run = Path(run).resolve()
    return run.parent.parent if run.parent.name == RUNS_DIR else run.parent


RUN_PATH_RULE = ("a run file may only name a suite in its own folder (or, under runs/, the suite "
                 "holding it); give --suite DIR")


def named_suite_dir(run: Path, suite: Path) -> str | None:
    """What a record of `run` writes as `suite_dir` for `suite`: its path relative to the run's
    home, or None when the suite lies outside it (the run then cannot name it)."""
    home, suite = run_home(run), Path(suite).resolve()
    return Path(os.path.relpath(suite, home)).as_posix() if files.is_inside(suite, home) else None


def suite_of_run(run: Path) -> Path | None:
    """The suite a run file was made on, or None. The one rule, first found wins:

    1. the folder its first record names, inside the run's home (`run_home`): `extra["suite_dir"]`,
       as `import-run --suite` writes it (one that points outside is refused, naming the field),
       or a `suite` field that names a folder there;
    2. the run file's own folder, then its parent, when either holds a `suite.json`;
    3. for `<folder>/runs/<file>`, the folder when it holds case JSONs (a suite without manifest).

    Then (`core.suite.run_suite_folder`, which needs the suite hash) the path the run records.
    """
    # (run records, read here alone: `grade` finds a suite's gold journal through this module and
    # reads no run)
    from workbench.core.runs import iter_records

    run = Path(run).resolve()
    home = run_home(run)
    for record in iter_records(run):
        named = record.extra.get("suite_dir")
        if named:
            if isinstance(named, str) and Path(named).is_absolute() and files.is_inside(named, home):
                named = os.path.relpath(Path(named).resolve(), home)  # as older import-runs wrote it
            folder = files.contained(home, named, "suite_dir", str(run), RUN_PATH_RULE)
            if folder.is_dir():
                return folder
        if record.suite:
            try:
                folder = files.contained(home, record.suite, "suite", str(run))
            except UserError:  # `suite` is mostly a suite's name, not a path: nothing is named here
                folder = None
            if folder is not None and folder.is_dir():
                return folder
        break
    for folder in (run.parent, run.parent.parent):
        if (folder / SUITE_FILE).exists():
            return folder
    if run.parent.name == RUNS_DIR and holds_suite(run.parent.parent):
        return run.parent.parent
    return None
