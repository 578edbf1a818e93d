"""Opening PDFs, rendering, text layers, spans and their visibility, structure, page-by-page forensics.

Light modules import no PDF library, numpy or imaging, so the workbench's first frame, the TUI's
widgets and one-shot commands can use their types: `spans` (the data and its vocabulary), `pages`
(a PDF opened for forensics, its boxes and page choices), `layers` (where text layers differ),
`budget` (work per page, counted before it is done). The others import pymupdf, numpy or pypdf at
their top. A light module reaches them in one place: `pages.PdfPages` loads the page engine
(`forensics`) when its first page is computed. OCR's engine (`ocr`, the `ocr` extra) is imported
when it is first wanted.
"""
