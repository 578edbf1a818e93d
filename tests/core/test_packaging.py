"""Packaging: the licence, every dependency's licence, the metadata, and the version pins."""

from __future__ import annotations

import re
import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]

# Licences a work under AGPL-3.0-or-later may combine with (the FSF's list of GPLv3-compatible
# licences; GPL-3.0 by the AGPL's section 13). Matched against SPDX ids, License fields and
# trove classifiers, case-insensitively.
COMPATIBLE = [
    r"\bMIT\b", r"MIT-CMU", r"\bHPND\b", r"\bBSD\b", r"BSD-[234]-Clause", r"\bISC\b", r"Apache",
    r"\bPSF\b", r"Python Software Foundation", r"\bMPL-2\.0\b", r"Mozilla Public License 2\.0",
    r"\bLGPL", r"Lesser General Public", r"\bGPL-3\.0", r"GNU General Public License v3",
    r"\bAGPL", r"Affero", r"\bZlib\b", r"Unlicense", r"CC0", r"Public Domain", r"0BSD",
]
# Never compatible, whatever else the metadata says.
INCOMPATIBLE = [r"GPL-2\.0-only", r"GPLv2 only", r"SSPL", r"Commons Clause", r"\bBUSL\b", r"Proprietary"]
# Read by hand where the metadata names no licence the patterns know (say why).
# A reviewed entry names the exact licence text it was read for: a changed text is reviewed again.
REVIEWED: dict[str, str] = {
    # pymupdf4llm's layout engine, Artifex's like PyMuPDF: its COPYING is the one line "Dual Licensed
    # - GNU AFFERO GPL 3.0 or Artifex Commercial License"; the Proprietary classifier is the second.
    "pymupdf-layout": "Dual Licensed - GNU AFFERO GPL 3.0 or Artifex Commercial License"
                      " | License :: Other/Proprietary License",
}


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[(]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _licence_texts(dist: metadata.Distribution) -> list[str]:
    md = dist.metadata
    texts = [md.get("License-Expression") or ""]
    licence = md.get("License") or ""
    texts.append(licence.splitlines()[0] if licence else "")
    texts += [c for c in md.get_all("Classifier") or [] if c.startswith("License ::")]
    if not any(t.strip() for t in texts):  # only a licence file: its title line
        for f in md.get_all("License-File") or []:
            body = dist.read_text(f"licenses/{f}") or dist.read_text(f) or ""
            texts += [line.strip() for line in body.splitlines() if line.strip()][:1]
    return [t for t in texts if t.strip()]


def _walk(names: list[str]) -> dict[str, metadata.Distribution]:
    """The installed distributions these names need, all the way down (markers honoured)."""
    from packaging.markers import default_environment
    from packaging.requirements import Requirement

    env = default_environment()
    seen: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen[name] = dist
        for raw in dist.requires or []:
            req = Requirement(raw)
            if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
                todo.append(req.name.lower().replace("_", "-"))
    return seen


def _runtime_requirements() -> list[str]:
    extras = PROJECT["optional-dependencies"]
    names = [_name(r) for r in PROJECT["dependencies"]]
    for extra in ("serve", "hires", "ocr", "extractors", "pymupdf4llm", "docling-parse", "pdftext"):
        names += [_name(r) for r in extras.get(extra, [])]
    return names


def test_the_project_is_agpl_with_the_licence_text():
    assert PROJECT["license"] == "AGPL-3.0-or-later"
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("GNU AFFERO GENERAL PUBLIC LICENSE")
    assert "Version 3, 19 November 2007" in text and "13. Remote Network Interaction" in text
    assert len(text) > 30000  # the whole licence, not a pointer to it
    readme = (ROOT / "README.md").read_text()
    assert "AGPL-3.0-or-later" in readme and "commercial licence" in readme


def test_every_runtime_dependency_has_a_compatible_licence():
    missing = [n for n in (_name(r) for r in PROJECT["dependencies"]) if not _installed(n)]
    assert not missing, f"runtime dependencies not installed: {missing}"
    problems = []
    for name, dist in sorted(_walk(_runtime_requirements()).items()):
        texts = _licence_texts(dist)
        joined = " | ".join(texts)
        if REVIEWED.get(name) == joined:
            continue
        if any(re.search(p, joined, re.I) for p in INCOMPATIBLE):
            problems.append(f"{name}: {joined}")
        elif name not in REVIEWED and not any(re.search(p, joined, re.I) for p in COMPATIBLE):
            problems.append(f"{name}: {joined or 'no licence in its metadata'}")
    assert not problems, "licences to review (add to REVIEWED with a reason if compatible):\n" + "\n".join(problems)


def _installed(name: str) -> bool:
    try:
        metadata.distribution(name)
        return True
    except metadata.PackageNotFoundError:
        return False


def test_metadata_names_the_project_not_people():
    assert PROJECT["authors"] == [{"name": "pdfworkbench developers"}]
    assert "urls" not in PROJECT and "maintainers" not in PROJECT
    assert any(c.startswith("License ::") is False for c in PROJECT["classifiers"])
    # PEP 639: with a `license` expression, licence classifiers are an error.
    assert not [c for c in PROJECT["classifiers"] if c.startswith("License ::")]
    assert "Programming Language :: Python :: 3.11" in PROJECT["classifiers"]
    assert (ROOT / "CHANGELOG.md").read_text().startswith("# Changelog")


def test_setuptools_is_new_enough_for_a_licence_expression():
    req = PYPROJECT["build-system"]["requires"]
    version = next(r for r in req if _name(r) == "setuptools")
    major = int(re.search(r">=\s*(\d+)", version).group(1))
    assert major >= 77


def test_textual_is_a_range_at_runtime_and_exact_only_for_snapshots():
    runtime = next(r for r in PROJECT["dependencies"] if _name(r) == "textual")
    assert "==" not in runtime and "<" in runtime and ">=" in runtime
    test_pin = next(r for r in PROJECT["optional-dependencies"]["test"] if _name(r) == "textual")
    assert "==" in test_pin
    from packaging.requirements import Requirement

    pinned = next(iter(Requirement(test_pin).specifier)).version
    assert Requirement(runtime).specifier.contains(pinned), "the snapshot pin must be in the runtime range"
    if _installed("textual") and (ROOT / "tests" / "tui" / "__snapshots__").exists():
        assert metadata.version("textual") == pinned or pytest.skip("snapshots need " + test_pin)


def test_the_ocr_extra_is_rapidocr_3_with_onnxruntime():
    ocr = {_name(r): r for r in PROJECT["optional-dependencies"]["ocr"]}
    assert set(ocr) == {"rapidocr", "onnxruntime"}
    assert ">=3" in ocr["rapidocr"] and "<4" in ocr["rapidocr"]


# The distribution's package list: every folder with an __init__.py installs, under `workbench`
# (the wheel itself is built, installed and checked for stray top-level names by .ci/package-check).
def _project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_folder_is_listed_under_the_workbench_name():
    tool = _project()
    mapped = {folder: name for name, folder in tool["package-dir"].items()}
    found = set()
    tracked = subprocess.run(["git", "ls-files", "--", "*__init__.py"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    for init in tracked:  # what the repository holds, not what a build left behind (build/lib)
        rel = Path(init).parent
        if rel.parts[0] in {"tests", "benchmarks"}:
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
