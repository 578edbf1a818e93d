"""Scan degradation speed: one Letter page at 150 DPI, per tier.

Prints the median of the image stage (every operation plus JPEG encoding, the part a live preview
pays per change) and of the whole `apply_degrade` call (render, operations, encode, text layer, PDF
writing), with the ratio of heavy to its aim of 150 ms.

    .venv/bin/python benchmarks/bench_degrade.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import time

AIM_HEAVY_MS = 150.0


def letter_page() -> bytes:
    """A full Letter page of text, as a born-digital case would be."""
    from workbench.generators import kit
    from workbench.generators.passages import PASSAGES

    c, buf = kit.new_canvas()
    y = 740.0
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, y, "Benchmark page")
    y -= 30
    for passage in list(PASSAGES.values()) * 2:
        y = kit.draw_paragraph(c, passage.text, 72, y, 468, font="Times-Roman", size=10.5) - 8
        if y < 120:
            break
    return kit.finish(c, buf)


def median_ms(fn, repeat: int) -> tuple[float, float]:
    """Median (CPU, wall) milliseconds. CPU time is the steadier figure on a shared machine."""
    fn()  # warm caches and imports
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()

    from workbench.core.scan import TIERS
    from workbench.generators.aging import degrade_pixels, jpeg_bytes
    from workbench.generators.base import AnswerKey
    from workbench.generators.degrade import _render, apply_degrade, resolve_knobs
    from workbench.pdf.document import open_fitz

    pdf = letter_page()
    doc = open_fitz(pdf)
    page = _render(doc[0], 150)
    doc.close()
    key = AnswerKey("q", "Manhattoes", "x", expected_tokens=["Manhattoes"])
    print(f"one Letter page at 150 DPI ({page.width}x{page.height} px), median of {args.repeat} runs")
    print("milliseconds, CPU / wall clock")
    print(f"{'tier':<10} {'image stage':>15} {'apply_degrade':>15} {'+ faithful text':>17}")
    results = {}
    for tier in TIERS:
        knobs = resolve_knobs({"tier": tier})

        def image_stage(knobs=knobs):
            out = degrade_pixels(page, knobs, 1, 0)
            if knobs["jpeg_quality"]:
                jpeg_bytes(out, int(knobs["jpeg_quality"]))

        image = median_ms(image_stage, args.repeat)
        whole = median_ms(lambda tier=tier: apply_degrade(pdf, {"tier": tier}, 1, key), args.repeat)
        faithful = median_ms(lambda tier=tier: apply_degrade(
            pdf, {"tier": tier, "text_layer": "faithful"}, 1, key), args.repeat)
        results[tier] = image[0]

        def cell(pair: tuple[float, float]) -> str:
            return f"{pair[0]:.1f} / {pair[1]:.1f}"

        print(f"{tier:<10} {cell(image):>15} {cell(whole):>15} {cell(faithful):>17}")
    ratio = results["heavy"] / AIM_HEAVY_MS
    print(f"heavy image stage: {results['heavy']:.1f} ms CPU = {ratio:.2f} x the {AIM_HEAVY_MS:.0f} ms aim"
          f" ({'met' if ratio <= 1 else 'NOT met'})")


if __name__ == "__main__":
    main()
