"""The lint's checks of a case's answer key against its PDF: each clause of its contract, or (a
case without one) the default questions. What the clauses, codes and defaults mean is in
`workbench.checks.lint`, which runs these.

- `contract_findings(case, contract, subject)`, `default_findings(case, subject)`: the findings.
- `Subject`: what is looked at (the case as written and, for a scan, its unscanned page), each an
  `Evidence` (a PDF's hits and text layers, found once per needle).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench.checks.evidence import Hit, evidence_on_page, find_in_texts, turned
from workbench.checks.findings import Finding, page_list, reasons_of, short
from workbench.checks.search import find_in_layers
from workbench.core.contract import Arming
from workbench.core.errors import UserError
from workbench.core.scan import DegradeSpec
from workbench.grading.matchers import matcher_needles, needle_finder
from workbench.grading.needles import TARGET_PREFIXES, contract_targets
from workbench.pdf.spans import STRUCTURE_REASONS, Analysed
from workbench.pdf.textlayer import page_texts
from workbench.pdf.visibility import analyze_document
from workbench.text.search import find_all, fold_needle
from workbench.text.values import answer_values


class Evidence:
    """Evidence for one PDF, computed once per needle, found the way the case's matcher finds it."""

    def __init__(self, data: bytes, dpi: int, name: str, case=None, known: Analysed | None = None):
        if known is not None and (known.analysis.dpi != dpi or known.data != data):
            known = None  # analysed at another DPI, or another PDF: analyse this one here
        self.data, self.dpi, self.name = data, dpi, name
        self.find = needle_finder(case) if case is not None else find_all
        self.analysis = known.analysis if known is not None else analyze_document(data, dpi, name)
        self.texts = known.texts if known is not None else None
        self._hits: dict[str, list] = {}
        self._layers: dict[str, dict[str, list[int]]] = {}

    def hits(self, needle: str) -> list:
        if needle not in self._hits:
            # `search.find_evidence` over the analysis held here (it would look it up again).
            self._hits[needle] = [h for pa in self.analysis.pages for h in evidence_on_page(pa, needle, self.find)]
        return self._hits[needle]

    def layers(self, needle: str) -> dict[str, list[int]]:
        """Extractor -> pages whose text layer holds the needle (only extractors that have it)."""
        if needle not in self._layers:
            found = (find_in_texts(self.texts, needle, self.find) if self.texts is not None
                     else find_in_layers(self.data, needle, self.name, find=self.find))
            self._layers[needle] = {k: v for k, v in found.items() if v}
        return self._layers[needle]

    def extractors(self) -> list[str]:
        """The extractors whose text layers `layers` reads."""
        return list(self.texts if self.texts is not None else page_texts(self.data, self.name))

    def ink_pages(self) -> list[int]:
        return [p.page for p in self.analysis.pages if p.ink_boxes]


@dataclass
class Subject:
    """What the lint looks at: the case as written, and (for a scan) its unscanned generation,
    which shows what the scan's pixels show (reading the pixels themselves needs OCR)."""

    written: Evidence
    page: Evidence                 # visibility is judged here
    scan: DegradeSpec | None       # the case's degrade spec, if it is a scan

    @property
    def prefix(self) -> str:
        return "before scanning: " if self.scan else ""

    @property
    def scan_label(self) -> str:
        s = self.scan or DegradeSpec(tier="?")
        return f"the scan (tier {s.tier}, text layer {s.text_layer})"


@dataclass(frozen=True)
class _Found:
    """Where a value is, in the case as written."""

    shown: list[Hit]                  # visible hits on the page
    hidden: list[Hit]                 # hits drawn invisibly
    layers: dict[str, list[int]]      # extractor -> the pages whose text layer holds it
    readers: dict[str, list[int]]     # the layers, and the file's structure where it holds it


