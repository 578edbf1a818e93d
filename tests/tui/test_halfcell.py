"""The page image's half-cells: the bulk (numpy) renderer draws exactly what one Segment per
pixel pair would, cell for cell, and merges every run of equal cells."""

from __future__ import annotations

import io

import numpy as np
import pymupdf
import pytest
from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas
from rich.color import Color
from rich.style import Style

from workbench.tui import halfcell
from workbench.tui.halfcell import FastHalfcellRenderer
from workbench.tui.page_look import PageRequest
from workbench.tui.page_render import render_view


def reference_cells(image: Image.Image) -> list[list[tuple[str, Style]]]:
    """One (character, style) per cell, pixel by pixel: ▄ in the lower pixel's colour on the
    upper's; a last odd row of pixels has black below it."""
    img = image.convert("RGB")
    width, height = img.size
    px = img.load()
    rows = []
    for y in range(0, height, 2):
        row = []
        for x in range(width):
            upper = px[x, y]
            lower = px[x, y + 1] if y + 1 < height else (0, 0, 0)
            row.append(("▄", Style(color=Color.from_rgb(*lower), bgcolor=Color.from_rgb(*upper))))
        rows.append(row)
    return rows


def cells_of(rows: list[list]) -> list[list[tuple[str, Style]]]:
    return [[(ch, seg.style) for seg in row for ch in seg.text] for row in rows]


def _page_image(draw, size=(160, 208)) -> Image.Image:
    """A PDF page written with reportlab (`draw(canvas)`), rendered by pymupdf and scaled down
    with LANCZOS as the page view does: anti-aliased text, many colours."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter, invariant=True)
    draw(c)
    c.save()
    with pymupdf.open(stream=buf.getvalue()) as doc:
        pix = doc[0].get_pixmap(dpi=50, alpha=False)
        img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    return img.resize(size, Image.Resampling.LANCZOS)


def _text_page(c) -> None:
    c.setFont("Helvetica", 11)
    for i in range(40):
        c.setFillColorRGB((i % 5) / 5, 0.2, 1 - (i % 3) / 3)
        c.drawString(72, 720 - 15 * i, f"Invoice line {i}: total $1,{i:03d}.50 due")
    c.setFillColorRGB(0.9, 0.9, 0.2)
    c.rect(300, 300, 120, 40, fill=1, stroke=0)


rng = np.random.default_rng(7)
IMAGES = {
    "noise": Image.fromarray(rng.integers(0, 256, (40, 33, 3), dtype=np.uint8)),
    "odd height": Image.fromarray(rng.integers(0, 2, (41, 25, 3), dtype=np.uint8) * 255),
    "runs": Image.fromarray(np.repeat(rng.integers(0, 3, (12, 6, 3), dtype=np.uint8) * 100, 5, axis=1)),
    "white": Image.new("RGB", (98, 80), (255, 255, 255)),
    "one pixel": Image.new("RGB", (1, 1), (3, 4, 5)),
    "grey": Image.new("L", (20, 7), 128),
    "with alpha": Image.new("RGBA", (20, 6), (10, 20, 30, 100)),
}


@pytest.mark.parametrize("name", sorted(IMAGES))
def test_half_cells_are_the_pixels_cell_for_cell(name: str) -> None:
    image = IMAGES[name]
    rows = FastHalfcellRenderer().rows(image)
    assert cells_of(rows) == reference_cells(image)


def test_a_rendered_page_is_drawn_cell_for_cell_with_every_run_merged() -> None:
    image = _page_image(_text_page)
    rows = FastHalfcellRenderer().rows(image)
    assert cells_of(rows) == reference_cells(image)
    for row in rows:
        # Maximal runs: two neighbouring Segments never have the same colours.
        assert all(a.style != b.style for a, b in zip(row, row[1:], strict=False))
    assert sum(len(row) for row in rows) < image.width * len(rows) / 2  # runs were merged
    # Drawn again (the styles are kept between renders): the same lines.
    assert FastHalfcellRenderer().rows(image) == rows


def test_the_page_view_picture_is_the_half_cells_of_the_fitted_page() -> None:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter, invariant=True)
    _text_page(c)
    c.save()
    picture, _view = render_view(PageRequest(buf.getvalue(), 0, 150, 60, 30, 1.0, (0.5, 0.5)))
    assert len(picture.lines) == 30
    width = picture.lines[0].cell_length
    assert all(line.cell_length == width for line in picture.lines)
    text = "".join(seg.text for line in picture.lines for seg in line)
    assert set(text) == {"▄"}
    # The page is white paper with dark print: both show up as cell colours.
    colours = {seg.style.bgcolor.triplet for line in picture.lines for seg in line}
    assert (255, 255, 255) in colours
    assert min(sum(t) for t in colours) < 3 * 160


@pytest.mark.parametrize("name", sorted(IMAGES))
def test_drawn_without_numpy_the_half_cells_are_the_same(name: str) -> None:
    """The workbench's first page is drawn before numpy is imported: pixel by pixel, the same."""
    image = IMAGES[name]
    halfcell._HALFCELL_STYLES.clear()   # its own styles, none kept from the bulk renderer's
    rows = FastHalfcellRenderer().rows_in_python(image)
    assert cells_of(rows) == reference_cells(image)
    assert rows == FastHalfcellRenderer().rows(image)   # the same Segments as the bulk renderer


