"""What the HTML report shows of a page: a crop around a case's evidence, with its boxes.

Made by `workbench.checks.crops` (which reads the PDF); the report only places it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CropBox:
    kind: str                                   # expected | forbidden | source
    rect: tuple[float, float, float, float]     # PDF points, top-left origin (the page's)


@dataclass(frozen=True)
class PageCrop:
    """A region of one page as a PNG: `clip` (PDF points) drawn at `width` x `height` pixels."""

    case_id: str
    page: int                                   # 0-based
    clip: tuple[float, float, float, float]
    width: int
    height: int
    png: bytes
    boxes: tuple[CropBox, ...] = field(default_factory=tuple)
    note: str = ""                              # why the crop is not around evidence, if it is not

    def inside(self, rect: tuple[float, float, float, float]) -> bool:
        """Whether `rect` overlaps the crop."""
        x0, y0, x1, y1 = self.clip
        return rect[0] < x1 and rect[2] > x0 and rect[1] < y1 and rect[3] > y0
