"""Making cases from families: resolve parameters, generate, degrade, and write the pair of files."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from generators.base import Family, GenerationError, ParamError
from generators.registry import Registry, UnknownFamily, registry
from workbench.core import atomic
from workbench.core.case import Case, sha256_hex
from workbench.core.errors import UserError


def family_registry(refresh: bool = False) -> Registry:
    """Every family: the package's own, plus user modules in the config folder, the settings'
    `family_dirs` and `PDFWORKBENCH_FAMILY_PATH` (generators read only the variable)."""
    from workbench.core.config import family_dirs

    return registry(refresh, extra_dirs=family_dirs())


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


def default_case_id(family: str, seed: int, pinned: Mapping[str, Any], degrade: Mapping[str, Any] | None) -> str:
    base = f"{family}-{seed:04d}"
    if not pinned and not degrade:
        return base
    blob = json.dumps({"p": dict(pinned), "d": degrade}, sort_keys=True, default=str)
    return f"{base}-{hashlib.sha256(blob.encode()).hexdigest()[:6]}"


def generate_case(
    family_name: str,
    seed: int,
    pinned: Mapping[str, Any] | None = None,
    degrade: Mapping[str, Any] | None = None,
    case_id: str | None = None,
    family: Family | None = None,
) -> tuple[Case, bytes]:
    """Generate one case in memory: the case record (with resolved params) and the PDF bytes."""
    pinned = dict(pinned or {})
    fam = family or get_family(family_name)
    try:
        params = fam.resolve(pinned, seed)
    except ParamError as exc:
        raise UserError(f"{fam.name}: {exc}") from None
    try:
        out = fam.generate(params, seed)
    except (GenerationError, ParamError) as exc:
        raise UserError(f"{fam.name}: {exc}") from None
    pdf = out.pdf
    degrade_spec = None
    if degrade:
        from generators.degrade import apply_degrade  # numpy and imaging only when asked for

        pdf, degrade_spec = apply_degrade(pdf, dict(degrade), seed, out.key)
    key = out.key
    cid = case_id or default_case_id(fam.name, seed, pinned, degrade_spec)
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
        generator={"name": fam.name, "version": fam.version, "pinned": sorted(pinned)},
        matcher=dict(key.matcher),
        gold=key.gold,
        contract=[asdict(c) for c in fam.contract_of(params)],
        sha256=sha256_hex(pdf),
    )
    return case, pdf


def write_case(case: Case, pdf: bytes, out_dir: Path) -> Path:
    """Write `<id>.pdf` then `<id>.json`, each atomically; return the JSON path."""
    out_dir = Path(out_dir)
    atomic.write_bytes(out_dir / f"{case.id}.pdf", pdf)
    json_path = out_dir / f"{case.id}.json"
    atomic.write_json(json_path, case.to_json())
    case.json_path = json_path
    return json_path


def regenerate(case: Case) -> tuple[Case, bytes]:
    """Generate a case again from what its JSON records (family, version, resolved params, degrade);
    an adopted case from its source (and its mutation steps)."""
    if case.source is not None:
        from workbench.core.adopted import regenerate_adopted

        return regenerate_adopted(case)
    fam = get_family(case.trap_family)
    recorded = (case.generator or {}).get("version")
    if recorded is not None and int(recorded) != fam.version:
        raise UserError(
            f"{case.id}: made by {fam.name} version {recorded}, installed version is {fam.version}"
        )
    if case.params is None:
        raise UserError(f"{case.id}: records no params (an imported case); it cannot be regenerated")
    return generate_case(fam.name, case.seed, case.params, case.degrade, case_id=case.id, family=fam)
