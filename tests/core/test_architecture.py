"""The layering: core packages never import Textual (checked in a fresh interpreter), and the
generators never import the model readers, gold, the TUI or the CLI (checked in the source, so an
import inside a function counts too)."""

import ast
import subprocess
import sys
from pathlib import Path

CORE = ["workbench.text", "workbench.core", "workbench.pdf", "workbench.build", "workbench.checks", "workbench.grading", "workbench.gold", "workbench.providers",
        "workbench.generators"]
ROOT = Path(__file__).resolve().parents[2]


def test_core_packages_do_not_import_textual():
    code = (
        "import importlib, pkgutil, sys\n"
        f"for name in {CORE!r}:\n"
        "    pkg = importlib.import_module(name)\n"
        "    for info in pkgutil.walk_packages(pkg.__path__, name + '.'):\n"
        "        importlib.import_module(info.name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.') or m.startswith('workbench.tui'))\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def imported_names(path: Path) -> set[str]:
    """Every module an `import` or `from ... import` in the file names, wherever it sits."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def test_generators_never_import_providers_gold_tui_or_cli():
    above = ("workbench.providers", "workbench.gold", "workbench.tui", "workbench.cli")
    files = sorted((ROOT / "workbench" / "generators").rglob("*.py"))
    assert len(files) > 20
    bad = {f"{p.relative_to(ROOT)}: {n}" for p in files for n in imported_names(p)
           if any(n == a or n.startswith(a + ".") for a in above)}
    assert not bad


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "fam.py"
    module.write_text("def generate(p, seed):\n    from workbench.providers import reading\n")
    assert "workbench.providers" in imported_names(module)


def test_no_test_module_imports_another():
    """Helpers live in tests/support/fixtures.py (and fixtures in conftest.py), never in a test module."""
    files = sorted((ROOT / "tests").rglob("*.py"))
    bad = {f"{p.relative_to(ROOT)}: {n}" for p in files for n in imported_names(p)
           if n.startswith("tests.") and n.rsplit(".", 1)[-1].startswith("test_")
           or n.startswith("tests.") and ".test_" in n}
    assert not bad


# No module imports one that imports it back, not even inside a function.
KNOWN_CIRCLES: set[frozenset[str]] = set()


def test_no_import_circle_counting_imports_inside_functions():
    """grimp's graph of workbench + generators, every import wherever it sits: no module reaches
    itself again (grading.fields <-> matchers was one, dodged by imports inside functions)."""
    import grimp

    graph = grimp.build_graph("workbench", cache_dir=None)
    circles = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if graph.find_shortest_chain(importer=imported, imported=module):
                circles.add(frozenset({module, imported}) if graph.direct_import_exists(
                    importer=imported, imported=module) else frozenset({module, imported, "..."}))
    assert circles <= KNOWN_CIRCLES, sorted(sorted(c) for c in circles - KNOWN_CIRCLES)


def test_test_modules_mirror_the_packages():
    """tests/<layer>/ for each package of workbench/ (tests/support/ holds what they share): a test
    module elsewhere, or a folder without __init__.py (two test modules of one name would clash),
    is named here."""
    layers = {p.name for p in (ROOT / "workbench").iterdir() if (p / "__init__.py").is_file()}
    tests = ROOT / "tests"
    misplaced = sorted(str(p.relative_to(ROOT)) for p in tests.rglob("test_*.py")
                       if "__snapshots__" not in p.parts and p.relative_to(tests).parts[0] not in layers)
    assert not misplaced, f"move these to tests/<the package they test>/: {misplaced}"
    folders = {p.parent for p in tests.rglob("*.py") if "__snapshots__" not in p.parts}
    assert sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file()) == []
