"""Text from outside on a terminal: a PDF's text layers, a provider's answers, a suite's files.

Any of them may hold control characters: an escape sequence in a text layer (a ToUnicode map
can give a glyph the code of ESC) retitled the terminal, cleared it, or on terminals that allow
it (OSC 52) set the clipboard, when `inspect` printed the layer or the workbench showed it. So
the C0 controls (but tab and newline), DEL and the C1 controls never reach a terminal as they
are:

- `shown(text)`: each drawn as its Unicode control picture (ESC as "␛", BEL as "␇", DEL as "␡";
  a C1 control, which has none, as "�"), one cell each, so what a layer holds stays visible. The
  command line writes its output through `ShownControls` when stdout is a terminal (a pipe or a
  file gets the text as it is, and `--json` escapes them anyway).
- `dropped(text)`: removed, for the workbench's screen, where a control character takes no cell
  (`tui/controls.py` drops them from every line of text drawn, whichever widget shows it).
"""

from __future__ import annotations

import re
from typing import Any, TextIO

_C0 = [c for c in range(0x20) if c not in (0x09, 0x0A)]   # (tab and newline are layout)
_C1 = list(range(0x80, 0xA0))
_SHOWN = {**{c: chr(0x2400 + c) for c in _C0}, 0x7F: "\u2421", **dict.fromkeys(_C1, "\ufffd")}
_DROPPED = dict.fromkeys([*_C0, 0x7F, *_C1])
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """`text` with its control characters drawn as pictures (see the module docstring)."""
    return text.translate(_SHOWN) if CONTROLS.search(text) else text


def dropped(text: str) -> str:
    """`text` without its control characters."""
    return text.translate(_DROPPED) if CONTROLS.search(text) else text


class ShownControls:
    """A terminal's text stream (stdout) that shows the control characters written to it
    (`shown`); `raw` is the stream itself, for the program's own escape sequences (colour)."""

    def __init__(self, stream: TextIO) -> None:
        self.raw = stream

    def write(self, text: str) -> int:
        return self.raw.write(shown(text))

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:   # flush, isatty, fileno, encoding, buffer, ...
        return getattr(self.raw, name)


def raw_stream(stream: Any) -> TextIO:
    """The stream under a `ShownControls` (else `stream`): where the program's own escape
    sequences go."""
    return stream.raw if isinstance(stream, ShownControls) else stream
