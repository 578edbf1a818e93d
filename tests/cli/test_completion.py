"""`completion` (workbench/cli/completion.py): a script for each shell, one line for any other;
completing commands, families, readers and suites through each generated script, run as a user
would, in a new process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import refused
from tests.support.cli import run_command as run


def test_completion_prints_a_script_and_refuses_an_unknown_shell(command, work):
    code, out, err = command("completion", "bash")
    assert code == 0 and "pdfworkbench" in out and err == ""
    refused(command("completion", "tcsh"), "invalid choice: 'tcsh'")


def _complete(line: str, tmp_path: Path) -> list[str]:
    """Ask for completions the way the shell scripts do (argcomplete's protocol)."""
    out = tmp_path / "completions.txt"
    env = {"_ARGCOMPLETE": "1", "_ARGCOMPLETE_IFS": "\n", "COMP_LINE": line, "COMP_POINT": str(len(line)),
           "_ARGCOMPLETE_STDOUT_FILENAME": str(out), "_ARGCOMPLETE_SUPPRESS_SPACE": "1"}
    proc = run(env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return [c.strip() for c in out.read_text().split("\n") if c.strip()]


def test_completion_knows_commands_families_readers_and_suites(tmp_path):
    assert "families" in _complete("pdfworkbench fam", tmp_path)
    assert "hidden_ocr_mismatch" in _complete("pdfworkbench make hidden_o", tmp_path)
    assert {"probe:pypdf", "probe:pymupdf", "probe:ocr"} <= set(_complete("pdfworkbench ask X.json --reader probe:", tmp_path))
    (tmp_path / "suites" / "mini").mkdir(parents=True)
    (tmp_path / "suites" / "mini" / "suite.json").write_text("{}")
    assert "suites/mini/" in _complete("pdfworkbench verify suites/m", tmp_path)
    assert "--fail-threshold" in _complete("pdfworkbench run S --fail", tmp_path)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_are_generated_for_each_shell(shell):
    proc = run("completion", shell)
    assert proc.returncode == 0 and "pdfworkbench" in proc.stdout
    assert "_ARGCOMPLETE" in proc.stdout


def _wrapper_on_path(tmp_path: Path) -> dict[str, str]:
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    exe = bindir / "pdfworkbench"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} -m workbench \"$@\"\n")
    exe.chmod(0o755)
    return {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}"}


def test_fish_completes_through_the_generated_script(tmp_path):
    fish = shutil.which("fish")
    if not fish:
        pytest.skip("no fish shell here (apt-get install fish)")
    env = _wrapper_on_path(tmp_path)
    (tmp_path / "c.fish").write_text(run("completion", "fish").stdout)
    proc = subprocess.run([fish, "-c", f"source {tmp_path / 'c.fish'}; complete -C 'pdfworkbench make footnote_ov';"
                           " complete -C 'pdfworkbench ask x --reader probe:'"],
                          capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    assert "footnote_override" in proc.stdout and "probe:pypdf" in proc.stdout, proc.stderr


def test_zsh_gets_its_own_answer_format(tmp_path):
    line = "pdfworkbench make footnote_ov"
    out = tmp_path / "zsh.txt"
    env = {"_ARGCOMPLETE": "1", "_ARGCOMPLETE_SHELL": "zsh", "_ARGCOMPLETE_IFS": "\n", "COMP_LINE": line,
           "COMP_POINT": str(len(line)), "_ARGCOMPLETE_STDOUT_FILENAME": str(out)}
    assert run(env=env, cwd=tmp_path).returncode == 0
    assert out.read_text().startswith("footnote_override")  # zsh's "value:description" lines
    assert "#compdef pdfworkbench" in run("completion", "zsh").stdout


def test_bash_completes_through_the_generated_script(tmp_path):
    bash = shutil.which("bash")
    if not bash:
        pytest.skip("no bash")
    env = _wrapper_on_path(tmp_path)
    script = run("completion", "bash").stdout
    (tmp_path / "complete.bash").write_text(script)
    line = "pdfworkbench make footnote_ov"
    test = (f"source {tmp_path / 'complete.bash'}\n"
            f"COMP_LINE='{line}'; COMP_POINT={len(line)}; COMP_WORDS=(pdfworkbench make footnote_ov); COMP_CWORD=2\n"
            "_python_argcomplete pdfworkbench\n"
            'printf "%s\\n" "${COMPREPLY[@]}"\n')
    proc = subprocess.run([bash, "-c", test], capture_output=True, text=True, timeout=60, env=env)
    assert "footnote_override" in proc.stdout, proc.stderr
