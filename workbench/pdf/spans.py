"""Spans and what hides them: the data of the span analysis, and its vocabulary.

A `Span` is one text span of a page: its text as the text layer holds it, `seen` (what its glyphs
read as: zero-width characters dropped, look-alike letters folded), a box in PDF points (top-left
origin, y down, the rendered page's orientation; multiply by dpi/72 for pixels), font, size,
colour, render mode, and a verdict: `visible`, or hidden with `reasons`. The reasons the drawing
gives (`HIDDEN_REASONS`, judged by `workbench.pdf.visibility`):

    invisible-render-mode  text render mode 3 (nothing drawn)
    transparent            fill opacity 0
    off-page               the box lies (mostly) outside the page
    too-small              the glyphs are under MIN_EM_PX pixels tall at the DPI inspected
    covered                something drawn later hides it
    no-contrast            its colour does not differ from what is under it (white on white)
    clipped                a clip path removes it
    no-ink                 the pixels show nothing, cause unknown
    not-in-scan            a word of a scan's invisible text layer that the scan's picture does
                           not show (OCR of the page does not read it there; `pdf.scanned`)

and the reasons the file's structure gives rather than its drawing (`STRUCTURE_REASONS`, found by
`workbench.pdf.structure`, which marks spans and adds the text the drawing does not hold).

`layer_issues` say where the text layer differs from the glyphs even when the span is visible:
`zero-width` (invisible format characters such as U+200B inside the text), `confusable` (letters
from another script that look like Latin ones, or O/l between digits), `drawn-format-char` (a
format character drawn as a visible box).

A `PageAnalysis` is one page's spans (`DocumentAnalysis`: every page's); `Analysed` is a PDF its
caller has analysed already, with its text layers, for the lint to reuse. This module imports no
PDF library: the workbench's first frame, the TUI's widgets and the lint's callers use these types
before anything is analysed.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from struct import pack as _pack
from typing import Any

from workbench.core.errors import UserError
from workbench.core.schema import JSONObject
from workbench.text.search import is_format_char, read_glyphs

NOT_IN_SCAN = "not-in-scan"
HIDDEN_REASONS = (
    "invisible-render-mode", "transparent", "off-page", "too-small", "covered", "no-contrast",
    "clipped", "no-ink", NOT_IN_SCAN,
)

# The structure's reasons (see `workbench.pdf.structure`).
OCG_OFF = "optional content off"
ANNOTATION = "annotation, not drawn"
FIELD_VALUE = "form field value, not its appearance"
SUPERSEDED = "superseded by a later revision"
TOUNICODE = "ToUnicode differs from the drawn glyphs"
ACTUALTEXT = "ActualText replaces the drawn text"
STRUCTURE_REASONS = (OCG_OFF, ANNOTATION, FIELD_VALUE, SUPERSEDED, TOUNICODE, ACTUALTEXT)

# Dashes and points from other blocks read the same as ASCII ones: not worth flagging.
_NOT_CONFUSING = set("\u2010\u2011\u2012\u2013\u2014\u2212\u2024\u201a")


@lru_cache(maxsize=4096)
def seen_text(text: str) -> str:
    """`text` as its glyphs read: zero-width characters dropped, look-alikes folded to ASCII.
    (Cached: a span's is asked by its layer issues, the layer diff and its JSON.)"""
    return read_glyphs(text)[0]


def layer_issues(text: str, char_widths: list[float] | None = None, size: float = 0.0) -> list[str]:
    """Ways the text layer of a span differs from what its glyphs show."""
    if text.isascii():  # no format characters; only O and l between digits read otherwise
        return ["confusable"] if seen_text(text) != text else []
    issues: list[str] = []
    fmt = [i for i, c in enumerate(text) if is_format_char(c)]
    if fmt:
        drawn = char_widths is not None and size > 0 and any(
            i < len(char_widths) and char_widths[i] > 0.2 * size for i in fmt)
        issues.append("drawn-format-char" if drawn else "zero-width")
    if _has_confusable(text):
        issues.append("confusable")
    return issues


def _has_confusable(text: str) -> bool:
    """Look-alike letters where the glyphs read as ASCII (dashes and minus signs don't count)."""
    plain = "".join(c for c in text if not is_format_char(c))
    folded = seen_text(text)
    if folded == plain:
        return False
    return any(a != b and not (a in "-.," and b in _NOT_CONFUSING)
               for a, b in zip(folded, plain, strict=False)) or len(folded) != len(plain)


_TWO_PLACES = (2, 2, 2, 2)  # a box's coordinates are written to the hundredth of a point

Box = tuple[float, float, float, float]


class CharBoxes(Sequence[Box]):
    """A span's box per character, as a sequence of (x0, y0, x1, y1) tuples, kept as one array of
    floats: a tuple of four floats is about 190 bytes a character, and a document's analysis
    holds the boxes of every character it read (300 pages of text: 405 MB so, 140 MB as arrays).
    The same values (doubles); a tuple is made as one is read; a slice is a `CharBoxes`."""

    __slots__ = ("_xy",)

    def __init__(self, boxes: Iterable[Sequence[float]] = ()) -> None:
        if isinstance(boxes, CharBoxes):
            self._xy = boxes._xy
            return
        flat = list(chain.from_iterable(boxes))
        # (packed in one call and read as bytes: a third of the time of an array filled a value at a time)
        self._xy = array("d", _pack(f"{len(flat)}d", *flat))

    def __len__(self) -> int:
        return len(self._xy) // 4

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step == 1:
                part = CharBoxes()
                part._xy = self._xy[4 * start:4 * max(start, stop)]
                return part
            return CharBoxes(self[j] for j in range(start, stop, step))
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("character box index out of range")
        xy, k = self._xy, 4 * i
        return (xy[k], xy[k + 1], xy[k + 2], xy[k + 3])

    def __iter__(self) -> Iterator[Box]:
        xy = iter(self._xy)
        return zip(xy, xy, xy, xy, strict=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CharBoxes):
            return self._xy == other._xy
        return isinstance(other, Sequence) and list(self) == [tuple(b) for b in other]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CharBoxes({list(self)!r})"


@dataclass
class Span:
    """One text span and its visibility verdict (see the module docstring for the reasons)."""

    page: int                                   # 0-based
    seqno: int                                  # position in the page's drawing order
    text: str                                   # as the text layer holds it
    bbox: tuple[float, float, float, float]     # PDF points, top-left origin
    font: str
    size: float                                 # effective size in points (after scaling)
    color: tuple[float, float, float]           # sRGB, 0..1
    render_mode: int                            # 0 fill, 1 stroke, 2 fill+stroke, 3 invisible
    opacity: float
    visible: bool = True
    reasons: list[str] = field(default_factory=list)
    layer_issues: list[str] = field(default_factory=list)
    direction: tuple[float, float] = (1.0, 0.0)  # the baseline's unit vector (y down)
    mirrored: bool = False                      # drawn as in a mirror (a flipped matrix)
    char_boxes: Sequence[Box] = field(default_factory=CharBoxes, repr=False)   # one a character

    @property
    def seen(self) -> str:
        return seen_text(self.text)

    @property
    def verdict(self) -> str:
        """`hidden`, `differs` (visible, but the text layer says something else) or `visible`."""
        if not self.visible:
            return "hidden"
        return "differs" if self.layer_issues else "visible"

    def to_json(self) -> JSONObject:
        r, g, b = self.color
        return {
            "text": self.text,
            "seen": self.seen,
            "bbox": list(map(round, self.bbox, _TWO_PLACES)),
            "font": self.font,
            "size": round(self.size, 2),
            "color": f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}",
            "render_mode": self.render_mode,
            "opacity": round(self.opacity, 3),
            "visible": self.visible,
            "verdict": self.verdict,
            "reasons": list(self.reasons),
            "layer_issues": list(self.layer_issues),
        }


