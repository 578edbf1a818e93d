"""What the workbench opens: a suite folder, a case JSON, a bare PDF, or a run file."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core import files
from workbench.core.case import NO_KEY_FAMILY, Case, load_case
from workbench.core.errors import UserError
from workbench.core.layout import run_files
from workbench.core.suite import Suite, load_suite, run_suite_folder


@dataclass
class Source:
    """What a path opens as (a suite, a case, a bare PDF or a run), with its cases and runs."""

    kind: str                  # suite | case | pdf | run
    path: Path
    title: str
    cases: list[Case]
    suite: Suite | None = None
    run_paths: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def bare_pdf_case(path: Path) -> Case:
    """A stand-in case for a PDF with no answer key, so it can be viewed like any other."""
    case = Case(id=path.stem, trap_family=NO_KEY_FAMILY, seed=0, question="", expected_answer="",
                pdf_path=path.name)
    case.json_path = path.with_suffix(".json")
    case.root = path  # the PDF the user named is all the case holds: a link there is theirs
    return case


def open_source(path: Path) -> Source:
    path = Path(path)
    try:
        os.stat(path)
    except FileNotFoundError:
        raise UserError(f"{path}: no such file or folder") from None
    except OSError as exc:  # a name too long, a folder that cannot be searched
        raise UserError(files.os_error_line(exc) or f"{path}: cannot open ({exc.strerror})") from None
    if path.is_dir():
        suite = load_suite(path)
        return Source("suite", path, suite.name, suite.cases, suite, run_files(path), suite.problems)
    suffix = path.suffix.lower()
    if suffix == ".json":
        case = load_case(path)
        return Source("case", path, case.id, [case])
    if suffix == ".pdf":
        # Not read here: the core does not open PDFs; the CLI checks it before the screen starts.
        return Source("pdf", path, path.name, [bare_pdf_case(path)])
    if suffix == ".jsonl":
        folder = run_suite_folder(path)
        if folder is None:
            raise UserError(f"{path}: cannot tell which suite this run is from; open the suite folder "
                            "instead, or import the run with --suite DIR")
        suite = load_suite(folder)
        return Source("run", path, f"{suite.name} · {path.name}", suite.cases, suite, [path], suite.problems)
    raise UserError(f"{path}: cannot open a {suffix or 'file without extension'}; give a suite folder, a case JSON, a PDF or a run .jsonl")
