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
           forbidden-unlisted, contract-target-empty, pdf-changed, degraded-unchecked,
           pdf-repaired (the file is damaged: cut short, or its cross-reference table is wrong)
  warning  page-skipped (a page over a per-page limit: too complex to analyse, or its pixels not checked)
  info     forbidden-hidden-only, forbidden-layer-only, forbidden-reworded, forbidden-scan-unlayered, <kind>-derived,
           degraded-layer-clauses, hidden-text, layer-differs,
           pages-limited (a bare PDF linted on its first pages only),
           revision-changed, field-value-differs   (the file's structure: workbench.pdf.structure;
           a case lists hidden-text only for spans its structure hides)
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from pathlib import Path

from workbench.build.make import family_registry, generate_case, other_version
from workbench.checks.contract import Evidence, Subject, contract_findings, default_findings
from workbench.checks.findings import SEVERITIES, Finding, page_list, short
from workbench.core import cache as cache_store
from workbench.core import files, limits
from workbench.core.case import Case, load_case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.pool import map_ordered
from workbench.core.suite import load_suite
from workbench.generators.registry import UnknownFamily
from workbench.grading.matchers import find_forbidden, grade
from workbench.pdf.document import open_fitz, read_pdf_bytes
from workbench.pdf.forensics import map_pages
from workbench.pdf.pages import parse_pages
from workbench.pdf.spans import STRUCTURE_REASONS, Analysed, check_dpi
from workbench.pdf.structure import REPAIRED, structure_report


def _answer_is_trapped(case) -> bool:
    """The grader's view of the expected answer itself: all of it found, yet not correct because
    it contains a forbidden answer (so no answer can be right)."""
    if case.matcher_spec.kind == "fields" or not case.expected_answer.strip():
        return False
    try:
        v = grade(case, case.expected_answer)
    except UserError:
        return False
    return v.matched_expected and bool(v.forbidden) and not v.correct


def _key_findings(case) -> list[Finding]:
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
                               f"the expected answer {short(case.expected_answer)!r} is also forbidden "
                               f"(#{i} {short(f)!r}): no answer can be right"))
    return out


def lint_case(case, pdf_bytes: bytes, dpi: int = 150, analysed: Analysed | None = None,
              unscanned: Analysed | None = None) -> list[Finding]:
    """Every finding for one case: its answer key, and its contract checked on the case as
    written (a scan with its own text layer; visibility on its unscanned generation).

    `analysed` is `pdf_bytes` analysed already; `unscanned`, for a scan, its unscanned generation
    analysed already (the bytes `_unscanned(case)` would generate), so it is not generated again."""
    return _lint_case(case, pdf_bytes, dpi, analysed, unscanned)[0]


def _lint_case(case, pdf_bytes: bytes, dpi: int = 150, analysed: Analysed | None = None,
               unscanned: Analysed | None = None) -> tuple[list[Finding], bool]:
    """`lint_case`'s findings, and whether they are the same on every run: not when a page's
    analysis ran out of time (`page_seconds`), as a busier or quieter machine might not."""
    out = _key_findings(case)
    name = case.id
    looked: list[Evidence] = []

    def timely() -> bool:
        over = limits.flag("page_seconds")
        return not any(over in pa.skipped for ev in looked for pa in ev.analysis.pages)

    if case.sha256 and sha256_hex(pdf_bytes) != case.sha256:
        out.append(Finding(case.id, "warning", "pdf-changed",
                           "the PDF's sha256 differs from the one the case records; regenerate or re-verify"))
    try:
        written = Evidence(pdf_bytes, dpi, name, case, analysed)
        looked.append(written)
        page = written
        if case.degrade is not None:
            if (stale := _stale_generator(case)) is not None:
                out.append(Finding(case.id, "warning", "degraded-unchecked", stale))
                return out, timely()
            clean = unscanned.data if unscanned is not None and case.params is not None else _unscanned(case)
            if clean is None:
                out.append(Finding(case.id, "warning", "degraded-unchecked",
                                   "a scanned case whose family cannot regenerate it here: visibility on a "
                                   "scan needs OCR, so the contract was not checked"))
                return out, timely()
            page = Evidence(clean, dpi, name, case, unscanned)
            looked.append(page)
    except UserError as exc:
        out.append(Finding(case.id, "error", "pdf-unreadable", str(exc)))
        return out, timely()
    sub = Subject(written, page, case.degrade)
    try:  # (the text layers are read here, when a check first asks for them)
        found = (contract_findings(case, case.contract, sub) if case.contract
                 else default_findings(case, sub))
    except UserError as exc:  # an extractor refuses the file (pypdf and a stream MuPDF reads)
        out.append(Finding(case.id, "error", "pdf-unreadable", str(exc)))
        with contextlib.suppress(UserError):   # (why, where MuPDF can tell: a file cut short)
            out.extend(_structure_findings(case.id, written.data))
        return out, timely()
    out.extend(found)
    out.extend(_structure_hidden(case.id, written.analysis) + _structure_findings(case.id, written.data))
    out.extend(Finding(case.id, "warning", "page-skipped", f"page {pa.page + 1}: {pa.skipped}")
               for pa in written.analysis.pages if pa.skipped)
    return out, timely()


