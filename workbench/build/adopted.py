"""Adopted cases: a PDF the user brought, keyed by hand, and the traps armed in it by mutations.

An adopted case is its PDF (copied into the suite, its sha256 recorded in `source`) and a key
written by hand; it verifies by hash. A mutated case records its source's sha256, where the suite
keeps the source (`sources/<sha256>.pdf`), the key it was adopted with, and each mutation step
(name, version, seed, pinned names, resolved params, target); `verify` replays the steps on the
source and compares bytes and key, so it catches an edited source as well as an edited case.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from workbench.core import files
from workbench.core.adoption import AdoptedSource, Encryption, MutationStep
from workbench.core.case import Case, GeneratorRef, default_case_id, sha256_hex
from workbench.core.errors import UserError
from workbench.core.matcher import MatcherSpec
from workbench.core.schema import JSONObject
from workbench.generators.base import AnswerKey, Arming, GenerationError, ParamError
from workbench.generators.mutations import Mutation, UnknownMutation, get_mutation
from workbench.generators.mutations._common import encryption_of, page_count, plain_pdf

ADOPTED_FAMILY = "adopted"      # trap_family of a case adopted as it is
ADOPT_VERSION = 1
SOURCES_DIR = "sources"         # in a suite: the adopted PDFs its mutated cases are made from


def source_relpath(sha256: str) -> str:
    return f"{SOURCES_DIR}/{sha256}.pdf"


def adopt_pdf(data: bytes, name: str, case_id: str, question: str, expected: str,
              expected_tokens: Sequence[str] = (), forbidden: Sequence[str] = (),
              matcher: MatcherSpec | None = None, encryption: Encryption | None = None,
              ) -> Case:
    """A case made from a PDF as it is (read already: decrypted if it needed a password), keyed
    by hand. `encryption` is how the file was encrypted, recorded when it is."""
    pages = page_count(data, name)
    if not question.strip():
        raise UserError("adopt needs the question a reader is asked (--question TEXT)")
    if not expected.strip() and not expected_tokens:
        raise UserError("adopt needs the right answer (--expected TEXT, or --token for each token)")
    digest = sha256_hex(data)
    spec = matcher or MatcherSpec("tokens_all" if expected_tokens and not expected.strip() else "contains")
    return Case(
        id=case_id, trap_family=ADOPTED_FAMILY, seed=0, question=question.strip(),
        expected_answer=expected.strip(), forbidden_answers=[f for f in forbidden if f.strip()],
        expected_tokens=[t for t in expected_tokens if t.strip()], pdf_path=f"{case_id}.pdf",
        metadata={"expected_failure_mode": "", "adopted_from": Path(name).name},
        generator=GeneratorRef("adopt", ADOPT_VERSION), matcher=spec, sha256=digest,
        source=AdoptedSource(digest, Path(name).name, pages,
                             encryption=encryption if encryption and encryption.method else None),
    )


def case_key(case: Case) -> AnswerKey:
    meta = {k: v for k, v in case.metadata.items() if k != "expected_failure_mode"}
    return AnswerKey(question=case.question, expected_answer=case.expected_answer,
                     expected_failure_mode=case.expected_failure_mode,
                     forbidden_answers=list(case.forbidden_answers),
                     expected_tokens=list(case.expected_tokens), matcher=case.matcher_spec,
                     metadata=meta, gold=case.gold)


def source_file(case: Case) -> Path:
    """Where a case's adopted source is: the suite's `sources/` copy, or (adopted as it is) its PDF."""
    if case.source is None:
        raise UserError(f"{case.id}: not an adopted case; adopt a PDF first (pdfworkbench adopt FILE.pdf)")
    rel = case.source.path
    if not rel:
        return case.pdf_file
    base = case.json_path.parent if case.json_path else Path(".")
    root = case.root or base
    if Path(rel).is_absolute() or not files.is_below(base / rel, root):
        raise UserError(f"{case.json_path or case.id}: source path {str(rel)[:80]!r} points outside {root}; "
                        "a case may only name files inside its suite folder")
    return files.check_own(base / rel, root)


def read_source(case: Case) -> bytes:
    """The adopted source's bytes, checked against the sha256 the case records."""
    path = source_file(case)
    if not path.exists():
        raise UserError(f"{case.id}: the adopted source {path} is missing; copy it back or adopt the PDF again")
    data = files.read_bytes(path, "PDF", "pdf_file_bytes")
    want = case.source.sha256
    got = sha256_hex(data)
    if want and got != want:
        raise UserError(f"{case.id}: the adopted source {path.name} was edited (sha256 {got[:12]}, the case "
                        f"records {want[:12]}); restore it or adopt the new PDF")
    return data


