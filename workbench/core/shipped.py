"""The sample suites and suite specs that ship with the package, and the user's working copies.

Both are package data (`sample_cases/` and `specs/` are packages, so a wheel carries them) and
are treated as read-only: an installed package may sit where the user cannot write, and a
checkout's samples are rebuilt from code. The workbench never writes into them. On first use a
shipped sample suite is copied into the user's data folder (platformdirs' user data dir;
`PDFWORKBENCH_DATA_DIR` overrides it) and the copy is what opens, so asking a reader or deciding
a dispute writes there. Every folder under `sample_cases/` that holds a suite ships.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from workbench.core.errors import UserError

DATA_ENV = "PDFWORKBENCH_DATA_DIR"
DEFAULT_SAMPLE = "mini"
MARKER = ".shipped"   # in a copy: the hash of the shipped suite it was copied from


def data_dir() -> Path:
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("pdfworkbench"))


def shipped_samples() -> Path:
    """The folder of shipped sample suites (in a checkout, the repository's `sample_cases/`)."""
    from workbench import sample_cases

    return Path(sample_cases.__file__).resolve().parent


def shipped_specs() -> Path:
    """The folder of shipped suite specs (`specs/*.toml`)."""
    from workbench import specs

    return Path(specs.__file__).resolve().parent


def sample_names() -> list[str]:
    """Every shipped sample suite: each folder under `sample_cases/` with a suite.json."""
    root = shipped_samples()
    return sorted(p.name for p in root.iterdir() if (p / "suite.json").is_file())


def _suite_hash(folder: Path) -> str:
    try:
        return str(json.loads((folder / "suite.json").read_text(encoding="utf-8")).get("suite_hash", ""))
    except (OSError, ValueError):
        return ""


def working_sample(name: str = DEFAULT_SAMPLE) -> Path:
    """The user's copy of a shipped sample suite, made on first use.

    A copy whose shipped suite has changed since (a newer package) is moved aside, to
    `<name>.before-<hash>`, with whatever the user wrote in it, and a fresh copy made."""
    if name not in sample_names():
        raise UserError(f"no shipped sample suite {name!r}; there are: {', '.join(sample_names())}")
    source = shipped_samples() / name
    shipped = _suite_hash(source)
    root = data_dir() / "samples"
    dest = root / name
    marker = dest / MARKER
    if dest.is_dir() and marker.is_file() and marker.read_text(encoding="utf-8").strip() == shipped:
        return dest
    root.mkdir(parents=True, exist_ok=True)
    if dest.exists():
        old = marker.read_text(encoding="utf-8").strip()[:12] if marker.is_file() else "unknown"
        aside = root / f"{name}.before-{old}"
        if aside.exists():
            shutil.rmtree(aside)
        dest.rename(aside)
    # Copy beside, then rename: a crash never leaves a half copy where the workbench looks.
    tmp = root / f".{name}.copying"
    if tmp.exists():
        shutil.rmtree(tmp)
    shutil.copytree(source, tmp, ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.lock", ".suite.lock"))
    (tmp / MARKER).write_text(shipped + "\n", encoding="utf-8")
    tmp.rename(dest)
    return dest
