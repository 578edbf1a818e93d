"""Saving a case into a suite: the one service every caller uses (`make --into`, `adopt`,
`mutate`, the Author screen; `add_to_suite` is its one-step form).

`plan_save` says what saving would do before anything is written: the id it is saved as
(checked), whether the suite already has a case of that id, and the lint errors that say its
trap may not be armed (the caller lints: the lint is a layer above). The caller asks its user, or
reads its flags, and `save` writes the case and its PDF, any extra files (an adopted source) and
the suite's `suite.json`, under the suite's lock, refusing what was not confirmed; nothing is
written when it refuses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from workbench.build.make import write_case
from workbench.core import atomic, files
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.layout import holds_suite
from workbench.core.schema import JSONObject
from workbench.core.suite import (
    case_entry,
    check_case_id,
    compute_entries,
    load_suite,
    suite_case_ids,
    write_manifest,
)


class Finding(Protocol):
    """A lint finding (`checks.findings.Finding`), as far as saving reads one: its errors block a save."""

    severity: str
    code: str
    message: str


@dataclass
class Added:
    """What adding a case to a suite did."""

    json_path: Path
    suite_hash: str
    new_suite: bool     # the folder held no suite before
    replaced: bool      # a case with this id was overwritten


class CaseExists(UserError):
    """The suite already has a case with this id (and overwriting was not asked for)."""


class LintRefused(UserError):
    """The case has lint errors (its trap may not be armed) and saving them was not confirmed."""


@dataclass(frozen=True)
class SavePlan:
    """What saving `case` into `folder` would do; `save` does it."""

    folder: Path
    case: Case
    pdf: bytes
    case_id: str                     # the id it is saved as (checked: a plain file name)
    exists: bool                     # the suite has a case of this id: saving replaces it
    lint_errors: tuple[str, ...]     # one line each: its trap may not be armed
    extra_files: Mapping[str, bytes] = field(default_factory=dict)   # path in the folder -> bytes
    name: str | None = None          # a new suite's name (default: the folder's)


def plan_save(folder: Path, case: Case, pdf: bytes, *, case_id: str | None = None,
              findings: Iterable[Finding] = (), problems: Sequence[str] = (),
              extra_files: Mapping[str, bytes] | None = None, name: str | None = None) -> SavePlan:
    """What saving `case` (as `case_id`, default its own id) into the suite at `folder` (new or
    existing) would do. `findings`: its lint's; their errors, and `problems` (more lines that
    block a save the same way, e.g. an answer not found on the page), are the plan's lint errors.
    One line (a UserError) for an id that is not a plain file name or a file where the folder
    should be."""
    folder = Path(folder).expanduser()
    cid = check_case_id(case.id if case_id is None else case_id)
    errors = tuple(f"{f.code}: {f.message}" for f in findings if f.severity == "error") + tuple(problems)
    exists = cid in suite_case_ids(folder)
    return SavePlan(folder, case, pdf, cid, exists, errors, dict(extra_files or {}), name)


def save(plan: SavePlan, *, overwrite: bool = False, with_lint_errors: bool = False) -> Added:
    """Write the planned case into its suite and rewrite `suite.json`. Refuses (nothing written)
    a case with lint errors unless `with_lint_errors` (the user confirmed), and an id the suite
    has (checked again under the lock) unless `overwrite`."""
    folder, given = plan.folder, plan.case
    case = replace(given, id=plan.case_id, pdf_path=f"{plan.case_id}.pdf", json_path=None)
    errors = plan.lint_errors
    if errors and not with_lint_errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise LintRefused(f"{case.id}: not saved: {len(errors)} lint error(s), its trap may not be "
                          f"armed: {errors[0]}{more}; fix it, or save anyway with --allow-lint-errors")
    with atomic.suite_lock(folder):
        existing: list[JSONObject] = []
        suite_name, version = plan.name or folder.name, "1"
        new_suite = True
        build = None
        if holds_suite(folder):
            suite = load_suite(folder)
            if suite.has_manifest:
                suite_name, version, build = suite.name, suite.version, suite.build
            existing = compute_entries(suite)
            new_suite = False
        replaced = any(e["id"] == case.id for e in existing)
        if replaced and not overwrite:
            raise CaseExists(f"{folder}: case {case.id!r} already exists; choose another id, or replace "
                             "it with --overwrite")
        for rel, data in plan.extra_files.items():
            target = files.contained(folder, rel, "extra file")
            if not target.exists() or files.read_bytes(target, "file", "pdf_file_bytes", within=folder) != data:
                atomic.write_bytes(target, data, within=folder)
        write_case(case, plan.pdf, folder)
        entries = [e for e in existing if e["id"] != case.id] + [case_entry(case, plan.pdf)]
        digest = write_manifest(folder, suite_name, version, entries, build)
    if given.id == case.id:  # as `write_case` does: the caller's case now knows where it lives
        given.json_path = case.json_path
    return Added(folder / f"{case.id}.json", digest, new_suite, replaced)


def add_to_suite(
    folder: Path, case: Case, pdf: bytes, *, case_id: str | None = None, overwrite: bool = False,
    lint_errors: Sequence[str] = (), save_with_lint_errors: bool = False,
    extra_files: Mapping[str, bytes] | None = None, name: str | None = None,
) -> Added:
    """`plan_save` then `save`, for a caller that asks nothing in between (its flags decide):
    refuses an id the suite already has unless `overwrite`, and a case with `lint_errors` (one
    line each) unless `save_with_lint_errors`."""
    plan = plan_save(folder, case, pdf, case_id=case_id, problems=lint_errors, extra_files=extra_files, name=name)
    return save(plan, overwrite=overwrite, with_lint_errors=save_with_lint_errors)


def add_case(folder: Path, case: Case, pdf: bytes, overwrite: bool = False, name: str | None = None) -> str:
    """`add_to_suite` without a lint check; returns the suite hash."""
    return add_to_suite(folder, case, pdf, overwrite=overwrite, name=name).suite_hash
