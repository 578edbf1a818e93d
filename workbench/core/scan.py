"""A case's scan: the degradation spec a scanned case records (`Case.degrade`), and the knob table
it is read against.

A spec names a tier (a preset of knob values), overrides of single knobs, the text layer of the
scan (`none`, `faithful` words behind the image, or `drifted` words with chosen values changed)
and the scan DPI. The table is data (no imaging): the pixels that apply it are
`workbench.generators.degrade`'s. The spec lives here, below generators, because a case carries
it: grading, lint, export and the TUI read its fields, and `Case.from_json` parses it once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from workbench.core.errors import UserError
from workbench.core.schema import JSONObject

# Bump whenever the pixels or bytes for a given spec change; recorded in the spec and checked
# where a scan is made (`generators.degrade.apply_degrade`): a case of another version is still
# read, graded and reported, and only making its scan again is refused.
VERSION = 1

TEXT_LAYERS = ("none", "faithful", "drifted")

# name -> (type, (min, max), help). Every knob at 0 leaves the page as it is (dpi aside).
KNOBS: dict[str, tuple[str, tuple[float, float], str]] = {
    "dpi": ("int", (50, 600), "scan resolution in dots per inch"),
    "rotation": ("float", (-15.0, 15.0), "page skew in degrees, counter-clockwise"),
    "fade": ("float", (0.0, 0.9), "faded ink: 0 keeps black, 0.5 turns it mid grey"),
    "show_through": ("float", (0.0, 1.0), "mirrored ghost of the page, as thin paper shows the verso"),
    "sepia": ("float", (0.0, 1.0), "yellowed paper tint"),
    "texture": ("float", (0.0, 1.0), "blotchy paper texture"),
    "lighting": ("float", (0.0, 1.0), "uneven lighting: one side of the page darker"),
    "dirt": ("int", (0, 400), "number of dirt spots per page"),
    "dirt_size": ("float", (0.0, 20.0), "largest dirt spot radius, in pixels at 150 DPI"),
    "blur": ("float", (0.0, 5.0), "Gaussian blur radius, in pixels at 150 DPI"),
    "noise": ("float", (0.0, 64.0), "Gaussian sensor noise, standard deviation in grey levels"),
    "jpeg_quality": ("int", (0, 100), "JPEG quality of the stored image; 0 stores it losslessly"),
}

_OFF: dict[str, float] = {name: 0 for name in KNOBS} | {"dpi": 150, "dirt_size": 4.0}

# Presets after the published OCR degradation benchmark; each tier keeps the milder tiers' ageing.
TIERS: dict[str, dict[str, float]] = {
    "clean": dict(_OFF),
    "mild": _OFF | {"sepia": 0.35, "noise": 4.0, "rotation": 0.8, "jpeg_quality": 85},
    "moderate": _OFF | {"sepia": 0.35, "noise": 6.0, "texture": 0.5, "blur": 0.7, "rotation": 2.5,
                        "jpeg_quality": 70},
    "heavy": _OFF | {"sepia": 0.45, "texture": 0.6, "blur": 0.8, "noise": 22.0, "dirt": 60,
                     "dirt_size": 5.0, "rotation": 5.0, "jpeg_quality": 50},
}
TIER_NAMES = tuple(TIERS)   # clean, mild, moderate, heavy: mildest first

_SPEC_KEYS = {"version", "tier", "overrides", "text_layer", "dpi", "knobs", "drifted", "drifted_answer"}


def _coerce_knob(name: str, raw: Any) -> float | int:
    if name not in KNOBS:
        raise UserError(f"unknown degradation knob {name!r}; known knobs: {', '.join(KNOBS)}")
    kind, (lo, hi), _ = KNOBS[name]
    try:
        if isinstance(raw, bool):
            raise ValueError
        value = float(raw)
        if not math.isfinite(value) or (kind == "int" and not value.is_integer()):
            raise ValueError
    except (TypeError, ValueError):
        raise UserError(f"degradation knob {name!r} takes {'an integer' if kind == 'int' else 'a number'}; "
                        f"got {raw!r}") from None
    if not lo <= value <= hi:
        raise UserError(f"degradation knob {name!r} must be between {lo:g} and {hi:g}; got {raw!r}")
    return int(value) if kind == "int" else value


@dataclass(frozen=True)
class DegradeSpec:
    """One scan degradation: a tier preset, knob overrides, the scan's text layer and its DPI.

    Build it with `DegradeSpec.parse` (a case's recorded `degrade`, a suite spec's table, a form's
    fields): values are checked and converted there, once. `dpi` is kept apart from the overrides
    (a `dpi` override moves into it); `to_json()` is the form a case records, and parsing that
    back gives the same spec. `drifted` and `drifted_answer` are what applying a `drifted` text
    layer chose; `request()` is the spec without them (what an author asked for).
    """

    tier: str = "clean"
    overrides: tuple[tuple[str, float | int], ...] = ()    # sorted by knob name; never dpi
    text_layer: str = "none"
    dpi: int | None = None                                   # None: the tier's
    drifted: tuple[tuple[str, str], ...] = ()                # (original, replacement) in the text layer
    drifted_answer: str | None = None
    version: int = VERSION                                   # the scan pipeline that made it

    @classmethod
    def parse(cls, spec: DegradeSpec | Mapping[str, Any]) -> DegradeSpec:
        """A spec from its JSON (or TOML, or form) shape; a UserError says what is wrong."""
        if isinstance(spec, DegradeSpec):
            return spec
        if not isinstance(spec, Mapping):
            raise UserError("a degradation spec is a table of tier, overrides, text_layer and dpi")
        unknown = sorted(set(spec) - _SPEC_KEYS)
        if unknown:
            raise UserError(f"unknown degradation setting {', '.join(unknown)}; "
                            f"a spec has tier, overrides, text_layer and dpi")
        try:
            version = int(spec.get("version", VERSION))
        except (TypeError, ValueError):
            raise UserError(f"degradation version must be a whole number; got {spec.get('version')!r}") from None
        tier = spec.get("tier") or "clean"
        if tier not in TIERS:
            raise UserError(f"unknown degradation tier {tier!r}; choose one of {', '.join(TIER_NAMES)}")
        text_layer = spec.get("text_layer") or "none"
        if text_layer not in TEXT_LAYERS:
            raise UserError(f"unknown text layer {text_layer!r}; choose one of {', '.join(TEXT_LAYERS)}")
        raw = spec.get("overrides") or {}
        if not isinstance(raw, Mapping):
            raise UserError("degradation overrides must be a table of knob = value")
        overrides = {str(k).strip(): _coerce_knob(str(k).strip(), v) for k, v in raw.items()}
        dpi = overrides.pop("dpi", None)
        if spec.get("dpi") is not None:
            dpi = _coerce_knob("dpi", spec["dpi"])
        drifted = spec.get("drifted") or {}
        return cls(tier=tier, overrides=tuple(sorted(overrides.items())), text_layer=text_layer,
                   dpi=None if dpi is None else int(dpi),
                   drifted=tuple((str(k), str(v)) for k, v in dict(drifted).items()),
                   drifted_answer=spec.get("drifted_answer"), version=version)

    @classmethod
    def parse_optional(cls, spec: DegradeSpec | Mapping[str, Any] | None) -> DegradeSpec | None:
        """None (no scan) for None or an empty table, else `parse(spec)`."""
        return cls.parse(spec) if spec else None

    def knobs(self) -> dict[str, float | int]:
        """Every knob's value: the tier's preset, then the overrides, then `dpi`."""
        knobs: dict[str, float | int] = {k: int(v) if KNOBS[k][0] == "int" else float(v)
                                         for k, v in TIERS[self.tier].items()}
        knobs.update(self.overrides)
        if self.dpi is not None:
            knobs["dpi"] = self.dpi
        return knobs

    def override_map(self) -> dict[str, float | int]:
        return dict(self.overrides)

    def request(self) -> DegradeSpec:
        """The spec as asked for: without the drifted values that applying it chose."""
        return replace(self, drifted=(), drifted_answer=None)

    def to_json(self) -> JSONObject:
        """The spec as a case records it: tier, overrides, text layer, dpi, version and every knob."""
        knobs = self.knobs()
        out: JSONObject = {
            "version": self.version,
            "tier": self.tier,
            "overrides": self.override_map(),
            "text_layer": self.text_layer,
            "dpi": int(knobs["dpi"]),
            "knobs": knobs,
        }
        if self.drifted:
            out["drifted"] = dict(self.drifted)
        if self.drifted_answer is not None:
            out["drifted_answer"] = self.drifted_answer
        return out
