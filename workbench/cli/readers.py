"""`pdfworkbench readers`: every reader, and whether it can be called here (its key, its server)."""

from __future__ import annotations

import argparse
import os

from workbench.cli.output import print_json
from workbench.core.config import config_dir
from workbench.core.errors import UserError
from workbench.providers import extractors
from workbench.providers.base import known_readers, parse_reader
from workbench.providers.config import BASE_URL_ENV, KEY_ENV, KEY_REQUIRED, base_url_origin


def reader_readiness(spec: str) -> dict:
    """Whether a reader can be called here, and what is missing when it cannot: its key, or (for a
    server with no public default) a base URL."""
    r = parse_reader(spec).inner   # an agent needs what its model's provider needs
    row: dict = {"reader": spec, "needs_key": r.provider in KEY_REQUIRED, "key_env": [], "missing": []}
    if r.is_probe:
        found = extractors.version(r.model)
        row.update(ready=found is not None, base_url=None, base_url_from=None, version=found)
        if found is None:
            row["missing"].append(extractors.missing(r.model))
        return row
    names = KEY_ENV.get(r.provider, ())
    row["key_env"] = list(names)
    try:
        url, origin = base_url_origin(r.provider)
    except UserError as exc:  # a bad base URL is this reader's problem, not the listing's
        row.update(base_url=None, base_url_from=None, ready=False, missing=[str(exc)])
        return row
    row.update(base_url=url, base_url_from=origin)
    if r.provider in KEY_REQUIRED and not any(os.environ.get(n, "").strip() for n in names):
        row["missing"].append("set " + " or ".join(names))
    if r.provider == "openai-compatible" and origin == "default":
        row["missing"].append(f"set {BASE_URL_ENV[r.provider]} (or [{r.provider}] base_url in "
                              f"{config_dir() / 'readers.toml'}) to your server")
    row["ready"] = not row["missing"]
    return row


def cmd_readers(args: argparse.Namespace) -> int:
    rows = [reader_readiness(spec) for spec in known_readers()]
    if args.json:
        print_json(rows)
    else:
        for row in rows:
            if row["base_url"] is None and row["ready"]:
                state = f"ready (offline, no key) · {row['version']}"
            elif row["ready"]:
                state = f"ready · {row['base_url']} ({row['base_url_from']})"
            else:
                state = "missing: " + "; ".join(row["missing"])
            print(f"{row['reader']:<32} {state}")
    return 0
