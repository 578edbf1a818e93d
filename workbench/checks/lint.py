"""Lint: is each case's trap armed, and can a reader who looks at the page answer it?

API:

- `lint_case(case, pdf_bytes, dpi=150, analysed=None, unscanned=None) -> list[Finding]`: one case
  (a `workbench.core.case.Case`); `analysed` / `unscanned` (an `Analysed`) hand it a PDF the
  caller has analysed already (the Author and Inspect screens), so it is not analysed twice.
- `lint_path(path, key=None, dpi=150, jobs=1, pages=None) -> list[Finding]`: a case JSON, a suite
  folder (ours, with `suite.json`, or a pdfhell folder without), or a PDF (with `key`, a case or
  key JSON). `iter_lint_path` yields the same findings as they are found (a bare PDF streams page
  by page, stopping at the `inspect_pages` limit unless `pages` says otherwise).
- `has_errors(findings) -> bool`.

A `Finding` is `case_id`, `severity` (`error`, `warning`, `info`), a stable `code` and a `message`.

The lint asks the grader's question, with the grader's matching (`workbench.grading.matchers`):
would an answer made of the visible page text pass this key's matcher (a `tokens_all` token is a
case-insensitive substring, a `keywords_all` keyword a whole word, amounts compare as money),
and would an answer made of a hidden layer fall for a forbidden answer? Evidence is located with
the same matching (`matchers.needle_finder(case)`).

A case's `contract` (recorded from its family's CONTRACT) is a list of clauses `{target, where}`:
targets `expected`, `tokens`, `forbidden`, `forbidden:N`, `meta:KEY`; `where` is one of
`visible` (some visible span shows it), `hidden` (some hidden span holds it and some extractor's
text layer reads it), `text_layer` (an extractor's text has it), `every_text_layer` (each
extractor's text has it: a trap for every text pipeline, not one), `pixels_only` (no extractor's
text has it), `not_visible`, `not_text_layer`, or `derived`: the value is computed from `parts`
(targets or literal text), each of which must be visible; `how` says how, and the lint records it
(`<kind>-derived`, info).

The case is linted as it is written: a scan is checked with its own text layer (the layer it
has, `none`, `faithful` or `drifted`), and visibility on its unscanned generation (the pixels of
a scan show what that page shows; reading them needs OCR). A decoy the contract puts somewhere
that the case as written does not hold (nowhere at all, or for a hidden-layer trap in no
extractor's layer) is `trap-disarmed`. A scan replaces the text layer, so text-layer clauses
about the expected answer and metadata are checked on it only when the scan's layer is faithful.

A case without a contract (an imported one) gets the default: every value the matcher looks for
is visible; one printed nowhere is a warning (`*-not-printed`: it may be computed from the page;
declare it derived), one drawn only in hidden text an error. A forbidden answer only in hidden text
that an extractor reads is a hidden-layer trap (info) when the expected answer is not itself drawn
invisibly; hidden but in no layer, it is `trap-disarmed`; nowhere, a warning (`forbidden-nowhere`),
unless its values are printed in another form (`forbidden-reworded`, info: "12" of "capped at 12
months" printed as "twelve (12) months"; the values of `grading.values`, each found with the
case's matcher). A key that lists no forbidden answer while its metadata names a decoy (`decoy_*`)
gets `forbidden-unlisted` (warning), which says where the decoy is (hidden or nowhere: it cannot
trap a reader of the page).

An answer to be read from the picture leaks when hidden text also spells it out (`*-leaked`,
error): with or without a contract, an expected answer or token whose every visible copy is
mirrored or turned (`evidence.turned`), and that hidden text holds where a reader reads it (an
extractor's layer of that page, or the file's structure), whatever hides it: render mode 3, white
on white, clipping, a cover, off the page, a layer switched off, an annotation. A `pixels_only`
clause fails on any reader of it, the file's structure included.

Limits, said plainly: text drawn only as pixels cannot be read without OCR. `pixels_only` is
checked as "absent from every text layer"; a `visible` clause whose text is in no span but could
be in an image on the page is a warning (`*-visible-unverified`), not a pass.

Codes (stable):
  error    expected-empty, token-empty, forbidden-empty, expected-is-forbidden, pdf-missing,
           pdf-unreadable, contract-invalid, meta-missing, matcher-invalid, trap-disarmed,
           <kind>-not-visible, <kind>-not-hidden, <kind>-not-in-text-layer,
           <kind>-not-in-every-text-layer, <kind>-visible,
           <kind>-in-text-layer, <kind>-leaked   (kind: expected, tokens, forbidden, meta, part)
  warning  <kind>-visible-unverified, <kind>-not-printed, expected-paraphrase, forbidden-nowhere,
           forbidden-unlisted, contract-target-empty, pdf-changed, degraded-unchecked
  warning  page-skipped (a page over a per-page limit: too complex to analyse, or its pixels not checked)
  info     forbidden-hidden-only, forbidden-layer-only, forbidden-reworded, forbidden-scan-unlayered, <kind>-derived,
           degraded-layer-clauses, hidden-text, layer-differs,
           pages-limited (a bare PDF linted on its first pages only),
           revision-changed, field-value-differs   (the file's structure: workbench.pdf.structure;
           a case lists hidden-text only for spans its structure hides)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.errors import UserError
from workbench.core.scan import DegradeSpec
from workbench.grading.needles import TARGET_PREFIXES, contract_targets

SEVERITIES = ("error", "warning", "info")
WHERE = ("visible", "hidden", "text_layer", "every_text_layer", "pixels_only", "not_visible", "not_text_layer",
         "derived")


@dataclass(frozen=True)
class Finding:
    case_id: str
    severity: str   # error | warning | info
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"case_id": self.case_id, "severity": self.severity, "code": self.code,
                "message": self.message}


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


def _short(text: str, n: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass(frozen=True)
class Analysed:
    """A PDF its caller has analysed already: every page's spans (`analysis`, a
    `spans.DocumentAnalysis`) and each extractor's text page by page (`texts`, the shape of
    `layers.page_texts`). The lint reads these instead of analysing the PDF again; they must be
    what `analyze_document` and `page_texts` give for `data`."""

    data: bytes = field(repr=False)
    analysis: Any = field(repr=False)
    texts: dict[str, list[str]] = field(repr=False)


class _Evidence:
    """Evidence for one PDF, computed once per needle, found the way the case's matcher finds it."""

    def __init__(self, data: bytes, dpi: int, name: str, case=None, known: Analysed | None = None):
        from workbench.grading.matchers import needle_finder
        from workbench.pdf.spans import analyze_document
        from workbench.text.search import find_all

        if known is not None and (known.analysis.dpi != dpi or known.data != data):
            known = None  # analysed at another DPI, or another PDF: analyse this one here
        self.data, self.dpi, self.name = data, dpi, name
        self.find = needle_finder(case) if case is not None else find_all
        self.analysis = known.analysis if known is not None else analyze_document(data, dpi, name)
        self.texts = known.texts if known is not None else None
        self._hits: dict[str, list] = {}
        self._layers: dict[str, dict[str, list[int]]] = {}

    def hits(self, needle: str) -> list:
        from workbench.checks.evidence import evidence_on_page

        if needle not in self._hits:
            # `evidence.find_evidence` over the analysis held here (it would look it up again).
            self._hits[needle] = [h for pa in self.analysis.pages for h in evidence_on_page(pa, needle, self.find)]
        return self._hits[needle]

    def layers(self, needle: str) -> dict[str, list[int]]:
        """Extractor -> pages whose text layer holds the needle (only extractors that have it)."""
        from workbench.checks.evidence import find_in_layers, find_in_texts

        if needle not in self._layers:
            found = (find_in_texts(self.texts, needle, self.find) if self.texts is not None
                     else find_in_layers(self.data, needle, self.name, find=self.find))
            self._layers[needle] = {k: v for k, v in found.items() if v}
        return self._layers[needle]

    def extractors(self) -> list[str]:
        """The extractors whose text layers `layers` reads."""
        from workbench.pdf.layers import page_texts

        return list(self.texts if self.texts is not None else page_texts(self.data, self.name))

    def ink_pages(self) -> list[int]:
        return [p.page for p in self.analysis.pages if p.ink_boxes]


