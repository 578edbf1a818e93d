"""What the mutations share: opening and saving a PDF deterministically, boxes on a page, free
space near a value, a changed value in the page's own format, and the key after a change."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from generators.base import AnswerKey, Arming, GenerationError, Param

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
    from workbench.pdf.document import open_fitz

    return open_fitz(pdf, "PDF to mutate")


def plain_pdf(pdf: bytes, name: str = "PDF", password: str | None = None) -> bytes:
    """The bytes mutations work on: `pdf` itself, or without its encryption (the rule for
    encrypted input: `workbench.pdf.document`)."""
    from workbench.pdf.document import unencrypted_pdf_bytes

    return unencrypted_pdf_bytes(pdf, name, password)


def pdf_facts(pdf: bytes, name: str = "PDF") -> dict[str, Any]:
    """Pages and whether any page has a text layer (of a PDF read already: decrypted if it needed
    a password)."""
    from workbench.pdf.document import open_fitz

    doc = open_fitz(pdf, name)
    try:
        return {"pages": doc.page_count, "has_text": any(page.get_text("text").strip() for page in doc)}
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
    """A box of the rendered page as the page's own (unrotated) coordinates, where drawing happens."""
    import pymupdf

    rect = pymupdf.Rect(box)
    return rect * page.derotation_matrix if page.rotation else rect


def rotate_for(page) -> int:
    """The `rotate` to give insert_text so text reads upright on a page shown turned."""
    return page.rotation % 360


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


def decoy_for(params: Mapping[str, Any], target, key: AnswerKey) -> str:
    """The pinned decoy, or the located value (as the page writes it) changed by change_pct."""
    if str(params.get("decoy") or "").strip():
        return str(params["decoy"]).strip()
    base = target.text.strip() if target is not None and target.text.strip() else key.expected_answer
    out = changed_value(base, float(params["change_pct"]), str(params["direction"]))
    if out is None:
        raise GenerationError(f"the value {base!r} has no number to change; give the decoy "
                              "(--param decoy=TEXT)")
    return out


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


def occupied(page) -> list[Any]:
    """Boxes (unrotated page space) of what the page draws: text blocks, images and drawings."""
    import pymupdf

    boxes = [pymupdf.Rect(b[:4]) for b in page.get_text("blocks")]
    boxes += [pymupdf.Rect(info["bbox"]) for info in page.get_image_info()]
    for d in page.get_drawings():
        r = pymupdf.Rect(d["rect"])
        if r.width < 0.7 * page.rect.width or r.height < 0.7 * page.rect.height:  # not a page frame
            boxes.append(r)
    return [b for b in boxes if not b.is_empty]


def free_band(page, near, height: float, width: float, where: str = "near"):
    """A rectangle of `width` x `height` with nothing drawn in it: just below the value, above it,
    or in the top or bottom margin (`where`), tried in that order; GenerationError if none."""
    import pymupdf

    taken = occupied(page)
    pr = page.rect
    # Start where the value's line starts (its label), as a footnote to that line would.
    line = [pymupdf.Rect(b[:4]) for b in page.get_text("blocks")
            if b[1] < near.y1 and b[3] > near.y0 and b[0] <= near.x0]
    left = min([r.x0 for r in line] + [near.x0])
    x0 = max(pr.x0 + 18, min(left, pr.x1 - 18 - width))
    candidates = []
    if where == "near":
        for dy in (2, 2 + height, 2 + 2 * height):
            candidates.append(pymupdf.Rect(x0, near.y1 + dy, x0 + width, near.y1 + dy + height))
            candidates.append(pymupdf.Rect(x0, near.y0 - dy - height, x0 + width, near.y0 - dy))
    if where in ("near", "top"):
        candidates += [pymupdf.Rect(pr.x0 + 36, pr.y0 + y, pr.x0 + 36 + width, pr.y0 + y + height)
                       for y in (14, 24, 34)]
    if where in ("near", "bottom"):
        candidates += [pymupdf.Rect(pr.x0 + 36, pr.y1 - y - height, pr.x0 + 36 + width, pr.y1 - y)
                       for y in (14, 24, 34)]
    for rect in candidates:
        if rect.x1 > pr.x1 - 4 or rect.y0 < pr.y0 + 2 or rect.y1 > pr.y1 - 2:
            continue
        if not any(rect.intersects(b) for b in taken):
            return rect
    raise GenerationError(f"page {page.number + 1} has no free space {where} the value for "
                          f"{width:.0f} x {height:.0f} pt; try --param place=top or place=bottom, "
                          "or shorter text")


def text_width(text: str, size: float, font: str = "helv") -> float:
    import pymupdf

    return pymupdf.get_text_length(text, fontname=font, fontsize=size)
