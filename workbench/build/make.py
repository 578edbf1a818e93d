"""Making cases from families: resolve parameters, generate, degrade, and write the pair of files.

This module also holds the registry of families (`family_registry`), which shell completion,
`families` and the Author's family list import without making a case: it imports no PDF library,
numpy or imaging, and the scan stage is imported where a case is scanned.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import atomic
from workbench.core.case import Case, GeneratorRef, default_case_id, sha256_hex
from workbench.core.config import family_dirs
from workbench.core.errors import UserError
from workbench.core.scan import DegradeSpec
from workbench.core.schema import MAX_SEED, plain_id
from workbench.generators.base import Family, GenerationError, ParamError
from workbench.generators.registry import Registry, UnknownFamily, discover

_families: Registry | None = None


def family_registry(refresh: bool = False, force: bool = False) -> Registry:
    """Every family: the package's own, plus user modules in the config folder, the settings'
    `family_dirs` and `PDFWORKBENCH_FAMILY_PATH` (generators read only the variable).

    Loaded once per process and held; `refresh` (the Author screen, after a save) looks at the
    user family files again and reloads them if they changed (`force`: reloads them anyway).
    Getting a family never stats them.
    """
    global _families
    dirs = tuple(family_dirs())
    if _families is None or _families.dirs != dirs:
        _families = discover(list(dirs))
    elif refresh or force:
        _families = _families.reloaded(force)
    return _families


def get_family(name: str) -> Family:
    try:
        return family_registry().get(name)
    except UnknownFamily as exc:
        raise UserError(str(exc)) from None


def parse_param_args(items: list[str]) -> dict[str, str]:
    """`["a=1", "b=x y"]` -> `{"a": "1", "b": "x y"}`."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UserError(f"--param {item!r}: write it as NAME=VALUE")
        out[name.strip()] = value
    return out


@dataclass
class MadeCase:
    """A case made in memory: the record, its PDF, and the PDF before any scan."""

    case: Case
    pdf: bytes
    clean_pdf: bytes
    seconds: dict[str, float] = field(default_factory=dict)   # generate, degrade


def generate_case(family_name: str, seed: int, *args: Any, **kwargs: Any) -> tuple[Case, bytes]:
    """Generate one case in memory: the case record (with resolved params) and the PDF bytes.
    Takes `make_case`'s arguments (the one signature)."""
    made = make_case(family_name, seed, *args, **kwargs)
    return made.case, made.pdf


def make_case(
    family_name: str,
    seed: int,
    pinned: Mapping[str, Any] | None = None,
    degrade: DegradeSpec | Mapping[str, Any] | None = None,
    case_id: str | None = None,
    family: Family | None = None,
) -> MadeCase:
    """Generate one case in memory, once: the record, the PDF, and the PDF before the scan."""
    if case_id is not None:
        plain_id(case_id, "--id")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise UserError(f"seed {seed!r}: give a whole number between 0 and {MAX_SEED}")
    pinned = dict(pinned or {})
    spec = DegradeSpec.parse_optional(degrade)
    t0 = time.perf_counter()
    fam = family or get_family(family_name)
    try:
        params = fam.resolve(pinned, seed)
    except ParamError as exc:
        raise UserError(f"{fam.name}: {exc}") from None
    try:
        out = fam.generate(params, seed)
    except (GenerationError, ParamError) as exc:
        raise UserError(f"{fam.name}: {exc}") from None
    pdf = clean = out.pdf
    seconds = {"generate": time.perf_counter() - t0}
    degrade_spec = None
    if spec is not None:
        # (numpy, imaging and pymupdf, imported when a case is scanned: see the module docstring)
        from workbench.generators.degrade import apply_degrade

        t1 = time.perf_counter()
        scanned, applied = apply_degrade(pdf, spec, seed, out.key)
        pdf, degrade_spec = scanned, applied
        seconds["degrade"] = time.perf_counter() - t1
    key = out.key
    cid = case_id or default_case_id(fam.name, seed, pinned, degrade_spec.to_json() if degrade_spec else None)
    metadata = dict(key.metadata)
    metadata["expected_failure_mode"] = key.expected_failure_mode
    case = Case(
        id=cid,
        trap_family=fam.name,
        seed=seed,
        question=key.question,
        expected_answer=key.expected_answer,
        forbidden_answers=list(key.forbidden_answers),
        expected_tokens=list(key.expected_tokens),
        pdf_path=f"{cid}.pdf",
        metadata=metadata,
        params=params,
        degrade=degrade_spec,
        generator=GeneratorRef(fam.name, fam.version, pinned=tuple(sorted(pinned))),
        matcher=key.matcher,
        gold=key.gold,
        contract=fam.contract_of(params),
        sha256=sha256_hex(pdf),
    )
    return MadeCase(case, pdf, clean, seconds)


def write_case(case: Case, pdf: bytes, out_dir: Path) -> Path:
    """Write `<id>.pdf` then `<id>.json`, each atomically; return the JSON path."""
    out_dir = Path(out_dir)
    plain_id(case.id, "case id")  # never a path: the files land in out_dir and nowhere else
    atomic.write_bytes(out_dir / f"{case.id}.pdf", pdf, within=out_dir)
    json_path = out_dir / f"{case.id}.json"
    atomic.write_json(json_path, case.to_json(), within=out_dir)
    case.json_path = json_path
    return json_path


def other_version(case: Case) -> str | None:
    """"made by FAMILY version N, installed version is M" when the family installed is not the
    version the case records (its pages would not be the ones it was made from), else None."""
    fam = get_family(case.trap_family)
    recorded = case.generator.version if case.generator else None
    if recorded is not None and recorded != fam.version:
        return f"made by {fam.name} version {recorded}, installed version is {fam.version}"
    return None