@dataclass
class _Subject:
    """What the lint looks at: the case as written, and (for a scan) its unscanned generation,
    which shows what the scan's pixels show (reading the pixels themselves needs OCR)."""

    written: _Evidence
    page: _Evidence                  # visibility is judged here
    scan: DegradeSpec | None         # the case's degrade spec, if it is a scan

    @property
    def prefix(self) -> str:
        return "before scanning: " if self.scan else ""

    @property
    def scan_label(self) -> str:
        s = self.scan or DegradeSpec(tier="?")
        return f"the scan (tier {s.tier}, text layer {s.text_layer})"


def _pages(nums) -> str:
    nums = sorted({n + 1 for n in nums})
    return ("page " if len(nums) == 1 else "pages ") + ", ".join(map(str, nums))


def _reasons(hits) -> str:
    rs: list[str] = []
    for h in hits:
        rs.extend(r for r in h.reasons if r not in rs)
    return ", ".join(rs) or "hidden"


def _where_found(value: str, sub: _Subject) -> dict[str, Any]:
    """Where a value is, in the case as written: visible and hidden hits, extractors' layers."""
    from workbench.pdf.structure import STRUCTURE_REASONS

    page_hits = sub.page.hits(value)
    written_hits = sub.written.hits(value)
    hidden = [h for h in (written_hits if sub.scan else page_hits) if not h.visible]
    layers = sub.written.layers(value)
    # Text the file's structure holds (an annotation, a field value, an earlier revision, a layer
    # switched off) reaches the readers that read that structure, though no page text has it.
    structural = sorted({h.page for h in hidden if any(r in STRUCTURE_REASONS for r in h.reasons)})
    return {
        "shown": [h for h in page_hits if h.visible],
        "hidden": hidden,
        "layers": layers,
        "readers": {**layers, "the file's structure": structural} if structural else layers,
    }


