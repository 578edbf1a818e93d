"""What the mutations share (workbench/generators/mutations/_common.py; this file's name says
which package, since `test_common.py` would not): a changed value in the page's own format, the
decoy and the key after a change, colours, deterministic saving, and where on a page (turned or
not) there is blank space to write next to a value."""

from __future__ import annotations

from types import SimpleNamespace

import pymupdf
import pytest

from tests.support.foreign_pdfs import pymupdf_turned, pymupdf_upright_then_rotated
from workbench.core.contract import Arming
from workbench.core.key import AnswerKey
from workbench.generators.base import GenerationError
from workbench.generators.mutations import _common as C

KEY = AnswerKey("What is the total due?", "$1,234.56", "reads the decoy", ["$9.99"], metadata={"a": 1})


def test_the_last_number_is_changed_in_the_pages_own_format():
    assert C.changed_value("$1,234.56", 20, "higher") == "$1,481.47"
    assert C.changed_value("$1,234.56", 20, "lower") == "$1,028.80"
    assert C.changed_value("1234.5", 100, "higher") == "2469.0"
    assert C.changed_value("Invoice 42: total 1,000", 10, "higher") == "Invoice 42: total 1,100"
    assert C.changed_value("12 months", 1, "higher") == "13 months"     # never the same number
    assert C.changed_value("12 months", 1, "lower") == "11 months"
    assert C.changed_value("no figure here", 20, "higher") is None


def test_what_a_value_is_printed_as_and_colours():
    assert C.printed_core("$1,234.56") == "1,234.56" and C.printed_core("USD 12 only") == "12"
    assert C.printed_core("  Email ") == "Email"
    assert C.colour("#ff8000") == (1.0, 128 / 255, 0.0) and C.colour("FFFFFF") == (1.0, 1.0, 1.0)
    with pytest.raises(GenerationError, match="parameter 'colour' is a hex colour like ffffff; got 'red'"):
        C.colour("red")


def test_the_decoy_is_the_pinned_one_or_the_located_value_changed():
    target = SimpleNamespace(text=" $2,000.00 ")
    params = {"decoy": "", "change_pct": 50.0, "direction": "higher"}
    assert C.decoy_for({**params, "decoy": " $7.00 "}, target, KEY) == "$7.00"
    assert C.decoy_for(params, target, KEY) == "$3,000.00"
    assert C.decoy_for(params, None, KEY) == "$1,851.84"                 # the key's answer, changed
    with pytest.raises(GenerationError, match=r"the value 'Email' has no number to change; give the decoy"):
        C.decoy_for(params, SimpleNamespace(text="Email"), KEY)
    # (tiny_print calls its decoy the amended value: the hint names the parameter it has)
    with pytest.raises(GenerationError, match=r"give the amended \(--param amended=TEXT\)"):
        C.decoy_for(params, SimpleNamespace(text="Email"), KEY, name="amended")


def test_the_key_gets_the_decoy_once_and_a_default_clause():
    key, at = C.with_forbidden(KEY, "$3,000.00", {"mutation": "white_text"})
    assert (key.forbidden_answers, at, key.metadata) == (["$9.99", "$3,000.00"], 1, {"a": 1, "mutation": "white_text"})
    again, at = C.with_forbidden(key, "$9.99", {})
    assert again.forbidden_answers == ["$9.99", "$3,000.00"] and at == 0
    assert KEY.forbidden_answers == ["$9.99"]                           # the key given is left as it was
    (clause,) = C.expected_clauses((), KEY)
    assert (clause.target, clause.where) == ("expected", "visible")
    assert C.expected_clauses((), AnswerKey("q", "x", "m", expected_tokens=["1"]))[0].target == "tokens"
    kept = (Arming("forbidden", "hidden"),)
    assert C.expected_clauses(kept, KEY) is kept


def test_saving_gives_the_same_bytes_for_the_same_edit_and_a_page_out_of_range_is_one_line():
    turned = pymupdf_turned(90)

    def edited() -> bytes:
        doc = C.open_doc(turned)
        C.page_of(doc, SimpleNamespace(page=0)).insert_text((72, 500), "stamped", fontsize=9)
        return C.save(doc)

    assert edited() == edited() and C.page_count(edited()) == 1
    with pytest.raises(GenerationError, match=r"^the PDF has no page 3 \(it has 1\)$"):
        C.page_of(C.open_doc(edited()), SimpleNamespace(page=2))


def test_on_a_turned_page_the_frame_follows_the_text_and_the_rotation_is_put_back():
    doc = C.open_doc(pymupdf_turned(90))
    page = doc[0]
    with C.drawing_on(page) as rotation:
        assert rotation == 90 and page.rotation == 0
        near = page.search_for("Total due")[0]                          # the page's own space
        frame = C.Frame.of(page, near, rotation)
        shown = frame.shown(near)          # as displayed: the line starts 72 pt in and reads across
        assert frame.angle == 90 and shown.x0 == pytest.approx(72) and shown.width > 2 * shown.height
        band = C.free_band(frame, frame.frame_rect(near), 10, 120)
        # The band lies below the value's line, as the line reads, and is blank.
        assert band.y0 >= frame.frame_rect(near).y1 and band.height == 10 and band.width == 120
        assert not any(band.intersects(frame.frame_rect(b)) for b in C.occupied(page))
    assert page.rotation == 90
    # A page turned after its text was drawn upright: the frame follows the text, not the turn.
    turned_after = C.open_doc(pymupdf_upright_then_rotated(90))[0]
    with C.drawing_on(turned_after) as rotation:
        near = turned_after.search_for("Total due")[0]
        assert rotation == 90 and C.Frame.of(turned_after, near, rotation).angle == 0


def test_a_page_with_no_blank_space_says_where_to_try_instead():
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=100)
    page.draw_rect(page.rect, color=None, fill=(0, 0, 0))
    page.insert_text((20, 50), "Total 1,234.56", fontsize=10, color=(1, 1, 1))
    near = page.search_for("1,234.56")[0]
    with C.drawing_on(page) as rotation:
        frame = C.Frame.of(page, near, rotation)
        with pytest.raises(GenerationError, match=r"^page 1 has no blank space near the value for 80 x 8 pt; "
                                                  r"try --param place=top or place=bottom, or shorter text$"):
            C.free_band(frame, near, 8, 80)
