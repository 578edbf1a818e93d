"""Every installed family keeps its arming contract: lint finds no error on seeds 1..50, and
finds an error on every setting the family declares to remove its trap (DISARMED).

PDFWORKBENCH_LINT_SEEDS=N sweeps seeds 1..N instead (a quicker local run). A seed whose drawn
parameters the family rejects is reported as a warning; a family that rejects every seed fails
(it would otherwise pass with nothing linted).
"""

from __future__ import annotations

import os
import warnings

import pytest

from workbench.build.make import generate_case
from workbench.checks.lint import lint_case
from workbench.core.errors import UserError
from workbench.generators.registry import registry

SEEDS = range(1, int(os.environ.get("PDFWORKBENCH_LINT_SEEDS", "50")) + 1)
FAMILIES = registry().families


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.slow   # each family linted on its pages (cross_page_citation 68 s at load 13, -n 2)
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


DISARMED = [(name, n) for name in sorted(FAMILIES) for n in range(len(FAMILIES[name].disarmed))]


@pytest.mark.parametrize(("family", "n"), DISARMED, ids=[f"{f}-{n}" for f, n in DISARMED])
def test_a_disarmed_trap_lints_with_an_error(family, n):
    disarm = FAMILIES[family].disarmed[n]
    for seed in (1, 2, 3):
        case, pdf = generate_case(family, seed, dict(disarm.params), dict(disarm.degrade) if disarm.degrade else None)
        codes = [f.code for f in lint_case(case, pdf) if f.severity == "error"]
        assert "trap-disarmed" in codes, f"seed {seed}: {disarm.why}: {codes}"


def test_every_hidden_layer_family_declares_the_scan_that_disarms_it():
    """A decoy only in hidden text goes with the text layer: such a family must say so."""
    hidden = {name for name, fam in FAMILIES.items()
              if any(c.target.startswith("forbidden") and c.where == "hidden" for c in fam.contract)}
    assert hidden and hidden <= {name for name, fam in FAMILIES.items() if fam.disarmed}