def _leak(case_id: str, kind: str, value: str, sub: _Subject, why: str = "") -> Finding | None:
    """An answer a person must read from the picture (every visible copy mirrored or turned)
    that hidden text also spells out, for every reader of that text: the trap is disarmed,
    whatever hides the copy (render mode 3, white on white, clipped, covered, off the page, a
    layer switched off, an annotation). A scan's own text layer is its OCR, not a leak."""
    from workbench.checks.evidence import turned
    from workbench.pdf.structure import STRUCTURE_REASONS

    if sub.scan:
        return None
    found = _where_found(value, sub)
    ways = [turned(s) for h in found["shown"] for s in h.spans if s.visible]
    if not ways or not all(ways):
        return None
    layer_pages = {p for pages in found["layers"].values() for p in pages}
    leaks = [h for h in found["hidden"]
             if h.page in layer_pages or any(r in STRUCTURE_REASONS for r in h.reasons)]
    if not leaks:
        return None
    readers = sorted(found["readers"]) or ["the file's structure"]
    because = f" (contract: {why})" if why else ""
    return Finding(case_id, "error", f"{kind}-leaked",
                   f"{kind} {_short(value)!r} is to be read from the picture (visible only {ways[0]} on "
                   f"{_pages(h.page for h in found['shown'])}), but hidden text on {_pages(h.page for h in leaks)} "
                   f"({_reasons(leaks)}) spells it out for {', '.join(readers)}: the trap is disarmed{because}")


