"""What `inspect` reports for a PDF: pages, sizes, each extractor's text layer, and every text span
with its visibility verdict (see `workbench.pdf.spans`) and where the layers differ, and the
file's structure: its revisions and form fields (see `workbench.pdf.structure`)."""

from __future__ import annotations

from typing import Any

from workbench.pdf.textlayer import page_info


def inspect_document(data: bytes, name: str = "PDF", dpi: int = 150) -> dict[str, Any]:
    from workbench.pdf.layers import document_diffs, page_texts
    from workbench.pdf.spans import analyze_document
    from workbench.pdf.structure import structure_report

    infos = page_info(data, name)
    layers = page_texts(data, name)
    analysis = analyze_document(data, dpi, name)
    diffs = document_diffs(data, dpi, name)
    pages = []
    for info in infos:
        i = info.number - 1
        spans = analysis.pages[i].spans if i < len(analysis.pages) else []
        diff = diffs[i].to_json() if i < len(diffs) else {}
        diff.pop("page_number", None)
        diff.pop("hidden", None)  # the spans carry it
        pages.append({
            "number": info.number,
            "width_pt": round(info.width_pt, 2),
            "height_pt": round(info.height_pt, 2),
            "rotation": info.rotation,
            "text": {k: v[i] if i < len(v) else "" for k, v in layers.items()},
            "spans": [s.to_json() for s in spans],
            "hidden_spans": sum(not s.visible for s in spans),
            "layers": diff,
        })
    return {"page_count": len(infos), "dpi": dpi, "pages": pages,
            "structure": structure_report(data, name).to_json()}
