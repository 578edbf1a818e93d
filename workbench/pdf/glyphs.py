"""The ToUnicode check: a font whose map gives other characters than its glyphs show.

It does not trust the file: it renders each digit the suspect font draws and compares it with
digits 0-9 drawn in reference fonts (Helvetica, Times, Courier and Bitstream Vera, plain and bold).
A glyph that looks clearly like another digit than the one its map names is a remap. Only digits
are judged (letters vary too much between typefaces to call from shape alone), only in fonts that
carry a ToUnicode map, and not on rotated pages.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import pymupdf
import reportlab

if TYPE_CHECKING:  # (numpy is loaded where a glyph is judged: most pages have none to judge)
    import numpy as np

# The reference grid, and how much better another digit must match than the mapped one.
_GRID_H, _GRID_W = 32, 32
_GLYPH_MARGIN = 0.05
_GLYPH_MIN_SCORE = 0.80
_GLYPH_EM_PX = 48

_REFERENCE: dict[str, list[np.ndarray]] | None = None
# The base-14 faces, and Bitstream Vera (shipped with reportlab; the parent of DejaVu, the most
# common free sans): (name, font file or None for a base-14 face).
_REFERENCE_FONTS: tuple[tuple[str, str | None], ...] = (
    ("helv", None), ("hebo", None), ("tiro", None), ("tibo", None), ("cour", None), ("cobo", None),
    ("vera", "Vera.ttf"), ("verabd", "VeraBd.ttf"),
)


def _normalise(ink):
    """An ink array (1 = ink) scaled to the grid height, centred in the grid's width."""
    import numpy as np

    ys, xs = np.nonzero(ink > 0.25)
    if len(ys) == 0:
        return None
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = ink.shape
    new_w = max(1, min(_GRID_W, round(w * _GRID_H / h)))
    rows = (np.arange(_GRID_H) * h / _GRID_H).astype(int)
    cols = (np.arange(new_w) * w / new_w).astype(int)
    scaled = ink[rows][:, cols]
    out = np.zeros((_GRID_H, _GRID_W))
    left = (_GRID_W - new_w) // 2
    out[:, left:left + new_w] = scaled
    return out


def _ink(pix):
    import numpy as np

    arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, 0]
    return (255.0 - arr.astype(float)) / 255.0


def _references() -> dict[str, list[np.ndarray]]:
    """Digits 0-9 in each reference font, normalised: {digit: [grid, ...]}."""
    global _REFERENCE
    if _REFERENCE is None:
        fonts_dir = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
        refs: dict[str, list[np.ndarray]] = {d: [] for d in "0123456789"}
        doc = pymupdf.open()
        page = doc.new_page(width=80 * len(_REFERENCE_FONTS), height=80 * 10)
        for i, (font, file) in enumerate(_REFERENCE_FONTS):
            path = os.path.join(fonts_dir, file) if file else None
            if path and not os.path.exists(path):
                continue
            shape = page.new_shape()   # (one per font: `page.insert_text` makes one per digit)
            for j, d in enumerate("0123456789"):
                shape.insert_text((i * 80 + 10, j * 80 + 60), d, fontname=font, fontfile=path,
                                  fontsize=_GLYPH_EM_PX)
            shape.commit()
        ink = _ink(page.get_pixmap(colorspace=pymupdf.csGRAY, alpha=False))   # (each cell cut from one render)
        for i, _font in enumerate(_REFERENCE_FONTS):
            for j, d in enumerate("0123456789"):
                grid = _normalise(ink[j * 80:j * 80 + 80, i * 80:i * 80 + 80])
                if grid is not None:
                    refs[d].append(grid)
        doc.close()
        _REFERENCE = refs
    return _REFERENCE