def _check(case_id: str, kind: str, value: str, where: str, sub: _Subject, why: str) -> Finding | None:
    found = _where_found(value, sub)
    shown, hidden, layers = found["shown"], found["hidden"], found["layers"]
    label = f"{kind} {_short(value)!r}"
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
            return err("not-visible", f"{label} is only in hidden text on {_pages(h.page for h in page_hidden)}"
                                      f" ({_reasons(page_hidden)})")
        ink = sub.page.ink_pages()
        if ink:
            return err("visible-unverified",
                       f"{label} is in no visible text; it may be drawn as pixels in an image on "
                       f"{_pages(ink)}, which lint cannot read without OCR", "warning")
        return err("not-visible", f"{label} is nowhere on the pages")
    if where == "hidden":
        if hidden and found["readers"]:
            return None
        if hidden:
            return err("not-in-text-layer", f"{label} is hidden on {_pages(h.page for h in hidden)} "
                                            f"({_reasons(hidden)}), but no extractor's text layer has it")
        extra = f"; it is visible on {_pages(h.page for h in shown)}" if shown else ""
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
        readers = found["readers"] if where == "pixels_only" else layers
        if not readers:
            return None
        places = ", ".join(f"{k} ({_pages(v)})" for k, v in readers.items())
        return err("in-text-layer", f"{label} is in the text layer as {places} extract it")
    if where == "not_visible":
        if not shown:
            return None
        return err("visible", f"{label} is visible on {_pages(h.page for h in shown)}")
    return None


def _answer_is_trapped(case) -> bool:
    """The grader's view of the expected answer itself: all of it found, yet not correct because
    it contains a forbidden answer (so no answer can be right)."""
    from workbench.grading.matchers import grade

    if case.matcher_spec.get("type") == "fields" or not case.expected_answer.strip():
        return False
    try:
        v = grade(case, case.expected_answer)
    except UserError:
        return False
    return v.matched_expected and bool(v.forbidden) and not v.correct


def _key_findings(case) -> list[Finding]:
    from workbench.grading.matchers import find_forbidden

    out: list[Finding] = []
    cid = case.id
    trapped = (find_forbidden(case, case.matcher_spec, case.expected_answer)
               if _answer_is_trapped(case) else [])
    if not case.expected_answer.strip() and not case.expected_tokens:
        out.append(Finding(cid, "error", "expected-empty", "the case has no expected answer and no tokens"))
    for i, t in enumerate(case.expected_tokens):
        if not str(t).strip():
            out.append(Finding(cid, "error", "token-empty", f"expected token #{i} is empty"))
    for i, f in enumerate(case.forbidden_answers):
        if not str(f).strip():
            out.append(Finding(cid, "error", "forbidden-empty",
                               f"forbidden answer #{i} is empty: it would match every answer"))
        elif trapped and any(p.expected == f for p in trapped):
            out.append(Finding(cid, "error", "expected-is-forbidden",
                               f"the expected answer {_short(case.expected_answer)!r} is also forbidden "
                               f"(#{i} {_short(f)!r}): no answer can be right"))
    return out


_SALIENT = re.compile(r"[$€£¥]?\d[\d,.]*\d|[$€£¥]?\d")


def _default_findings(case, sub: _Subject) -> list[Finding]:
    """No contract: would an answer made of the visible page text pass the key's matcher, and
    would an answer made of a hidden layer fall for the trap?"""
    from workbench.grading.matchers import matcher_needles

    out: list[Finding] = []
    cid = case.id
    kind = "tokens" if case.matcher_spec.get("type") in ("tokens_all", "keywords_all") else "expected"
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
                    and all(_where_found(x, sub)["shown"] for x in figures)):
                f = Finding(cid, "warning", "expected-paraphrase",
                            f"{sub.prefix}the expected answer is prose not printed on the page; its figures "
                            f"({', '.join(figures)}) are visible, but a `contains` matcher needs the "
                            "whole sentence: give expected_tokens")
            else:
                # Not printed: computed from the page, or wrong; the lint cannot tell which.
                f = Finding(cid, "warning", f"{kind}-not-printed",
                            f"{sub.prefix}{kind} {_short(needle)!r}: answer not printed: cannot verify; "
                            "declare it derived (a contract clause with where \"derived\" and its parts)")
        out.append(f)
    for ans in case.forbidden_answers:
        if ans.strip():
            out.extend(_trap_finding(cid, ans, sub, expected_hidden))
    if not case.forbidden_answers:
        out.extend(_unlisted_decoys(case, sub))
    return out