def adopted_key(case: Case) -> tuple[AnswerKey, tuple[Arming, ...]]:
    """The key (and contract) the source was adopted with, before any mutation."""
    assert case.source is not None
    if case.source.key is not None:   # a mutated case (or one step back from one)
        return case.source.key, case.source.contract or ()
    return case_key(case), case.contract or ()


def parent_and_step(case: Case) -> tuple[Case, MutationStep | None]:
    """A mutated case as (the case one step back, its last step): what the Author screen edits.
    An adopted case as it is: (itself, None)."""
    if not case.mutations:
        return case, None
    parent = Case(**{**case.__dict__, "mutations": case.mutations[:-1]})
    return parent, case.mutations[-1]


def rekeyed(case: Case, question: str, expected: str, expected_tokens: Sequence[str] = (),
            forbidden: Sequence[str] = (), matcher: MatcherSpec | None = None) -> Case:
    """An adopted case with a new hand-written key (its PDF unchanged). A mutated case's key is
    derived from its mutations, so it is refused: change the adopted case's key and mutate again."""
    if case.source is None:
        raise UserError(f"{case.id}: only an adopted case's key is written by hand")
    if case.mutations:
        raise UserError(f"{case.id}: the key of a mutated case follows from its mutations; edit the key "
                        f"of the adopted case ({case.source.root_id}) and mutate it again")
    if not question.strip():
        raise UserError("the key needs a question")
    if not expected.strip() and not any(t.strip() for t in expected_tokens):
        raise UserError("the key needs the right answer (or expected tokens)")
    spec = matcher or case.matcher_spec
    return Case(**{**case.__dict__, "question": question.strip(), "expected_answer": expected.strip(),
                   "expected_tokens": [t.strip() for t in expected_tokens if t.strip()],
                   "forbidden_answers": [f.strip() for f in forbidden if f.strip()], "matcher": spec})


def mutation(name: str) -> Mutation:
    try:
        return get_mutation(name)
    except UnknownMutation as exc:
        raise UserError(str(exc)) from None


def apply_step(pdf: bytes, key: AnswerKey, contract: tuple[Arming, ...], step: MutationStep,
               ) -> tuple[bytes, AnswerKey, tuple[Arming, ...], JSONObject, MutationStep]:
    """Apply one step; returns the new PDF, key, contract, details and the step with resolved params."""
    mut = mutation(step.mutation)
    if step.version != mut.version:
        raise UserError(f"made with mutation {mut.name} version {step.version}, installed version is {mut.version}")
    if mut.needs_target and step.target is None:
        raise UserError(f"mutation {mut.name} needs the value to attack: the expected answer located on "
                        "the page, or --at PAGE:x0,y0,x1,y1")
    try:
        params = mut.resolve(step.pinned, step.seed)
        assert mut.apply is not None
        out = mut.apply(pdf, step.target, key, contract, params, step.seed)
    except (ParamError, GenerationError) as exc:
        raise UserError(f"{mut.name}: {exc}") from None
    resolved = MutationStep(step.mutation, step.version, step.seed, dict(step.pinned), params, step.target)
    return out.pdf, out.key, out.contract, out.details, resolved


