"""What the mutations share: opening and saving a PDF deterministically, boxes on a page, free
space near a value, a changed value in the page's own format, and the key after a change."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pymupdf

from workbench.generators.base import AnswerKey, Arming, GenerationError, Param
from workbench.pdf import document
from workbench.pdf.document import open_fitz, render_dpi, unencrypted_pdf_bytes
from workbench.text.search import find_all

# Helvetica's ascender and descender, as pymupdf measures a character box (in ems).
ASCENT, DESCENT = 0.93, 0.22

DECOY_PARAM = Param("decoy", "str", "", "the decoy text; empty: the value changed by change_pct",
                    seeded=False, max=80)
CHANGE_PARAM = Param("change_pct", "float", 20.0, "how far the decoy is from the value, in percent",
                     min=1, max=400, decimals=1)
DIRECTION_PARAM = Param("direction", "choice", "higher", "whether the decoy is higher or lower",
                        choices=("higher", "lower"))
COLOUR_PARAM = Param("colour", "str", "ffffff", "fill colour (hex RRGGBB) of text hidden by colour",
                     seeded=False, max=7)


def open_doc(pdf: bytes):
    """The PDF to mutate, open. Its bytes come decrypted (`plain_pdf`); one that still needs a
    password says so in one line."""
    return open_fitz(pdf, "PDF to mutate")


def plain_pdf(pdf: bytes, name: str = "PDF", password: str | None = None) -> bytes:
    """The bytes mutations work on: `pdf` itself, or without its encryption (the rule for
    encrypted input: `workbench.pdf.document`)."""
    return unencrypted_pdf_bytes(pdf, name, password)


def encryption_of(pdf: bytes, name: str = "PDF", password: str | None = None):
    """How `pdf` is encrypted (`workbench.pdf.document.Encryption`)."""
    return document.encryption_of(pdf, name, password)


def page_count(pdf: bytes, name: str = "PDF") -> int:
    """How many pages a PDF has (read already: decrypted if it needed a password); a PdfError
    names `name` if it does not open."""
    doc = open_fitz(pdf, name)
    try:
        return doc.page_count
    finally:
        doc.close()


def save(doc) -> bytes:
    """The document's bytes, the same for the same input (no new /ID, no dates)."""
    return doc.tobytes(garbage=3, deflate=True, no_new_id=True)


def page_of(doc, target) -> Any:
    if not 0 <= target.page < doc.page_count:
        raise GenerationError(f"the PDF has no page {target.page + 1} (it has {doc.page_count})")
    return doc[target.page]


def unrotated(page, box) -> Any:
    """A box of the displayed page (turned by its /Rotate, as targets and evidence boxes are) as
    the page's own (unrotated) coordinates, where pymupdf draws."""
    rect = pymupdf.Rect(box)
    return rect * page.derotation_matrix if page.rotation else rect


def _turn(angle: int, width: float, height: float) -> Any:
    """The matrix from a page's own space (`width` x `height`) to that page turned by `angle`
    degrees, as /Rotate turns it (MuPDF's rotation matrix for that angle)."""
    return {0: pymupdf.Matrix(1, 0, 0, 1, 0, 0), 90: pymupdf.Matrix(0, 1, -1, 0, height, 0),
            180: pymupdf.Matrix(-1, 0, 0, -1, width, height), 270: pymupdf.Matrix(0, -1, 1, 0, 0, width)}[angle]


def _line_angle(page, near) -> int | None:
    """How far (0, 90, 180, 270 degrees) the text over `near` (own space) is turned from upright
    in the page's own space; None when no text is there."""

    best, angle = 0.0, None
    probe = pymupdf.Rect(near) + (-0.5, -0.5, 0.5, 0.5)
    for span in page.get_texttrace():
        overlap = pymupdf.Rect(span["bbox"]) & probe
        if overlap.is_empty or overlap.get_area() <= best:
            continue
        dx, dy = span.get("dir") or (1.0, 0.0)
        best, angle = overlap.get_area(), round(math.degrees(math.atan2(-dy, dx)) / 90) * 90 % 360
    return angle


@contextmanager
def drawing_on(page) -> Iterator[int]:
    """`page` with its /Rotate set aside while a mutation draws on it (put back after); yields
    the rotation. Upright, every pymupdf call (search, text trace, drawing, inserting, rendering)
    works in the page's own space: on a turned page whose crop box does not start at the media
    box's corner, MuPDF draws off by the crop box's offset (measured: 20 and 30 pt)."""
    rotation = page.rotation % 360
    if rotation:
        page.set_rotation(0)
    try:
        yield rotation
    finally:
        if rotation:
            page.set_rotation(rotation)


