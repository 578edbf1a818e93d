"""`pdfworkbench families`: the trap families and the mutations, with their parameters."""

from __future__ import annotations

import argparse

from workbench.build.make import family_registry
from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.generators.mutations import mutations


def cmd_families(args: argparse.Namespace) -> int:
    reg = family_registry()
    muts = mutations()
    if args.json:  # mutations declare params like families; "kind": "mutation" tells them apart
        print_json([f.describe() for f in reg.families.values()] + [m.describe() for m in muts.values()])
    else:
        width = max(len(n) for n in [*reg.families, *muts])
        for fam in reg.families.values():
            print(f"{fam.name:<{width}}  v{fam.version}  {fam.description}")
            _print_params(fam.describe()["params"])
        print("\nmutations (pdfworkbench mutate CASE --trap NAME, on an adopted case):")
        for mut in muts.values():
            print(f"{mut.name:<{width}}  v{mut.version}  {mut.description}")
            _print_params(mut.describe().get("params", []))
        print("\nset one with --param NAME=VALUE; a seeded parameter left unset is drawn from --seed")
    for problem in reg.problems:
        note(f"pdfworkbench: warning: family module not loaded: {problem.message}")
    return 0


def _print_params(params: list[dict]) -> None:
    """A family's parameters, one indented line each: name, type, default, range or choices, help."""
    if not params:
        return
    width = max(len(p["name"]) for p in params)
    for p in params:
        lo, hi = p.get("range") or (None, None)
        allowed = (f"  one of {', '.join(map(str, p['choices']))}" if "choices" in p
                   else f"  up to {hi} characters" if p["type"] == "str" and hi is not None
                   else f"  {lo}..{hi}" if lo is not None and hi is not None
                   else f"  at least {lo}" if lo is not None else f"  at most {hi}" if hi is not None else "")
        drawn = ", seeded" if p.get("seeded") else ""
        print(f"    {p['name']:<{width}}  {p['type']}, default {p['default']!r}{drawn}{allowed}  {p['help']}")