def _unlisted_decoys(case, sub: _Subject) -> list[Finding]:
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
        if found["shown"]:
            where = f"visible on {_pages(h.page for h in found['shown'])}"
        elif found["hidden"]:
            where = (f"only in hidden text on {_pages(h.page for h in found['hidden'])} ({_reasons(found['hidden'])}): "
                     "no reader of the page sees it, so it cannot trap one")
        elif found["readers"]:
            where = "only in a text layer, drawn nowhere: no reader of the page sees it"
        else:
            where = "printed nowhere: it cannot trap anyone"
        out.append(Finding(case.id, "warning", "forbidden-unlisted",
                           f"the key lists no forbidden answer; its metadata names the decoy {key} {_short(text)!r}, "
                           f"{where}; list it in forbidden_answers so an answer of it counts as falling for the trap"))
    return out


def _another_form(ans: str, sub: _Subject) -> list[tuple[str, dict[str, Any]]] | None:
    """Where the values of a decoy the page does not print as written are ("12" of "capped at
    12 months" printed as "twelve (12) months"), each found with the grader's matcher; None when
    the decoy is one value, or some value of it is nowhere."""
    from workbench.text.search import fold_needle
    from workbench.text.values import answer_values

    values = [v for _, _, v in answer_values(ans)]
    if not values or [fold_needle(v) for v in values] == [fold_needle(ans)]:
        return None
    found = [(v, _where_found(v, sub)) for v in values]
    if not all(f["shown"] or f["hidden"] or f["readers"] for _, f in found):
        return None
    return found


def _trap_finding(cid: str, ans: str, sub: _Subject, expected_hidden: bool) -> list[Finding]:
    """What a forbidden answer of a case without a contract is, from where it actually is."""
    found = _where_found(ans, sub)
    shown, hidden, layers = found["shown"], found["hidden"], found["readers"]
    label = f"forbidden {_short(ans)!r}"
    if shown:
        return []  # printed: a trap of reading, not of layers
    if hidden and not layers:
        return [Finding(cid, "error", "trap-disarmed",
                        f"{label} is hidden on {_pages(h.page for h in hidden)} "
                        f"({_reasons(hidden)}) but in no extractor's text layer: no reader can see it or read it")]
    if not hidden and not layers:
        parts = _another_form(ans, sub)
        if parts:
            where = "; ".join(f"{v!r} " + (f"visible on {_pages(h.page for h in f['shown'])}" if f["shown"]
                                            else f"hidden on {_pages(h.page for h in f['hidden'])}" if f["hidden"]
                                            else f"in the text layer ({', '.join(sorted(f['readers']))})")
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
                        f"{label} is only in hidden text on {_pages(h.page for h in hidden)} "
                        f"({_reasons(hidden)}), read by {extractors}: a hidden-layer trap")]
    return [Finding(cid, "info", "forbidden-layer-only",
                    f"{label} is in the text layer ({extractors}) but drawn nowhere: a text-layer trap")]


_PRESENT = ("visible", "hidden", "text_layer", "every_text_layer")
_LAYER_WHERE = ("hidden", "text_layer", "not_text_layer", "pixels_only")


def _derived_findings(case, n: int, clause: dict[str, Any], kind: str, values: list[str],
                      sub: _Subject) -> list[Finding]:
    """A value computed from visible parts: each part must be visible; the derivation is recorded."""
    cid = case.id
    parts = clause.get("parts")
    how = str(clause.get("how") or "").strip()
    if not isinstance(parts, list) or not parts or not all(isinstance(p, str) and p.strip() for p in parts):
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
                pages = _pages(h.page for h in _where_found(v, sub)["shown"])
                shown.append(f"{_short(v, 30)!r} ({pages})")
    if not out:
        what = ", ".join(_short(v, 30) for v in values)
        out.append(Finding(cid, "info", f"{kind}-derived",
                           f"{kind} {what!r} is derived{' as ' + how if how else ''} from visible "
                           f"{', '.join(shown)}"))
    return out


