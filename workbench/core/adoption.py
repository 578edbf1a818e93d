"""What an adopted case records of the PDF the user brought (`Case.source`) and of the mutations
that armed a trap in it (`Case.mutations`). Making and replaying them is `build.adopted`;
`Case.from_json` parses them here once."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.core.contract import Arming, parse_contract
from workbench.core.errors import UserError
from workbench.core.key import AnswerKey
from workbench.core.params import ParamValue, parse_params
from workbench.core.schema import JSONObject, json_object, parse_items


def _int(raw: Any, what: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise UserError(f"{what} must be an integer; got {raw!r}")
    return raw


def _text(raw: Any, what: str) -> str:
    if not isinstance(raw, str):
        raise UserError(f"{what} must be text; got {raw!r}")
    return raw


@dataclass(frozen=True)
class Target:
    """The value a mutation attacks: a page (0-based), a box in PDF points (top-left origin, the
    rendered page's orientation, as evidence boxes are) and the text found there."""

    page: int
    box: tuple[float, float, float, float]
    text: str

    def __post_init__(self) -> None:
        # Recorded to 0.01 pt, so the target a case records is the one its bytes were made with.
        object.__setattr__(self, "box", tuple(round(float(v), 2) for v in self.box))

    def to_json(self) -> JSONObject:
        return {"page_number": self.page + 1, "box": list(self.box), "text": self.text}

    @classmethod
    def from_json(cls, raw: Any) -> Target:
        raw = json_object(raw, "target", ("page_number", "box", "text"))
        page = _int(raw.get("page_number"), "target page_number")
        box = raw.get("box")
        if (not isinstance(box, list) or len(box) != 4
                or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in box)):
            raise UserError(f"target box must be four numbers x0, y0, x1, y1; got {box!r}")
        if page < 1:
            raise UserError(f"target page_number must be 1 or more; got {page}")
        x0, y0, x1, y1 = (float(v) for v in box)
        return cls(page - 1, (x0, y0, x1, y1), _text(raw.get("text") or "", "target text"))


@dataclass
class MutationStep:
    """One mutation step as a case records it: the mutation and its version, the seed, the
    parameters the author pinned, every parameter as resolved, and the value it attacked."""

    mutation: str
    version: int
    seed: int
    pinned: dict[str, ParamValue]
    params: dict[str, ParamValue] = field(default_factory=dict)
    target: Target | None = None

    def to_json(self) -> JSONObject:
        return {"mutation": self.mutation, "version": self.version, "seed": self.seed,
                "pinned": sorted(self.pinned), "params": self.params,
                "target": self.target.to_json() if self.target else None}

    @classmethod
    def from_json(cls, raw: Any) -> MutationStep:
        raw = json_object(raw, "a step", ("mutation", "version", "seed", "pinned", "params", "target"))
        try:
            params = parse_params(raw.get("params") or {})
        except UserError as exc:
            raise UserError(f"params: {exc}") from None
        pinned = raw.get("pinned") or []
        if not isinstance(pinned, list) or not all(isinstance(k, str) for k in pinned):
            raise UserError(f"pinned must be a list of parameter names; got {pinned!r}")
        target = Target.from_json(raw["target"]) if raw.get("target") else None
        return cls(_text(raw.get("mutation"), "mutation"), _int(raw.get("version", 1), "version"),
                   _int(raw.get("seed", 1), "seed"), {k: params[k] for k in pinned if k in params}, params, target)


def parse_steps(raw: Any) -> list[MutationStep]:
    """A case's recorded `mutations`, in order; a UserError names the step (1-based)."""
    return parse_items(raw, "mutations", "step", MutationStep.from_json)


@dataclass(frozen=True)
class Encryption:
    """How a PDF is encrypted: `method` as MuPDF names it ("" for none), and whether a user
    password is needed to view it (else an owner password only restricts what a viewer allows)."""

    method: str = ""
    needs_password: bool = False

    def to_json(self) -> JSONObject | None:
        """What a case records (`source.encryption`); None for a PDF without encryption."""
        if not self.method:
            return None
        return {"method": self.method, "password": "user" if self.needs_password else "owner only",
                "kept": "decrypted" if self.needs_password else "as it is"}

    @classmethod
    def from_json(cls, raw: Any) -> Encryption:
        raw = json_object(raw, "encryption", ("method", "password", "kept"))
        if raw.get("password") not in ("user", "owner only"):
            raise UserError(f"encryption password must be user or owner only; got {raw.get('password')!r}")
        needs = raw["password"] == "user"
        if raw.get("kept") != ("decrypted" if needs else "as it is"):
            raise UserError(f"encryption kept must say how the source is kept; got {raw.get('kept')!r}")
        return cls(_text(raw.get("method"), "encryption method"), needs)

    def said(self) -> str:
        """One line for the user: the encryption, and what the tool keeps of it."""
        if not self.method:
            return ""
        if self.needs_password:
            return f"encrypted ({self.method}, user password): kept decrypted"
        return (f"encrypted ({self.method}, owner password only): kept as it is; what is made from it "
                "is written without encryption")


_SOURCE_KEYS = ("sha256", "name", "pages", "path", "root_id", "key", "contract", "encryption")


@dataclass(frozen=True)
class AdoptedSource:
    """The PDF an adopted case was made from. Adopted as it is: its sha256, file name and pages.
    A mutated case adds where the suite keeps the source (`path`), the adopted case it descends
    from (`root_id`), and the key and contract that case had (what `verify` replays from)."""

    sha256: str
    name: str
    pages: int | None
    path: str | None = None
    root_id: str | None = None
    key: AnswerKey | None = None
    contract: tuple[Arming, ...] | None = None
    encryption: Encryption | None = None
    kind: Literal["adopted", "mutated"] = "adopted"

    def to_json(self) -> JSONObject:
        out: JSONObject = {"sha256": self.sha256, "name": self.name, "pages": self.pages}
        if self.kind == "mutated":
            out |= {"path": self.path, "root_id": self.root_id,
                    "key": self.key.to_json() if self.key else None,
                    "contract": None if self.contract is None else [c.to_json() for c in self.contract]}
        if self.encryption is not None:
            out["encryption"] = self.encryption.to_json()
        return out

    @classmethod
    def from_json(cls, raw: Any) -> AdoptedSource:
        raw = json_object(raw, "source", _SOURCE_KEYS)
        pages = raw.get("pages")
        if pages is not None:
            _int(pages, "pages")
        mutated = "key" in raw
        if not mutated and any(k in raw for k in ("path", "root_id", "contract")):
            raise UserError("path, root_id and contract belong to a mutated case's source, which has its key")
        key = contract = None
        if raw.get("key") is not None:
            try:
                key = AnswerKey.from_json(raw["key"])
            except UserError as exc:
                raise UserError(f"key: {exc}") from None
        if raw.get("contract") is not None:
            try:
                contract = parse_contract(raw["contract"])
            except UserError as exc:
                raise UserError(f"contract: {exc}") from None
        for name in ("path", "root_id"):
            if raw.get(name) is not None:
                _text(raw[name], name)
        return cls(_text(raw.get("sha256"), "sha256"), _text(raw.get("name"), "name"), pages,
                   raw.get("path"), raw.get("root_id"), key, contract,
                   Encryption.from_json(raw["encryption"]) if raw.get("encryption") is not None else None,
                   "mutated" if mutated else "adopted")