def _where_found(value: str, sub: Subject) -> _Found:
    """Where a value is, in the case as written: visible and hidden hits, extractors' layers."""
    page_hits = sub.page.hits(value)
    written_hits = sub.written.hits(value)
    hidden = [h for h in (written_hits if sub.scan else page_hits) if not h.visible]
    layers = sub.written.layers(value)
    # Text the file's structure holds (an annotation, a field value, an earlier revision, a layer
    # switched off) reaches the readers that read that structure, though no page text has it.
    structural = sorted({h.page for h in hidden if any(r in STRUCTURE_REASONS for r in h.reasons)})
    return _Found([h for h in page_hits if h.visible], hidden, layers,
                  {**layers, "the file's structure": structural} if structural else layers)


def _leak(case_id: str, kind: str, value: str, sub: Subject, why: str = "") -> Finding | None:
    """An answer a person must read from the picture (every visible copy mirrored or turned)
    that hidden text also spells out, for every reader of that text: the trap is disarmed,
    whatever hides the copy (render mode 3, white on white, clipped, covered, off the page, a
    layer switched off, an annotation). A scan's own text layer is its OCR, not a leak."""
    if sub.scan:
        return None
    found = _where_found(value, sub)
    ways = [turned(s) for h in found.shown for s in h.spans if s.visible]
    if not ways or not all(ways):
        return None
    layer_pages = {p for pages in found.layers.values() for p in pages}
    leaks = [h for h in found.hidden
             if h.page in layer_pages or any(r in STRUCTURE_REASONS for r in h.reasons)]
    if not leaks:
        return None
    readers = sorted(found.readers) or ["the file's structure"]
    because = f" (contract: {why})" if why else ""
    return Finding(case_id, "error", f"{kind}-leaked",
                   f"{kind} {short(value)!r} is to be read from the picture (visible only {ways[0]} on "
                   f"{page_list(h.page for h in found.shown)}), but hidden text on {page_list(h.page for h in leaks)} "
                   f"({reasons_of(leaks)}) spells it out for {', '.join(readers)}: the trap is disarmed{because}")


def _check(case_id: str, kind: str, value: str, where: str, sub: Subject, why: str) -> Finding | None:
    found = _where_found(value, sub)
    shown, hidden, layers = found.shown, found.hidden, found.layers
    label = f"{kind} {short(value)!r}"
    because = f" (contract: {why})" if why else ""
    # Visibility is judged on the page (before the scan); layers on the case as written.
    pre = sub.prefix if where in ("visible", "not_visible") else ""

    def err(code: str, msg: str, severity: str = "error") -> Finding:
        return Finding(case_id, severity, f"{kind}-{code}", pre + msg + because)

    if where == "visible":
        if shown:
            return None
        page_hidden = [h for h in sub.page.hits(value) if not h.visible]
        if page_hidden:
            return err("not-visible", f"{label} is only in hidden text on {page_list(h.page for h in page_hidden)}"
                                      f" ({reasons_of(page_hidden)})")
        ink = sub.page.ink_pages()
        if ink:
            return err("visible-unverified",
                       f"{label} is in no visible text; it may be drawn as pixels in an image on "
                       f"{page_list(ink)}, which lint cannot read without OCR", "warning")
        return err("not-visible", f"{label} is nowhere on the pages")
    if where == "hidden":
        if hidden and found.readers:
            return None
        if hidden:
            return err("not-in-text-layer", f"{label} is hidden on {page_list(h.page for h in hidden)} "
                                            f"({reasons_of(hidden)}), but no extractor's text layer has it")
        extra = f"; it is visible on {page_list(h.page for h in shown)}" if shown else ""
        return err("not-hidden", f"{label} is in no hidden text{extra}")
    if where == "text_layer":
        if layers:
            return None
        return err("not-in-text-layer", f"{label} is in no extractor's text layer")
    if where == "every_text_layer":
        missing = [name for name in sub.written.extractors() if name not in layers]
        if not missing:
            return None
        read = f"; only {', '.join(layers)} reads it" if layers else ""
        return err("not-in-every-text-layer", f"{label} is not in the text layer as {', '.join(missing)} "
                                              f"extracts it{read}")
    if where in ("pixels_only", "not_text_layer"):
        readers = found.readers if where == "pixels_only" else layers
        if not readers:
            return None
        places = ", ".join(f"{k} ({page_list(v)})" for k, v in readers.items())
        return err("in-text-layer", f"{label} is in the text layer as {places} extract it")
    if where == "not_visible":
        if not shown:
            return None
        return err("visible", f"{label} is visible on {page_list(h.page for h in shown)}")
    return None


