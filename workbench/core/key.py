"""An answer key as a family (or a mutation) makes it: what a correct reader answers, and what the
trap is built to make it answer instead. A case is made from one (`build.make`); a mutated case
records the key its source was adopted with (`AdoptedSource.key`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.core.errors import UserError
from workbench.core.extraction import ExtractionGold
from workbench.core.matcher import MatcherSpec
from workbench.core.schema import JSONObject

_FIELDS = ("question", "expected_answer", "expected_failure_mode", "forbidden_answers", "expected_tokens",
           "matcher", "metadata", "gold")


@dataclass
class AnswerKey:
    """What a correct reader answers, and what the trap is built to make it answer instead."""

    question: str
    expected_answer: str
    expected_failure_mode: str
    forbidden_answers: list[str] = field(default_factory=list)
    expected_tokens: list[str] = field(default_factory=list)
    matcher: MatcherSpec = field(default_factory=lambda: MatcherSpec("contains"))
    # What the family records of what it drew (decoys, clauses): free-form, as pdfhell's metadata.
    metadata: JSONObject = field(default_factory=dict)
    gold: ExtractionGold | None = None

    def __post_init__(self) -> None:
        # A family module may give its matcher and gold as JSON (`{"type": "contains"}`): checked
        # here, where the family hands its key over.
        self.matcher = MatcherSpec.parse(self.matcher)
        if self.gold is not None and not isinstance(self.gold, ExtractionGold):
            self.gold = ExtractionGold.parse(self.gold)

    def to_json(self) -> JSONObject:
        return {"question": self.question, "expected_answer": self.expected_answer,
                "expected_failure_mode": self.expected_failure_mode,
                "forbidden_answers": list(self.forbidden_answers), "expected_tokens": list(self.expected_tokens),
                "matcher": self.matcher.to_json(), "metadata": self.metadata,
                "gold": self.gold.to_json() if self.gold else None}

    @classmethod
    def from_json(cls, raw: Any) -> AnswerKey:
        """A key as `to_json` writes it; a UserError names the field that is wrong."""
        if not isinstance(raw, Mapping):
            raise UserError(f"a key is an object with question, expected_answer, ...; got {raw!r}")
        unknown = [k for k in raw if k not in _FIELDS]
        if unknown:
            raise UserError(f"unknown key field {unknown[0]!r}; a key has {', '.join(_FIELDS)}")
        texts = {k: raw.get(k) or "" for k in ("question", "expected_answer", "expected_failure_mode")}
        lists = {k: raw.get(k) or [] for k in ("forbidden_answers", "expected_tokens")}
        for k, v in texts.items():
            if not isinstance(v, str):
                raise UserError(f"{k} must be text; got {v!r}")
        for k, v in lists.items():
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise UserError(f"{k} must be a list of texts; got {v!r}")
        metadata = raw.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise UserError("metadata must be an object")
        try:
            matcher = MatcherSpec.parse(raw.get("matcher") or {"type": "contains"})
        except UserError as exc:
            raise UserError(f"matcher: {exc}") from None
        try:
            gold = None if raw.get("gold") is None else ExtractionGold.parse(raw["gold"])
        except UserError as exc:
            raise UserError(f"gold: {exc}") from None
        return cls(texts["question"], texts["expected_answer"], texts["expected_failure_mode"],
                   list(lists["forbidden_answers"]), list(lists["expected_tokens"]), matcher, dict(metadata), gold)
