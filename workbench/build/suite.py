"""Making suites: building one from a TOML spec (`build_suite`, sharded or not), merging a sharded
build's manifests (`merge_suite`) and regenerating every case to compare (`verify_suite`; one
case made again from what its JSON records: `regenerate`).
Adding one case to a suite is `workbench.build.saving`.

Reading, hashing and describing a suite is `workbench.core.suite`.
"""

from __future__ import annotations

import hashlib
import json
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.build.adopted import regenerate_adopted
from workbench.build.make import generate_case, get_family, make_case, other_version, write_case
from workbench.build.shards import (
    BuildState,
    Shard,
    ShardManifest,
    clear_stale,
    read_build,
    remove_manifests,
)
from workbench.core import atomic, files
from workbench.core.case import Case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.layout import build_dir
from workbench.core.pool import map_ordered
from workbench.core.scan import TEXT_LAYERS, TIERS, DegradeSpec
from workbench.core.schema import MAX_SEEDS, SPEC, SPEC_GROUP, JSONObject, check_shape, parse_seeds
from workbench.core.suite import (
    case_entry,
    content_entry,
    load_suite,
    suite_hash,
    write_manifest,
)
from workbench.generators.base import Family, ParamError

# ---- build from a TOML spec ---------------------------------------------------------------

@dataclass
class BuildItem:
    family: str
    seed: int
    params: dict[str, Any]
    degrade: DegradeSpec | None
    group: int = 1          # its [[families]] table, counted from 1 (for error lines)

    def identity(self) -> str:
        """What makes the case: two items with the same identity make the same case."""
        return json.dumps([self.family, self.seed, self.params,
                           self.degrade.request().to_json() if self.degrade else None],
                          sort_keys=True, default=str)