def _structure_hidden(case_id: str, analysis) -> list[Finding]:
    """Spans the file's structure hides (a layer that is off, an annotation, a font map, ...)."""
    return [Finding(case_id, "info", "hidden-text",
                    f"page {pa.page + 1}: {short(s.text)!r} is hidden ({', '.join(s.reasons)})")
            for pa in analysis.pages for s in pa.spans
            if not s.visible and any(r in STRUCTURE_REASONS for r in s.reasons)]


def _stale_generator(case) -> str | None:
    """Why a scan cannot be checked against its unscanned page here: it was made by another
    version of its family, whose page this one no longer draws (the check compared the scan with
    a page it was never made from, and reported false errors), or None."""
    if case.params is None:
        return None
    try:
        other = other_version(case)
    except UserError:
        return None
    return None if other is None else (f"{other}: its unscanned page cannot be drawn again to check "
                                       "the scan; rebuild the suite (pdfworkbench build) to lint it")


def _unscanned(case) -> bytes | None:
    if case.params is None:
        return None
    try:
        _, pdf = generate_case(case.trap_family, case.seed, case.params, None, case_id=case.id)
    except UserError:
        return None
    return pdf


def _structure_findings(case_id: str, data: bytes) -> list[Finding]:
    """What the file's structure holds apart from its pages: damage, later revisions, form field
    values."""
    out: list[Finding] = []
    report = structure_report(data, case_id)
    if report.repaired:
        out.append(Finding(case_id, "warning", "pdf-repaired", REPAIRED))
    for r in report.revisions[1:]:
        what = "; ".join(f"{label} {', '.join(repr(short(t, 40)) for t in texts[:4])}"
                         for label, texts in (("removed", r.removed), ("added", r.added)) if texts)
        out.append(Finding(case_id, "info", "revision-changed",
                           f"revision {r.number} (an incremental update) changed "
                           f"{page_list(r.pages_changed) if r.pages_changed else 'no page text'}"
                           f"{': ' + what if what else ''}"))
    for f in report.fields:
        if f.differs:
            out.append(Finding(case_id, "info", "field-value-differs",
                               f"page {f.page + 1}: form field {f.name!r} holds {short(f.value)!r}; "
                               f"its appearance shows {short(f.appearance) or 'nothing'!r}"))
    return out


def page_findings(case_id: str, page) -> list[Finding]:
    """One page of a bare PDF (a `pagedata.PageForensics`): its hidden and differing spans."""
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
                               f"page {pa.page + 1}: {short(s.text)!r} is hidden ({', '.join(s.reasons)})"))
        elif s.layer_issues:
            out.append(Finding(case_id, "info", "layer-differs",
                               f"page {pa.page + 1}: the text layer reads {short(s.text)!r} "
                               f"({', '.join(s.layer_issues)}); the glyphs read {short(s.seen)!r}"))
    return out


def iter_pdf_findings(case_id: str, data: bytes, dpi: int = 150, pages: str | None = None,
                      jobs: int | None = 1) -> Iterator[Finding]:
    """A bare PDF, page by page as each is analysed: `pages` is `--pages` (default: the first
    `inspect_pages` limit of pages, and a finding says what was left out)."""
    check_dpi(dpi)
    with open_fitz(data, case_id) as doc:
        count = doc.page_count
    chosen, left_out = parse_pages(pages, count)
    if left_out:
        yield Finding(case_id, "info", "pages-limited", left_out)
    for found, _skipped in map_pages(page_findings, data, chosen, case_id, dpi, jobs):
        yield from found
    yield from _structure_findings(case_id, data)


