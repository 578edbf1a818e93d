"""Reading run files and finding the answer keys they were made against.

`pdfworkbench report` reads the cases of the `--suite` folders given on the command line, else of
the suite each run file was made on (`workbench.core.suite.run_suite_folder`, the one rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.runs import RunRecord, iter_records
from workbench.core.suite import Suite, load_suite, suites_of_runs
from workbench.grading.report import split_runs


def load_runs(paths: Sequence[Path]) -> dict[str, list[RunRecord]]:
    """Run label -> records. A label is the file's stem (with its folder when stems collide), and
    a file holding several readers is split into one run per reader."""
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


def find_suite_folders(run_paths: Sequence[Path], explicit: Sequence[Path]) -> list[Path]:
    """The `--suite` folders when given, else the suites the run files were made on."""
    if explicit:
        return [Path(p) for p in explicit]
    return suites_of_runs([Path(p) for p in run_paths])


def load_cases(folders: Sequence[Path]) -> tuple[dict[str, Case], list[Suite]]:
    cases: dict[str, Case] = {}
    suites = []
    for folder in folders:
        suite = load_suite(folder)
        suites.append(suite)
        for c in suite.cases:
            cases.setdefault(c.id, c)
    return cases, suites