_SALIENT = re.compile(r"[$€£¥]?\d[\d,.]*\d|[$€£¥]?\d")


def default_findings(case, sub: Subject) -> list[Finding]:
    """No contract: would an answer made of the visible page text pass the key's matcher, and
    would an answer made of a hidden layer fall for the trap?"""
    out: list[Finding] = []
    cid = case.id
    kind = "tokens" if case.matcher_spec.kind in ("tokens_all", "keywords_all") else "expected"
    try:
        needles = [str(n) for n in matcher_needles(case) if str(n).strip()]
    except UserError as exc:
        return [Finding(cid, "error", "matcher-invalid", str(exc))]
    expected_hidden = False   # drawn invisibly: then a hidden decoy is no hidden-layer trap
    for needle in needles:
        f = _check(cid, kind, needle, "visible", sub, "") or _leak(cid, kind, needle, sub)
        if f is None:
            continue
        if f.code.endswith("-not-visible") and "nowhere" not in f.message:
            expected_hidden = True
        if f.code.endswith("-not-visible") and "nowhere" in f.message:
            figures = [m.group().rstrip(".,") for m in _SALIENT.finditer(needle)]
            if (kind == "expected" and len(needle.split()) > 6 and figures
                    and all(_where_found(x, sub).shown for x in figures)):
                f = Finding(cid, "warning", "expected-paraphrase",
                            f"{sub.prefix}the expected answer is prose not printed on the page; its figures "
                            f"({', '.join(figures)}) are visible, but a `contains` matcher needs the "
                            "whole sentence: give expected_tokens")
            else:
                # Not printed: computed from the page, or wrong; the lint cannot tell which.
                f = Finding(cid, "warning", f"{kind}-not-printed",
                            f"{sub.prefix}{kind} {short(needle)!r}: answer not printed: cannot verify; "
                            "declare it derived (a contract clause with where \"derived\" and its parts)")
        out.append(f)
    for ans in case.forbidden_answers:
        if ans.strip():
            out.extend(_trap_finding(cid, ans, sub, expected_hidden))
    if not case.forbidden_answers:
        out.extend(_unlisted_decoys(case, sub))
    return out


def _unlisted_decoys(case, sub: Subject) -> list[Finding]:
    """A key that lists no forbidden answer, though its metadata names a decoy (`decoy_*`): an
    answer of the decoy is graded merely wrong, never as falling for the trap; and where the
    decoy is not printed, no reader of the page can fall for it."""
    out: list[Finding] = []
    for key, value in case.metadata.items():
        if not key.lower().startswith("decoy") or isinstance(value, bool) or not isinstance(value, str | int | float):
            continue
        text = str(value)
        if not any(c.isdigit() for c in text):  # a figure or a number; not a word that describes the decoy
            continue
        found = _where_found(text, sub)
        if found.shown:
            where = f"visible on {page_list(h.page for h in found.shown)}"
        elif found.hidden:
            where = (f"only in hidden text on {page_list(h.page for h in found.hidden)} ({reasons_of(found.hidden)}): "
                     "no reader of the page sees it, so it cannot trap one")
        elif found.readers:
            where = "only in a text layer, drawn nowhere: no reader of the page sees it"
        else:
            where = "printed nowhere: it cannot trap anyone"
        out.append(Finding(case.id, "warning", "forbidden-unlisted",
                           f"the key lists no forbidden answer; its metadata names the decoy {key} {short(text)!r}, "
                           f"{where}; list it in forbidden_answers so an answer of it counts as falling for the trap"))
    return out