def lint_case_file(case, dpi: int = 150, password: str | None = None, cache: Path | None = None,
                   fresh: bool = False) -> list[Finding]:
    """`lint_case` of a case loaded from its JSON: its PDF is read here (missing: an error finding).

    With `cache` (a folder, `lint_cache()`), findings are taken from there when it holds them for
    this content and kept there when made (`fresh`: made afresh, and kept); see `lint_key`."""
    try:
        path = case.pdf_file  # a link in the suite is refused here: a finding, as unreadable
        if not path.exists():
            return _key_findings(case) + [Finding(case.id, "error", "pdf-missing", f"PDF {path} is missing")]
        data = read_pdf_bytes(path, password)
    except UserError as exc:
        return _key_findings(case) + [Finding(case.id, "error", "pdf-unreadable", str(exc))]
    key = lint_key(case, data, dpi) if cache is not None else None
    if key is None:
        return lint_case(case, data, dpi)
    if not fresh and (kept := _cached_findings(cache, key, case.id)) is not None:
        return kept
    found, timely = _lint_case(case, data, dpi)
    if timely:
        cache_store.write_entry(cache, key, {"case_id": case.id, "findings": [f.to_json() for f in found]})
    return found


# ---- the lint cache (`core.cache`) --------------------------------------------------------------

# A case's findings depend on: its PDF as linted (decrypted when a password opens it, so the
# password itself is not in the key), its JSON (the key, contract, scan spec), the DPI, the code
# of the lint and every layer below it, the libraries it reads and draws with (OCR's included:
# whether a scan's layer is read by OCR depends on it being installed), the limits in force, and,
# for a scan, the family that draws its unscanned page again (`_family_state`). All are in the key.
CACHE_FORMAT = 1
_CODE = ("checks", "build", "grading", "generators", "pdf", "core", "text")
_LIBRARIES = ("pymupdf", "pypdf", "reportlab", "numpy", "pillow", "rapidocr", "onnxruntime")


def lint_cache() -> Path:
    """The lint cache's folder: `lint/` in the cache folder (`PDFWORKBENCH_CACHE_DIR`)."""
    return cache_store.part_folder("lint")


def lint_key(case, pdf_bytes: bytes, dpi: int) -> str | None:
    """The cache key of `case`'s findings on `pdf_bytes` at `dpi`, or None when they cannot be
    keyed (a user family edited since this process loaded it)."""
    family = _family_state(case)
    if family is None:
        return None
    return cache_store.key_of(CACHE_FORMAT, cache_store.code_fingerprint(_CODE, _LIBRARIES), dpi,
                              sha256_hex(pdf_bytes), case.to_json(), family)


def _family_state(case) -> str | None:
    """The family code a scan's findings depend on (its unscanned page is drawn again): a built-in
    family's is in the code's digest; a user family's is its file, as loaded here (None when the
    file changed since: the code that would run is not the file's). '' for any other case."""
    if case.degrade is None or case.params is None:
        return ""
    families = family_registry()
    try:
        family = families.get(case.trap_family)
    except UnknownFamily:
        return "unknown"
    if family.origin == "builtin":
        return f"builtin {family.name} {family.version}"
    loaded = next((tuple(s[1:]) for s in families.stamp if s[0] == family.origin), None)
    try:
        now = os.stat(family.origin)
        source = Path(family.origin).read_bytes()
    except OSError:
        return None
    if loaded != (now.st_mtime_ns, now.st_size):
        return None
    return f"{family.origin} {sha256_hex(source)}"


def _cached_findings(folder: Path, key: str, case_id: str) -> list[Finding] | None:
    """The findings the cache holds under `key`, or None (missing, or not an entry of ours)."""
    entry = cache_store.read_entry(folder, key, "lint cache entry")
    if entry is None or entry.get("case_id") != case_id or not isinstance(entry.get("findings"), list):
        return None
    out = []
    for f in entry["findings"]:
        if (not isinstance(f, dict) or set(f) != {"case_id", "severity", "code", "message"}
                or not all(isinstance(v, str) for v in f.values()) or f["severity"] not in SEVERITIES
                or f["case_id"] != case_id):
            return None
        out.append(Finding(f["case_id"], f["severity"], f["code"], f["message"]))
    return out


def _key_case(pdf: Path, key: Path):
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
