"""The contract every trap family module fulfils: declared parameters, a generator, an arming contract."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

# A family module imports what it declares from here; the case's parts live in core, where a case is read.
from workbench.core.contract import Arming as Arming
from workbench.core.contract import Where as Where
from workbench.core.extraction import Evidence as Evidence
from workbench.core.extraction import ExtractionGold as ExtractionGold
from workbench.core.extraction import FieldSpec as FieldSpec
from workbench.core.key import AnswerKey as AnswerKey
from workbench.core.matcher import MatcherSpec as MatcherSpec
from workbench.core.params import ParamValue
from workbench.core.schema import JSONObject

ParamType = Literal["int", "float", "str", "bool", "choice"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class ParamError(ValueError):
    """A parameter value the family cannot accept; the message says which and why."""


class GenerationError(ValueError):
    """A family rejected its inputs (a combination of values it cannot draw)."""


def rng_for(seed: int, *labels: object) -> random.Random:
    """A private random stream for (seed, labels), so streams never disturb each other."""
    text = "\x1f".join([str(seed), *map(str, labels)])
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class Streams:
    """One case's content, one random stream per item: `of("vendor")`, `of("items")`.

    Each item draws only from its own stream, so a parameter that changes how much one item draws
    (more line items, another rule) moves nothing else on the page. `of` gives the same stream on
    every call for one item, continuing where it left off.
    """

    def __init__(self, seed: int, family: str) -> None:
        self.seed, self.family = seed, family
        self._streams: dict[str, random.Random] = {}

    def of(self, item: str) -> random.Random:
        if item not in self._streams:
            self._streams[item] = rng_for(self.seed, self.family, "content", item)
        return self._streams[item]


def _bound(value: float) -> str:
    """A range's end as declared: 100, 99999.99 (`:g` printed 99999.99 as 100000, so the value
    100000 was refused as not "between 100 and 100000")."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _range(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"between {_bound(lo)} and {_bound(hi)}"
    return f"at least {_bound(lo)}" if lo is not None else f"at most {_bound(hi)}"  # type: ignore[arg-type]


@dataclass(frozen=True)
class Param:
    """One declared parameter: a type, a default, a range or choices, and a help line.

    Left unset, a `seeded` parameter is drawn from the case seed (from `pool`, `choices` or the
    range); an unseeded one takes its default. Set by the author, it is pinned to that value.
    """

    name: str
    type: ParamType
    default: Any
    help: str
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] | None = None
    pool: tuple[str, ...] | None = None
    seeded: bool = True
    decimals: int = 2

    def describe(self) -> JSONObject:
        out: JSONObject = {"name": self.name, "type": self.type, "default": self.default, "help": self.help}
        if self.min is not None or self.max is not None:
            out["range"] = [self.min, self.max]
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.pool is not None:
            out["examples"] = list(self.pool)
        out["seeded"] = self.seeded
        return out

    def coerce(self, raw: Any) -> ParamValue:
        """Turn a command-line string or a JSON value into this parameter's type, or raise ParamError."""
        name = self.name
        try:
            if self.type == "bool":
                if isinstance(raw, bool):
                    return raw
                text = str(raw).strip().lower()
                if text in _TRUE:
                    return True
                if text in _FALSE:
                    return False
                raise ParamError(f"parameter {name!r} is a bool: use true or false, not {raw!r}")
            if self.type == "int":
                if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                    raise ValueError
                value: Any = int(str(raw).strip()) if isinstance(raw, str) else int(raw)
            elif self.type == "float":
                if isinstance(raw, bool):
                    raise ValueError
                value = float(raw)
                if value != value or value in (float("inf"), float("-inf")):
                    raise ValueError
            elif self.type == "choice":
                assert self.choices is not None
                for choice in self.choices:
                    if str(choice) == str(raw).strip():
                        return choice
                raise ParamError(
                    f"parameter {name!r} must be one of {', '.join(map(str, self.choices))}; got {raw!r}"
                )
            else:
                value = str(raw)
                if not value.strip():
                    raise ParamError(f"parameter {name!r} must not be empty")
                if self.max is not None and len(value) > self.max:
                    raise ParamError(f"parameter {name!r} is at most {int(self.max)} characters")
                return value
        except ParamError:
            raise
        except (TypeError, ValueError):
            raise ParamError(f"parameter {name!r} is {'an' if self.type == 'int' else 'a'} {self.type}; got {raw!r}") from None
        if self.min is not None and value < self.min or self.max is not None and value > self.max:
            raise ParamError(f"parameter {name!r} must be {_range(self.min, self.max)}; got {value!r}")
        return value

    def draw(self, rng: random.Random) -> ParamValue:
        if not self.seeded:
            return self.default
        if self.type == "bool":
            return rng.random() < 0.5
        if self.type == "choice":
            assert self.choices is not None
            return rng.choice(self.pool or self.choices)  # a pool: the choices a seed may draw
        if self.type == "str":
            return rng.choice(self.pool) if self.pool else self.default
        if self.type == "int":
            assert self.min is not None and self.max is not None
            return rng.randint(int(self.min), int(self.max))
        assert self.min is not None and self.max is not None
        return round(rng.uniform(self.min, self.max), self.decimals)


@dataclass(frozen=True)
class Disarm:
    """A setting that removes the family's trap (a parameter, or a scan whose text layer drops
    the decoy). The lint must report an error on it; the property test checks that it does."""

    why: str
    params: Mapping[str, Any] = field(default_factory=dict)
    degrade: Mapping[str, Any] | None = None


@dataclass
class Generated:
    pdf: bytes
    key: AnswerKey


GenerateFn = Callable[[Mapping[str, Any], int], Generated]


@dataclass(frozen=True)
class Family:
    """A trap family as declared by its module."""

    name: str
    version: int
    description: str
    params: tuple[Param, ...]
    contract: tuple[Arming, ...]
    generate: GenerateFn
    origin: str = "builtin"   # "builtin" or the path of a user module
    # Optional: the contract for one set of resolved params, where a param changes which layer an
    # answer lives in (a figure drawn as text or as pixels). Defaults to `contract`.
    contract_for: Callable[[Mapping[str, Any]], tuple[Arming, ...]] | None = None
    # Optional: settings known to remove the trap (module attribute DISARMED).
    disarmed: tuple[Disarm, ...] = ()

    def contract_of(self, params: Mapping[str, Any]) -> tuple[Arming, ...]:
        return tuple(self.contract_for(params)) if self.contract_for else self.contract

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.params)
        raise ParamError(f"family {self.name!r} has no parameter {name!r} (it has: {known})")

    def resolve(self, pinned: Mapping[str, Any], seed: int) -> dict[str, ParamValue]:
        """Every parameter's value: pinned ones coerced, the rest drawn from the seed.

        Each parameter draws from its own stream, so pinning one never moves another.
        """
        for name in pinned:
            self.param(name)
        values: dict[str, ParamValue] = {}
        for p in self.params:
            if p.name in pinned:
                values[p.name] = p.coerce(pinned[p.name])
            else:
                values[p.name] = p.draw(rng_for(seed, self.name, "param", p.name))
        return values

    def describe(self) -> JSONObject:
        return {
            "name": self.name,
            "version": self.version,
            "description": self.description,
            "origin": self.origin,
            "params": [p.describe() for p in self.params],
            "contract": [c.to_json() for c in self.contract],
        }
