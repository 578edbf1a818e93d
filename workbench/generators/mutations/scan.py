"""A scan of the document so far, through the scan degradation pipeline (`generators.degrade`):
any tier and knob, with the text layer none (image only), faithful (the words behind the image,
as real OCR'd scans have) or drifted (the answer's values changed in the text layer).

A scan keeps what the text layer holds when the layer is faithful (a hidden decoy stays hidden)
and drops it when there is none: the lint then says the earlier trap is disarmed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.core.scan import TEXT_LAYERS, TIER_NAMES, DegradeSpec
from workbench.core.schema import JSONObject
from workbench.generators.base import AnswerKey, Arming, GenerationError, Param
from workbench.generators.degrade import apply_degrade
from workbench.generators.mutations import Mutated, Target
from workbench.generators.mutations import _common as c

NAME = "scan"
VERSION = 1
DESCRIPTION = "Scan the document: a degradation tier and knobs, text layer none, faithful or drifted"
NEEDS_TARGET = False

PARAMS = (
    Param("tier", "choice", "mild", "scan degradation preset", choices=TIER_NAMES,
          seeded=False),
    Param("text_layer", "choice", "faithful",
          "none: image only; faithful: the words behind the image; drifted: the answer's values changed",
          choices=TEXT_LAYERS, seeded=False),
    Param("dpi", "int", 150, "scan resolution in dots per inch", min=50, max=600, seeded=False),
    Param("knobs", "str", "-", "knob overrides, e.g. 'blur=1.2 noise=10' ('-': the tier's values)",
          seeded=False, max=200),
)

CONTRACT = (
    Arming("expected", "pixels_only", "with no text layer the answer is only in the pixels"),
)


def overrides(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in text.replace(",", " ").split():
        if item == "-":
            continue
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise GenerationError(f"parameter 'knobs': write each as NAME=VALUE; got {item!r}")
        out[name] = value
    return out


def apply(pdf: bytes, target: Target | None, key: AnswerKey, contract: tuple[Arming, ...],
          p: Mapping[str, Any], seed: int) -> Mutated:
    spec = DegradeSpec.parse({"tier": p["tier"], "overrides": overrides(p["knobs"]),
                              "text_layer": p["text_layer"], "dpi": p["dpi"]})
    c.open_doc(pdf).close()  # an encrypted PDF says so before the pipeline renders it
    out, applied = apply_degrade(pdf, spec, seed, key)
    norm = applied.to_json()
    layer = applied.text_layer
    clauses: list[Arming] = []
    for clause in c.expected_clauses(contract, key):
        if clause.where == "visible":
            # The page is an image now: visible text is pixels, in the text layer only as faithful OCR.
            where = "text_layer" if layer == "faithful" else "pixels_only"
            clause = Arming(clause.target, where, f"scanned, text layer {layer}")
        clauses.append(clause)
    new_key = key
    details: JSONObject = {"scan": {k: norm[k] for k in ("tier", "text_layer", "dpi", "overrides")}}
    drifted = norm.get("drifted_answer")
    if drifted:
        new_key, i = c.with_forbidden(key, drifted, {"drifted_answer": drifted})
        clauses += [Arming(f"forbidden:{i}", "hidden", "the drifted text layer reads another value"),
                    Arming(f"forbidden:{i}", "text_layer", "a text pipeline reads the drifted value")]
        details["drifted"] = norm.get("drifted")
    return Mutated(out, new_key, tuple(clauses), details)
