"""The half-cell renderer: an image as terminal cells, two pixels a cell (the lower one the
foreground of "▄", the upper one its background), as rich-pixels draws it, with runs of equal
cells merged into one Segment; and the ready-made lines a page pane shows (`PagePicture`).

It takes a PIL image and imports neither PIL nor numpy itself: numpy is used once something else
has imported it (see `FastHalfcellRenderer.rows`).
"""

from __future__ import annotations

import sys

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.visual import Visual


class PagePicture(Visual):
    """A rendered page as ready-made lines (Strips), built in the render thread.

    Handed to a Rich renderable instead, the UI thread would measure it twice and split it into
    lines again on every redraw of the pane (about 80 ms of the UI thread a page, which is what
    paging waits for); these lines are only copied."""

    def __init__(self, lines: list[Strip], width: int) -> None:
        self.lines, self.width = lines, width

    def render_strips(self, width: int, height: int | None, style, options) -> list[Strip]:
        lines = self.lines if height is None else self.lines[:height]
        return [line.crop(0, width) if line.cell_length > width else line for line in lines]

    def get_optimal_width(self, rules, container_width: int) -> int:
        return container_width  # as the Rich renderable measured: the pane's width, image at left

    def get_height(self, rules, width: int) -> int:
        return len(self.lines)


# Styles of the half-cells drawn, by their packed colours (see `FastHalfcellRenderer.rows`):
# a page's few hundred colours recur from one render to the next, and a Style with its two
# Colors costs as much to build as drawing the rest of its cells. Cleared when it grows past this.
_STYLE_CACHE_SIZE = 65536
_HALFCELL_STYLES: dict[int, object] = {}


class FastHalfcellRenderer:
    """rich-pixels' half-cell rendering (▄ with the lower pixel as foreground, the upper as
    background), with runs of equal cells merged into one Segment: the cells are compared in
    bulk (numpy) and only the runs are visited in Python."""

    def picture(self, image) -> PagePicture:
        """The image as a PagePicture: one Strip per row of cells."""
        lines = [Strip(row, image.width) for row in self.rows(image)]
        return PagePicture(lines, image.width)

    def render(self, image, resize=None) -> list:
        newline = Segment("\n")
        segments: list = []
        for row in self.rows(image):
            segments += row
            segments.append(newline)
        return segments

    def rows(self, image) -> list[list]:
        """One list of Segments per row of cells (two rows of pixels; an odd last row of pixels
        gets black below it)."""
        if "numpy" not in sys.modules:
            # The workbench's first page is drawn before anything imports numpy (0.1 s, most of
            # it holding the interpreter, on the way to that page): drawn here pixel by pixel
            # (a few ms more a pane) until the page's analysis has imported it.
            return self.rows_in_python(image)
        # (imported already: the check above)
        import numpy as np

        pixels = np.asarray(image.convert("RGB"), dtype=np.uint8)
        height, width = pixels.shape[0], pixels.shape[1]
        if height % 2:
            pixels = np.concatenate([pixels, np.zeros((1, width, 3), dtype=np.uint8)])
        # One integer per cell: the lower pixel's RGB (the foreground) above the upper's.
        rgb = pixels.astype(np.uint64)
        packed = (rgb[:, :, 0] << 16) | (rgb[:, :, 1] << 8) | rgb[:, :, 2]
        cells = (packed[1::2] << 24) | packed[0::2]
        # Where a run starts: the first cell of a row, and every cell unlike the one before it.
        starts = np.ones(cells.shape, dtype=bool)
        starts[:, 1:] = cells[:, 1:] != cells[:, :-1]
        row_of, col_of = np.nonzero(starts)
        ends = np.empty_like(col_of)
        ends[:-1] = col_of[1:]
        ends[:-1][row_of[1:] != row_of[:-1]] = width  # ... or the row ends first
        if len(ends):
            ends[-1] = width
        styles = _HALFCELL_STYLES
        if len(styles) > _STYLE_CACHE_SIZE:
            styles.clear()
        rows: list[list] = [[] for _ in range(cells.shape[0])]
        for y, x0, x1, key in zip(row_of.tolist(), col_of.tolist(), ends.tolist(),
                                  cells[row_of, col_of].tolist(), strict=True):
            style = styles.get(key)
            if style is None:
                lower, upper = key >> 24, key & 0xFFFFFF
                style = Style(color=Color.from_rgb(lower >> 16, (lower >> 8) & 255, lower & 255),
                              bgcolor=Color.from_rgb(upper >> 16, (upper >> 8) & 255, upper & 255))
                styles[key] = style
            rows[y].append(Segment("▄" * (x1 - x0), style))
        return rows

    def rows_in_python(self, image) -> list[list]:
        """`rows` without numpy: the same Segments, each pixel pair looked at in Python."""

        img = image.convert("RGB")
        width, height = img.size
        data = img.tobytes()
        row_bytes = width * 3
        if height % 2:  # black below an odd last row
            data += bytes(row_bytes)
            height += 1
        styles = _HALFCELL_STYLES
        if len(styles) > _STYLE_CACHE_SIZE:
            styles.clear()
        rows: list[list] = []
        for y in range(0, height, 2):
            segments: list = []
            upper = data[y * row_bytes:(y + 1) * row_bytes]
            lower = data[(y + 1) * row_bytes:(y + 2) * row_bytes]
            run_key, run = -1, 0
            for x in range(0, row_bytes, 3):
                key = int.from_bytes(lower[x:x + 3], "big") << 24 | int.from_bytes(upper[x:x + 3], "big")
                if key == run_key:
                    run += 1
                    continue
                if run:
                    segments.append(Segment("▄" * run, styles[run_key]))
                if key not in styles:
                    styles[key] = Style(color=Color.from_rgb(lower[x], lower[x + 1], lower[x + 2]),
                                        bgcolor=Color.from_rgb(upper[x], upper[x + 1], upper[x + 2]))
                run_key, run = key, 1
            if run:
                segments.append(Segment("▄" * run, styles[run_key]))
            rows.append(segments)
        return rows
