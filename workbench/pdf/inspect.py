"""What `inspect` reports for a PDF: pages, sizes and each extractor's text layer."""

from __future__ import annotations

from typing import Any

from workbench.pdf.textlayer import page_info, text_pymupdf, text_pypdf


def inspect_document(data: bytes, name: str = "PDF", dpi: int = 150) -> dict[str, Any]:
    infos = page_info(data, name)
    layers = {"pypdf": text_pypdf(data, name), "pymupdf": text_pymupdf(data, name)}
    pages = []
    for info in infos:
        i = info.number - 1
        pages.append({
            "number": info.number,
            "width_pt": round(info.width_pt, 2),
            "height_pt": round(info.height_pt, 2),
            "rotation": info.rotation,
            "text": {k: v[i] if i < len(v) else "" for k, v in layers.items()},
        })
    return {"page_count": len(infos), "pages": pages}
