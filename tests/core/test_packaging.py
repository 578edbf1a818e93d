"""The distribution's package list: every folder with an __init__.py installs, under `workbench`
(the wheel itself is built, installed and checked for stray top-level names by .ci/package-check)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_folder_is_listed_under_the_workbench_name():
    tool = _project()
    mapped = {folder: name for name, folder in tool["package-dir"].items()}
    found = set()
    for init in ROOT.rglob("__init__.py"):
        rel = init.parent.relative_to(ROOT)
        if rel.parts[0] in {"tests", "benchmarks", ".venv"} or rel.parts[0].startswith("."):
            continue
        top = mapped.get(rel.parts[0])
        found.add(".".join((top, *rel.parts[1:])) if top else ".".join(rel.parts))
    assert found == set(tool["packages"])
    assert all(name == "workbench" or name.startswith("workbench.") for name in tool["packages"])


def test_package_data_patterns_match_files():
    tool = _project()
    mapped = {name: folder for name, folder in tool["package-dir"].items()}
    for package, patterns in tool["package-data"].items():
        folder = ROOT / mapped.get(package, package.replace(".", "/"))
        for pattern in patterns:
            assert list(folder.glob(pattern)), f"{package}: {pattern} matches nothing"
