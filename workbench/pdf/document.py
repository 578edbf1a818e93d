"""Opening PDFs with a clear error for anything that is not one."""

from __future__ import annotations

from pathlib import Path

from workbench.core.errors import UserError


def read_pdf_bytes(path: Path) -> bytes:
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror})") from None
    check_pdf_bytes(data, str(path))
    return data


def check_pdf_bytes(data: bytes, name: str = "PDF") -> None:
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise UserError(f"{name}: not a PDF (no %PDF- header); give a .pdf file or a case JSON")


def open_fitz(data: bytes, name: str = "PDF"):
    """A pymupdf Document for `data`, or a UserError that says the PDF is broken."""
    import pymupdf

    check_pdf_bytes(data, name)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # pymupdf raises its own FileDataError and friends
        raise UserError(f"{name}: broken PDF ({exc}); regenerate it or check the file") from None
    if doc.page_count == 0:
        raise UserError(f"{name}: broken PDF (no pages)")
    return doc