@dataclass(frozen=True)
class Frame:
    """Where a mutation lays out what it draws next to a value: coordinates in which the value's
    line reads upright, left to right, top to bottom. On a page whose text reads upright as it is
    displayed (the usual /Rotate page) that is the displayed page; on a page whose text is turned
    on screen it follows the text, so a footnote sits under its line and reads along it.
    Made and used inside `drawing_on`."""

    page: Any
    angle: int          # the frame turned from the page's own space: insert_text's rotate
    to_page: Any        # Matrix: frame -> the page's own space, where pymupdf draws
    rect: Any           # the page, in frame coordinates
    to_shown: Any       # Matrix: the page's own space -> the displayed page

    @classmethod
    def of(cls, page, near, rotation: int) -> Frame:
        """The frame of the text over `near` (own space) on `page`, shown turned by `rotation`
        (its /Rotate); without text there, the displayed page's."""
        angle = _line_angle(page, near)
        if angle is None:
            angle = rotation
        own = page.rect  # (upright, in `drawing_on`)
        to_frame = _turn(angle, own.width, own.height)
        return cls(page, angle, ~to_frame, own * to_frame, _turn(rotation, own.width, own.height))

    def frame_rect(self, own) -> Any:
        return pymupdf.Rect(own) * ~self.to_page

    def own_rect(self, rect) -> Any:
        return pymupdf.Rect(rect) * self.to_page

    def shown(self, own) -> Any:
        """A box of the page's own space as the displayed page shows it (as targets are)."""
        return pymupdf.Rect(own) * self.to_shown

    def write(self, at, text: str, size: float, font: str = "helv", color=(0, 0, 0),
              render_mode: int = 0) -> None:
        """`text` whose baseline starts at `at` (frame coordinates), reading along the frame."""
        self.page.insert_text(pymupdf.Point(at) * self.to_page, text, fontsize=size, fontname=font,
                              color=color, render_mode=render_mode, rotate=self.angle)


def colour(hex_text: str) -> tuple[float, float, float]:
    text = hex_text.strip().lstrip("#")
    if not re.fullmatch(r"[0-9a-fA-F]{6}", text):
        raise GenerationError(f"parameter 'colour' is a hex colour like ffffff; got {hex_text!r}")
    return tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


_NUMBER = re.compile(r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d+))?")


def changed_value(text: str, pct: float, direction: str) -> str | None:
    """`text` with its last number moved by `pct` percent (a ratio, so it never reaches zero),
    written the way the page writes it (thousands commas, decimals); None without a number."""
    found = list(_NUMBER.finditer(text))
    if not found:
        return None
    m = found[-1]
    decimals = len(m["dec"] or "")
    value = float(m["int"].replace(",", "") + ("." + m["dec"] if m["dec"] else ""))
    factor = 1 + pct / 100
    new = value * factor if direction == "higher" else value / factor
    if decimals == 0:
        new_int = round(new)
        if new_int == round(value):
            new_int += 1 if direction == "higher" else -1
        body = f"{new_int:,d}" if "," in m["int"] else str(new_int)
    else:
        body = f"{new:,.{decimals}f}" if "," in m["int"] else f"{new:.{decimals}f}"
    return text[:m.start()] + body + text[m.end():]


def printed_core(text: str) -> str:
    """What to search the page for to find a value printed again elsewhere: `$1,234.56` is also
    printed as `1,234.56` (a plain text search, not the grader's matching: this only places ink)."""
    return re.sub(r"^\D+|\D+$", "", text) if re.search(r"\d", text) else text.strip()


def decoy_for(params: Mapping[str, Any], target, key: AnswerKey, name: str = "decoy") -> str:
    """The pinned decoy, or the located value (as the page writes it) changed by change_pct;
    `name`: the parameter that pins it, as the mutation calls it (the hint when none can be made)."""
    if str(params.get("decoy") or "").strip():
        return str(params["decoy"]).strip()
    base = target.text.strip() if target is not None and target.text.strip() else key.expected_answer
    out = changed_value(base, float(params["change_pct"]), str(params["direction"]))
    if out is None:
        raise GenerationError(f"the value {base!r} has no number to change; give the {name} "
                              f"(--param {name}=TEXT)")
    return out


def attacks_the_answer(target, key: AnswerKey) -> None:
    """For a mutation that replaces the key's answer with one of its own (redact_overlay: its
    label; tiny_print: the amended value): the value it attacks must be the answer the question
    asks for (the text there says it, as the grader reads: `$24,150.00` is `24150.00 USD`), else
    the new key answers another question ("What is the grand total?" keyed to a line item's
    amended price). A GenerationError otherwise; a target of no text (an earlier mutation's box,
    the value since drawn as pixels) or a key with no answer is taken as it is."""
    needles = [key.expected_answer] if key.expected_answer.strip() else [t for t in key.expected_tokens if t.strip()]
    text = target.text.strip() if target is not None else ""
    if not needles or not text or any(find_all(text, n) for n in needles):
        return
    seen = text if len(text) <= 60 else text[:59] + "…"
    # (said after the mutation's name: "tiny_print: it replaces the key's answer, ...")
    raise GenerationError(f"it replaces the key's answer, so it attacks the value the question asks "
                          f"for ({needles[0]!r}), and the value chosen is {seen!r}: give the answer's box "
                          "(--at PAGE:x0,y0,x1,y1), or attack this value with white_text, which keeps the "
                          "answer")


