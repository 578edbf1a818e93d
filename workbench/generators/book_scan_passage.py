"""A scanned book page: a public-domain passage set like print, aged to one of four scan tiers.

The page is typeset (serif face, justified lines, running head, page number) and then scanned by
the degradation pipeline with no text layer, so at every tier, clean included, the words exist
only as pixels. The reader transcribes the first sentence; the grade checks five distinctive words
and fails an answer that hedges ("I cannot read the page clearly").
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from workbench.core.scan import TIER_NAMES, DegradeSpec
from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, GenerationError, Param, rng_for
from workbench.generators.passages import PASSAGES, keywords

NAME = "book_scan_passage"
VERSION = 2  # 2: three more passages, so a seed draws from eight
DESCRIPTION = "Scanned book page (public-domain passage) at a degradation tier; transcribe the first sentence"

PAGE = (432.0, 648.0)  # 6 x 9 inches, a common trade book size
TIERS = TIER_NAMES
_DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
FONTS = ("Times-Roman", "Courier", "DejaVuSerif")

PARAMS = (
    Param("passage", "choice", "melville", "which public-domain passage is printed",
          choices=tuple(PASSAGES)),
    Param("tier", "choice", "clean", "scan degradation tier (clean is still a scan: pixels only)",
          choices=TIERS, seeded=False),
    Param("font", "choice", "Times-Roman",
          "serif face of the text (DejaVuSerif needs the system's DejaVu fonts)",
          choices=FONTS, seeded=False),
    Param("size", "float", 11.0, "text size in points", min=9, max=14, decimals=1),
    Param("leading", "float", 1.35, "line spacing as a multiple of the text size", min=1.1, max=1.8),
    Param("margins", "float", 60.0, "page margins in points", min=36, max=96, decimals=0),
    Param("page_number", "int", 37, "the page's number (even pages are versos)", min=2, max=480),
    Param("dpi", "int", 200, "scan resolution in dots per inch", min=100, max=400, seeded=False),
)

CONTRACT = (
    Arming("tokens", "pixels_only", "the keywords are printed on the scanned page, which has no text layer"),
    Arming("expected", "not_text_layer", "the page is an image at every tier: no text layer to copy from"),
)

QUESTION = ("The attached PDF is a scanned page of a book. Transcribe the first sentence of the "
            "passage verbatim.")


def _font(name: str) -> str:
    if name != "DejaVuSerif":
        return name

    if "DejaVuSerif" not in pdfmetrics.getRegisteredFontNames():
        if not os.path.exists(_DEJAVU):
            raise GenerationError(f"font DejaVuSerif needs {_DEJAVU} (fonts-dejavu); choose Times-Roman")
        pdfmetrics.registerFont(TTFont("DejaVuSerif", _DEJAVU))
    return "DejaVuSerif"


def _typeset(c, paragraphs, font: str, size: float, leading: float, left: float, right: float,
             top: float, bottom: float) -> int:
    """Justified paragraphs with a first-line indent, from `top` down; return the words drawn."""
    width = right - left
    indent = size * 1.5
    space = kit.text_width(" ", font, size)
    y = top
    drawn = 0
    c.setFont(font, size)
    for para in paragraphs:
        words = para.split()
        lines: list[list[str]] = []
        line: list[str] = []
        avail = width - indent
        for word in words:
            trial = " ".join([*line, word])
            if line and kit.text_width(trial, font, size) > avail:
                lines.append(line)
                line, avail = [word], width
            else:
                line.append(word)
        if line:
            lines.append(line)
        for n, line in enumerate(lines):
            if y < bottom:
                return drawn
            x = left + (indent if n == 0 else 0)
            natural = sum(kit.text_width(w, font, size) for w in line)
            last = n == len(lines) - 1
            gap = space if last or len(line) == 1 else (right - x - natural) / (len(line) - 1)
            for w in line:
                c.drawString(x, y, w)
                x += kit.text_width(w, font, size) + gap
            drawn += len(line)
            y -= leading
    return drawn


def typeset(p: Mapping[str, Any]) -> bytes:
    """The printed page before scanning: a born-digital PDF with a text layer."""
    passage = PASSAGES[p["passage"]]
    font = _font(p["font"])
    size, margins = p["size"], p["margins"]
    leading = size * p["leading"]
    number = p["page_number"]
    width, height = PAGE
    left, right = margins, width - margins
    if right - left < size * 12:
        raise GenerationError(f"margins {margins:g} leave too narrow a text column for size {size:g}")

    c, buf = kit.new_canvas(pagesize=PAGE, title=f"{passage.title}, p. {number}")
    # Running head: the book's title on versos (even), the chapter on rectos (odd); the number outside.
    head_y = height - margins * 0.65
    head = passage.title if number % 2 == 0 else passage.chapter
    head_font = "Times-Italic" if font == "Times-Roman" else font
    c.setFont(head_font, size - 1)
    c.drawCentredString(width / 2, head_y, head)
    c.setFont(font, size - 1)
    if number % 2 == 0:
        c.drawString(left, head_y, str(number))
    else:
        c.drawRightString(right, head_y, str(number))
    c.setLineWidth(0.4)
    c.line(left, head_y - size * 0.6, right, head_y - size * 0.6)

    top = height - margins - size * 0.8
    drawn = _typeset(c, passage.paragraphs, font, size, leading, left, right, top, margins)
    if drawn < len(passage.first_sentence.split()):
        raise GenerationError("the first sentence does not fit on the page: use a smaller size, "
                              "leading or margins")
    return kit.finish(c, buf)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    # The scan stage (numpy, imaging, pymupdf) is imported here: the registry imports every family
    # to list them, and listing the families loads none of those.
    from workbench.generators.degrade import apply_degrade

    passage = PASSAGES[p["passage"]]
    pdf = typeset(p)
    kws = keywords(passage.first_sentence)
    key = AnswerKey(
        question=QUESTION,
        expected_answer=passage.first_sentence,
        expected_failure_mode=(
            "Hedges (\"I cannot read the page clearly\") or misreads distinctive words once the scan "
            "degrades: the reader's OCR gives way before a person's reading would."
        ),
        expected_tokens=kws,
        matcher={"type": "keywords_all", "keywords": kws, "no_hedge": True},
        metadata={
            "passage": passage.id, "author": passage.author, "book": passage.title,
            "chapter": passage.chapter, "year": passage.year, "tier": p["tier"],
            "page_number": p["page_number"],
        },
    )
    scan_seed = rng_for(seed, NAME, "scan").getrandbits(31)
    scanned, _ = apply_degrade(pdf, DegradeSpec(tier=p["tier"], text_layer="none", dpi=p["dpi"]),
                               scan_seed, key)
    return Generated(pdf=scanned, key=key)