def _contract_findings(case, contract: list[Any], sub: _Subject) -> list[Finding]:
    out: list[Finding] = []
    cid = case.id
    wanted: dict[str, list[tuple[str, str]]] = {}   # forbidden value -> [(where, why)] saying it is there
    text_layer = sub.scan.text_layer if sub.scan else None
    skipped = 0
    for n, clause in enumerate(contract):
        if not isinstance(clause, dict) or "target" not in clause or "where" not in clause:
            out.append(Finding(cid, "error", "contract-invalid", f"contract clause #{n} needs target and where"))
            continue
        target, where, why = str(clause["target"]), str(clause["where"]), str(clause.get("why") or "")
        if where not in WHERE:
            out.append(Finding(cid, "error", "contract-invalid",
                               f"contract clause #{n}: where {where!r} is not one of {', '.join(WHERE)}"))
            continue
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


def _forbidden_present(cid: str, value: str, clauses: list[tuple[str, str]], sub: _Subject) -> list[Finding]:
    """The contract puts the decoy somewhere: is it there in the case as written?"""
    found = _where_found(value, sub)
    label = f"forbidden {_short(value)!r}"
    failed = [(w, why, _check(cid, "forbidden", value, w, sub, why)) for w, why in clauses]
    failed = [(w, why, f) for w, why, f in failed if f is not None]
    if not failed:
        return []
    hidden_trap = any(w == "hidden" for w, _ in clauses)
    nowhere = not found["shown"] and not found["readers"] and not (found["hidden"] and not hidden_trap)
    if nowhere or (hidden_trap and not found["readers"]):
        because = "; ".join(why for _, why in clauses if why)
        if sub.scan and (sub.page.layers(value) or any(not h.visible for h in sub.page.hits(value))):
            cause = f"{sub.scan_label} removes it: it is in no extractor's text layer of the case as written"
        elif found["hidden"]:
            cause = (f"it is hidden on {_pages(h.page for h in found['hidden'])} ({_reasons(found['hidden'])}) "
                     "but in no extractor's text layer")
        else:
            cause = "it is nowhere on the pages or in any text layer"
        return [Finding(cid, "error", "trap-disarmed",
                        f"{label}: {cause}" + (f" (contract: {because})" if because else ""))]
    out = []
    for w, _why, f in failed:
        if sub.scan and w == "text_layer" and found["shown"]:
            out.append(Finding(cid, "info", "forbidden-scan-unlayered",
                               f"{sub.scan_label} leaves {label} out of the text layer; it is still printed, "
                               "so the trap stays armed for a reader of the page"))
        else:
            out.append(f)
    return out


def lint_case(case, pdf_bytes: bytes, dpi: int = 150, analysed: Analysed | None = None,
              unscanned: Analysed | None = None) -> list[Finding]:
    """Every finding for one case: its answer key, and its contract checked on the case as
    written (a scan with its own text layer; visibility on its unscanned generation).

    `analysed` is `pdf_bytes` analysed already; `unscanned`, for a scan, its unscanned generation
    analysed already (the bytes `_unscanned(case)` would generate), so it is not generated again."""
    from workbench.core.case import sha256_hex

    out = _key_findings(case)
    name = case.id
    if case.sha256 and sha256_hex(pdf_bytes) != case.sha256:
        out.append(Finding(case.id, "warning", "pdf-changed",
                           "the PDF's sha256 differs from the one the case records; regenerate or re-verify"))
    try:
        written = _Evidence(pdf_bytes, dpi, name, case, analysed)
        page = written
        if case.degrade is not None:
            if (stale := _stale_generator(case)) is not None:
                out.append(Finding(case.id, "warning", "degraded-unchecked", stale))
                return out
            clean = unscanned.data if unscanned is not None and case.params is not None else _unscanned(case)
            if clean is None:
                out.append(Finding(case.id, "warning", "degraded-unchecked",
                                   "a scanned case whose family cannot regenerate it here: visibility on a "
                                   "scan needs OCR, so the contract was not checked"))
                return out
            page = _Evidence(clean, dpi, name, case, unscanned)
    except UserError as exc:
        out.append(Finding(case.id, "error", "pdf-unreadable", str(exc)))
        return out
    sub = _Subject(written, page, case.degrade)
    try:  # (the text layers are read here, when a check first asks for them)
        found = (_contract_findings(case, case.contract, sub) if case.contract
                 else _default_findings(case, sub))
    except UserError as exc:  # an extractor refuses the file (pypdf and a stream MuPDF reads)
        out.append(Finding(case.id, "error", "pdf-unreadable", str(exc)))
        return out
    out.extend(found)
    out.extend(_structure_hidden(case.id, written.analysis) + _structure_findings(case.id, written.data))
    out.extend(Finding(case.id, "warning", "page-skipped", f"page {pa.page + 1}: {pa.skipped}")
               for pa in written.analysis.pages if pa.skipped)
    return out


