"""The large inputs the benchmark makes for itself in a temporary folder."""

from __future__ import annotations

from pathlib import Path

LINE = "the quick brown fox jumps over the lazy dog, invoice total $12,345.67 due 2024-03-01"


def text_pdf(path: Path, pages: int, lines: int) -> Path:
    """A reportlab text PDF: `lines` lines of Helvetica 10 pt on each Letter page."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    for p in range(pages):
        c.setFont("Helvetica", 10)
        for i in range(lines):
            c.drawString(72, 740 - i * 13.5, f"Page {p + 1} line {i + 1}: {LINE}")
        c.showPage()
    c.save()
    return path


def suite_spec(path: Path, seeds: int) -> Path:
    """A build spec with every family at seeds 1..`seeds` (23 families x 44 seeds = 1,012 cases)."""
    from workbench.build.make import family_registry

    names = sorted(family_registry().families)
    body = 'name = "bench-suite"\nversion = "1"\n'
    for name in names:
        body += f'\n[[families]]\nname = "{name}"\nseeds = "1..{seeds}"\n'
    path.write_text(body, encoding="utf-8")
    return path
