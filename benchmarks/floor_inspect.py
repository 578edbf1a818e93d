"""The libraries' floor under `inspect --json`: only the library calls whose results it prints.

    python -m benchmarks.floor_inspect PDF [--jobs N] [--renders R]

For every page, on N forked processes in chunks of 4 pages as `inspect` sends them: pypdf's
`extract_text` (the pypdf layer, printed byte for byte), pymupdf's `get_text("text")` (the pymupdf
layer), `get_texttrace()` (the spans), `get_bboxlog()` (what else is drawn) and one 150-DPI gray
render (the pixel check). None of the workbench is imported and nothing is printed: what
`inspect` takes beyond this is its own work (the span analysis, the layer diff, the JSON).

--renders 2: two renders a page, the floor as issue 40.3 defines it (the page as it is and
without its text, as the pixel check compares them). `inspect` renders a page once when it
holds nothing but text (without the text it is blank paper), as every page of the benchmark's
PDF does, so the default, one, is the stricter floor.
"""

from __future__ import annotations

import argparse
import io
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

_DOCS: dict[str, object] = {}


def _open(data: bytes) -> None:
    import pymupdf
    from pypdf import PdfReader

    _DOCS["fitz"] = pymupdf.open(stream=data, filetype="pdf")
    _DOCS["pypdf"] = PdfReader(io.BytesIO(data))


RENDERS = [1]


def _pages(indices: list[int]) -> int:
    import pymupdf

    doc, reader = _DOCS["fitz"], _DOCS["pypdf"]
    chars = 0
    for i in indices:
        page = doc[i]
        chars += len(page.get_text("text"))
        page.get_texttrace()
        page.get_bboxlog()
        for _ in range(RENDERS[0]):
            page.get_pixmap(dpi=150, alpha=False, colorspace=pymupdf.csGRAY)
        chars += len(reader.pages[i].extract_text() or "")
    return chars


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.floor_inspect", description=__doc__.split("\n\n")[0])
    ap.add_argument("pdf")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--renders", type=int, default=1, help="150-DPI renders a page (issue 40.3's floor: 2)")
    args = ap.parse_args(argv)
    RENDERS[0] = args.renders   # (set before the fork: the workers inherit it)
    import pymupdf  # noqa: F401  (imported before the fork, as inspect does)
    import pypdf  # noqa: F401

    with open(args.pdf, "rb") as f:
        data = f.read()
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        count = doc.page_count
    chunks = [list(range(i, min(count, i + 4))) for i in range(0, count, 4)]
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("fork"), initializer=_open,
                             initargs=(data,)) as pool:
        total = sum(pool.map(_pages, chunks))
    print(f"{count} pages, {total} characters of text", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
