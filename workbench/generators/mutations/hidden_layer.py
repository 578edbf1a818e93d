"""An invisible text layer over the located value that says something else: the hidden-OCR trap
on a real document. A person (and a vision model) reads the printed value; a text pipeline reads
the decoy. By default the printed value becomes pixels, so the text layer holds only the decoy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pymupdf

from workbench.generators.base import AnswerKey, Arming, GenerationError, Param
from workbench.generators.mutations import Mutated, Target
from workbench.generators.mutations import _common as c

NAME = "hidden_layer"
VERSION = 4
DESCRIPTION = "An invisible text layer over the located value that says something else"
NEEDS_TARGET = True

PARAMS = (
    c.DECOY_PARAM,
    c.CHANGE_PARAM,
    c.DIRECTION_PARAM,
    Param("style", "choice", "invisible",
          "how the decoy is hidden: render mode 3 (invisible) or a fill colour (colour)",
          choices=("invisible", "colour"), seeded=False),
    c.COLOUR_PARAM,
    Param("every", "bool", True, "put the decoy over every place the value is printed, not only the "
          "one located, so the text layer never says the value", seeded=False),
    Param("value_layer", "choice", "pixels",
          "the printed value: kept as text, or turned into pixels so only the decoy is in the text layer",
          choices=("pixels", "text"), seeded=False),
)

CONTRACT = (
    Arming("forbidden", "hidden", "the decoy is only in the text layer"),
    Arming("forbidden", "not_visible", "the decoy never shows on the page"),
    Arming("forbidden", "every_text_layer", "every text pipeline reads the decoy"),
)

RENDER_DPI = 300  # the printed value, when it becomes pixels


def apply(pdf: bytes, target: Target | None, key: AnswerKey, contract: tuple[Arming, ...],
          p: Mapping[str, Any], seed: int) -> Mutated:
    assert target is not None
    decoy = c.decoy_for(p, target, key)
    if decoy.strip().casefold() == target.text.strip().casefold():
        raise GenerationError(f"the decoy {decoy!r} is the value itself; choose another")
    fill = c.colour(p["colour"]) if p["style"] == "colour" else (0, 0, 0)
    doc = c.open_doc(pdf)
    try:
        located = c.page_of(doc, target)
        rect = c.unrotated(located, target.box)
        if rect.is_empty or rect.height < 1:
            raise GenerationError(f"the box on page {target.page + 1} is empty; give a box around the value")
        core = c.printed_core(target.text)
        places = [(located, rect, decoy)]
        if p["every"] and core:
            for page in doc:
                for found in page.search_for(core):
                    if not any(pg.number == page.number and found.intersects(r) for pg, r, _ in places):
                        # Printed without its currency (or with another prefix): the decoy likewise.
                        places.append((page, found, c.printed_core(decoy) if core != target.text.strip()
                                       else decoy))
        where = []
        for page, box, text in places:
            where.append([page.number + 1, [round(v, 2) for v in _hide(page, box, text, p, fill)]])
        still_text = any(pg.search_for(core) for pg in doc) if core else True
        out = c.save(doc)
    finally:
        doc.close()
    new_key, i = c.with_forbidden(key, decoy, {"decoy": decoy, "decoy_page": target.page + 1})
    clauses = []
    for clause in c.expected_clauses(contract, key):
        if clause.target in ("expected", "tokens") and clause.where == "visible" and not still_text:
            clause = Arming(clause.target, "pixels_only", "the printed value is pixels now, as on a scan")
        clauses.append(clause)
    clauses += [Arming(f"forbidden:{i}", a.where, a.why) for a in CONTRACT]
    return Mutated(out, new_key, tuple(clauses), {"decoy": decoy, "places": where})


def _hide(page, rect, decoy: str, p: Mapping[str, Any], fill):
    """The decoy as hidden text over `rect` (the page's own space), reading along the value's
    line (the printed value turned to pixels first, if asked); returns `rect` as displayed."""
    with c.drawing_on(page) as rotation:
        frame = c.Frame.of(page, rect, rotation)
        if p["value_layer"] == "pixels":   # (upright: the render is of the page's own space)
            shot = page.get_pixmap(clip=rect, dpi=RENDER_DPI, alpha=False)
            png = shot.tobytes("png")
            page.add_redact_annot(rect + (0.4, 0.4, -0.4, -0.4), fill=False)
            page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_NONE,
                                  graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                                  text=pymupdf.PDF_REDACT_TEXT_REMOVE)
            page.insert_image(rect, stream=png, keep_proportion=False)
        box = frame.frame_rect(rect)
        size = max(1.0, box.height / (c.ASCENT + c.DESCENT))
        frame.write((box.x0, box.y1 - c.DESCENT * size), decoy, size, color=fill,
                    render_mode=3 if p["style"] == "invisible" else 0)
        return frame.shown(rect)
