"""OCR's lines made into rows (workbench/pdf/ocr.py's `rows`): pieces the engine split a widely set
value into, read left to right as one line, the character it split at read once, a gap wide
enough a space. (Reading pages with the engine, seconds a page, is tests/pdf/test_scanned.py's.)"""

from __future__ import annotations

from workbench.pdf.ocr import OcrLine, rows


def test_the_pieces_of_one_row_are_one_line_left_to_right():
    pieces = [OcrLine(",693.80", (140.0, 100.0, 180.0, 112.0)), OcrLine("$41,", (110.0, 101.0, 140.0, 113.0)),
              OcrLine("TOTAL", (40.0, 100.5, 80.0, 112.5))]
    (row,) = rows(pieces)
    assert row.text == "TOTAL $41,693.80"                        # the comma read once, no space
    assert row.box == (40.0, 100.0, 180.0, 113.0)


def test_lines_alone_on_their_row_are_left_out_and_rows_go_top_to_bottom():
    lines = [OcrLine("Due", (40.0, 300.0, 70.0, 312.0)), OcrLine("30 days", (80.0, 301.0, 130.0, 313.0)),
             OcrLine("alone", (40.0, 200.0, 80.0, 212.0)),
             OcrLine("Net", (40.0, 150.0, 60.0, 162.0)), OcrLine("30", (61.0, 150.0, 75.0, 162.0))]
    assert [r.text for r in rows(lines)] == ["Net30", "Due 30 days"]
    assert rows([]) == []
