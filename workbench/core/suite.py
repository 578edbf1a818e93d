"""Suites: a folder of cases plus `suite.json` (name, version, cases with hashes, a suite hash).

A folder without `suite.json` (a pdfhell suite) is still a suite. This module reads, hashes and
describes suites; building, adding to and verifying them is `workbench.build.suite`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import atomic, files
from workbench.core.case import Case, load_case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.layout import (
    SUITE_FILE,
    case_files,
    holds_suite,
    named_suite_dir,
    require_suite_folder,
    suite_of_run,
)
from workbench.core.schema import JSONObject, check_suite, plain_id

SUITE_FORMAT = "pdfworkbench-suite/1"


@dataclass
class Suite:
    """A suite folder read: its manifest's name and version, its cases, and the hash it records."""

    folder: Path
    name: str
    version: str
    cases: list[Case]
    has_manifest: bool
    recorded_hash: str | None = None
    problems: list[str] = field(default_factory=list)
    build: JSONObject | None = None     # suite.json's `build` block: the shards (build/shards.py)

    def case(self, case_id: str) -> Case:
        for c in self.cases:
            if c.id == case_id:
                return c
        raise UserError(f"suite {self.name!r} has no case {case_id!r}")

    def families(self) -> dict[str, list[Case]]:
        out: dict[str, list[Case]] = {}
        for c in self.cases:
            out.setdefault(c.trap_family, []).append(c)
        return dict(sorted(out.items()))


def check_case_id(case_id: str) -> str:
    """A case id as given, if it is a plain file name (`schema.plain_id`, the one rule for ids);
    one line saying why not otherwise."""
    return plain_id(case_id.strip(), "case id")


def case_entry(case: Case, pdf: bytes) -> JSONObject:
    return {
        "id": case.id,
        "family": case.trap_family,
        "json": f"{case.id}.json",
        "pdf": case.pdf_path or f"{case.id}.pdf",
        "sha256": sha256_hex(pdf),
        "key_sha256": case.key_sha256(),
    }


def suite_hash(entries: list[JSONObject]) -> str:
    """Hash of the content: each case's id, PDF bytes hash and canonical answer key hash.
    (Build and verify hash the entries they make; every other command asks `content_hash`.)"""
    return sha256_hex("".join(f"{e['id']}\x1f{e['sha256']}\x1f{e['key_sha256']}\n"
                              for e in sorted(entries, key=lambda e: e["id"])).encode())


def load_suite(folder: Path) -> Suite:
    folder = Path(folder)
    require_suite_folder(folder)
    manifest_path = folder / SUITE_FILE
    problems: list[str] = []
    if manifest_path.exists() or manifest_path.is_symlink():
        source = str(manifest_path)
        manifest = check_suite(files.read_json(manifest_path, "suite.json", within=folder), source)
        cases = []
        for i, e in enumerate(manifest["cases"], 1):
            json_name = e.get("json") or f"{e['id']}.json"
            path = files.contained(folder, json_name, f"case {i} field 'json'", source)
            cases.append(load_case(path, root=folder))
        listed = {c.id for c in cases} | {Path(e.get("json") or "").stem for e in manifest["cases"]}
        problems.extend(build_problems(manifest.get("build")))
        unlisted = unlisted_cases(folder, listed)
        problems.extend(f"{name}.json is in the folder but not in suite.json; rebuild the suite or "
                        "add the case to it" for name in unlisted[:20])
        if len(unlisted) > 20:
            problems.append(f"… and {len(unlisted) - 20} more cases not in suite.json "
                            "(after an interrupted build: pdfworkbench merge-suite DIR)")
        return Suite(folder, str(manifest.get("name", folder.name)), str(manifest.get("version", "1")),
                     cases, True, manifest.get("suite_hash"), problems, manifest.get("build"))
    cases = []
    for path in case_files(folder):
        try:
            cases.append(load_case(path, root=folder))
        except UserError as exc:
            problems.append(str(exc))
    if not cases:
        pdfs = sorted(p.name for p in folder.glob("*.pdf"))[:1] if not problems else []
        hint = (f"; its PDFs have no keys: open one (`pdfworkbench open {folder / pdfs[0]}`) or make "
                "cases of them (`pdfworkbench adopt PDF --into DIR --question Q --expected A`)") if pdfs else ""
        raise UserError(f"{folder}: no cases found (expected <id>.json beside <id>.pdf){hint}")
    return Suite(folder, folder.name, "1", cases, False, None, problems)


def unlisted_cases(folder: Path, listed: set[str]) -> list[str]:
    """Stems of `<x>.json` beside `<x>.pdf` in `folder` that the manifest does not list (a second
    writer's cases, or a manifest from an older build)."""
    return sorted(p.stem for p in case_files(folder)
                  if p.stem not in listed and p.with_suffix(".pdf").exists())


