"""The libraries' floor under the HTML report's page crops: the same crops, drawn by pymupdf alone.

    python -m benchmarks.floor_crops REPORT.html SUITE [--jobs N] [--trace]

Reads each crop's case, page and region from a report `report --html` wrote, then on N forked
processes (chunks of 8, as the report sends them) opens each case's PDF with pymupdf, renders the
region at the report's 72 DPI in grey and writes it as the report does (a 2-bit palette PNG,
zlib level 6, by Pillow). None of the workbench is imported: what the crops take beyond this is
finding where the answers are on the page (the text trace, the structure, the matching).
With --trace, each page of the PDF up to the crop's is also read as pymupdf's text trace
(`get_texttrace`: every character with its box), the least reading that can find where an answer
is drawn (a crop is of the first page that prints the key's answer; the pages after it are not
read): what the crops take beyond that floor is the workbench's own work over the characters.
"""

from __future__ import annotations

import argparse
import html
import io
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context
from pathlib import Path

DPI = 72
_LEVELS = bytes(min(3, v // 64) for v in range(256))
_PALETTE = [0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255]
_CROP = re.compile(r'aria-label="page (\d+) of ([^"]+)"><svg viewBox="([^"]+)"')


def crops_of(report: Path) -> list[tuple[str, int, tuple[float, float, float, float]]]:
    """(case id, 0-based page, clip in points) of every crop on the page."""
    out = []
    for page, case_id, view in _CROP.findall(report.read_text(encoding="utf-8")):
        x, y, w, h = map(float, view.split())
        out.append((html.unescape(case_id), int(page) - 1, (x, y, x + w, y + h)))
    return out


def _draw(jobs: list[tuple[str, int, tuple[float, float, float, float]]], trace: bool = False) -> int:
    import pymupdf
    from PIL import Image

    size = 0
    for path, page, clip in jobs:
        with pymupdf.open(path) as doc:
            if trace:
                for each in range(page + 1):
                    doc[each].get_texttrace()
            pix = doc[page].get_pixmap(dpi=DPI, clip=pymupdf.Rect(*clip), colorspace=pymupdf.csGRAY, alpha=False)
        img = Image.frombytes("P", (pix.width, pix.height), bytes(pix.samples).translate(_LEVELS))
        img.putpalette(_PALETTE)
        buf = io.BytesIO()
        img.save(buf, format="PNG", bits=2, compress_level=6)
        size += len(buf.getvalue())
    return size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.floor_crops", description=__doc__.split("\n\n")[0])
    ap.add_argument("report", type=Path)
    ap.add_argument("suite", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--trace", action="store_true", help="also read the text trace of each page up to the crop's")
    args = ap.parse_args(argv)
    import PIL.Image  # noqa: F401
    import pymupdf  # noqa: F401  (imported before the fork, as the report does)

    jobs = [(str(args.suite / f"{cid}.pdf"), page, clip) for cid, page, clip in crops_of(args.report)]
    chunks = [jobs[i:i + 8] for i in range(0, len(jobs), 8)]
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("fork")) as pool:
        total = sum(pool.map(partial(_draw, trace=args.trace), chunks))
    print(f"{len(jobs)} crops, {total:,} bytes of PNG", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
