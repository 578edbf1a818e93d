"""A case's resolved parameters (`Case.params`, a mutation step's `params`): each declared
parameter's value, as a family or a mutation declares its types (`generators.base.Param`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from workbench.core.errors import UserError

ParamValue = int | float | str | bool


def parse_params(raw: Any) -> dict[str, ParamValue]:
    """Resolved parameters: an object of names to numbers, texts or true/false."""
    if not isinstance(raw, Mapping):
        raise UserError(f"parameters are an object of name = value; got {raw!r}")
    for name, value in raw.items():
        if not isinstance(value, int | float | str | bool) or isinstance(value, float) and not math.isfinite(value):
            raise UserError(f"{name!r} must be a number, a text or true/false; got {value!r}")
    return dict(raw)