def test_a_rendered_page_without_numpy_is_the_same_picture() -> None:
    image = _page_image(_text_page)
    halfcell._HALFCELL_STYLES.clear()
    rows = FastHalfcellRenderer().rows_in_python(image)
    assert cells_of(rows) == reference_cells(image)
    assert rows == FastHalfcellRenderer().rows(image)


def test_the_first_page_is_drawn_without_importing_numpy() -> None:
    """numpy's import is not on the way to the first page (it costs 0.1 s of the interpreter)."""
    import subprocess
    import sys

    code = ("import sys\nfrom PIL import Image\nfrom workbench.tui.halfcell import FastHalfcellRenderer\n"
            "rows = FastHalfcellRenderer().rows(Image.new('RGB', (6, 5), (250, 250, 250)))\n"
            "print(len(rows), 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["3", "False"]


def test_a_page_rasterised_by_the_helper_process_is_drawn_as_it_is_rendered_here() -> None:
    """The Author screen's helper rasterises the page while the page is analysed, and the boxes
    are drawn on that raster afterwards: the same picture as rendering it all here."""
    from tests.support.fixtures import helper_started
    from workbench.core.pool import HelperProcess
    from workbench.pdf.pages import Box
    from workbench.tui.page_look import PageLook
    from workbench.tui.page_render import (
        raster_for,
        render_ahead,
        warm_author_helper,
    )

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter, invariant=True)
    _text_page(c)
    c.showPage()
    c.drawString(72, 720, "page two")
    c.save()
    pdf = buf.getvalue()
    boxes = [Box(0, (72.0, 60.0, 300.0, 75.0), "hidden", "x"), Box(0, (72.0, 90.0, 250.0, 104.0), "expected", "y"),
             Box(1, (72.0, 60.0, 150.0, 75.0), "forbidden", "z")]
    kinds = frozenset({"hidden", "expected", "forbidden", "evidence"})
    for page, zoom in ((0, 1.0), (1, 2.0), (0, 0.0)):
        look = PageLook(PageRequest(b"", page, 150, 70, 36, zoom, (0.4, 0.3)), kinds)
        here = render_ahead(look, pdf, 2, boxes)
        assert len(here.renderable.lines) > 0
        ahead = render_ahead(look, pdf, 2, boxes, raster_for(look, pdf))
        assert ahead.renderable.lines == here.renderable.lines and ahead.view == here.view
        assert ahead.request == here.request
    helper = HelperProcess(warm_author_helper)
    try:
        helper_started(helper)
        look = PageLook(PageRequest(b"", 0, 150, 70, 36, 1.0, (0.5, 0.5)), kinds)
        raster = helper.submit(raster_for, look, pdf).result(timeout=60)
        assert render_ahead(look, pdf, 2, boxes, raster).renderable.lines == \
            render_ahead(look, pdf, 2, boxes).renderable.lines
        # A raster of another page than the one shown is not used.
        other = PageLook(PageRequest(b"", 1, 150, 70, 36, 1.0, (0.5, 0.5)), kinds)
        assert render_ahead(other, pdf, 2, boxes, raster).renderable.lines == \
            render_ahead(other, pdf, 2, boxes).renderable.lines
    finally:
        helper.close()
