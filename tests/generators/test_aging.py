"""Aging a page's picture (workbench/generators/aging.py): each operation changes the page and at
zero changes nothing, dirt of size zero is none, and dirt keeps off the answer. (Moved from
tests/generators/test_degrade.py, which keeps the scan pipeline that writes the aged pages.)"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.families import mad
from workbench.generators.aging import degrade_image

# A value for each knob that a scan shows plainly.
STRONG = {"rotation": 3.0, "fade": 0.5, "show_through": 0.8, "sepia": 0.6, "texture": 0.8,
          "lighting": 0.8, "dirt": 200, "blur": 1.5, "noise": 20.0, "jpeg_quality": 20}


@pytest.mark.parametrize("knob", sorted(STRONG))
def test_each_operation_changes_the_page_and_at_zero_changes_nothing(clean_page, knob):
    spec = {"tier": "clean", "dpi": 72}
    strong = degrade_image(clean_page, spec | {"overrides": {knob: STRONG[knob]}}, seed=5)
    assert strong.size == (clean_page.shape[1], clean_page.shape[0])
    assert mad(strong, clean_page) > 0.1, knob
    off = degrade_image(clean_page, spec | {"overrides": {knob: 0}}, seed=5)
    assert np.array_equal(np.asarray(off), clean_page), knob


def test_dirt_of_size_zero_changes_nothing(clean_page):
    spec = {"tier": "clean", "dpi": 72, "overrides": {"dirt": 300, "dirt_size": 0}}
    assert np.array_equal(np.asarray(degrade_image(clean_page, spec, seed=1)), clean_page)


def test_dirt_keeps_off_the_answer(clean_page):
    # The answer's box (pixels, unrotated) stays untouched however dirty the page gets.
    box = (100, 200, 300, 240)
    spec = {"tier": "clean", "dpi": 72, "overrides": {"dirt": 400, "dirt_size": 20}}
    dirty = np.asarray(degrade_image(clean_page, spec, seed=2, keep_clear=[box]))
    assert mad(dirty, clean_page) > 1
    x0, y0, x1, y1 = box
    assert np.array_equal(dirty[y0:y1, x0:x1], clean_page[y0:y1, x0:x1])