def _another_form(ans: str, sub: Subject) -> list[tuple[str, _Found]] | None:
    """Where the values of a decoy the page does not print as written are ("12" of "capped at
    12 months" printed as "twelve (12) months"), each found with the grader's matcher; None when
    the decoy is one value, or some value of it is nowhere."""
    values = [v for _, _, v in answer_values(ans)]
    if not values or [fold_needle(v) for v in values] == [fold_needle(ans)]:
        return None
    found = [(v, _where_found(v, sub)) for v in values]
    if not all(f.shown or f.hidden or f.readers for _, f in found):
        return None
    return found


def _trap_finding(cid: str, ans: str, sub: Subject, expected_hidden: bool) -> list[Finding]:
    """What a forbidden answer of a case without a contract is, from where it actually is."""
    found = _where_found(ans, sub)
    shown, hidden, layers = found.shown, found.hidden, found.readers
    label = f"forbidden {short(ans)!r}"
    if shown:
        return []  # printed: a trap of reading, not of layers
    if hidden and not layers:
        return [Finding(cid, "error", "trap-disarmed",
                        f"{label} is hidden on {page_list(h.page for h in hidden)} "
                        f"({reasons_of(hidden)}) but in no extractor's text layer: no reader can see it or read it")]
    if not hidden and not layers:
        parts = _another_form(ans, sub)
        if parts:
            where = "; ".join(f"{v!r} " + (f"visible on {page_list(h.page for h in f.shown)}" if f.shown
                                            else f"hidden on {page_list(h.page for h in f.hidden)}" if f.hidden
                                            else f"in the text layer ({', '.join(sorted(f.readers))})")
                              for v, f in parts)
            return [Finding(cid, "info", "forbidden-reworded",
                            f"{label} is not printed as written, but in another form: {where}")]
        where = f"; {sub.scan_label} removed it" if sub.scan and sub.page.hits(ans) else ""
        return [Finding(cid, "warning", "forbidden-nowhere",
                        f"{label} is nowhere on the pages or in any text layer{where}: if the trap relies on "
                        "finding it there, it is disarmed; if a reader must compute it, declare that in a contract")]
    if expected_hidden:
        return []  # both answers unseen: not a hidden-layer trap (the expected finding says why)
    extractors = ", ".join(sorted(layers))
    if hidden:
        return [Finding(cid, "info", "forbidden-hidden-only",
                        f"{label} is only in hidden text on {page_list(h.page for h in hidden)} "
                        f"({reasons_of(hidden)}), read by {extractors}: a hidden-layer trap")]
    return [Finding(cid, "info", "forbidden-layer-only",
                    f"{label} is in the text layer ({extractors}) but drawn nowhere: a text-layer trap")]


_PRESENT = ("visible", "hidden", "text_layer", "every_text_layer")


_LAYER_WHERE = ("hidden", "text_layer", "not_text_layer", "pixels_only")


def _derived_findings(case, n: int, clause: Arming, kind: str, values: list[str],
                      sub: Subject) -> list[Finding]:
    """A value computed from visible parts: each part must be visible; the derivation is recorded."""
    cid = case.id
    parts = clause.parts
    how = clause.how.strip()
    if not parts or not all(p.strip() for p in parts):
        return [Finding(cid, "error", "contract-invalid",
                        f"contract clause #{n}: where \"derived\" needs parts: a list of the visible "
                        "values (or targets such as meta:KEY) it is computed from")]
    out: list[Finding] = []
    shown: list[str] = []
    for part in parts:
        resolved = contract_targets(case, part) if part.startswith(TARGET_PREFIXES) else ("part", [part])
        if resolved is None or resolved[1] is None:
            out.append(Finding(cid, "error", "contract-invalid",
                               f"contract clause #{n}: part {part!r} names no value of the case"))
            continue
        for v in resolved[1]:
            f = _check(cid, "part", v, "visible", sub, f"{kind} is derived from it")
            if f:
                out.append(f)
            else:
                pages = page_list(h.page for h in _where_found(v, sub).shown)
                shown.append(f"{short(v, 30)!r} ({pages})")
    if not out:
        what = ", ".join(short(v, 30) for v in values)
        out.append(Finding(cid, "info", f"{kind}-derived",
                           f"{kind} {what!r} is derived{' as ' + how if how else ''} from visible "
                           f"{', '.join(shown)}"))
    return out


