"""Authoring: the draft an author turns (family, seed, pins, scan degradation), its preview, and
new family modules written from the template (a preview is saved into a suite by `build.saving`).

The authoring screen and the `new-family` command both call these; nothing here knows a widget.
The screen imports this module as it opens, so adopted cases (`build.adopted`, whose mutations
open PDFs with pymupdf and numpy) are imported where a draft works on one, in the preview's worker.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.build.make import family_registry, make_case
from workbench.core import atomic
from workbench.core.adoption import MutationStep, Target
from workbench.core.case import Case
from workbench.core.config import family_dirs
from workbench.core.errors import UserError
from workbench.core.params import ParamValue
from workbench.core.scan import DegradeSpec
from workbench.generators import template
from workbench.generators.base import Family
from workbench.generators.mutations import get_mutation


@dataclass
class Draft:
    """What the author has chosen: everything else is drawn from the seed."""

    family: str
    seed: int = 1
    pinned: dict[str, ParamValue] = field(default_factory=dict)
    degrade: DegradeSpec | None = None     # None: no scan
    # Mutation mode: `family` names a mutation armed in `base` (an adopted case, or a mutated one
    # a step back) at `target` (None: the mutation needs none).
    base: Case | None = None
    target: Target | None = None

    @property
    def mutating(self) -> bool:
        return self.base is not None

    @classmethod
    def from_case(cls, case: Case) -> Draft:
        """The draft that made a case: its pinned parameters (or all of them), seed and degradation.
        An adopted case opens in mutation mode: its last mutation (or hidden_layer) on the case one
        step back."""
        if case.source is not None:
            from workbench.build.adopted import parent_and_step  # (see the docstring)

            parent, step = parent_and_step(case)
            if step is None:
                return cls("hidden_layer", 1, {}, None, base=case)
            return cls(step.mutation, step.seed, dict(step.pinned), None, base=parent, target=step.target)
        params = dict(case.params or {})
        names = case.generator.pinned if case.generator else None
        pinned = {k: params[k] for k in names if k in params} if names is not None else params
        return cls(case.trap_family, case.seed, pinned, case.degrade.request() if case.degrade else None)


@dataclass
class Preview:
    draft: Draft
    family: Family
    case: Case          # as it would be saved (scanned when the draft degrades)
    pdf: bytes          # the case's PDF
    clean_pdf: bytes    # the PDF before scanning (the same bytes when nothing is degraded)
    seconds: dict[str, float] = field(default_factory=dict)
    # Files saved beside the case (path in the suite -> bytes): an adopted case's source PDF.
    extra_files: dict[str, bytes] = field(default_factory=dict)

    @property
    def params(self) -> dict[str, ParamValue]:
        return dict(self.case.params or {})

    @property
    def degraded(self) -> bool:
        return self.case.degrade is not None


def describe_error(exc: BaseException, origin: str = "") -> str:
    """One line for an exception raised by a family: the user module's line when there is one."""
    if isinstance(exc, UserError):
        return str(exc)
    if isinstance(exc, SyntaxError):
        return f"{Path(exc.filename or origin).name}:{exc.lineno}: SyntaxError: {exc.msg}"
    where = ""
    if origin and origin != "builtin":
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            if Path(frame.filename).resolve() == Path(origin).resolve():
                where = f"{Path(origin).name}:{frame.lineno}: "
                break
    return f"{where}{type(exc).__name__}: {exc}"


def make_preview(family: Family, draft: Draft) -> Preview:
    """Generate the draft's case in memory (and its unscanned PDF); UserError says what is wrong.

    An exception in a family's own code (a user module's bug) becomes a UserError with its line.
    """
    if draft.base is not None:
        return _mutation_preview(family, draft)
    try:
        made = make_case(family.name, draft.seed, draft.pinned, draft.degrade, family=family)
    except UserError:
        raise
    except Exception as exc:  # a family's own bug: shown where the preview is, never a crash
        raise UserError(describe_error(exc, family.origin)) from None
    return Preview(draft, family, made.case, made.pdf, made.clean_pdf, made.seconds)


def scan_pins(degrade: DegradeSpec) -> dict[str, ParamValue]:
    """The Author form's scan section as the `scan` mutation's pinned params."""
    pins: dict[str, ParamValue] = {"tier": degrade.tier, "text_layer": degrade.text_layer,
                            "knobs": " ".join(f"{k}={v:g}" for k, v in degrade.overrides) or "-"}
    if degrade.dpi is not None:
        pins["dpi"] = degrade.dpi
    return pins


def _mutation_preview(mutation: Family, draft: Draft) -> Preview:
    """The draft's mutation armed in its base case (then scanned, when the scan section is on)."""
    from workbench.build.adopted import mutated_case, read_source  # (see the docstring)

    assert draft.base is not None
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    source = read_source(draft.base)
    steps = [MutationStep(mutation.name, mutation.version, draft.seed, dict(draft.pinned), target=draft.target)]
    case, pdf, extra = mutated_case(draft.base, source, steps)
    seconds["mutate"] = time.perf_counter() - t0
    clean = pdf
    if draft.degrade:
        t1 = time.perf_counter()
        scan = get_mutation("scan")
        steps.append(MutationStep(scan.name, scan.version, draft.seed, scan_pins(draft.degrade)))
        case, pdf, extra = mutated_case(draft.base, source, steps)
        seconds["degrade"] = time.perf_counter() - t1
    return Preview(draft, mutation, case, pdf, clean, seconds, extra)


# ---- user families --------------------------------------------------------------------------

def user_family_folder() -> Path:
    """Where `new-family` writes by default: `<config dir>/families` (always searched)."""
    return family_dirs()[0]


def write_family_template(name: str, folder: Path | None = None) -> Path:
    """Write a new family module from the template; refuses a taken name or an existing file."""
    if not template.NAME_PATTERN.match(name):
        raise UserError(f"family name {name!r}: use lower-case letters, digits and '_', starting "
                        "with a letter (it is the module's file name)")
    reg = family_registry()
    taken = reg.families.get(name)
    if taken is not None and taken.origin == "builtin":
        raise UserError(f"family {name!r} is built in; choose another name")
    folder = Path(folder).expanduser() if folder is not None else user_family_folder()
    path = folder / f"{name}.py"
    if path.exists():
        raise UserError(f"{path} already exists; refusing to overwrite it (choose another name or delete it)")
    atomic.write_bytes(path, template.render(name).encode("utf-8"))
    family_registry(refresh=True)   # the held registry sees the new family
    return path


def reload_user_family(path: Path) -> Family:
    """Import a user family's file again (and refresh the registry, so lint and verify see it).

    A module that does not load raises UserError with the file's line, as Python reports it.
    """
    target = Path(path).resolve()
    reg = family_registry(force=True)
    for fam in reg.families.values():
        if fam.origin != "builtin" and Path(fam.origin).resolve() == target:
            return fam
    for problem in reg.problems:
        if Path(problem.origin).resolve() == target:
            raise UserError(problem.message)
    raise UserError(f"{target.name}: not in a family folder any more, or defines no family")


def family_file_stamp(family: Family) -> tuple[int, int] | None:
    """A user family file's (mtime in ns, size), to notice a save; None for built-in families."""
    if family.origin == "builtin":
        return None
    try:
        st = Path(family.origin).stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def describe_pins(family: Family, pinned: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={pinned[k]}" for k in (p.name for p in family.params) if k in pinned) or "none"