def read_spec(path: Path) -> tuple[str, str, list[BuildItem]]:
    path = Path(path)
    try:
        if path.is_dir():
            raise UserError(f"{path}: is a folder; give a suite spec (.toml)")
        spec = tomllib.loads(files.read_text(path, "suite spec (.toml)"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: malformed TOML: {exc}") from None
    except (OSError, RecursionError) as exc:
        raise UserError(f"{path}: cannot read the spec ({exc.__class__.__name__})") from None
    check_shape(spec, SPEC, str(path), "spec", unknown=False)
    groups = spec.get("families") or spec.get("family")
    if not isinstance(groups, list) or not groups:
        raise UserError(f"{path}: a suite spec needs at least one [[families]] table with name and seeds")
    items: list[BuildItem] = []
    for i, g in enumerate(groups, 1):
        where = f"{path}: [[families]] #{i}"
        check_shape(g, SPEC_GROUP, where, "family table", unknown=False)
        seeds = parse_seeds(g.get("seeds", 1), where)
        params = dict(g.get("params") or {})
        tiers = g.get("tiers") or ([g["tier"]] if "tier" in g else [None])
        for tier in tiers:
            if tier is not None and tier not in TIERS:
                raise UserError(f"{where}: unknown tier {tier!r}; choose from {', '.join(TIERS)}")
        if g.get("text_layer", "none") not in TEXT_LAYERS:
            raise UserError(f"{where}: unknown text_layer {g['text_layer']!r}; choose from {', '.join(TEXT_LAYERS)}")
        if len(items) + len(seeds) * len(tiers) > MAX_SEEDS:
            raise UserError(f"{where}: the spec makes more than {MAX_SEEDS:,} cases; split it")
        for tier in tiers:
            degrade = None
            if tier is not None or g.get("degrade") or g.get("text_layer") or "dpi" in g:
                try:
                    degrade = DegradeSpec.parse({"tier": tier, "overrides": g.get("degrade"),
                                                 "text_layer": g.get("text_layer"), "dpi": g.get("dpi")})
                except UserError as exc:
                    raise UserError(f"{where}: {exc}") from None
            items.extend(BuildItem(str(g["name"]), s, params, degrade, i) for s in seeds)
    return str(spec.get("name", path.stem)), str(spec.get("version", "1")), items


# How often a running build merges what it has made into suite.json (and at its end, always), so
# a build killed mid-way leaves a suite.json listing complete cases only, at most this far behind.
CHECKPOINT_S = 5.0


def spec_sha256(name: str, version: str, items: Sequence[BuildItem]) -> str:
    """The spec's content (not its bytes: comments do not count), which every shard agrees on."""
    h = hashlib.sha256(json.dumps([name, version], sort_keys=True).encode())
    for item in items:
        h.update(item.identity().encode() + b"\n")
    return h.hexdigest()


def check_items(spec_path: Path, items: Sequence[BuildItem], shard: Shard | None = None) -> None:
    """Everything the spec asks for that can be checked without generating: each family exists,
    parameters resolve, no case is asked for twice (one pass, a set of identities).

    Parameters are resolved for every item of `shard` (default: all) and for the first seed of
    every table, so each shard checks its own cases and every shard refuses a bad pin (resolving
    takes about 0.4 ms an item: 40 s for a 100,000-case spec, were every shard to do them all)."""
    families: dict[str, Family] = {}
    seen: dict[str, BuildItem] = {}
    dupes: list[str] = []
    groups_seen: set[int] = set()
    mine = shard or Shard()
    for n, item in enumerate(items):
        where = f"{spec_path}: [[families]] #{item.group}"
        if item.family not in families:
            try:
                families[item.family] = get_family(item.family)
            except UserError as exc:
                raise UserError(f"{where}: {exc}") from None
        fam = families[item.family]
        if n % mine.of == mine.index - 1 or item.group not in groups_seen:
            groups_seen.add(item.group)
            try:
                fam.resolve(dict(item.params), item.seed)
            except ParamError as exc:
                raise UserError(f"{where}: {fam.name} seed {item.seed}: {exc}") from None
        ident = item.identity()
        if ident in seen and len(dupes) < 5:
            dupes.append(f"{item.family} seed {item.seed} (#{seen[ident].group} and #{item.group})")
        seen.setdefault(ident, item)
    if dupes:
        raise UserError(f"{spec_path}: the spec makes the same case twice: {', '.join(dupes)}")


def merge_suite(folder: Path) -> tuple[str, BuildState]:
    """Merge the shard manifests in `folder` into its suite.json; return (suite hash, build state).
    The caller holds the suite lock, or `merge_suite_locked` takes it."""
    folder = Path(folder)
    state = read_build(folder)
    if state is None:
        raise UserError(f"{folder}: no shard manifests (.build/shard-*.jsonl) to merge; "
                        "they are written by pdfworkbench build --out DIR [--shard i/n]")
    digest = write_manifest(folder, state.name or folder.name, state.version, state.entries(),
                            state.to_json())
    return digest, state


def merge_suite_locked(folder: Path) -> tuple[str, BuildState]:
    with atomic.suite_lock(folder):
        return merge_suite(folder)


def build_suite(
    spec_path: Path, out: Path, shard: str | None = None,
    progress: Callable[[int, int, str], None] | None = None, jobs: int | None = 1,
) -> tuple[str, int]:
    """Generate the spec's cases (or shard i/n of them) into `out`, each written as it is made,
    and merge them into `suite.json`. Returns (suite hash, cases this shard made).

    The whole spec is checked before anything is written. `jobs` processes generate and write the
    cases (None: every core); the files and hash do not depend on it. Shards of one spec, run at
    once into one folder, leave one suite.json of every case (see `build/shards.py`)."""
    spec_path = Path(spec_path)
    name, version, all_items = read_spec(spec_path)
    which = Shard.parse(shard)
    items = which.pick(all_items)
    check_items(spec_path, all_items, which)
    out = atomic.ensure_folder(Path(out), "--out")
    spec_hash = spec_sha256(name, version, all_items)
    with atomic.suite_lock(out):
        for folder in (out, build_dir(out)):  # a build killed mid-write left its temporary files
            atomic.remove_stray_temps(folder)
        clear_stale(out, spec_hash, which.of)
        manifest = ShardManifest(out, which, {"spec_sha256": spec_hash, "name": name, "version": version,
                                              "cases": len(items), "total": len(all_items)})
        merge_suite(out)
    made_ids: set[str] = set()
    last = time.monotonic()
    try:
        work = map_ordered(_BuildInto(out), items, jobs, chunksize=4)
        for n, entry in enumerate(work, 1):
            if entry["id"] in made_ids:  # a 6-hex-digit id hash collision; the spec check saw no twin
                raise UserError(f"{spec_path}: two cases of the spec got the id {entry['id']}; "
                                "pin a parameter or change a seed to tell them apart")
            made_ids.add(entry["id"])
            manifest.add(entry)
            if progress:
                progress(n, len(items), entry["id"])
            if time.monotonic() - last >= CHECKPOINT_S:
                merge_suite_locked(out)
                last = time.monotonic()
        manifest.finish()
    except UserError as exc:
        manifest.close()
        merge_suite_locked(out)
        raise UserError(f"{exc} (shard {which} stopped after {manifest.count} of {len(items)} cases; "
                        "suite.json lists the complete ones)") from None
    except BaseException:
        manifest.close()
        merge_suite_locked(out)
        raise
    manifest.close()
    with atomic.suite_lock(out):
        digest, state = merge_suite(out)
        if which.of == 1 and not state.missing() and not state.incomplete():
            remove_manifests(out)  # suite.json holds it all; nothing is left to merge
    return digest, manifest.count


class _BuildInto:
    """Make one case and write its two files into `out`; its suite entry goes back to the parent
    (a worker writes, so no PDF crosses between processes or waits in memory)."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def __call__(self, item: BuildItem) -> JSONObject:
        made = make_case(item.family, item.seed, item.params, item.degrade)
        write_case(made.case, made.pdf, self.out)
        return case_entry(made.case, made.pdf)


# ---- verify ---------------------------------------------------------------------------------

@dataclass
class VerifyResult:
    case_id: str
    ok: bool
    problems: list[str]
    # regenerated (made again and compared), or, for a case not made by our generators, which
    # cannot be made again: "recorded hash" (its PDF checked against the sha256 its JSON records)
    # or "no recorded hash" (nothing to check it against).
    how: str = "regenerated"


def regenerate(case: Case) -> tuple[Case, bytes]:
    """Generate a case again from what its JSON records (family, version, resolved params, degrade);
    an adopted case from its source (and its mutation steps)."""
    if case.source is not None:
        return regenerate_adopted(case)
    fam = get_family(case.trap_family)
    if (other := other_version(case)) is not None:
        raise UserError(f"{case.id}: {other}")
    if case.params is None:
        raise UserError(f"{case.id}: records no params (an imported case); it cannot be regenerated")
    return generate_case(fam.name, case.seed, case.params, case.degrade, case_id=case.id, family=fam)


def foreign(case: Case) -> bool:
    """Made elsewhere (a pdfhell case, an imported one): no generator and params of ours to make
    it again from, and not adopted (an adopted case is made again from its source)."""
    return case.source is None and (case.generator is None or case.params is None)


def _verify_foreign(case: Case, on_disk: bytes, problems: list[str]) -> VerifyResult:
    if problems:   # the PDF is missing
        return VerifyResult(case.id, False, problems, "recorded hash" if case.sha256 else "no recorded hash")
    if not case.sha256:
        return VerifyResult(case.id, True, [], "no recorded hash")
    if case.sha256 != sha256_hex(on_disk):
        return VerifyResult(case.id, False, [f"PDF does not match the sha256 its JSON records (on disk "
                                             f"{sha256_hex(on_disk)[:12]}, recorded {case.sha256[:12]})"],
                            "recorded hash")
    return VerifyResult(case.id, True, [], "recorded hash")


def verify_suite(folder: Path, jobs: int | None = 1) -> tuple[list[VerifyResult], str, str | None]:
    """Regenerate each case from its JSON and compare bytes and key. Returns (results, hash, recorded).

    `jobs` processes regenerate the cases (None: every core); results come in suite order."""
    suite = load_suite(folder)
    results: list[VerifyResult] = []
    entries = []
    for result, entry in map_ordered(_verify_case, suite.cases, jobs, chunksize=4):
        results.append(result)
        if entry is not None:
            entries.append(entry)
    digest = suite_hash(entries)   # what content_hash gives a folder without suite.json
    if suite.problems:  # cases the manifest does not list, case files that do not load
        results.append(VerifyResult("suite.json", False, list(suite.problems), "suite.json"))
    if suite.recorded_hash and suite.recorded_hash != digest:
        results.append(VerifyResult("suite.json", False, [f"recorded suite hash {suite.recorded_hash[:12]} differs "
                                                          f"from content {digest[:12]}"], "suite.json"))
    return results, digest, suite.recorded_hash


def _verify_case(case: Case) -> tuple[VerifyResult, JSONObject | None]:
    """One case regenerated and compared: its result, and its manifest entry (None: no PDF)."""
    problems: list[str] = []
    entry = None
    on_disk = b""
    try:
        path = case.pdf_file
        if not path.exists():
            problems.append(f"PDF {path.name} is missing")
        else:
            on_disk = files.read_bytes(path, "PDF", "pdf_file_bytes")
    except UserError as exc:  # a link, a FIFO, a file over its cap
        problems.append(str(exc))
    # As content_hash counts it: a missing PDF as empty.
    entry = case_entry(case, on_disk) if on_disk else {**content_entry(case), "sha256": ""}
    if foreign(case):
        return _verify_foreign(case, on_disk, problems), entry
    try:
        fresh, pdf = regenerate(case)
    except UserError as exc:
        return VerifyResult(case.id, False, problems + [str(exc)]), entry
    if on_disk and pdf != on_disk:
        problems.append(
            f"PDF bytes differ (on disk {sha256_hex(on_disk)[:12]}, regenerated {sha256_hex(pdf)[:12]})"
        )
    if case.sha256 and on_disk and case.sha256 != sha256_hex(on_disk):
        problems.append("PDF does not match the sha256 its JSON records")
    if fresh.answer_key() != case.answer_key():
        changed = [k for k, v in fresh.answer_key().items() if case.answer_key().get(k) != v]
        problems.append(f"answer key differs in {', '.join(changed)}")
    return VerifyResult(case.id, not problems, problems), entry
