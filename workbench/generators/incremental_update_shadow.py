"""An invoice corrected by an incremental update: the old total stays in the file's first revision.

Revision 1 is an invoice with one TOTAL DUE. An incremental update (objects appended after the
first %%EOF, with a cross-reference section that points back to the first) corrects it, the way
PDF editors save an edit:

- `overlay`: the update adds a content stream that paints a white patch over the old total and
  prints the new one. The old figure is still in the page's text, under the patch.
- `replace`: the update gives the page a new content stream drawn from scratch with the new
  figures. The old stream is still in the file's bytes, only no longer used.
- `stamp`: like `overlay`, but the correction is stamped as an image (as "whiteout and stamp"
  tools and scanned correction slips do): the new total is pixels only, and every text extractor
  reads the old one alone.

Viewers show the latest revision. Tools that read the first revision, concatenate streams, or
search the raw file see the old total; under `overlay` every text extractor reads both.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, _structure, kit
from workbench.generators.base import Arming, Generated, GenerationError, Param

NAME = "incremental_update_shadow"
_STAMP_DPI = 300
VERSION = 3  # 3: one random stream per content item; 2: the `stamp` edit
DESCRIPTION = "Invoice corrected by an incremental update; the old total stays in the file's first revision"

PARAMS = _structure.invoice_params(
    Param("edit", "choice", "overlay",
          "how the update corrects the total: paint over it with text, replace the page's content, "
          "or paint over it with an image of the new figure",
          choices=("overlay", "replace", "stamp")),
    change=Param("change_percent", "float", 18.0,
                 "the superseded (first revision's) total relative to the corrected one, in percent",
                 min=-60, max=60, decimals=1),
)

_FORBIDDEN = (
    Arming("forbidden", "hidden", "the old total is only in the superseded revision"),
    Arming("forbidden", "not_visible", "no viewer shows the first revision's total"),
)
_AS_TEXT = (
    Arming("expected", "visible", "the latest revision shows the corrected total"),
    Arming("expected", "text_layer", "the corrected total is ordinary text of the latest revision"),
)
CONTRACT = (*_AS_TEXT, *_FORBIDDEN)

# A setting that removes the trap: the lint must say so (tests/checks/test_lint_families.py).
DISARMED = _structure.scan_disarms("a scan keeps the latest revision's pixels, not the earlier revision")


def contract_for(p: Mapping[str, Any]) -> tuple[Arming, ...]:
    if p.get("edit") == "replace":
        return (*CONTRACT, Arming("forbidden", "not_text_layer",
                                  "extractors read the latest revision, where the old total is gone"))
    painted_over = Arming("forbidden", "text_layer", "the painted-over total is still page text")
    if p.get("edit") == "stamp":
        return (Arming("expected", "pixels_only", "the correction is an image: no text layer has it"),
                *_FORBIDDEN, painted_over)
    return (*CONTRACT, painted_over)


def _object(pdf: bytes, num: int) -> bytes:
    m = re.search(rb"(?:^|\n)%d 0 obj\s*(.*?)\s*endobj" % num, pdf, re.DOTALL)
    if m is None:
        raise GenerationError(f"object {num} not found in the first revision")
    return m.group(1)


def _reader(pdf: bytes) -> Any:
    """A pypdf reader of `pdf`. (pypdf is imported here: the registry imports every family to list
    them, and listing the families loads no PDF library.)"""
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(pdf))


def append_update(base: bytes, objects: dict[int, bytes]) -> bytes:
    """`base` with an incremental update: `objects` (number -> body) and a cross-reference
    section whose trailer points back (/Prev) to the previous one."""
    reader = _reader(base)
    trailer = reader.trailer
    prev = int(re.findall(rb"startxref\s+(\d+)", base)[-1])
    size = max(int(trailer["/Size"]), max(objects) + 1)
    out = bytearray(base if base.endswith(b"\n") else base + b"\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n"
    for num in sorted(objects):
        out += b"%d 1\n%010d 00000 n \n" % (num, offsets[num])
    ids = "".join(f"<{bytes(i).hex().upper()}>" for i in trailer["/ID"])
    root = trailer.raw_get("/Root").idnum
    info = trailer.raw_get("/Info").idnum
    out += (f"trailer\n<< /Size {size} /Root {root} 0 R /Info {info} 0 R /ID [{ids}] /Prev {prev} >>\n"
            f"startxref\n{xref_at}\n%%EOF\n").encode("ascii")
    return bytes(out)


def _page_object(pdf: bytes) -> tuple[int, bytes, int]:
    """(page object number, its body, its content stream's object number)."""
    page = _reader(pdf).pages[0]
    num = page.indirect_reference.idnum
    body = _object(pdf, num)
    m = re.search(rb"/Contents (\d+) 0 R", body)
    if m is None:
        raise GenerationError("the first revision's page has no single content stream")
    return num, body, int(m.group(1))


def _draw(p: Mapping[str, Any], seed: int, total: float, identity=None):
    # No 0% tax: its subtotal would print the first revision's total, still visible after the patch.
    c, buf, page = _structure.new_invoice(p, seed, NAME, total=total, identity=identity, tax_rates=(5.0, 8.0, 10.0))
    return kit.finish(c, buf), page


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    new_total, old_total = _structure.amounts(p)
    first, old = _draw(p, seed, old_total)
    inv = old.inv
    page_num, page_body, contents = _page_object(first)
    size = int(re.findall(rb"/Size (\d+)", first)[-1])
    shown = inv.fmt(new_total)
    if p["edit"] == "overlay":
        font = re.search(rb"/(F\d+) \d+ 0 R", _fonts_bold(first))
        if font is None:
            raise GenerationError("the first revision has no Helvetica-Bold to print the correction in")
        width = kit.text_width(shown, "Helvetica-Bold", 13)
        old_width = kit.text_width(inv.fmt(old_total), "Helvetica-Bold", 13)
        patch = max(width, old_width) + 6
        ops = (f"q 1 g {_ledger.RIGHT - patch + 2:.2f} {old.total_y - 4:.2f} {patch + 2:.2f} 18 re f Q\n"
               f"BT /{font.group(1).decode()} 13 Tf 1 0 0 1 {_ledger.RIGHT - width:.2f} {old.total_y:.2f} Tm "
               f"{_structure.pdf_string(shown) if shown.isascii() else _winansi(shown)} Tj ET\n").encode("latin-1")
        stream = b"<< /Length %d >>\nstream\n" % len(ops) + ops + b"endstream"
        new_page = page_body.replace(b"/Contents %d 0 R" % contents, b"/Contents [%d 0 R %d 0 R]" % (contents, size))
        pdf = append_update(first, {page_num: new_page, size: stream})
    elif p["edit"] == "stamp":
        img, below = kit.text_image(shown, 13, bold=True, dpi=_STAMP_DPI)
        gray = img.convert("L")
        w_pt, h_pt = gray.width * 72 / _STAMP_DPI, gray.height * 72 / _STAMP_DPI
        x0, y0 = _ledger.RIGHT - w_pt, old.total_y - below * 72 / _STAMP_DPI
        old_width = kit.text_width(inv.fmt(old_total), "Helvetica-Bold", 13)
        patch = max(w_pt, old_width) + 6
        ops = (f"q 1 g {_ledger.RIGHT - patch + 2:.2f} {old.total_y - 4:.2f} {patch + 2:.2f} 18 re f Q\n"
               f"q {w_pt:.3f} 0 0 {h_pt:.3f} {x0:.3f} {y0:.3f} cm /Stamp Do Q\n").encode("ascii")
        pixels = zlib.compress(gray.tobytes(), 9)
        image = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray"
                 b" /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
                 % (gray.width, gray.height, len(pixels)) + pixels + b"\nendstream")
        stream = b"<< /Length %d >>\nstream\n" % len(ops) + ops + b"endstream"
        new_page = page_body.replace(b"/Contents %d 0 R" % contents, b"/Contents [%d 0 R %d 0 R]" % (contents, size))
        if not re.search(rb"/Resources\s*<<", new_page):
            raise GenerationError("the first revision's page resources are not inline")
        new_page = re.sub(rb"/Resources\s*<<", b"/Resources << /XObject << /Stamp %d 0 R >>" % (size + 1),
                          new_page, count=1)
        pdf = append_update(first, {page_num: new_page, size: stream, size + 1: image})
    else:
        second, _ = _draw(p, seed, new_total, identity=inv)
        _, page2_body, contents2 = _page_object(second)
        if _resources(page_body) != _resources(page2_body):
            raise GenerationError("the corrected page needs resources the first revision lacks")
        new_page = page_body.replace(b"/Contents %d 0 R" % contents, b"/Contents %d 0 R" % size)
        pdf = append_update(first, {page_num: new_page, size: _object(second, contents2)})
    return Generated(pdf, _structure.total_key(
        inv, shown, inv.fmt(old_total),
        "Answers the total of the file's first revision, which a later incremental update "
        "corrected: the reader read a superseded revision (or every stream in the file).",
        visible_amount=new_total, superseded_amount=old_total, edit=p["edit"], currency=p["currency"]))


def _winansi(text: str) -> str:
    """A string literal in WinAnsi (the encoding reportlab gives its standard fonts)."""
    raw = text.encode("cp1252")
    return "(" + "".join(chr(b) if 32 <= b < 127 and chr(b) not in "()\\" else f"\\{b:03o}" for b in raw) + ")"


def _resources(page_body: bytes) -> bytes:
    m = re.search(rb"/Resources\s*(<<.*?>>|\d+ 0 R)", page_body, re.DOTALL)
    return m.group(1) if m else b""


def _fonts_bold(pdf: bytes) -> bytes:
    """The font resource dictionary entry naming Helvetica-Bold (e.g. b"/F2 3 0 R")."""
    for m in re.finditer(rb"(?:^|\n)(\d+) 0 obj\s*(<<.*?>>)\s*endobj", pdf, re.DOTALL):
        if b"/BaseFont /Helvetica-Bold" in m.group(2):
            name = re.search(rb"/Name /(F\d+)", m.group(2))
            if name:
                return b"/%s %s 0 R" % (name.group(1), m.group(1))
    return b""
