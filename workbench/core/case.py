"""A case: `<id>.pdf` beside `<id>.json`. The JSON is a superset of pdfhell's case format."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from workbench.core import files
from workbench.core.contract import Arming, parse_contract
from workbench.core.digest import sha256_hex
from workbench.core.errors import UserError
from workbench.core.matcher import MatcherSpec
from workbench.core.params import ParamValue, parse_params
from workbench.core.schema import JSONObject, check_case

if TYPE_CHECKING:
    from workbench.core.adoption import AdoptedSource, MutationStep
    from workbench.core.extraction import ExtractionGold
    from workbench.core.scan import DegradeSpec

# pdfhell's fields, in pdfhell's order; ours follow.
PDFHELL_FIELDS = (
    "id", "trap_family", "seed", "question", "expected_answer", "forbidden_answers",
    "expected_tokens", "pdf_path", "metadata",
)
T = TypeVar("T")
KEY_FIELDS = ("question", "expected_answer", "expected_tokens", "forbidden_answers", "matcher", "gold")
# The family of a PDF opened or asked about without an answer key (`core.source.bare_pdf_case`):
# its answers, in a run file beside the PDF, have no key to be graded against anywhere.
NO_KEY_FAMILY = "(no key)"


def default_case_id(family: str, seed: int, pinned: Mapping[str, Any], degrade: Mapping[str, Any] | None) -> str:
    """`FAMILY-SEED`, with a short hash of the pins and the scan when there are any."""
    base = f"{family}-{seed:04d}"
    if not pinned and not degrade:
        return base
    blob = json.dumps({"p": dict(pinned), "d": degrade}, sort_keys=True, default=str)
    return f"{base}-{sha256_hex(blob.encode())[:6]}"

@dataclass(frozen=True)
class GeneratorRef:
    """What made a case (`Case.generator`): a family, `adopt`, or a mutation (`kind`), its version,
    and the names of the parameters the author pinned (the rest were drawn from the seed)."""

    name: str | None = None
    version: int | None = None
    kind: Literal["mutation"] | None = None
    pinned: tuple[str, ...] | None = None

    def to_json(self) -> JSONObject:
        out = {"name": self.name, "version": self.version, "kind": self.kind,
               "pinned": None if self.pinned is None else list(self.pinned)}
        return {k: v for k, v in out.items() if v is not None}

    @classmethod
    def from_json(cls, raw: Any) -> GeneratorRef:
        if not isinstance(raw, Mapping):
            raise UserError(f"a generator is an object with name and version; got {raw!r}")
        unknown = [k for k in raw if k not in ("name", "version", "kind", "pinned")]
        if unknown:
            raise UserError(f"unknown key {unknown[0]!r}; a generator has name, version, kind and pinned")
        name, version, kind, pinned = (raw.get(k) for k in ("name", "version", "kind", "pinned"))
        if name is not None and not isinstance(name, str):
            raise UserError(f"name must be a string; got {name!r}")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise UserError(f"version must be an integer; got {version!r}")
        if kind not in (None, "mutation"):
            raise UserError(f"kind must be mutation (or absent, for a family); got {kind!r}")
        if pinned is not None and (not isinstance(pinned, list) or not all(isinstance(p, str) for p in pinned)):
            raise UserError(f"pinned must be a list of parameter names; got {pinned!r}")
        return cls(name, version, kind, None if pinned is None else tuple(pinned))


@dataclass
class Case:
    """A case as its JSON says (`from_json`, `to_json`), with where it was read from."""

    id: str
    trap_family: str
    seed: int
    question: str
    expected_answer: str
    forbidden_answers: list[str] = field(default_factory=list)
    expected_tokens: list[str] = field(default_factory=list)
    pdf_path: str = ""
    metadata: JSONObject = field(default_factory=dict)
    # Ours (absent from pdfhell cases):
    params: dict[str, ParamValue] | None = None   # every parameter's resolved value
    degrade: DegradeSpec | None = None      # the scan, for a scanned case (`core.scan`)
    generator: GeneratorRef | None = None
    matcher: MatcherSpec | None = None     # as recorded; `matcher_spec` is the one that grades
    gold: ExtractionGold | None = None     # structured gold of an extraction case (`fields`)
    contract: tuple[Arming, ...] | None = None    # the family's clauses for these params
    sha256: str | None = None
    # An adopted PDF (one the user brought), and for a mutated case the steps that armed a trap
    # in it, in order (`core.adoption`).
    source: AdoptedSource | None = None
    mutations: list[MutationStep] | None = None
    # Where the JSON was read from, and the folder every path it names must stay inside (the
    # suite folder; by default the JSON's own folder). Neither is serialised.
    json_path: Path | None = field(default=None, compare=False, repr=False)
    root: Path | None = field(default=None, compare=False, repr=False)
    # The gold version this key is at (`workbench.gold.versions`: "v1" is the file as written),
    # when gold set it; verdicts name it. Not serialised.
    gold_version: str | None = field(default=None, compare=False, repr=False)

    @property
    def family(self) -> str:
        return self.trap_family

    @property
    def expected_failure_mode(self) -> str:
        return str(self.metadata.get("expected_failure_mode", ""))

    @property
    def adopted(self) -> bool:
        """Made from a PDF the user brought (`adopt`), mutated or not."""
        return self.source is not None

    @property
    def matcher_spec(self) -> MatcherSpec:
        """The matcher that grades this case: the recorded one, else pdfhell's rule (`tokens_all`
        where the case lists expected tokens, else `contains`)."""
        if self.matcher is not None and self.matcher != MatcherSpec():
            return self.matcher
        return MatcherSpec("tokens_all" if self.expected_tokens else "contains")

    @property
    def pdf_file(self) -> Path:
        """The PDF's location: `pdf_path` relative to the case JSON's folder. pdfhell's paths,
        relative to its repository, fall back to the file of that name beside the JSON. A path
        that leads outside the suite folder, or through a symbolic link inside it, is refused with
        a UserError naming it."""
        base = self.json_path.parent if self.json_path else Path(".")
        root = self.root or base
        name = self.pdf_path or f"{self.id}.pdf"
        candidate = base / name
        beside = base / Path(name).name
        if files.is_below(candidate, root):
            candidate = files.check_own(candidate, root)
            if candidate.exists() or not beside.exists():
                return candidate
        if Path(name).name and files.is_below(beside, root):
            beside = files.check_own(beside, root)
            if beside.is_file():
                return beside
        raise UserError(f"{self.json_path or self.id}: pdf_path {name[:80]!r} points outside {root}; "
                        "a case may only name a PDF inside its suite folder")

    def recorded_pdf_bytes(self) -> bytes:
        """The PDF file's bytes, refused (a UserError) when it is missing or is not the PDF the case
        records (its `sha256`, where it has one): a run, an export or a batch of a file swapped or
        edited since the suite was made would credit the suite with answers about another
        document. Read as it is (an encrypted file is not decrypted here)."""
        path = self.pdf_file
        if not path.exists():
            raise UserError(f"{self.id}: PDF {path} is missing; rebuild the suite or remove the case")
        data = files.read_bytes(path, "PDF", "pdf_file_bytes")
        if self.sha256 and sha256_hex(data) != self.sha256:
            raise UserError(f"{self.id}: {path.name} is not the PDF its JSON records (its sha256 differs); "
                            "run pdfworkbench verify")
        return data

    @property
    def answer_schema(self) -> JSONObject | None:
        """The JSON Schema an extraction case's answer follows (`gold.schema` of a `fields` case),
        which readers that take structured output are sent; None for every other case."""
        schema = self.gold.schema if self.gold else None
        return schema if self.matcher_spec.kind == "fields" and schema else None

    def answer_key(self) -> JSONObject:
        """The canonical answer key: what grading depends on, and what the suite hash covers."""
        return {
            "question": self.question,
            "expected_answer": self.expected_answer,
            "expected_tokens": list(self.expected_tokens),
            "forbidden_answers": list(self.forbidden_answers),
            "matcher": self.matcher_spec.to_json(),
            "gold": self.gold.to_json() if self.gold else None,
        }

    def key_sha256(self) -> str:
        canon = json.dumps(self.answer_key(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return sha256_hex(canon.encode("utf-8"))

    def to_json(self) -> JSONObject:
        out: JSONObject = {
            "id": self.id,
            "trap_family": self.trap_family,
            "seed": self.seed,
            "question": self.question,
            "expected_answer": self.expected_answer,
            "forbidden_answers": list(self.forbidden_answers),
            "expected_tokens": list(self.expected_tokens),
            "pdf_path": self.pdf_path,
            "metadata": self.metadata,
        }
        for name in ("generator", "params", "degrade", "matcher", "gold", "contract", "sha256",
                     "source", "mutations"):
            value = getattr(self, name)
            if name in ("contract", "mutations") and value is not None:
                value = [c.to_json() for c in value]
            elif name in _TYPED_PARTS and hasattr(value, "to_json"):
                value = value.to_json()
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def from_json(cls, raw: Any, source: str = "case JSON") -> Case:
        check_case(raw, source)
        degrade = gold = None
        if raw.get("degrade") is not None:
            # (a scanned case's: most cases have no scan, and `grade` pays a class per module it
            # loads; likewise an extraction case's gold, below)
            from workbench.core.scan import DegradeSpec

            degrade = _parsed(source, "degrade", DegradeSpec.parse_optional, raw.get("degrade"))
        matcher = _parsed(source, "matcher", MatcherSpec.parse, raw.get("matcher"))
        contract = _parsed(source, "contract", parse_contract, raw.get("contract"))
        generator = _parsed(source, "generator", GeneratorRef.from_json, raw.get("generator"))
        adopted = mutations = None
        if raw.get("source") is not None or raw.get("mutations") is not None:
            # (a case made from a PDF the user brought: the others, most of a suite, need none of
            # the adopted source's types, a tenth of the workbench's imports before its first frame)
            from workbench.core.adoption import AdoptedSource, parse_steps

            adopted = _parsed(source, "source", AdoptedSource.from_json, raw.get("source"))
            mutations = _parsed(source, "mutations", parse_steps, raw.get("mutations"))
        if raw.get("gold") is not None:
            from workbench.core.extraction import ExtractionGold

            gold = _parsed(source, "gold", ExtractionGold.parse, raw.get("gold"))
        params = _parsed(source, "params", parse_params, raw.get("params"))
        try:
            return cls(
                id=str(raw["id"]),
                trap_family=str(raw.get("trap_family") or raw.get("family") or "unknown"),
                seed=int(raw.get("seed", 0)),
                question=str(raw["question"]),
                expected_answer=str(raw.get("expected_answer") or ""),
                forbidden_answers=[str(x) for x in raw.get("forbidden_answers") or []],
                expected_tokens=[str(x) for x in raw.get("expected_tokens") or []],
                pdf_path=str(raw.get("pdf_path") or ""),
                metadata=dict(raw.get("metadata") or {}),
                params=params,
                degrade=degrade,
                generator=generator,
                matcher=matcher,
                gold=gold,
                contract=contract,
                sha256=raw.get("sha256"),
                source=adopted,
                mutations=mutations,
            )
        except (TypeError, ValueError) as exc:
            raise UserError(f"{source}: malformed case: {exc}") from None


# The fields that hold a typed part, written by its own `to_json` (contract and mutations are
# lists of them).
_TYPED_PARTS = ("generator", "degrade", "matcher", "gold", "source")


def _parsed(source: str, name: str, parse: Callable[[Any], T], raw: Any) -> T | None:
    """`parse(raw)` for the case field `name` (None stays None); a bad value is one UserError
    naming the file and the field."""
    if raw is None:
        return None
    try:
        return parse(raw)
    except UserError as exc:
        raise UserError(f"{source}: {name}: {exc}") from None


def load_case(path: Path, root: Path | None = None) -> Case:
    """The case in `path`; `root` is the suite folder its paths must stay inside (default: its folder)."""
    path = Path(path)
    raw = files.read_json(path, "case JSON", within=root)
    case = Case.from_json(raw, source=str(path))
    case.json_path = path
    case.root = root
    return case
