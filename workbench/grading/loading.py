"""Reading run files and finding the answer keys they were made against.

Where `pdfworkbench report` looks for a run's cases, first found wins:
1. the `--suite` folders given on the command line;
2. a suite folder recorded in the records (`extra["suite_dir"]`, as `import-run --suite` writes,
   or a `suite` field that names an existing folder);
3. the run file's own folder, then its parent, when either holds a `suite.json`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.runs import RunRecord, iter_records
from workbench.core.suite import SUITE_FILE, Suite, load_suite


def load_runs(paths: Sequence[Path]) -> dict[str, list[RunRecord]]:
    """Run label -> records. A label is the file's stem (with its folder when stems collide), and
    a file holding several readers is split into one run per reader."""
    from workbench.grading.report import split_runs

    paths = [Path(p) for p in paths]
    stems = [p.stem for p in paths]
    out: dict[str, list[RunRecord]] = {}
    for p in paths:
        label = p.stem if stems.count(p.stem) == 1 else f"{p.parent.name}/{p.stem}"
        records = list(iter_records(p))
        if not records:
            raise UserError(f"{p}: the run file holds no records")
        parts = split_runs(records)
        if len(parts) == 1:
            out[label] = records
        else:
            for sub, recs in parts.items():
                out[f"{label}/{sub}"] = recs
    return out


def find_suite_folders(run_paths: Sequence[Path], records: Sequence[Any], explicit: Sequence[Path]) -> list[Path]:
    if explicit:
        return [Path(p) for p in explicit]
    found: list[Path] = []
    for r in records:
        for d in ((getattr(r, "extra", None) or {}).get("suite_dir"), getattr(r, "suite", None)):
            if d and Path(d).is_dir() and Path(d) not in found:
                found.append(Path(d))
                break
    if found:
        return found
    for p in run_paths:
        for folder in (Path(p).resolve().parent, Path(p).resolve().parent.parent):
            if (folder / SUITE_FILE).exists() and folder not in found:
                found.append(folder)
                break
    return found


def load_cases(folders: Sequence[Path]) -> tuple[dict[str, Case], list[Suite]]:
    cases: dict[str, Case] = {}
    suites = []
    for folder in folders:
        suite = load_suite(folder)
        suites.append(suite)
        for c in suite.cases:
            cases.setdefault(c.id, c)
    return cases, suites
