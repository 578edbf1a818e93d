"""What is known about one page of a PDF once it is looked at (`PageForensics`): its number, size
and rotation (`PageInfo`), its spans with their visibility, each extractor's text (`EXTRACTORS`)
and where the layers differ. Computed by `workbench.pdf.forensics`, cached by `pages.PdfPages`.
Data only: no PDF library is imported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench.pdf.layers import LayerDiff
from workbench.pdf.spans import PageAnalysis

# The extractors whose text layers are read for each page (`workbench.pdf.textlayer`).
EXTRACTORS = ("pypdf", "pymupdf")


@dataclass(frozen=True)
class PageInfo:
    """A page's number, size in points and rotation."""

    number: int  # 1-based
    width_pt: float
    height_pt: float
    rotation: int


@dataclass
class PageForensics:
    """Everything known about one page."""

    index: int                      # 0-based
    info: PageInfo
    analysis: PageAnalysis
    seconds: float                  # what computing it took
    texts: dict[str, str] | None = None     # extractor -> this page's text (None: not read yet)
    diff: LayerDiff | None = None           # where the layers differ (None: not compared yet)
    # extractor -> why it could not read this page (its text is then ''): pypdf refuses a stream
    # that MuPDF reads, and the page, its spans and the other layer are still worth showing.
    unread: dict[str, str] = field(default_factory=dict)
    too_complex: bool = False       # over a count of work: not analysed, `skipped` says why

    @property
    def skipped(self) -> str:
        """Why the page's spans were not checked against its pixels ('' when they were)."""
        return self.analysis.skipped
