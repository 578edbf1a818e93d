"""Lint: is each case's trap armed, and can a reader who looks at the page answer it?

API:

- `lint_case(case, pdf_bytes, dpi=150) -> list[Finding]`: one case (a `workbench.core.case.Case`).
- `lint_path(path, key=None, dpi=150, jobs=1, pages=None) -> list[Finding]`: a case JSON, a suite
  folder (ours, with `suite.json`, or a pdfhell folder without), or a PDF (with `key`, a case or
  key JSON). `iter_lint_path` yields the same findings as they are found (a bare PDF streams page
  by page, stopping at `pages.DEFAULT_PAGE_CAP` pages unless `pages` says otherwise).
- `has_errors(findings) -> bool`.

A `Finding` is `case_id`, `severity` (`error`, `warning`, `info`), a stable `code` and a `message`.

A case's `contract` (recorded from its family's CONTRACT) is a list of clauses `{target, where}`:
targets `expected`, `tokens`, `forbidden`, `forbidden:N`, `meta:KEY`; `where` is one of
`visible` (some visible span shows it), `hidden` (some hidden span holds it), `text_layer` (an
extractor's text has it as written), `pixels_only` (no extractor's text has it),
`not_visible`, `not_text_layer`. A case without a contract (an imported one) gets the default:
every expected token (or, without tokens, the expected answer) is visible somewhere, and a
forbidden answer found only in hidden text is reported as a hidden-layer trap (info).

Limits, said plainly: text drawn only as pixels cannot be read without OCR. `pixels_only` is
checked as "absent from every text layer"; a `visible` clause whose text is in no span but could
be in an image on the page is a warning (`*-visible-unverified`), not a pass. Scanned (degraded)
cases are checked on their unscanned generation when the family can regenerate them.

Codes (stable):
  error    expected-empty, token-empty, forbidden-empty, expected-is-forbidden, pdf-missing,
           pdf-unreadable, contract-invalid, meta-missing,
           <kind>-not-visible, <kind>-not-hidden, <kind>-not-in-text-layer, <kind>-visible,
           <kind>-in-text-layer   (kind: expected, tokens, forbidden, meta)
  warning  <kind>-visible-unverified, expected-paraphrase, contract-target-empty, pdf-changed,
           degraded-unchecked
  warning  page-skipped (a page over a per-page bound: its pixels were not checked)
  info     forbidden-hidden-only, degraded-checked-unscanned, hidden-text, layer-differs,
           pages-limited (a bare PDF linted on its first pages only),
           revision-changed, field-value-differs   (the file's structure: workbench.pdf.structure;
           a case lists hidden-text only for spans its structure hides)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core.errors import UserError

SEVERITIES = ("error", "warning", "info")
WHERE = ("visible", "hidden", "text_layer", "pixels_only", "not_visible", "not_text_layer")


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


class _Evidence:
    """Evidence for one PDF, computed once per needle."""

    def __init__(self, data: bytes, dpi: int, name: str):
        from workbench.pdf.spans import analyze_document

        self.data, self.dpi, self.name = data, dpi, name
        self.analysis = analyze_document(data, dpi, name)
        self._hits: dict[str, list] = {}
        self._layers: dict[str, dict[str, list[int]]] = {}

    def hits(self, needle: str) -> list:
        from workbench.pdf.evidence import find_evidence

        if needle not in self._hits:
            self._hits[needle] = find_evidence(self.data, needle, self.dpi, self.name)
        return self._hits[needle]

    def layers(self, needle: str) -> dict[str, list[int]]:
        from workbench.pdf.evidence import find_in_layers

        if needle not in self._layers:
            self._layers[needle] = find_in_layers(self.data, needle, self.name)
        return self._layers[needle]

    def ink_pages(self) -> list[int]:
        return [p.page for p in self.analysis.pages if p.ink_boxes]


def _pages(nums) -> str:
    nums = sorted({n + 1 for n in nums})
    return ("page " if len(nums) == 1 else "pages ") + ", ".join(map(str, nums))


def _reasons(hits) -> str:
    rs: list[str] = []
    for h in hits:
        rs.extend(r for r in h.reasons if r not in rs)
    return ", ".join(rs) or "hidden"


def _targets(case, target: str) -> tuple[str, list[str]] | None:
    """(kind, values) for a contract target, or None if the target is malformed."""
    if target == "expected":
        return "expected", [case.expected_answer] if case.expected_answer.strip() else []
    if target == "tokens":
        return "tokens", list(case.expected_tokens)
    if target == "forbidden":
        return "forbidden", list(case.forbidden_answers)
    m = re.fullmatch(r"forbidden:(\d+)", target)
    if m:
        i = int(m.group(1))
        return "forbidden", [case.forbidden_answers[i]] if i < len(case.forbidden_answers) else []
    if target.startswith("meta:") and len(target) > 5:
        key = target[5:]
        if key not in case.metadata:
            return "meta", None  # type: ignore[return-value]
        value = case.metadata[key]
        values = value if isinstance(value, list) else [value]
        return "meta", [str(v) for v in values if str(v).strip()]
    return None


def _check(case_id: str, kind: str, value: str, where: str, ev: _Evidence, prefix: str,
           why: str) -> Finding | None:
    hits = ev.hits(value)
    shown = [h for h in hits if h.visible]
    hidden = [h for h in hits if not h.visible]
    layers = {k: v for k, v in ev.layers(value).items() if v}
    label = f"{prefix}{kind} {_short(value)!r}"
    because = f" (contract: {why})" if why else ""

    def err(code: str, msg: str, severity: str = "error") -> Finding:
        return Finding(case_id, severity, f"{kind}-{code}", msg + because)

    if where == "visible":
        if shown:
            return None
        if hidden:
            return err("not-visible", f"{label} is only in hidden text on {_pages(h.page for h in hidden)}"
                                      f" ({_reasons(hidden)})")
        ink = ev.ink_pages()
        if ink:
            return err("visible-unverified",
                       f"{label} is in no visible text; it may be drawn as pixels in an image on "
                       f"{_pages(ink)}, which lint cannot read without OCR", "warning")
        return err("not-visible", f"{label} is nowhere on the pages")
    if where == "hidden":
        if hidden:
            return None
        extra = f"; it is visible on {_pages(h.page for h in shown)}" if shown else ""
        return err("not-hidden", f"{label} is in no hidden text{extra}")
    if where == "text_layer":
        if layers:
            return None
        return err("not-in-text-layer", f"{label} is in no extractor's text layer as written")
    if where in ("pixels_only", "not_text_layer"):
        if not layers:
            return None
        found = ", ".join(f"{k} ({_pages(v)})" for k, v in layers.items())
        return err("in-text-layer", f"{label} is in the text layer as {found} extract it")
    if where == "not_visible":
        if not shown:
            return None
        return err("visible", f"{label} is visible on {_pages(h.page for h in shown)}")
    return None


def _same_answer(a: str, b: str) -> bool:
    from workbench.pdf.evidence import search_text

    if " ".join(a.split()).lower() == " ".join(b.split()).lower():
        return True
    return bool(search_text(a, b)) and bool(search_text(b, a)) and len(a) <= 40


def _key_findings(case) -> list[Finding]:
    out: list[Finding] = []
    cid = case.id
    if not case.expected_answer.strip() and not case.expected_tokens:
        out.append(Finding(cid, "error", "expected-empty", "the case has no expected answer and no tokens"))
    for i, t in enumerate(case.expected_tokens):
        if not str(t).strip():
            out.append(Finding(cid, "error", "token-empty", f"expected token #{i} is empty"))
    for i, f in enumerate(case.forbidden_answers):
        if not str(f).strip():
            out.append(Finding(cid, "error", "forbidden-empty",
                               f"forbidden answer #{i} is empty: it would match every answer"))
        elif case.expected_answer.strip() and _same_answer(case.expected_answer, f):
            out.append(Finding(cid, "error", "expected-is-forbidden",
                               f"the expected answer {_short(case.expected_answer)!r} is also forbidden "
                               f"(#{i} {_short(f)!r}): no answer can be right"))
    return out


_SALIENT = re.compile(r"[$€£¥]?\d[\d,.]*\d|[$€£¥]?\d")


def _default_findings(case, ev: _Evidence, prefix: str) -> list[Finding]:
    out: list[Finding] = []
    cid = case.id
    if case.expected_tokens:
        for t in case.expected_tokens:
            if str(t).strip():
                f = _check(cid, "tokens", str(t), "visible", ev, prefix, "")
                if f:
                    out.append(f)
    elif case.expected_answer.strip():
        f = _check(cid, "expected", case.expected_answer, "visible", ev, prefix, "")
        if f and f.severity == "error" and len(case.expected_answer.split()) > 6:
            figures = [m.group().rstrip(".,") for m in _SALIENT.finditer(case.expected_answer)]
            if figures and all(any(h.visible for h in ev.hits(x)) for x in figures):
                f = Finding(cid, "warning", "expected-paraphrase",
                            f"{prefix}the expected answer is prose not printed on the page; its figures "
                            f"({', '.join(figures)}) are visible, but a `contains` matcher needs the "
                            "whole sentence: give expected_tokens")
        if f:
            out.append(f)
    for ans in case.forbidden_answers:
        if not ans.strip():
            continue
        hits = ev.hits(ans)
        if hits and not any(h.visible for h in hits):
            out.append(Finding(cid, "info", "forbidden-hidden-only",
                               f"{prefix}forbidden {_short(ans)!r} is only in hidden text on "
                               f"{_pages(h.page for h in hits)} ({_reasons(hits)}): a hidden-layer trap"))
    return out


def _contract_findings(case, contract: list[Any], ev: _Evidence, prefix: str) -> list[Finding]:
    out: list[Finding] = []
    cid = case.id
    for n, clause in enumerate(contract):
        if not isinstance(clause, dict) or "target" not in clause or "where" not in clause:
            out.append(Finding(cid, "error", "contract-invalid", f"contract clause #{n} needs target and where"))
            continue
        target, where, why = str(clause["target"]), str(clause["where"]), str(clause.get("why") or "")
        if where not in WHERE:
            out.append(Finding(cid, "error", "contract-invalid",
                               f"contract clause #{n}: where {where!r} is not one of {', '.join(WHERE)}"))
            continue
        resolved = _targets(case, target)
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
        for value in values:
            f = _check(cid, kind, value, where, ev, prefix, why)
            if f:
                out.append(f)
    return out


def lint_case(case, pdf_bytes: bytes, dpi: int = 150) -> list[Finding]:
    """Every finding for one case: its answer key, and its contract checked on the PDF."""
    from workbench.core.case import sha256_hex

    out = _key_findings(case)
    name = case.id
    if case.sha256 and sha256_hex(pdf_bytes) != case.sha256:
        out.append(Finding(case.id, "warning", "pdf-changed",
                           "the PDF's sha256 differs from the one the case records; regenerate or re-verify"))
    data, prefix = pdf_bytes, ""
    if case.degrade:
        clean = _unscanned(case)
        if clean is None:
            out.append(Finding(case.id, "warning", "degraded-unchecked",
                               "a scanned case whose family cannot regenerate it here: visibility on a "
                               "scan needs OCR, so the contract was not checked"))
            return out
        data, prefix = clean, "before scanning: "
        out.append(Finding(case.id, "info", "degraded-checked-unscanned",
                           "a scanned case: the contract was checked on its unscanned generation "
                           "(reading the scan itself needs OCR)"))
    try:
        ev = _Evidence(data, dpi, name)
    except UserError as exc:
        out.append(Finding(case.id, "error", "pdf-unreadable", str(exc)))
        return out
    if case.contract:
        out.extend(_contract_findings(case, case.contract, ev, prefix))
    else:
        out.extend(_default_findings(case, ev, prefix))
    out.extend(_structure_hidden(case.id, ev.analysis) + _structure_findings(case.id, data))
    return out


def _structure_hidden(case_id: str, analysis) -> list[Finding]:
    """Spans the file's structure hides (a layer that is off, an annotation, a font map, ...)."""
    from workbench.pdf.structure import STRUCTURE_REASONS

    return [Finding(case_id, "info", "hidden-text",
                    f"page {pa.page + 1}: {_short(s.text)!r} is hidden ({', '.join(s.reasons)})")
            for pa in analysis.pages for s in pa.spans
            if not s.visible and any(r in STRUCTURE_REASONS for r in s.reasons)]