def contract_findings(case, contract: tuple[Arming, ...], sub: Subject) -> list[Finding]:
    out: list[Finding] = []
    cid = case.id
    wanted: dict[str, list[tuple[str, str]]] = {}   # forbidden value -> [(where, why)] saying it is there
    text_layer = sub.scan.text_layer if sub.scan else None
    skipped = 0
    for n, clause in enumerate(contract):
        target, where, why = clause.target, clause.where, clause.why
        resolved = contract_targets(case, target)
        if resolved is None:
            out.append(Finding(cid, "error", "contract-invalid",
                               f"contract clause #{n}: target {target!r} is not expected, tokens, "
                               "forbidden, forbidden:N or meta:KEY"))
            continue
        kind, values = resolved
        if values is None:
            out.append(Finding(cid, "error", "meta-missing",
                               f"contract clause #{n} names {target!r}, but the metadata has no such key"))
            continue
        if not values:
            out.append(Finding(cid, "warning", "contract-target-empty",
                               f"contract clause #{n} ({target} {where}) has nothing to check: "
                               f"the case has no {target.split(':')[0]}"))
            continue
        if where == "derived":
            out.extend(_derived_findings(case, n, clause, kind, values, sub))
            continue
        if kind == "forbidden" and where in _PRESENT:
            for v in values:
                wanted.setdefault(v, []).append((where, why))
            continue
        if sub.scan and where in ("hidden", "text_layer", "every_text_layer") and text_layer != "faithful":
            skipped += 1  # the scan's own text layer (none, or drifted on purpose) decides these
            continue
        for value in values:
            f = _check(cid, kind, value, where, sub, why)
            if f is None and where == "visible" and kind in ("expected", "tokens"):
                f = _leak(cid, kind, value, sub, why)
            if f:
                out.append(f)
    for value, clauses in wanted.items():
        out.extend(_forbidden_present(cid, value, clauses, sub))
    if skipped:
        out.append(Finding(cid, "info", "degraded-layer-clauses",
                           f"{sub.scan_label} replaces the page's text layer: {skipped} text-layer clause(s) "
                           "of the unscanned design (not about the decoy) were not checked on it"))
    return out


def _forbidden_present(cid: str, value: str, clauses: list[tuple[str, str]], sub: Subject) -> list[Finding]:
    """The contract puts the decoy somewhere: is it there in the case as written?"""
    found = _where_found(value, sub)
    label = f"forbidden {short(value)!r}"
    failed = [(w, why, _check(cid, "forbidden", value, w, sub, why)) for w, why in clauses]
    failed = [(w, why, f) for w, why, f in failed if f is not None]
    if not failed:
        return []
    hidden_trap = any(w == "hidden" for w, _ in clauses)
    nowhere = not found.shown and not found.readers and not (found.hidden and not hidden_trap)
    if nowhere or (hidden_trap and not found.readers):
        because = "; ".join(why for _, why in clauses if why)
        if sub.scan and (sub.page.layers(value) or any(not h.visible for h in sub.page.hits(value))):
            cause = f"{sub.scan_label} removes it: it is in no extractor's text layer of the case as written"
        elif found.hidden:
            cause = (f"it is hidden on {page_list(h.page for h in found.hidden)} ({reasons_of(found.hidden)}) "
                     "but in no extractor's text layer")
        else:
            cause = "it is nowhere on the pages or in any text layer"
        return [Finding(cid, "error", "trap-disarmed",
                        f"{label}: {cause}" + (f" (contract: {because})" if because else ""))]
    out = []
    for w, _why, f in failed:
        if sub.scan and w == "text_layer" and found.shown:
            out.append(Finding(cid, "info", "forbidden-scan-unlayered",
                               f"{sub.scan_label} leaves {label} out of the text layer; it is still printed, "
                               "so the trap stays armed for a reader of the page"))
        else:
            out.append(f)
    return out