def build_problems(block: Any) -> list[str]:
    """What a suite.json `build` block says is not there: one line per missing or incomplete shard."""
    if not isinstance(block, dict):
        return []
    try:
        of = int(block.get("shards") or 1)
        missing = [int(i) for i in block.get("missing") or []]
        incomplete = {int(k): v for k, v in (block.get("incomplete") or {}).items()}
    except (TypeError, ValueError, AttributeError):
        return ["suite.json: its build block is malformed; run pdfworkbench merge-suite on the folder"]
    out = []
    if missing:
        names = ", ".join(f"{i}/{of}" for i in missing)
        out.append(f"shard{'s' if len(missing) > 1 else ''} {names} of this build {'are' if len(missing) > 1 else 'is'} "
                   f"missing: run `pdfworkbench build SPEC --out DIR --shard I/{of}` for each, into this folder")
    for i, counts in sorted(incomplete.items()):
        done, expected = (counts + [0, 0])[:2] if isinstance(counts, list) else (0, 0)
        out.append(f"shard {i}/{of} is incomplete ({done} of {expected} cases made): run it again")
    return out


def content_hash(suite: Suite) -> str:
    """The suite hash, the one every command shows and records: as suite.json records it (build
    wrote it from the content; `verify` checks it still is), else, for a folder without a
    manifest (a pdfhell suite), `suite_hash` of its content, as `verify` computes it: each case's
    PDF bytes (a missing PDF counts as empty) and answer key."""
    if suite.recorded_hash:
        return suite.recorded_hash
    return suite_hash([content_entry(c) for c in suite.cases])


def run_marks(suite: Suite, run: Path) -> JSONObject:
    """What each record of `run` notes (in `extra`) of the suite it is made on, so report and
    regrade find the suite wherever the run file goes: its folder relative to the run's home when
    inside it (`suite_dir`), its absolute path (`suite_path`) and its hash (`suite_hash`)."""
    marks: JSONObject = {"suite_path": str(Path(suite.folder).resolve()), "suite_hash": content_hash(suite)}
    named = named_suite_dir(run, suite.folder)
    if named is not None:
        marks["suite_dir"] = named
    return marks


def run_suite_folder(run: Path) -> Path | None:
    """The suite a run file was made on: `layout.suite_of_run`'s rules, then the path the run
    records (`suite_path`), used only while the suite there has the hash the run records (so a
    run cannot point the workbench at another folder). A suite gone from there, or changed since,
    is one line saying so."""
    found = suite_of_run(run)
    if found is not None:
        return found
    # (here: the suite's loading, at the workbench's start, reads no run file)
    from workbench.core.runs import iter_records

    first = next(iter_records(run), None)
    extra = first.extra if first is not None else {}
    path, digest = extra.get("suite_path"), extra.get("suite_hash")
    if not isinstance(path, str) or not path or "\x00" in path or not isinstance(digest, str):
        return None   # an older run, or one imported: --suite names it
    folder = Path(path)
    name = (first.suite if first is not None else None) or folder.name
    if not holds_suite(folder):
        raise UserError(f"{run}: made on suite {name!r} at {folder}, which is not there any more; give "
                        "--suite DIR (where the suite is now)")
    manifest = folder / SUITE_FILE
    if manifest.exists() or manifest.is_symlink():   # the recorded hash: no case is read to compare
        current = files.read_json(manifest, "suite.json", within=folder)
        current = current.get("suite_hash") if isinstance(current, dict) else None
    else:
        current = content_hash(load_suite(folder))
    if current != digest:
        raise UserError(f"{run}: the suite at {folder} has changed since the run (its hash is "
                        f"{str(current)[:12]}, the run records {digest[:12]}); give --suite {folder} to "
                        "grade against it as it is now")
    return folder


def suites_of_runs(runs: Sequence[Path]) -> list[Path]:
    """The suites a set of run files were made on (`run_suite_folder`), each once, in order."""
    found: list[Path] = []
    for run in runs:
        folder = run_suite_folder(Path(run))
        if folder is not None and folder not in found:
            found.append(folder)
    return found


def content_entry(case: Case) -> JSONObject:
    """A case's entry as `content_hash` counts it: a PDF that cannot be read counts as empty."""
    try:
        pdf = files.read_bytes(case.pdf_file, "PDF", "pdf_file_bytes", within=case.root)
    except UserError:
        pdf = b""
    return {"id": case.id, "sha256": sha256_hex(pdf) if pdf else "", "key_sha256": case.key_sha256()}


def compute_entries(suite: Suite) -> list[JSONObject]:
    entries = []
    for c in suite.cases:
        path = c.pdf_file
        if not path.exists():
            raise UserError(f"{c.id}: PDF {path} is missing")
        entries.append(case_entry(c, files.read_bytes(path, "PDF", "pdf_file_bytes")))
    return entries


def write_manifest(folder: Path, name: str, version: str, entries: list[JSONObject],
                   build: JSONObject | None = None) -> str:
    """Write `suite.json` (atomically); `build` is a sharded build's block (`BuildState.to_json`)."""
    digest = suite_hash(entries)
    manifest: JSONObject = {
        "format": SUITE_FORMAT,
        "name": name,
        "version": version,
        "suite_hash": digest,
        "cases": sorted(entries, key=lambda e: e["id"]),
    }
    if build:
        manifest["build"] = build
    atomic.write_json(Path(folder) / SUITE_FILE, manifest, within=folder)
    return digest


def suite_case_ids(folder: Path) -> set[str]:
    """Ids of the cases already in a suite folder (none for a folder that does not exist yet)."""
    folder = Path(folder).expanduser()
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{folder}: exists and is not a folder; choose a suite folder")
    if not folder.is_dir() or not any(folder.glob("*.json")):
        return set()
    return {c.id for c in load_suite(folder).cases}