def replay(source: bytes, key: AnswerKey, contract: tuple[Arming, ...], steps: Sequence[MutationStep]):
    """Every step in order from the source (decrypted first, if it is encrypted: the rule in
    `workbench.pdf.document`): (pdf, key, contract, details of the last step, steps)."""
    pdf, details, done = plain_pdf(source, "the adopted source"), {}, []
    for step in steps:
        pdf, key, contract, details, resolved = apply_step(pdf, key, contract, step)
        done.append(resolved)
    return pdf, key, contract, details, done


def mutated_case(base: Case, source: bytes, steps: Sequence[MutationStep], case_id: str | None = None,
                 password: str | None = None) -> tuple[Case, bytes, dict[str, bytes]]:
    """The case `base` (adopted, or mutated already) with `steps` after its own, replayed from the
    source (`password` opens a source that needs one). Returns the case, its PDF (never
    encrypted), and the files to keep beside it (the source copy: as it is, or decrypted when it
    needs a password)."""
    key0, contract0 = adopted_key(base)
    chain = [*(base.mutations or ()), *steps]
    if not chain:
        raise UserError("give a mutation (--trap NAME)")
    kept, encryption = _kept_source(base, source, password)
    pdf, key, contract, details, done = replay(kept, key0, contract0, chain)
    last = done[-1]
    mut = mutation(last.mutation)
    root = (base.source.root_id or base.id) if base.source else base.id
    cid = case_id or default_case_id(f"{root}-{'-'.join(s.mutation for s in done[len(chain) - len(steps):])}",
                                     last.seed, last.pinned, None)
    digest = base.source.sha256 if base.source and kept is source else sha256_hex(kept)
    metadata = dict(key.metadata)
    metadata["expected_failure_mode"] = key.expected_failure_mode
    metadata["mutation"] = dict(details)   # what the last step drew, and where ("places")
    case = Case(
        id=cid, trap_family=mut.name, seed=last.seed, question=key.question,
        expected_answer=key.expected_answer, forbidden_answers=list(key.forbidden_answers),
        expected_tokens=list(key.expected_tokens), pdf_path=f"{cid}.pdf", metadata=metadata,
        params=dict(last.params), generator=GeneratorRef(mut.name, mut.version, "mutation", tuple(sorted(last.pinned))),
        matcher=key.matcher, gold=key.gold, contract=tuple(contract),
        sha256=sha256_hex(pdf),
        source=AdoptedSource(digest, base.source.name if base.source else base.pdf_path,
                             base.source.pages if base.source else None, source_relpath(digest), root, key0,
                             tuple(contract0) or None, encryption, kind="mutated"),
        mutations=done,
    )
    return case, pdf, {source_relpath(digest): kept}


def _kept_source(base: Case, source: bytes, password: str | None) -> tuple[bytes, Encryption | None]:
    """The source a mutated case keeps, and its encryption as recorded: `source` itself, or a
    decrypted copy when it needs a password (a suite keeps no PDF that needs one, so `verify` replays
    it without one: the rule in `workbench.pdf.document`)."""
    recorded = base.source.encryption if base.source else None
    found = encryption_of(source, "the adopted source", password)
    if not found.needs_password:
        return source, recorded
    return plain_pdf(source, "the adopted source", password), found


def regenerate_adopted(case: Case) -> tuple[Case, bytes]:
    """An adopted case from its source: the source itself, or its mutation steps replayed."""
    source = read_source(case)
    if not case.mutations:
        return case, source
    key0, contract0 = adopted_key(case)
    pdf, key, contract, _, _ = replay(source, key0, contract0, case.mutations)
    fresh = Case(**{**case.__dict__})
    fresh.question, fresh.expected_answer = key.question, key.expected_answer
    fresh.forbidden_answers, fresh.expected_tokens = list(key.forbidden_answers), list(key.expected_tokens)
    fresh.matcher, fresh.gold = key.matcher, key.gold
    fresh.contract = tuple(contract)
    fresh.sha256 = sha256_hex(pdf)
    return fresh, pdf
