"""An override clause in small print near the located value: the printed figure is superseded by
the one in the fine print, so the right answer is the amended value, and the big figure is the
trap. A reader that skims (or a vision model at low DPI) answers the printed value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from workbench.generators.base import AnswerKey, Arming, GenerationError, MatcherSpec, Param
from workbench.generators.mutations import Mutated, Target
from workbench.generators.mutations import _common as c

NAME = "tiny_print"
VERSION = 3
DESCRIPTION = "An override clause in small print near the located value; the amended value is the answer"
NEEDS_TARGET = True

WORDINGS = (
    "* Amended: the figure {value} above is superseded; the amount that applies is {amended}.",
    "* Correction: {value} was printed in error and is replaced by {amended}.",
    "* Notwithstanding the figure shown ({value}), the agreed amount is {amended}.",
)

PARAMS = (
    Param("amended", "str", "", "the amended value; empty: the value changed by change_pct",
          seeded=False, max=80),
    c.CHANGE_PARAM,
    c.DIRECTION_PARAM,
    Param("text", "str", WORDINGS[0], "the clause; {value} is the printed value, {amended} the new one",
          pool=WORDINGS, max=240),
    Param("size", "float", 5.0, "font size of the small print, in points", min=1, max=12, decimals=1),
    Param("place", "choice", "near", "where: in free space near the value, or the top or bottom margin",
          choices=("near", "top", "bottom"), seeded=False),
)

CONTRACT = (
    Arming("expected", "visible", "the amended value is printed, small"),
    Arming("forbidden", "visible", "the superseded value is printed, large"),
)


def apply(pdf: bytes, target: Target | None, key: AnswerKey, contract: tuple[Arming, ...],
          p: Mapping[str, Any], seed: int) -> Mutated:
    assert target is not None
    c.attacks_the_answer(target, key)
    value = target.text.strip() or key.expected_answer
    amended = c.decoy_for({"decoy": p["amended"], **p}, target, key, name="amended")
    if amended.casefold() == value.casefold():
        raise GenerationError(f"the amended value {amended!r} is the printed value; choose another")
    for slot in ("{amended}",):
        if slot not in p["text"]:
            raise GenerationError("parameter 'text' must contain {amended}, where the new value goes")
    line = p["text"].replace("{value}", value).replace("{amended}", amended)
    size = float(p["size"])
    doc = c.open_doc(pdf)
    try:
        page = c.page_of(doc, target)
        own = c.unrotated(page, target.box)
        with c.drawing_on(page) as rotation:
            frame = c.Frame.of(page, own, rotation)
            width = min(c.text_width(line, size) + 2, frame.rect.width - 40)
            height = size * (c.ASCENT + c.DESCENT) + 1
            rect = c.free_band(frame, frame.frame_rect(own), height, width, p["place"])
            frame.write((rect.x0 + 1, rect.y0 + 0.5 + c.ASCENT * size), line, size)
            shown = frame.shown(frame.own_rect(rect))
        out = c.save(doc)
    finally:
        doc.close()
    matcher = key.matcher.replace(value=None)
    if matcher.type not in ("contains", "numeric", "exact"):
        matcher = MatcherSpec("contains")
    forbidden = [f for f in key.forbidden_answers if f.casefold() != amended.casefold()]
    new_key = replace(key, expected_answer=amended, expected_tokens=[], matcher=matcher,
                      forbidden_answers=forbidden, expected_failure_mode=(
                          "Answers the large printed figure; the small print below it amends it."))
    new_key, i = c.with_forbidden(new_key, value, {"superseded": value, "amended": amended,
                                                   "clause": line})
    # What the contract said of the old answer no longer holds: it is the trap now.
    clauses = [a for a in contract if a.target not in ("expected", "tokens")]
    clauses += [Arming("expected", "visible", CONTRACT[0].why),
                Arming(f"forbidden:{i}", "visible", CONTRACT[1].why)]
    where = [[target.page + 1, [round(v, 2) for v in shown]]]
    return Mutated(out, new_key, tuple(clauses), {"amended": amended, "places": where})
