"""A scanned page: a picture of the whole page with an invisible text layer over it (the words OCR
read, as OCRmyPDF, a scanner's software or our own scan degradation write them), and which words
of that layer the picture does not show.

The drawing operators call every span of such a layer hidden (render mode 3, or opacity 0, or
under the picture), yet a person reading the scan reads those words in the picture. So on a page
recognised as a scan (`layer_spans`), each word of the layer is compared with OCR of the rendered
page near the word's box (`hidden_chars`): a word OCR reads there is visible; one it does not read
is hidden, `not-in-scan` (a drifted OCR layer, a total planted under the printed one). The page is
recognised from what it draws, never from our own metadata, so a foreign OCR'd scan is judged the
same way as ours.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from workbench.pdf.ocr import OcrLine, rows
from workbench.text.search import fold_word, read_glyphs

# Images covering this share of the page make it a scan of the page. A scanner's picture is the
# page (ours and OCRmyPDF's cover all of it); 0.85 leaves room for a picture cropped at its
# margins, or cut into strips, and stays far above a letterhead's logo or a pasted figure.
SCAN_IMAGE_SHARE = 0.85
# The reasons that put a span in a scan's invisible layer: OCR layers are drawn invisibly (render
# mode 3), transparent, or under the picture. A span hidden for another reason as well (too small
# to read, off the page, a layer switched off) stays hidden whatever the picture shows.
LAYER_REASONS = frozenset({"invisible-render-mode", "transparent", "covered"})
# OCR lines this far (in ems of the word) around a word's box are "near" it: scan layers are
# placed from the OCR's own boxes, within a fraction of a line, but a skewed page (our heavy tier
# turns it 5 degrees) moves a word against its axis-aligned box by up to half a line.
NEAR_EM = 0.6
# A word OCR reads with at most this share of its characters wrong (rounded down: a word of 1-3
# characters must be read exactly) counts as read. Measured on the faithful scans of
# invoice_extraction, footnote_override and white_text_injection (499 printed words, seed 1):
# rapidocr reads all 499 exactly at the mild and moderate tiers; at heavy 486 exactly and the
# other 13 within a quarter (one letter in 4-7), so exact matching alone would hide 13 printed
# words, and a quarter hides none. The words a drifted layer puts in are other words altogether
# (all their letters differ), far past a quarter. Digits are never allowed to differ from digits
# (see `_read_near`): a changed figure is exactly what a drifted layer or a planted total is, so
# a digit OCR misreads as another digit costs a span marked hidden that the scan shows, the safe
# side of the error.
MAX_EDIT_SHARE = 0.25


def _area(r: Sequence[float]) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def _overlap(a: Sequence[float], b: Sequence[float]) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def scan_images(log: Sequence[tuple[str, Any]], width: float, height: float) -> list[tuple[float, ...]]:
    """The page's images (from its bbox log) when together they cover SCAN_IMAGE_SHARE of the
    page, else [] (the page is no scan)."""
    page = (0.0, 0.0, width, height)
    images = [tuple(rect) for kind, rect in log if kind == "fill-image"]
    covered = sum(_overlap(r, page) for r in images)
    return images if images and covered >= SCAN_IMAGE_SHARE * _area(page) else []


def layer_spans(spans: Sequence[Any], log: Sequence[tuple[str, Any]], width: float,
                height: float) -> list[int]:
    """The indices of the spans that are a scan's invisible text layer: hidden only for the
    reasons of LAYER_REASONS, and lying (mostly) over the picture of a page that is a scan."""
    candidates = [k for k, s in enumerate(spans)
                  if not s.visible and s.reasons and set(s.reasons) <= LAYER_REASONS]
    if not candidates:
        return []
    images = scan_images(log, width, height)
    if not images:
        return []
    return [k for k in candidates
            if sum(_overlap(spans[k].bbox, r) for r in images) >= 0.5 * max(_area(spans[k].bbox), 1e-6)]


def _words(span: Any) -> list[tuple[int, int]]:
    """(start, end) of each word of the span's text: runs of non-space characters on one line
    (a span may run over several lines, as a scan layer's words of one size do)."""
    text, boxes = span.text, span.char_boxes
    if len(boxes) != len(text):
        return [(0, len(text))] if text.strip() else []
    dx, dy = span.direction
    along = [((b[0] + b[2]) / 2) * dx + ((b[1] + b[3]) / 2) * dy for b in boxes]
    across = [((b[1] + b[3]) / 2) * dx - ((b[0] + b[2]) / 2) * dy for b in boxes]
    step = 0.5 * max(span.size, 1.0)
    out: list[tuple[int, int]] = []
    start = None
    for i, ch in enumerate(text):
        if ch.isspace():
            if start is not None:
                out.append((start, i))
            start = None
            continue
        if start is not None and (along[i] < along[i - 1] - step or abs(across[i] - across[i - 1]) > step):
            out.append((start, i))  # the next line of the span
            start = None
        if start is None:
            start = i
    if start is not None:
        out.append((start, len(text)))
    return out


def _box(boxes: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _squash(text: str) -> str:
    """Text as a word is compared with OCR: read as glyphs, folded, without spaces (OCR drops
    and adds spaces between words)."""
    return "".join(fold_word(read_glyphs(text)[0]).split())


def _read_near(word: str, hay: str, budget: int) -> bool:
    """Whether `hay` holds `word` with at most `budget` edits (an approximate substring match,
    Sellers' algorithm), where no digit may be changed into, from or without another digit."""
    if word in hay:
        return True
    if budget <= 0 or not hay:
        return False
    never = budget + 1

    def sub(a: str, b: str) -> int:
        if a == b:
            return 0
        return never if a.isdigit() and b.isdigit() else 1

    # prev[j]: the fewest edits matching word[:i] to a substring of hay ending at j (any start).
    prev = [0] * (len(hay) + 1)
    for a in word:
        cost_a = never if a.isdigit() else 1
        cur = [prev[0] + cost_a]
        for j, b in enumerate(hay, 1):
            cur.append(min(prev[j - 1] + sub(a, b), prev[j] + cost_a,
                           cur[j - 1] + (never if b.isdigit() else 1)))
        if min(cur) > budget:
            return False
        prev = cur
    return min(prev) <= budget


def word_read(word: str, box: Sequence[float], size: float, lines: Sequence[OcrLine]) -> bool:
    """Whether OCR (`lines`, and their rows) reads `word` near `box` (PDF points)."""
    want = _squash(word)
    if not any(c.isalnum() for c in want):
        return True  # a mark or a bullet: no value to tell apart, and OCR often drops them
    pad = NEAR_EM * max(size, box[3] - box[1], 1.0)
    near = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
    budget = int(MAX_EDIT_SHARE * len(want))
    return any(_overlap(near, ln.box) > 0 and _read_near(want, _squash(ln.text), budget) for ln in lines)


def hidden_chars(span: Any, lines: Sequence[OcrLine]) -> list[bool]:
    """Per character of a scan layer's span: whether the picture hides it (its word is not read
    near it by OCR: `lines`, the OCR of the rendered page, with `rows(lines)` added)."""
    flags = [False] * len(span.text)
    boxes = span.char_boxes if len(span.char_boxes) == len(span.text) else None
    for start, end in _words(span):
        box = _box(boxes[start:end]) if boxes else span.bbox
        if not word_read(span.text[start:end], box, span.size, lines):
            flags[start:end] = [True] * (end - start)
    # Spaces between hidden words are hidden; beside a read word they go with the read one.
    text = span.text
    for m in re.finditer(r"\s+", text):
        start, end = m.span()
        flags[start:end] = [0 < start and end < len(text) and flags[start - 1] and flags[end]] * (end - start)
    return flags


def ocr_lines(lines: list[OcrLine]) -> list[OcrLine]:
    """OCR's lines and its rows joined (a value the engine split at its punctuation read whole)."""
    return lines + rows(lines)