def _unscanned(case) -> bytes | None:
    from workbench.core.make import generate_case

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
                           f"page {page.index + 1}: pixels not checked: {page.skipped}"))
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
    `pages.DEFAULT_PAGE_CAP` pages, and a finding says what was left out)."""
    from workbench.pdf.document import open_fitz
    from workbench.pdf.pages import lint_stream, parse_pages
    from workbench.pdf.spans import check_dpi

    check_dpi(dpi)
    with open_fitz(data, case_id) as doc:
        count = doc.page_count
    chosen, left_out = parse_pages(pages, count)
    if left_out:
        yield Finding(case_id, "info", "pages-limited", left_out)
    for found, _skipped in lint_stream(data, chosen, case_id, dpi, jobs):
        yield from found
    yield from _structure_findings(case_id, data)


def lint_case_file(case, dpi: int = 150) -> list[Finding]:
    """`lint_case` of a case loaded from its JSON: its PDF is read here (missing: an error finding)."""
    path = case.pdf_file
    try:
        data = path.read_bytes()
    except OSError:
        return _key_findings(case) + [Finding(case.id, "error", "pdf-missing", f"PDF {path} is missing")]
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        return _key_findings(case) + [Finding(case.id, "error", "pdf-unreadable", f"{path} is not a PDF")]
    return lint_case(case, data, dpi)


def _key_case(pdf: Path, key: Path):
    import json

    from workbench.core.case import Case

    try:
        raw = json.loads(Path(key).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"--key {key}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"--key {key}: not a JSON key ({exc})") from None
    if not isinstance(raw, dict):
        raise UserError(f"--key {key}: a key must be a JSON object with expected_answer")
    raw = dict(raw)
    raw.setdefault("id", pdf.stem)
    raw.setdefault("question", "")
    return Case.from_json(raw, source=f"--key {key}")


def lint_path(path: Path, key: Path | None = None, dpi: int = 150, jobs: int | None = 1,
              pages: str | None = None) -> list[Finding]:
    """Findings for a case JSON, a suite folder, or a PDF (with an optional key JSON)."""
    return list(iter_lint_path(path, key, dpi, jobs, pages))


def iter_lint_path(path: Path, key: Path | None = None, dpi: int = 150, jobs: int | None = 1,
                   pages: str | None = None) -> Iterator[Finding]:
    """`lint_path`'s findings as they are found. A suite's cases are linted on `jobs` processes
    (None: every core), a bare PDF's pages too (`pages` as `--pages`); findings in order."""
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
        for found in map_ordered(functools.partial(lint_case_file, dpi=dpi), suite.cases, jobs, chunksize=4):
            yield from found
        return
    if not path.exists():
        raise UserError(f"{path}: no such file or folder")
    if path.suffix.lower() == ".json":
        if key is not None:
            raise UserError("--key goes with a PDF; a case JSON is its own key")
        yield from lint_case_file(load_case(path), dpi)
        return
    data = read_pdf_bytes(path)
    if key is None:
        yield from iter_pdf_findings(path.stem, data, dpi, pages, jobs)
        return
    yield from lint_case(_key_case(path, key), data, dpi)
