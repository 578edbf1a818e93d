"""Which extractor falls for which trap: `pdfworkbench exposure SUITE`.

For every case and extractor, whether the text the extractor returns contains the expected
answer, a forbidden one, both or neither, found the way the case's matcher finds them
(`grading.matchers.needle_finder`: money as money, whole words for `keywords_all`), so the matrix
agrees with how a run of `probe:NAME` grades. Each extraction is cached under the answer cache
(`extracted/`), keyed by the PDF's bytes and the library's version; the extractions run on a
process pool (`--jobs`). `report --by extractor` builds the same matrix from the answers that runs
of `probe:NAME` recorded (`runs_exposure`), reading no PDF.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.cache import key_of, limits_in_force, part_folder, read_entry, write_entry
from workbench.core.case import Case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.pool import map_ordered
from workbench.grading.matchers import forbidden_needles, needle_finder
from workbench.grading.needles import expected_needles
from workbench.grading.report import RunReport
from workbench.pdf.document import read_pdf_bytes
from workbench.providers import extractors
from workbench.providers.base import parse_reader
from workbench.providers.pagetexts import page_texts

STATES = ("expected", "forbidden", "both", "neither")
ERROR = "error"  # the extractor could not read the PDF (its reason is in `errors`)
CACHE_FORMAT = 2   # 2: each entry holds its key (`core.cache`)
LETTERS = {"expected": "E", "forbidden": "F", "both": "B", "neither": "N", ERROR: "!"}
NOT_A_RUN = "-"  # a cell of a run that holds no record of the family's cases


def exposure_state(case: Case, text: str) -> str:
    """expected | forbidden | both | neither: what of the key the text holds."""
    find = needle_finder(case)
    needles = expected_needles(case)
    expected = bool(needles) and all(find(text, n) for n in needles)
    forbidden = any(find(text, f) for f in forbidden_needles(case) if f.strip())
    return {(True, True): "both", (True, False): "expected",
            (False, True): "forbidden", (False, False): "neither"}[(expected, forbidden)]


def key_spans(case: Case, text: str) -> list[tuple[int, int, str]]:
    """(start, end, "expected" | "forbidden") of every value of the key that `text` holds, found as
    `exposure_state` finds them (for marking them in a text pane)."""
    find = needle_finder(case)
    out = []
    for kind, needles in (("expected", expected_needles(case)), ("forbidden", forbidden_needles(case))):
        for needle in needles:
            if str(needle).strip():
                out += [(*p.span, kind) for p in find(text, str(needle)) if p.span is not None]
    return sorted(out)


def extracted_text(pdf: bytes, name: str, use_cache: bool = True) -> str:
    """The document's text as `name` reads it (pages joined by form feeds), from the cache when
    this PDF was read by this version of the library before (`extracted/` in the cache folder,
    kept as `core.cache` keeps entries: a FIFO, a link or a torn entry there is a miss)."""
    version = extractors.version(name) or ""
    folder = part_folder("extracted")
    # (with the limits: a page over a budget reaches the extractor emptied, so a --limit that
    # lets it through reads it anew)
    key = key_of(CACHE_FORMAT, sha256_hex(pdf), name, version, limits_in_force())
    if use_cache:
        entry = read_entry(folder, key, "cached text layer")
        if entry is not None and isinstance(entry.get("text"), str):
            return entry["text"]
    text = "\f".join(page_texts(name, pdf))
    if use_cache:   # (a cache that cannot be written is only slower)
        write_entry(folder, key, {"extractor": name, "version": version, "text": text})
    return text


def _extract_job(job: tuple[str, str, bool]) -> tuple[str | None, str | None]:
    """(text, None) or (None, why): one PDF read by one extractor, in a pool worker."""
    path, name, use_cache = job
    try:
        return extracted_text(read_pdf_bytes(Path(path)), name, use_cache), None
    except UserError as exc:
        return None, str(exc)


@dataclass
class ExposureRow:
    """One case's cells: extractor (or run) -> state, and why each `error` cell is one."""

    case_id: str
    family: str
    extractors: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, str | dict[str, str]]:
        out: dict[str, str | dict[str, str]] = {"case_id": self.case_id, "family": self.family,
                                                "extractors": self.extractors}
        if self.errors:
            out["errors"] = self.errors
        return out


@dataclass
class Exposure:
    extractors: list[str]
    versions: dict[str, str]
    cases: list[ExposureRow] = field(default_factory=list)
    # `report --by extractor`: the run each column comes from, and the columns of readers that are
    # not probes (what their answers hold, not an extractor's text)
    runs: dict[str, str] = field(default_factory=dict)
    not_probes: list[str] = field(default_factory=list)

    def matrix(self) -> dict[str, dict[str, dict[str, int]]]:
        """family -> extractor -> state -> count."""
        out: dict[str, dict[str, dict[str, int]]] = {}
        for row in self.cases:
            fam = out.setdefault(row.family, {n: dict.fromkeys((*STATES, ERROR), 0) for n in self.extractors})
            for name, state in row.extractors.items():
                fam[name][state] += 1
        return dict(sorted(out.items()))

    def totals(self) -> dict[str, dict[str, int]]:
        out = {n: dict.fromkeys((*STATES, ERROR), 0) for n in self.extractors}
        for row in self.cases:
            for name, state in row.extractors.items():
                out[name][state] += 1
        return out

    def to_json(self) -> dict:
        out = {"extractors": {n: self.versions[n] for n in self.extractors},
               "cases": [row.to_json() for row in self.cases],
               "matrix": self.matrix(), "totals": self.totals()}
        if self.runs:
            out.update(runs=self.runs, not_probes=self.not_probes)
        return out