def _structure_hidden(case_id: str, analysis) -> list[Finding]:
    """Spans the file's structure hides (a layer that is off, an annotation, a font map, ...)."""
    from workbench.pdf.structure import STRUCTURE_REASONS

    return [Finding(case_id, "info", "hidden-text",
                    f"page {pa.page + 1}: {_short(s.text)!r} is hidden ({', '.join(s.reasons)})")
            for pa in analysis.pages for s in pa.spans
            if not s.visible and any(r in STRUCTURE_REASONS for r in s.reasons)]


def _stale_generator(case) -> str | None:
    """Why a scan cannot be checked against its unscanned page here: it was made by another
    version of its family, whose page this one no longer draws (the check compared the scan with
    a page it was never made from, and reported false errors), or None."""
    from workbench.build.make import other_version

    if case.params is None:
        return None
    try:
        other = other_version(case)
    except UserError:
        return None
    return None if other is None else (f"{other}: its unscanned page cannot be drawn again to check "
                                       "the scan; rebuild the suite (pdfworkbench build) to lint it")


def _unscanned(case) -> bytes | None:
    from workbench.build.make import generate_case

    if case.params is None:
        return None
    try:
        _, pdf = generate_case(case.trap_family, case.seed, case.params, None, case_id=case.id)
    except UserError:
        return None
    return pdf


def _structure_findings(case_id: str, data: bytes) -> list[Finding]:
    """What the file's structure holds apart from its pages: later revisions, form field values."""
    from workbench.pdf.structure import structure_report

    out: list[Finding] = []
    report = structure_report(data, case_id)
    for r in report.revisions[1:]:
        what = "; ".join(f"{label} {', '.join(repr(_short(t, 40)) for t in texts[:4])}"
                         for label, texts in (("removed", r.removed), ("added", r.added)) if texts)
        out.append(Finding(case_id, "info", "revision-changed",
                           f"revision {r.number} (an incremental update) changed "
                           f"{_pages(r.pages_changed) if r.pages_changed else 'no page text'}"
                           f"{': ' + what if what else ''}"))
    for f in report.fields:
        if f.differs:
            out.append(Finding(case_id, "info", "field-value-differs",
                               f"page {f.page + 1}: form field {f.name!r} holds {_short(f.value)!r}; "
                               f"its appearance shows {_short(f.appearance) or 'nothing'!r}"))
    return out


def page_findings(case_id: str, page) -> list[Finding]:
    """One page of a bare PDF (a `pages.PageForensics`): its hidden and differing spans."""
    out = _span_findings(case_id, page.analysis)
    if page.skipped:
        out.append(Finding(case_id, "warning", "page-skipped",
                           f"page {page.index + 1}: {page.skipped}"))
    return out


def _span_findings(case_id: str, pa) -> list[Finding]:
    out: list[Finding] = []
    for s in pa.spans:
        if not s.visible:
            out.append(Finding(case_id, "info", "hidden-text",
                               f"page {pa.page + 1}: {_short(s.text)!r} is hidden ({', '.join(s.reasons)})"))
        elif s.layer_issues:
            out.append(Finding(case_id, "info", "layer-differs",
                               f"page {pa.page + 1}: the text layer reads {_short(s.text)!r} "
                               f"({', '.join(s.layer_issues)}); the glyphs read {_short(s.seen)!r}"))
    return out


