"""`pdfworkbench new-family`: a new trap family module from the template."""

from __future__ import annotations

import argparse

from workbench.build.authoring import user_family_folder, write_family_template
from workbench.cli.output import print_json
from workbench.core.config import family_dirs
from workbench.generators.registry import user_family_dirs


def cmd_new_family(args: argparse.Namespace) -> int:
    path = write_family_template(args.name, args.folder)
    searched = [d.resolve() for d in [*family_dirs(), *user_family_dirs()]]
    if args.json:
        print_json({"family": args.name, "path": str(path), "searched": path.parent.resolve() in searched})
        return 0
    print(f"wrote {path}")
    if path.parent.resolve() not in searched and args.folder is not None:
        print(f"note: {path.parent} is not searched for families; add it to family_dirs in the config "
              f"or to PDFWORKBENCH_FAMILY_PATH (default folder: {user_family_folder()})")
    print(f"try it: pdfworkbench make {args.name} --seed 1 && pdfworkbench lint {args.name}-0001.json")
    return 0