def check_extractors(names: Iterable[str] | None) -> list[str]:
    """The extractors asked for (default: every one installed here); an absent one says what to install."""
    if names is None:
        return extractors.installed()
    chosen = list(dict.fromkeys(n.strip() for n in names if n.strip()))
    for n in chosen:
        extractors.get(n)
        if extractors.version(n) is None:
            raise UserError(extractors.missing(n))
    if not chosen:
        raise UserError("--extractors: name one or more, e.g. pypdf,pdfplumber")
    return chosen


def suite_exposure(cases: list[Case], names: list[str], jobs: int | None = 0,
                   use_cache: bool = True) -> Exposure:
    jobs_list = [(str(c.pdf_file), n, use_cache) for c in cases for n in names]
    results = iter(map_ordered(_extract_job, jobs_list, jobs))
    out = Exposure(names, {n: extractors.version(n) or "" for n in names})
    for case in cases:
        states: dict[str, str] = {}
        errors: dict[str, str] = {}
        for name in names:
            text, why = next(results)
            if text is None:
                states[name], errors[name] = ERROR, why or "unreadable"
            else:
                states[name] = exposure_state(case, text)
        out.cases.append(ExposureRow(case.id, case.trap_family, states, errors))
    return out


def _probe_of(reader: str) -> str | None:
    """The extractor a `probe:NAME` reader reads with; None for any other reader."""
    try:
        spec = parse_reader(reader)
    except UserError:
        return None   # an imported reader (olmocr:SYSTEM, ...) names no provider of ours
    return spec.model if spec.is_probe else None


def runs_exposure(runs: Sequence[RunReport], cases_by_id: Mapping[str, Case]) -> Exposure:
    """The exposure matrix of reported runs, one column per run: a probe run's column is its
    extractor (as `exposure` names it), another reader's its run label. A cell is what of the key
    the record's answer holds, found as `exposure_state` finds it in an extractor's text; a call
    that did not finish is `error` (its reason in `errors`); a case without a key is left out."""
    out = Exposure([], {})
    rows: dict[str, ExposureRow] = {}
    for run in runs:
        readers = {r.reader for r in run.rows}
        probe = _probe_of(next(iter(readers))) if len(readers) == 1 else None
        name = probe or run.label
        if name in out.extractors:
            name = f"{name} ({run.label})"
        out.extractors.append(name)
        out.runs[name] = run.label
        if probe is None:
            out.not_probes.append(name)
        versions = {str((r.record.extra or {}).get("extractor_version") or "") for r in run.rows}
        out.versions[name] = ", ".join(sorted(v for v in versions if v))
        for row in run.final_rows().values():
            case = cases_by_id.get(row.case_id)
            if case is None or row.outcome == "no_key":
                continue   # the report lists the cases it has no key for
            entry = rows.setdefault(case.id, ExposureRow(case.id, case.trap_family))
            if row.execution == "finished" and row.answer is not None:
                entry.extractors[name] = exposure_state(case, row.answer)
            else:
                entry.extractors[name] = ERROR
                entry.errors[name] = row.reason
    out.cases = [rows[k] for k in sorted(rows)]
    return out


def _cell(counts: dict[str, int]) -> str:
    n = sum(counts.values())
    if n == 0:
        return NOT_A_RUN
    if n == 1:
        return next(s for s, k in counts.items() if k)
    return " ".join(f"{k}{LETTERS[s]}" for s, k in counts.items() if k)


def matrix_text(exp: Exposure) -> str:
    """The family x extractor table: each cell the states' counts (E expected, F forbidden,
    B both, N neither, ! no text: unreadable, or the call did not finish), then the share of
    cases whose text holds a trap's value."""
    matrix = exp.matrix()
    width = max([len("expected is missing"), *map(len, matrix)])
    cols = [max(len(n), 9) for n in exp.extractors]
    lines = ["  ".join(["family".ljust(width), *(n.ljust(w) for n, w in zip(exp.extractors, cols, strict=True))])]
    for fam, row in matrix.items():
        lines.append("  ".join([fam.ljust(width), *(_cell(row[n]).ljust(w)
                                                     for n, w in zip(exp.extractors, cols, strict=True))]))
    totals = exp.totals()

    def share(name: str, states: tuple[str, ...]) -> str:
        n = sum(totals[name].values())
        k = sum(totals[name][s] for s in states)
        return f"{k}/{n} {100 * k / n:.0f}%" if n else "-"

    lines.append("  ".join(["falls for the trap".ljust(width),
                            *(share(n, ("forbidden", "both")).ljust(w) for n, w in zip(exp.extractors, cols, strict=True))]))
    lines.append("  ".join(["expected is missing".ljust(width),
                            *(share(n, ("forbidden", "neither")).ljust(w) for n, w in zip(exp.extractors, cols, strict=True))]))
    if exp.not_probes:
        lines.append(f"not probes: {', '.join(exp.not_probes)} (a column of what the answers hold, "
                     "not of an extractor's text)")
    return "\n".join(lines)


def csv_text(exp: Exposure) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["case_id", "family", *exp.extractors])
    for row in exp.cases:
        w.writerow([row.case_id, row.family, *(row.extractors[n] for n in exp.extractors)])
    return buf.getvalue()