@dataclass
class PageAnalysis:
    """One page's spans with their visibility, and the boxes of what else shows ink."""

    page: int                                   # 0-based
    width: float                                # points
    height: float
    dpi: int
    spans: list[Span]
    # Boxes (points) of non-text content that shows ink: images and filled drawings. Text drawn
    # as pixels hides in these; without OCR we cannot read it, only say where it could be.
    ink_boxes: list[tuple[float, float, float, float]]
    # Reading streams built by evidence search, kept with the analysis they come from.
    streams: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # Why the spans' pixels were not (all) checked: a bound exceeded ('' when they were).
    skipped: str = ""
    # The page's text was removed from `doc` for the bare render (the document is edited).
    edited: bool = field(default=False, repr=False, compare=False)

    @property
    def hidden(self) -> list[Span]:
        return [s for s in self.spans if not s.visible]


@dataclass
class DocumentAnalysis:
    """Every page's analysis, at one DPI."""

    dpi: int
    pages: list[PageAnalysis]


@dataclass(frozen=True)
class Analysed:
    """A PDF its caller has analysed already: every page's spans (`analysis`, a
    `DocumentAnalysis`) and each extractor's text page by page (`texts`, the shape of
    `textlayer.page_texts`). The lint reads these instead of analysing the PDF again; they must be
    what `analyze_document` and `page_texts` give for `data`."""

    data: bytes = field(repr=False)
    analysis: DocumentAnalysis = field(repr=False)
    texts: dict[str, list[str]] = field(repr=False)


def check_dpi(dpi: int) -> None:
    if dpi < 18 or dpi > 1200:
        raise UserError(f"--dpi {dpi}: choose a DPI between 18 and 1200")
