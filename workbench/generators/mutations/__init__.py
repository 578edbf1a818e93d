"""Mutations: arm a trap in a PDF someone else made (an adopted document).

A mutation is a family's contract applied to an existing PDF: it declares its parameters like a
family (`Param`, drawn from the seed unless pinned), takes the PDF bytes, a located value (the
`Target`: page, box, text), the answer key so far and the arming contract so far, and returns the
new PDF, the key derived from what it did, and the contract the lint checks. Same bytes, target,
params and seed give the same bytes. Mutations compose: each one's output is the next one's input.

One module per mutation in this package, defining NAME, VERSION, DESCRIPTION, PARAMS, CONTRACT
(the clauses it adds, as `families --json` shows them), NEEDS_TARGET and `apply`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from workbench.core.adoption import Target as Target
from workbench.core.schema import JSONObject
from workbench.generators.base import AnswerKey, Arming, Family, Generated, GenerationError


@dataclass
class Mutated:
    pdf: bytes
    key: AnswerKey
    contract: tuple[Arming, ...]
    # What the mutation drew and where (decoy text, its page and box), for the key's metadata.
    details: JSONObject


ApplyFn = Callable[[bytes, "Target | None", AnswerKey, tuple[Arming, ...], Mapping[str, Any], int], Mutated]


def _not_a_family(params: Mapping[str, Any], seed: int) -> Generated:
    raise GenerationError("a mutation changes an adopted PDF; use pdfworkbench mutate CASE --trap NAME")


@dataclass(frozen=True)
class Mutation(Family):
    """A mutation as declared by its module: a Family's params, resolution and description, plus
    `apply` (so the Author form and `families --json` treat it as they treat a family)."""

    apply: ApplyFn | None = None
    needs_target: bool = True

    def describe(self) -> JSONObject:
        return {**super().describe(), "kind": "mutation", "needs_target": self.needs_target}


def _from_module(module: Any) -> Mutation:
    return Mutation(
        name=module.NAME, version=int(module.VERSION), description=module.DESCRIPTION,
        params=tuple(module.PARAMS), contract=tuple(module.CONTRACT), generate=_not_a_family,
        apply=module.apply, needs_target=bool(getattr(module, "NEEDS_TARGET", True)),
    )


_MUTATIONS: dict[str, Mutation] | None = None


def mutations() -> dict[str, Mutation]:
    """Every mutation in this package, by name."""
    global _MUTATIONS
    if _MUTATIONS is None:
        found = {}
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_"):
                continue
            mutation = _from_module(importlib.import_module(f"{__name__}.{info.name}"))
            found[mutation.name] = mutation
        _MUTATIONS = dict(sorted(found.items()))
    return _MUTATIONS


class UnknownMutation(LookupError):
    pass


def get_mutation(name: str) -> Mutation:
    try:
        return mutations()[name]
    except KeyError:
        raise UnknownMutation(f"unknown mutation {name!r}; choose one of {', '.join(mutations())}") from None
