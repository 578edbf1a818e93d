"""A crop of a case's page around its evidence (workbench/checks/page_crop.py): the page with the
expected answer, a clip that holds every box and stays on the page, a 2-bit PNG of that region,
and the top of page 1 with a note when no answer of the key is in the text layer."""

from __future__ import annotations

import io

import pymupdf
from PIL import Image

from tests.support.fixtures import SAMPLE
from workbench.checks.page_crop import MAX_H_PT, MIN_W_PT, _clip, evidence_crop
from workbench.core.case import load_case
from workbench.grading.html.crop import CropBox


def test_the_crop_is_the_expected_answers_page_region_with_its_boxes_in_it():
    case = load_case(SAMPLE / "white_text_injection-0001.json")
    crop = evidence_crop(case, case.pdf_file.read_bytes())
    kinds = {b.kind for b in crop.boxes}
    assert crop.page == 0 and "expected" in kinds and crop.note == ""
    x0, y0, x1, y1 = crop.clip
    assert all(crop.inside(b.rect) for b in crop.boxes)
    assert x1 - x0 >= MIN_W_PT - 0.01 and y1 - y0 <= MAX_H_PT + 0.01
    image = Image.open(io.BytesIO(crop.png))
    assert image.size == (crop.width, crop.height) and image.mode == "P"
    low, high = image.getextrema()
    assert low != high   # text drawn, not a blank region


def test_a_box_at_the_page_edge_shifts_the_clip_into_the_page_and_tall_evidence_centres_on_the_answer():
    clip = _clip([CropBox("expected", (590.0, 780.0, 610.0, 790.0))], 612, 792)
    assert clip[2] == 612 and clip[3] == 792 and clip[0] >= 0 and clip[1] >= 0
    assert clip[2] - clip[0] >= MIN_W_PT - 0.01   # shifted, not cut
    spread = [CropBox("forbidden", (72.0, 50.0, 200.0, 60.0)), CropBox("expected", (72.0, 700.0, 200.0, 710.0))]
    x0, y0, x1, y1 = _clip(spread, 612, 792)
    assert y0 < 705 < y1 and not y0 < 55 < y1   # too tall for one crop: around the expected answer


def test_a_key_drawn_only_as_pixels_crops_the_top_of_page_one_and_says_why(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Nothing of the key here", fontsize=12)
    pdf = tmp_path / "blank.pdf"
    doc.save(pdf)
    case = load_case(SAMPLE / "white_text_injection-0001.json")
    crop = evidence_crop(case, pdf.read_bytes())
    assert crop.page == 0 and crop.boxes == () and "no answer of the key found" in crop.note
    assert crop.clip[:2] == (0.0, 0.0) and crop.clip[3] == MAX_H_PT


def test_the_crop_is_of_the_first_page_that_prints_the_answer_and_later_pages_are_not_read(tmp_path, monkeypatch):
    case = load_case(SAMPLE / "white_text_injection-0001.json")
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Nothing of the key here", fontsize=12)
    doc.new_page().insert_text((72, 100), f"Total due {case.expected_answer}", fontsize=12)
    last = doc.new_page()   # the answer twice here: still page 2's crop
    for y in (100, 200):
        last.insert_text((72, y), f"Total due {case.expected_answer}", fontsize=12)
    pdf = tmp_path / "three.pdf"
    doc.save(pdf)
    from workbench.checks import page_crop
    read = []
    pages = page_crop.trace_fitz_pages
    monkeypatch.setattr(page_crop, "trace_fitz_pages",
                        lambda d, data, lists: (read.append(pa.page) or pa for pa in pages(d, data, lists)))
    crop = evidence_crop(case, pdf.read_bytes())
    assert crop.page == 1 and [b.kind for b in crop.boxes] == ["expected"] and crop.note == ""
    assert read == [0, 1]