def iter_pdf_findings(case_id: str, data: bytes, dpi: int = 150, pages: str | None = None,
                      jobs: int | None = 1) -> Iterator[Finding]:
    """A bare PDF, page by page as each is analysed: `pages` is `--pages` (default: the first
    `inspect_pages` limit of pages, and a finding says what was left out)."""
    from workbench.pdf.document import open_fitz
    from workbench.pdf.pages import map_pages, parse_pages
    from workbench.pdf.spans import check_dpi

    check_dpi(dpi)
    with open_fitz(data, case_id) as doc:
        count = doc.page_count
    chosen, left_out = parse_pages(pages, count)
    if left_out:
        yield Finding(case_id, "info", "pages-limited", left_out)
    for found, _skipped in map_pages(page_findings, data, chosen, case_id, dpi, jobs):
        yield from found
    yield from _structure_findings(case_id, data)


def lint_case_file(case, dpi: int = 150, password: str | None = None) -> list[Finding]:
    """`lint_case` of a case loaded from its JSON: its PDF is read here (missing: an error finding)."""
    from workbench.pdf.document import read_pdf_bytes

    try:
        path = case.pdf_file  # a link in the suite is refused here: a finding, as unreadable
        if not path.exists():
            return _key_findings(case) + [Finding(case.id, "error", "pdf-missing", f"PDF {path} is missing")]
        data = read_pdf_bytes(path, password)
    except UserError as exc:
        return _key_findings(case) + [Finding(case.id, "error", "pdf-unreadable", str(exc))]
    return lint_case(case, data, dpi)


def _key_case(pdf: Path, key: Path):
    from workbench.core import files
    from workbench.core.case import Case

    try:
        raw = files.read_json(key, "JSON key")
    except UserError as exc:
        raise UserError(f"--key {exc}") from None
    if not isinstance(raw, dict):
        raise UserError(f"--key {key}: a key must be a JSON object with expected_answer")
    raw = dict(raw)
    raw.setdefault("id", pdf.stem)
    raw.setdefault("question", "")
    return Case.from_json(raw, source=f"--key {key}")


def lint_path(path: Path, key: Path | None = None, dpi: int = 150, jobs: int | None = 1,
              pages: str | None = None, password: str | None = None) -> list[Finding]:
    """Findings for a case JSON, a suite folder, or a PDF (with an optional key JSON)."""
    return list(iter_lint_path(path, key, dpi, jobs, pages, password))


def iter_lint_path(path: Path, key: Path | None = None, dpi: int = 150, jobs: int | None = 1,
                   pages: str | None = None, password: str | None = None) -> Iterator[Finding]:
    """`lint_path`'s findings as they are found. A suite's cases are linted on `jobs` processes
    (None: every core), a bare PDF's pages too (`pages` as `--pages`); findings in order.
    `password` opens encrypted PDFs (each is linted as its decrypted bytes)."""
    import functools

    from workbench.core.case import load_case
    from workbench.core.pool import map_ordered
    from workbench.core.suite import load_suite
    from workbench.pdf.document import read_pdf_bytes

    path = Path(path)
    bare = path.is_file() and path.suffix.lower() != ".json" and key is None
    if pages is not None and not bare:
        raise UserError("--pages goes with a bare PDF (no --key); a case is linted on every page")
    if path.is_dir():
        if key is not None:
            raise UserError("--key goes with a PDF, not a suite folder")
        suite = load_suite(path)
        yield from (Finding("-", "error", "case-unreadable", p) for p in suite.problems)
        for found in map_ordered(functools.partial(lint_case_file, dpi=dpi, password=password), suite.cases, jobs, chunksize=2):
            yield from found
        return
    if not path.exists():
        raise UserError(f"{path}: no such file or folder")
    if path.suffix.lower() == ".json":
        if key is not None:
            raise UserError("--key goes with a PDF; a case JSON is its own key")
        yield from lint_case_file(load_case(path), dpi, password)
        return
    data = read_pdf_bytes(path, password)
    if key is None:
        yield from iter_pdf_findings(path.stem, data, dpi, pages, jobs)
        return
    yield from lint_case(_key_case(path, key), data, dpi)