def _reference_matrix():
    """Every reference grid as a unit row vector, and the digit each row draws."""
    import numpy as np

    global _MATRIX
    if _MATRIX is None:
        rows, labels = [], []
        for d, grids in _references().items():
            for g in grids:
                v = g.ravel()
                rows.append(v / (np.linalg.norm(v) or 1.0))
                labels.append(d)
        _MATRIX = (np.array(rows), labels)
    return _MATRIX


_MATRIX: tuple[Any, list[str]] | None = None


def read_digit(ink) -> tuple[str | None, dict[str, float]]:
    """The digit a glyph's ink looks like (None if it looks like none) and each digit's score
    (the best cosine similarity with that digit in any reference font)."""
    import numpy as np

    grid = _normalise(ink)
    if grid is None:
        return None, {}
    v = grid.ravel()
    v = v / (np.linalg.norm(v) or 1.0)
    matrix, labels = _reference_matrix()
    sims = matrix @ v
    scores: dict[str, float] = {}
    for label, sim in zip(labels, sims.tolist(), strict=True):
        scores[label] = max(scores.get(label, 0.0), sim)
    best = max(scores, key=scores.get)
    return (best if scores[best] >= _GLYPH_MIN_SCORE else None), scores


def _fonts_with_tounicode(doc, page) -> set[str]:
    names = set()
    for xref, _ext, _type, basefont, _name, _enc, *_ in page.get_fonts(full=True):
        # A font dict written inline in the page's resources has no xref (0) to look its
        # ToUnicode up by: it is judged as one that may have a map (the glyph check decides).
        if not xref or doc.xref_get_key(xref, "ToUnicode")[0] == "xref":
            names.add(basefont.split("+", 1)[-1])
    return names


def glyph_readings(doc, page, spans, trace: list | None = None, drawn=None) -> list[tuple[Any, str]]:
    """(span, what its glyphs read) for spans whose font map disagrees with the drawn digits.
    `trace`: the page's text trace as the file has it, read already (else read here); `drawn`:
    its display list, made already (else made here at the first glyph to look at).

    Each glyph (font, glyph id) is judged once per page: it looks the same wherever it is drawn.
    """
    suspects = _fonts_with_tounicode(doc, page)
    if not suspects or page.rotation:  # (rotated pages: not judged; see the module docstring)
        return []
    wanted = {(s.text, tuple(round(v) for v in s.bbox)): s for s in spans
              if s.visible and s.size > 0 and any(c.isdigit() for c in s.text)}
    if not wanted:
        return []
    memo: dict[tuple[str, int], str | None] = {}
    out = []
    for raw in page.get_texttrace() if trace is None else trace:
        font = str(raw.get("font", "")).split("+", 1)[-1]
        chars = raw.get("chars") or ()
        text = "".join(chr(c[0]) for c in chars)
        span = wanted.get((text, tuple(round(v) for v in raw["bbox"])))
        if span is None or font not in suspects:
            continue
        dpi = max(72, min(1200, round(_GLYPH_EM_PX * 72 / span.size)))
        read = list(text)
        for j, (code, gid, _origin, box) in enumerate(chars):
            ch = chr(code)
            if not ch.isdigit():
                continue
            if (font, gid) not in memo:
                memo[(font, gid)] = None
                clip = pymupdf.Rect(box)
                if not clip.is_empty:
                    if drawn is None:
                        drawn = page.get_displaylist()
                    # (what page.get_pixmap(dpi=...) does, without a display list a glyph)
                    pix = drawn.get_pixmap(matrix=pymupdf.Matrix(dpi / 72, dpi / 72), clip=clip,
                                           colorspace=pymupdf.csGRAY, alpha=False)
                    seen, scores = read_digit(_ink(pix))
                    if seen is not None and seen != ch and scores[seen] - scores.get(ch, 0.0) >= _GLYPH_MARGIN:
                        memo[(font, gid)] = seen
            if memo[(font, gid)] is not None:
                read[j] = memo[(font, gid)]
        if read != list(text):
            out.append((span, "".join(read)))
    return out

