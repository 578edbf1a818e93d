"""Every installed family keeps its arming contract: lint finds no error on its seeds.

Seeds 1..20 by default (about 25 s on 2 cores); set PDFWORKBENCH_LINT_SEEDS=50 for the full sweep
(about a minute). A seed whose drawn parameters the family rejects is reported as a warning; a
family that rejects every seed fails (it would otherwise pass with nothing linted).
"""

from __future__ import annotations

import os
import warnings

import pytest

from generators.registry import registry
from workbench.core.errors import UserError
from workbench.core.make import generate_case
from workbench.pdf.lint import lint_case

SEEDS = range(1, int(os.environ.get("PDFWORKBENCH_LINT_SEEDS", "20")) + 1)


@pytest.mark.parametrize("family", sorted(registry().families))
def test_family_lints_without_error(family):
    errors, rejected = [], []
    for seed in SEEDS:
        try:
            case, pdf = generate_case(family, seed)
        except UserError as exc:
            rejected.append(f"seed {seed}: {exc}")
            continue
        errors += [f"seed {seed} {f.code}: {f.message}" for f in lint_case(case, pdf) if f.severity == "error"]
    assert len(rejected) < len(SEEDS), f"{family} rejects every seed: {rejected[:3]}"
    if rejected:
        warnings.warn(f"{family} rejects its own seeded parameters: {rejected[:3]}", stacklevel=1)
    assert errors == []
