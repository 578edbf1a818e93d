"""A case's arming contract: where each answer must (and must not) be found (`Case.contract`).

A family declares its contract as `Arming` clauses (`generators.base` hands them to family
modules); a case records the clauses of the parameters it was made with, and the lint checks
them on its pages. `Case.from_json` parses the recorded clauses here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from workbench.core.errors import UserError
from workbench.core.schema import JSONObject, parse_items

# Where an answer must (or must not) be found on the generated case. Checked by the lint.
Where = Literal[
    "visible",          # drawn and legible on some page
    "hidden",           # present in the text layer, but not visible
    "text_layer",       # present in the extracted text layer (visible or not)
    "every_text_layer", # present in every extractor's text layer (a trap for each text pipeline)
    "pixels_only",      # visible on the page, absent from the text layer
    "not_visible",      # nowhere visible on the page
    "not_text_layer",   # nowhere in the text layer
    "derived",          # computed from `parts`, each of which is visible (the answer itself may be printed nowhere)
]
WHERE: tuple[Where, ...] = get_args(Where)

# "instruction": the target is text that instructs the reader (a prompt injection); answers that
# repeat its values are attributed to it (`checks.attribution`, source `injected`).
Role = Literal["", "instruction"]
ROLES: tuple[Role, ...] = get_args(Role)

_KEYS = ("target", "where", "why", "parts", "how", "role")


@dataclass(frozen=True)
class Arming:
    """One clause of an arming contract: `target` must be found (or not) as `where` says.

    `target` is `expected`, `tokens`, `forbidden`, `forbidden:N`, or `meta:KEY` (a value the
    generator records in the key's metadata); whether it names a value of the case is the lint's
    question (`contract-invalid`).
    """

    target: str
    where: Where
    why: str = ""
    # where "derived": the values it is computed from (targets such as `meta:KEY`, `forbidden:0`,
    # or literal text), each checked visible, and how (recorded, shown by the lint).
    parts: tuple[str, ...] = ()
    how: str = ""
    role: Role = ""

    def to_json(self) -> JSONObject:
        out: JSONObject = {"target": self.target, "where": self.where, "why": self.why}
        if self.parts or self.how:
            out |= {"parts": list(self.parts), "how": self.how}
        if self.role:
            out["role"] = self.role
        return out

    @classmethod
    def from_json(cls, raw: Any) -> Arming:
        """A clause from its JSON shape; a UserError says which key is wrong."""
        if not isinstance(raw, Mapping) or "target" not in raw or "where" not in raw:
            raise UserError("a clause is an object with target and where")
        unknown = [k for k in raw if k not in _KEYS]
        if unknown:
            raise UserError(f"unknown key {unknown[0]!r}; a clause has {', '.join(_KEYS)}")
        texts = {k: raw.get(k) or "" for k in ("target", "why", "how")}
        for k, v in texts.items():
            if not isinstance(v, str):
                raise UserError(f"{k} must be text; got {v!r}")
        if raw["where"] not in WHERE:
            raise UserError(f"where {raw['where']!r} is not one of {', '.join(WHERE)}")
        if (raw.get("role") or "") not in ROLES:
            raise UserError(f"role {raw['role']!r} is not one of {', '.join(r for r in ROLES if r)}")
        parts = raw.get("parts") or []
        if not isinstance(parts, list) or not all(isinstance(p, str) for p in parts):
            raise UserError(f"parts must be a list of targets or texts; got {parts!r}")
        return cls(texts["target"], raw["where"], texts["why"], tuple(parts), texts["how"], raw.get("role") or "")


def parse_contract(raw: Any) -> tuple[Arming, ...]:
    """A recorded contract (a list of clauses); a UserError names the clause (1-based)."""
    return tuple(parse_items(raw, "a contract", "clause", Arming.from_json))
