"""A hostile text layer on a terminal (text/terminal.py): `inspect` printed a PDF's text layer as
it was, so a ToUnicode map that reads glyphs as ESC and BEL retitled the terminal and cleared it
(and, where a terminal allows OSC 52, could set the clipboard). On a terminal each control
character is now drawn as its picture; in a pipe the text is written as it is."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

from tests.support.fixtures import ROOT
from tests.support.hostile_corpus import ESCAPES, escape_layer_pdf
from workbench.text import terminal


def test_every_control_but_tab_and_newline_is_drawn_one_for_one():
    text = "".join(map(chr, range(0xA0)))
    seen = terminal.shown(text)
    assert len(seen) == len(text)   # (offsets into the text hold: the panes mark stretches by them)
    assert not terminal.CONTROLS.search(seen) and "\t" in seen and "\n" in seen
    assert terminal.shown(ESCAPES) == "Total ␛]0;PWNED␇␛[2J␛[31m 42.00"
    assert terminal.dropped(ESCAPES) == "Total ]0;PWNED[2J[31m 42.00"
    assert terminal.shown("€1,234.56 naïve\tok\n") == "€1,234.56 naïve\tok\n"


def _on_a_terminal(*argv: str) -> bytes:
    """What `pdfworkbench ARGV` writes to a terminal (a pseudo-terminal as its stdout and stderr)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "workbench", *argv], stdout=follower, stderr=follower,
                            stdin=subprocess.DEVNULL, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
    os.close(follower)
    out = bytearray()
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:   # (EIO: the child closed its end)
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=120)
    os.close(leader)
    return bytes(out)


def test_inspect_on_a_terminal_shows_the_escape_sequences_of_a_layer_and_sends_none(tmp_path):
    pdf = tmp_path / "escapes.pdf"
    pdf.write_bytes(escape_layer_pdf())
    out = _on_a_terminal("inspect", str(pdf))
    assert b"\x1b" not in out and b"\x07" not in out, out
    assert "Total ␛]0;PWNED␇␛[2J␛[31m 42.00".encode() in out
    # in a pipe, the layer as it is (`--json` escapes it as JSON does)
    piped = subprocess.run([sys.executable, "-m", "workbench", "inspect", str(pdf)], capture_output=True,
                           cwd=ROOT, timeout=120)
    assert ESCAPES.encode() in piped.stdout
