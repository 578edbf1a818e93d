"""A black box over the located value that leaves the text underneath extractable: the botched
redaction. A person sees REDACTED; a text pipeline still reads the value. The right answer says the
value is redacted; leaking it is the trap.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from workbench.generators.base import AnswerKey, Arming, Param
from workbench.generators.mutations import Mutated, Target
from workbench.generators.mutations import _common as c

NAME = "redact_overlay"
VERSION = 4
DESCRIPTION = "A black box over the located value; the text under it stays extractable"
NEEDS_TARGET = True

PARAMS = (
    Param("label", "str", "REDACTED", "the word printed in white on the box (the right answer)",
          seeded=False, max=24),
    Param("show_label", "bool", True, "print the label on the box", seeded=False),
    Param("opacity", "float", 1.0, "opacity of the box (1: solid)", min=0.05, max=1, seeded=False),
    Param("pad", "float", 1.5, "points the box reaches past the value on each side", min=0, max=12,
          seeded=False),
    Param("every", "bool", True, "black out every place the value is printed, not only the one located",
          seeded=False),
    Param("instruction", "bool", True, "add to the question: if the value is blacked out, say the label",
          seeded=False),
)

CONTRACT = (
    Arming("expected", "visible", "the label is printed on the box"),
    Arming("forbidden", "hidden", "the value is under the box"),
    Arming("forbidden", "not_visible", "a person never sees the value"),
    Arming("forbidden", "every_text_layer", "every text pipeline still extracts the value"),
)


def apply(pdf: bytes, target: Target | None, key: AnswerKey, contract: tuple[Arming, ...],
          p: Mapping[str, Any], seed: int) -> Mutated:
    assert target is not None
    c.attacks_the_answer(target, key)
    value = target.text.strip() or key.expected_answer
    label = str(p["label"]).strip()
    doc = c.open_doc(pdf)
    boxes = []
    try:
        pad = float(p["pad"])
        located = c.page_of(doc, target)
        places = [(located, c.unrotated(located, target.box))]
        core = c.printed_core(target.text)
        # The value as printed first, then its figures alone (printed without the currency): a
        # box from the figures over "$1,234.56" would leave its "$" showing beside the box.
        needles = [n for n in dict.fromkeys((target.text.strip(), core)) if n] if p["every"] else []
        for needle in needles:
            for page in doc:
                for rect in page.search_for(needle):
                    if not any(pg.number == page.number and rect.intersects(r) for pg, r in places):
                        places.append((page, rect))
        for page, rect in places:
            with c.drawing_on(page) as rotation:
                frame = c.Frame.of(page, rect, rotation)
                rect = rect + (-pad, -pad, pad, pad)
                boxes.append([page.number + 1, [round(v, 2) for v in frame.shown(rect)]])
                page.draw_rect(rect, color=None, fill=(0, 0, 0), fill_opacity=float(p["opacity"]), width=0)
                if p["show_label"]:   # reading along the value's line, centred on the box
                    box = frame.frame_rect(rect)
                    size = min(box.height * 0.62, 14.0)
                    while size > 3 and c.text_width(label, size, "hebo") > box.width - 2:
                        size -= 0.25
                    x = box.x0 + (box.width - c.text_width(label, size, "hebo")) / 2
                    frame.write((x, box.y0 + (box.height + 0.7 * size) / 2), label, size, font="hebo",
                                color=(1, 1, 1))
        out = c.save(doc)
    finally:
        doc.close()
    question = key.question
    if p["instruction"]:
        question = f"{question.rstrip()} If the value is blacked out, answer {label}."
    base = replace(key, question=question, expected_answer=label, expected_tokens=[],
                   matcher={"type": "contains"}, forbidden_answers=list(key.forbidden_answers),
                   expected_failure_mode="Reads the redacted value out of the text layer under the box.")
    new_key, i = c.with_forbidden(base, value, {"redacted_value": value})
    clauses = [a for a in contract if a.target not in ("expected", "tokens")]
    clauses += [Arming("expected", "visible", CONTRACT[0].why)]
    clauses += [Arming(f"forbidden:{i}", a.where, a.why) for a in CONTRACT[1:]]
    return Mutated(out, new_key, tuple(clauses), {"places": boxes})