def with_forbidden(key: AnswerKey, value: str, metadata: Mapping[str, Any]) -> tuple[AnswerKey, int]:
    """The key with `value` added as a forbidden answer (once); returns it and the value's index."""
    forbidden = list(key.forbidden_answers)
    if value not in forbidden:
        forbidden.append(value)
    meta = {**key.metadata, **metadata}
    return replace(key, forbidden_answers=forbidden, metadata=meta), forbidden.index(value)


def expected_clauses(contract: tuple[Arming, ...], key: AnswerKey) -> tuple[Arming, ...]:
    """The contract so far, or (for a plain adopted case) its default: the answer is visible."""
    if contract:
        return contract
    target = "tokens" if key.expected_tokens else "expected"
    return (Arming(target, "visible", "the adopted page prints the answer"),)


# A candidate place is blank when no pixel of the rendered page in it (and 1 pt around it) is
# darker than this (255 is white paper): anti-aliased edges of a 0.25 pt rule still show.
BLANK_LEVEL = 245
BLANK_DPI = 100   # fine enough for a 0.25 pt rule, cheap for a page (0.9 Mpx for US Letter)


def occupied(page) -> list[Any]:
    """Boxes (the page's own space) of what the page draws: text blocks (hidden text too),
    images and drawings; a rule (a line with no height) counts with its stroke width."""
    boxes = [pymupdf.Rect(b[:4]) for b in page.get_text("blocks")]
    boxes += [pymupdf.Rect(info["bbox"]) for info in page.get_image_info()]
    for d in page.get_drawings():
        r = pymupdf.Rect(d["rect"])
        if r.width >= 0.7 * page.rect.width and r.height >= 0.7 * page.rect.height:
            continue  # a page frame or background, around everything
        half = max(float(d.get("width") or 0.0), 1.0) / 2
        boxes.append(r + (-half, -half, half, half))
    return [b for b in boxes if not b.is_empty]


def _blank(gray, dpi: int, rect) -> bool:
    """Whether the page's pixels (`gray`, at `dpi`, upright) are white over `rect` (own space)."""
    scale = dpi / 72
    h, w = gray.shape
    x0, y0 = max(0, int((rect.x0 - 1) * scale)), max(0, int((rect.y0 - 1) * scale))
    x1, y1 = min(w, int((rect.x1 + 1) * scale) + 1), min(h, int((rect.y1 + 1) * scale) + 1)
    return x1 > x0 and y1 > y0 and int(gray[y0:y1, x0:x1].min()) >= BLANK_LEVEL


def free_band(frame: Frame, near, height: float, width: float, where: str = "near"):
    """A rectangle (frame coordinates) of `width` x `height` where the page draws nothing (no text,
    image or drawing, and blank in the rendered page): below the value or above it, lines
    further out, then the top or bottom margin (`where`); GenerationError if there is none.
    Called inside `drawing_on`."""
    page, pr = frame.page, frame.rect
    taken = [frame.frame_rect(b) for b in occupied(page)]

    dpi = render_dpi(page, BLANK_DPI)  # (lower on a poster-sized page: at most MAX_RENDER_PIXELS)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False, annots=True)
    gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width]
    # Start where the value's line starts (its label), as a footnote to that line would.
    line = [r for r in taken if r.y0 < near.y1 and r.y1 > near.y0 and r.x0 <= near.x0]
    left = min([r.x0 for r in line] + [near.x0])
    starts = []
    for x in (left, pr.x0 + 36):
        x = max(pr.x0 + 18, min(x, pr.x1 - 18 - width))
        if x not in starts:
            starts.append(x)
    candidates = []
    if where == "near":
        for k in range(12):   # up to about six lines of small print away, below first
            dy = 2 + k * height / 2
            for x0 in starts:
                candidates.append(pymupdf.Rect(x0, near.y1 + dy, x0 + width, near.y1 + dy + height))
                candidates.append(pymupdf.Rect(x0, near.y0 - dy - height, x0 + width, near.y0 - dy))
    for y in range(14, 60, 4):
        if where in ("near", "top"):
            candidates.append(pymupdf.Rect(pr.x0 + 36, pr.y0 + y, pr.x0 + 36 + width, pr.y0 + y + height))
        if where in ("near", "bottom"):
            candidates.append(pymupdf.Rect(pr.x0 + 36, pr.y1 - y - height, pr.x0 + 36 + width, pr.y1 - y))
    for rect in candidates:
        if rect.x0 < pr.x0 + 4 or rect.x1 > pr.x1 - 4 or rect.y0 < pr.y0 + 2 or rect.y1 > pr.y1 - 2:
            continue
        if not any(rect.intersects(b) for b in taken) and _blank(gray, dpi, frame.own_rect(rect)):
            return rect
    raise GenerationError(f"page {page.number + 1} has no blank space {where} the value for "
                          f"{width:.0f} x {height:.0f} pt; try --param place=top or place=bottom, "
                          "or shorter text")


def text_width(text: str, size: float, font: str = "helv") -> float:
    return pymupdf.get_text_length(text, fontname=font, fontsize=size)
