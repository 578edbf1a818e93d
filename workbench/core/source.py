"""What the workbench opens: a suite folder, a case JSON, a bare PDF, or a run file."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.case import Case, load_case
from workbench.core.errors import UserError
from workbench.core.suite import Suite, load_suite


@dataclass
class Source:
    kind: str                  # suite | case | pdf | run
    path: Path
    title: str
    cases: list[Case]
    suite: Suite | None = None
    run_paths: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def bare_pdf_case(path: Path) -> Case:
    """A stand-in case for a PDF with no answer key, so it can be viewed like any other."""
    case = Case(id=path.stem, trap_family="(no key)", seed=0, question="", expected_answer="",
                pdf_path=path.name)
    case.json_path = path.with_suffix(".json")
    return case


def _suite_for_run(run: Path) -> Path | None:
    """The suite a run was made on: recorded in its records (an imported run names it), else a
    suite.json beside the run or one folder up, else a folder of case JSONs one folder up."""
    from workbench.core.runs import iter_records

    for record in iter_records(run):
        named = record.extra.get("suite_dir") or record.suite
        if named and Path(named).is_dir():
            return Path(named)
        break
    for folder in (run.parent, run.parent.parent):
        if (folder / "suite.json").exists():
            return folder
    if run.parent.name == "runs" and any(run.parent.parent.glob("*.json")):
        return run.parent.parent
    return None


def open_source(path: Path) -> Source:
    path = Path(path)
    if not path.exists():
        raise UserError(f"{path}: no such file or folder")
    if path.is_dir():
        suite = load_suite(path)
        runs = sorted((path / "runs").glob("*.jsonl")) if (path / "runs").is_dir() else []
        return Source("suite", path, suite.name, suite.cases, suite, runs, suite.problems)
    suffix = path.suffix.lower()
    if suffix == ".json":
        case = load_case(path)
        return Source("case", path, case.id, [case])
    if suffix == ".pdf":
        # Not read here: the core does not open PDFs; the CLI checks it before the screen starts.
        return Source("pdf", path, path.name, [bare_pdf_case(path)])
    if suffix == ".jsonl":
        folder = _suite_for_run(path)
        if folder is None:
            raise UserError(f"{path}: cannot tell which suite this run is from; open the suite folder "
                            "instead, or import the run with --suite DIR")
        suite = load_suite(folder)
        return Source("run", path, f"{suite.name} · {path.name}", suite.cases, suite, [path], suite.problems)
    raise UserError(f"{path}: cannot open a {suffix or 'file without extension'}; give a suite folder, a case JSON, a PDF or a run .jsonl")
