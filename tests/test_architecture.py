"""Core packages never import Textual: checked in a fresh interpreter."""

import subprocess
import sys

CORE = ["workbench.core", "workbench.pdf", "workbench.grading", "workbench.providers", "generators"]


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
