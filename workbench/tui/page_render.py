"""A page rendered for a page pane, as it asks (`page_look.PageRequest`): the page rendered at the
reader's DPI, cropped to the zoom and fitted (`Raster`, plain values a helper process can make),
then its boxes drawn over it and turned into half-cells (`halfcell.py`). With PIL, which the page
view loads with the first page it draws (not for a first frame without the page).

The workbench's first page may have been drawn already by the process started with it
(`firstpage.py`): `raster_view` takes that picture when it is the page asked for. Runs in render
workers and helper processes; nothing here touches a widget. pymupdf (pdf.document, pdf.render)
is loaded with the first page this process renders itself, not for the first frame: the
workbench's first page comes drawn by that other process.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw
from rich.align import Align
from rich.text import Text

from workbench.pdf.budget import page_size as budget_page_size
from workbench.pdf.budget import too_complex
from workbench.pdf.pages import Box
from workbench.tui import firstpage
from workbench.tui.halfcell import FastHalfcellRenderer
from workbench.tui.page_look import (
    PageLook,
    PageRequest,
    RenderedPage,
    View,
    fit_pixels,
    render_dpi_for,
)

# Overlay colours (RGBA): expected evidence, forbidden evidence, hidden text.
OVERLAY_COLOURS = {
    "expected": (46, 160, 67, 255),
    "forbidden": (248, 81, 73, 255),
    "hidden": (210, 153, 34, 110),
    "evidence": (88, 166, 255, 255),
    "value": (188, 92, 255, 255),   # where a value of the chosen answer came from
}


@dataclass
class Raster:
    """A page rendered and fitted as a request asks, before its boxes are drawn (`raster_view`):
    plain values, so a helper process can make it."""

    page: int
    mode: str
    size: tuple[int, int]
    pixels: bytes = field(repr=False)
    view: View
    scale: float                        # image pixels per point, before the crop and resize
    crop: tuple[int, int, int, int]     # the part of the page image kept (pixels)
    factor: float                       # the resize after the crop
    note: str = ""                      # the page was not drawn: why (too complex)

    def image(self):
        return Image.frombytes(self.mode, self.size, self.pixels)


def render_view(req: PageRequest, hires: bool = False):
    """The page at the reader's DPI, with overlays, cropped to the zoom and scaled to the pane.

    Returns (renderable, View). With `hires`, the renderable is the cropped image itself (for a
    Sixel or Kitty image widget to scale).
    """
    return finish_view(raster_view(req, hires), req, hires)


def raster_view(req: PageRequest, hires: bool = False) -> Raster:
    """`render_view` up to the boxes: the page rendered, cropped to the zoom and fitted (its
    boxes are not read)."""
    actual = req.zoom == 0

    def dpi_for(page_w: float, page_h: float) -> int:
        return render_dpi_for(req, page_w, page_h, hires)

    first = firstpage.started()
    drawn = first.picture(req.pdf, req.page, dpi_for) if first is not None else None
    if drawn is not None:  # the first page, drawn by the process started with the workbench
        pic, (page_w, page_h) = drawn
        img = Image.frombytes("RGB", (pic.width, pic.height), pic.samples)
        scale = pic.width / page_w
    else:
        # pymupdf, with the first page rendered here (see the module docstring)
        from workbench.pdf.document import render_dpi
        from workbench.pdf.render import shared_document

        with shared_document(req.pdf) as doc:
            why = too_complex(doc, req.page)
            if why:  # MuPDF would hold the process (and its GIL) for minutes drawing it
                return _not_drawn(req, budget_page_size(doc, req.page), why)
            page = doc[req.page]
            page_w, page_h = page.rect.width, page.rect.height
            pix = page.get_pixmap(dpi=render_dpi(page, dpi_for(page_w, page_h)), alpha=False)
            img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
            scale = pix.width / page_w
            del page, pix
    center = req.center
    if req.focus is not None:
        x0, y0, x1, y1 = req.focus
        center = ((x0 + x1) / 2 / page_w, (y0 + y1) / 2 / page_h)
    w, h = img.size
    crop = (0, 0, w, h)
    if actual or req.zoom > 1:
        if actual:
            cw, ch = min(w, req.cols * req.cell[0]), min(h, req.rows * req.cell[1])
        else:
            cw, ch = w / req.zoom, h / req.zoom
        cx = min(max(center[0] * w, cw / 2), w - cw / 2)
        cy = min(max(center[1] * h, ch / 2), h - ch / 2)
        crop = (int(cx - cw / 2), int(cy - ch / 2), int(cx - cw / 2) + int(cw), int(cy - ch / 2) + int(ch))
        img = img.crop(crop)
        center = (cx / w, cy / h)
    view = View((crop[0] / w, crop[1] / h, crop[2] / w, crop[3] / h), center)
    factor = 1.0
    if not hires and not actual:
        fw, fh = fit_pixels(img.width, img.height, req.cols, req.rows)
        factor = fw / img.width
        img = img.resize((fw, fh), Image.Resampling.LANCZOS, reducing_gap=2.0)
    return Raster(req.page, img.mode, img.size, img.tobytes(), view, scale, crop, factor)


def _not_drawn(req: PageRequest, size: tuple[float, float], why: str) -> Raster:
    """A page that is not drawn: blank paper of its shape, and why (`finish_view` shows it)."""
    fw, fh = fit_pixels(size[0], size[1], req.cols, req.rows)
    pixels = bytes([236]) * (fw * fh * 3)
    return Raster(req.page, "RGB", (fw, fh), pixels, View(), fw / max(size[0], 1.0), (0, 0, fw, fh),
                  1.0, note=f"page {req.page + 1}: {why}")


def finish_view(raster: Raster, req: PageRequest, hires: bool = False):
    """`render_view` from its raster: the request's boxes drawn over it, then half-cells (or, with
    `hires`, the image itself)."""
    if raster.note and not hires:
        return Align.center(Text(raster.note, style="bold"), vertical="middle"), raster.view
    actual = req.zoom == 0
    img, scale, crop, factor = raster.image(), raster.scale, raster.crop, raster.factor
    boxes = [b for b in req.boxes if b.page == req.page]
    if boxes:
        # Overlays are drawn at the size shown, so a box outline stays one pixel wide.
        layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        line = max(1, round(img.width / 300)) if not actual else 1
        # Shading first, then evidence boxes, then answers: a dispute's evidence box (blue) sits
        # outside the answers' boxes, so a proposed value's green box inside it stays visible.
        order = {"hidden": 0, "evidence": 1}
        for b in sorted(boxes, key=lambda b: order.get(b.kind, 2)):
            x0, y0, x1, y1 = ((b.rect[0] * scale - crop[0]) * factor, (b.rect[1] * scale - crop[1]) * factor,
                              (b.rect[2] * scale - crop[0]) * factor, (b.rect[3] * scale - crop[1]) * factor)
            pad = line * (3 if b.kind == "evidence" else 1)
            rect = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
            colour = OVERLAY_COLOURS.get(b.kind, (88, 166, 255, 255))
            if b.kind == "hidden":
                draw.rectangle(rect, fill=colour)
            else:
                draw.rectangle(rect, outline=colour, width=line)
        img = Image.alpha_composite(img.convert("RGBA"), layer).convert("RGB")
    if hires:
        return img, raster.view
    return FastHalfcellRenderer().picture(img), raster.view


def raster_for(look: PageLook, pdf: bytes) -> Raster:
    """`raster_view` of `pdf`'s page as a view with `look` shows it (a module-level function: the
    Author screen has a helper process make it while the worker analyses the page)."""
    from workbench.pdf.render import shared_document  # (in Author's helper process)

    with shared_document(pdf) as doc:
        count = doc.page_count
    return raster_view(look.request_for(pdf, count, []))


def warm_author_helper() -> None:
    """The Author screen's helper process starts with what it runs: the pypdf layer
    (`textlayer.pypdf_page_text`) and the page's raster (`raster_for`)."""
    # What the helper process runs, loaded as it starts (in that process).
    from workbench.pdf.document import mupdf
    from workbench.pdf.textlayer import warm_pypdf

    mupdf()   # pymupdf imported (PIL is, with this module)
    warm_pypdf()


def render_ahead(look: PageLook, pdf: bytes, page_count: int, boxes: list[Box],
                 raster: Raster | None = None) -> RenderedPage:
    """Render `pdf` as a page view with `look` would (from a worker), for `show_pdf(ahead=...)`;
    `raster` is its `raster_for` made already (used if it is of the page shown)."""
    req = look.request_for(pdf, page_count, boxes)
    if raster is None or raster.page != req.page:
        raster = raster_view(req)
    picture, view = finish_view(raster, req)
    return RenderedPage(req.page, picture, view, req)
