"""The HTML report: one self-contained file (styles, script, charts and page crops inline; a
Content-Security-Policy that lets it fetch nothing), light or dark by the viewer's preference,
readable at phone width. Same report and crops in, same bytes out: nothing in it depends on the
clock or the order of a dict, charts are static SVG (`charts`), crops deterministic PNGs.

API: `report_html(report, crops) -> bytes`, `write_report_html(report, crops, path)`,
`compare_html(comparison) -> bytes`, `write_compare_html(comparison, path)`. The page template
is `templates/report.html.j2` (jinja2, autoescaped), with `report.css` and `report.js` beside it.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypedDict

from workbench.core import atomic, limits
from workbench.core.errors import UserError
from workbench.core.schema import JSONObject
from workbench.grading.cost import kilo, money
from workbench.grading.html import charts
from workbench.grading.html.crop import CropBox, PageCrop
from workbench.grading.outcome import NOT_SCORED, OUTCOMES, WRONG_ANSWERS
from workbench.grading.report import (
    UNTRACED_WHY,
    Report,
    Row,
    RunReport,
    Stats,
    SuiteRef,
    source_tallies,
    untraced,
)
from workbench.grading.stats import wilson

__all__ = ["CropBox", "PageCrop", "compare_html", "report_charts", "report_html", "write_compare_html",
           "write_report_html"]

TEMPLATES = Path(__file__).parent / "templates"
# What a card shows of an answer (a probe's answer is a whole text layer).
ANSWER_CHARS = 240
QUESTION_CHARS = 300
# Traced values shown at most in an answer's card (`--by source`).
ATTRIBUTIONS_SHOWN = 3


@lru_cache(maxsize=1)
def _env():
    try:
        import jinja2
    except ImportError:
        raise UserError("the HTML report needs jinja2: pip install 'pdfworkbench[report]'") from None
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def _asset(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _ci(ci: tuple[float, float] | None) -> str:
    return "n/a" if ci is None else f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def _short(text: str | None, limit: int) -> tuple[str, int]:
    text = text or ""
    return (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)


# ---- what the page shows ---------------------------------------------------------------------

def _states(run: RunReport) -> JSONObject:
    s = run.overall
    finished = s.execution.get("finished", 0)
    return {
        "label": run.label, "readers": ", ".join(run.readers), "modalities": ", ".join(run.modalities),
        "dpis": ", ".join(str(d) for d in run.dpis if d) or "—", "provenance": ", ".join(run.provenance),
        "calls": s.calls, "finished": finished,
        "not_finished": ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in s.execution.items() if n and k != "finished"),
        "gradable": s.gradable, "complete": s.gradable - s.truncated, "truncated": s.truncated,
        "scored": s.scored, "passed": s.passed, "rate": _pct(s.pass_rate), "ci": _ci(s.pass_ci),
        "trap": s.fell_for_trap, "refused": s.refused, "tokens": _tokens(run),
        "dates": _dates(run.rows),
    }


def _tokens(run: RunReport) -> str:
    t = run.tokens
    if not t.reported:
        return "not recorded"
    out = f"{kilo(t.input)} in, {kilo(t.output)} out ({t.reported} of {t.calls} calls reported)"
    if t.cost is not None:
        out += f"; {money(t.cost, t.currency)}"
    return out


def _dates(rows: Sequence[Row]) -> str:
    stamps = sorted(str(r.record.started_at) for r in rows if r.record.started_at)
    if not stamps:
        return "not recorded"
    first, last = stamps[0][:10], stamps[-1][:10]
    return first if first == last else f"{first} to {last}"


def _pass_rows(runs: Sequence[RunReport]) -> list[JSONObject]:
    out: list[JSONObject] = []
    for run in runs:
        s = run.overall
        lo, hi = s.pass_ci or (0.0, 1.0)
        out.append({"reader": run.label, "rate": round(s.pass_rate or 0.0, 6), "lo": round(lo, 6),
                    "hi": round(hi, 6),
                    "label": f"{_pct(s.pass_rate)} of {s.scored}" if s.scored else "nothing scored"})
    return out


def _heat_cells(runs: Sequence[RunReport]) -> list[JSONObject]:
    families = sorted({r.family or "(unknown)" for run in runs for r in run.rows})
    cells: list[JSONObject] = []
    for run in runs:
        per: dict[str, Stats] = {}
        for row in run.rows:
            per.setdefault(row.family or "(unknown)", Stats(row.family or "")).add(row)
        for fam in families:
            s = per.get(fam)
            rate = s.pass_rate if s else None
            cells.append({"family": fam, "reader": run.label,
                          "rate": None if rate is None else round(rate, 6),
                          "label": f"{s.passed}/{s.scored}" if s and s.scored else "–"})
    return cells


def _outcome_rows(runs: Sequence[RunReport]) -> tuple[list[JSONObject], list[str]]:
    rows: list[JSONObject] = []
    seen: set[str] = set()
    for run in runs:
        counts: dict[str, int] = {}
        for r in run.rows:
            counts[r.outcome] = counts.get(r.outcome, 0) + 1
        for kind in OUTCOMES:
            if counts.get(kind):
                seen.add(kind)
                rows.append({"reader": run.label, "kind": kind, "count": counts[kind]})
    return rows, [k for k in OUTCOMES if k in seen]


def _source_rows(runs: Sequence[RunReport]) -> tuple[list[JSONObject], list[str]]:
    rows: list[JSONObject] = []
    totals: dict[str, int] = {}
    for run in runs:
        for t in source_tallies(run.rows):
            for src, n in t.sources.items():
                rows.append({"reader": run.label, "kind": src, "count": n})
                totals[src] = totals.get(src, 0) + n
    order = sorted(totals, key=lambda s: (-totals[s], s))
    return rows, order


def _untraced(runs: Sequence[RunReport]) -> list[JSONObject]:
    """Each reader's wrong answers `--by source` could not trace (`report.untraced`), where any."""
    return [{"reader": run.label, "count": n} for run in runs if (n := untraced(run.rows))]


# A wrong answer's card, as the template reads it (and `report_context` reads back).
class _Rect(TypedDict):
    """A box drawn over a crop: the evidence (`expected`, `forbidden`) or where an answer came from."""

    kind: str
    answer: int | None
    x: str
    y: str
    w: str
    h: str


class _Answer(TypedDict):
    index: int
    reader: str
    outcome: str
    reason: str
    answer: str
    answer_more: int
    source: str | None
    source_boxes: list[_Rect]
    attribution: list[JSONObject]   # the first of `Row.attribution` (`Attribution.to_json`)
    attribution_more: int           # values traced and not shown


class _Card(TypedDict):
    case_id: str
    family: str
    question: str
    answers: list[_Answer]
    crop: dict[str, object] | None   # its key, page, size, view box, boxes (`_Rect`) and note


def _crop_key(crop: PageCrop) -> str:
    return "c" + hashlib.sha256(crop.png).hexdigest()[:12]


def _answer(row: Row, crop: PageCrop | None, index: int) -> _Answer:
    answer, more = _short(row.answer, ANSWER_CHARS)
    # The values from where the answer came from (they make its source; else the first values),
    # a few, with their boxes: a whole page's text traces a hundred values, the JSON has them all.
    traced = row.attribution or []
    shown = ([a for a in traced if a.get("source") == row.source] or traced)[:ATTRIBUTIONS_SHOWN]
    sources: list[_Rect] = []
    if crop is not None:
        for a in shown:
            page, box = a.get("page"), a.get("box")
            if box and page is not None and page - 1 == crop.page and a.get("source") == row.source \
                    and crop.inside(tuple(box)):
                sources.append(_rect("source", tuple(box), index))
    return {
        "index": index, "reader": row.run, "outcome": row.outcome, "reason": row.reason,
        "answer": answer, "answer_more": more, "source": row.source, "source_boxes": sources,
        "attribution": [{"value": a.get("value", ""), "source": a.get("source", ""), "page": a.get("page"),
                         "detail": a.get("detail", "")} for a in shown],
        "attribution_more": len(traced) - len(shown),
    }


def _rect(kind: str, rect: tuple[float, ...], answer: int | None = None) -> _Rect:
    return {"kind": kind, "answer": answer, "x": f"{rect[0]:.1f}", "y": f"{rect[1]:.1f}",
            "w": f"{rect[2] - rect[0]:.1f}", "h": f"{rect[3] - rect[1]:.1f}"}


def _card(case_id: str, family: str, rows: Sequence[Row], crop: PageCrop | None, question: str,
          first_index: int) -> _Card:
    """One case's card: its page crop and question once, then each wrong answer to it."""
    answers = [_answer(row, crop, first_index + i) for i, row in enumerate(rows)]
    boxes = [_rect(b.kind, b.rect) for b in crop.boxes] if crop is not None else []
    return {
        "case_id": case_id, "family": family, "question": _short(question, QUESTION_CHARS)[0],
        "answers": answers,
        "crop": None if crop is None else {
            "key": _crop_key(crop), "page": crop.page + 1, "width": crop.width, "height": crop.height,
            "view": f"{crop.clip[0]:g} {crop.clip[1]:g} {crop.clip[2] - crop.clip[0]:g} {crop.clip[3] - crop.clip[1]:g}",
            "boxes": boxes + [b for a in answers for b in a["source_boxes"]], "note": crop.note,
        },
    }


def report_charts(report: Report) -> dict[str, object]:
    """The report's charts (SVG) and the legends beside them: they need no page crop, so a
    caller draws them while its crops are still being made (the first chart loads the charts'
    engine, some 0.4 s)."""
    runs = report.runs
    outcome_rows, outcome_order = _outcome_rows(runs)
    source_rows, source_order = _source_rows(runs)
    return {
        "pass_chart": charts.pass_rate_chart(_pass_rows(runs)) if runs else "",
        "heat_chart": charts.heat_map(_heat_cells(runs), [r.label for r in runs]) if runs else "",
        "outcome_chart": charts.stacked_bar(outcome_rows, outcome_order,
                                            [charts.OUTCOME_COLOURS[k] for k in outcome_order],
                                            "share of calls by outcome", "outcomes") if outcome_rows else "",
        "outcome_legend": outcome_order,
        "not_scored": [k for k in outcome_order if k in NOT_SCORED],
        "source_chart": charts.stacked_bar(source_rows, source_order,
                                           [charts.SOURCE_COLOURS[i % len(charts.SOURCE_COLOURS)]
                                            for i in range(len(source_order))],
                                           "share of wrong answers by where they came from", "sources") if source_rows else "",
    }


def report_context(report: Report, crops: Mapping[str, PageCrop | None],
                   questions: Mapping[str, str] | None = None, gold: str | None = None,
                   drawn: Mapping[str, object] | None = None) -> dict[str, object]:
    """Everything the template shows, as plain values (tested apart from the page). `drawn`:
    `report_charts(report)`, drawn already."""
    runs = report.runs
    suite = report.suite or SuiteRef(None, None, None)
    wrong: dict[tuple[str, str], list[Row]] = {}
    for run in runs:
        for row in run.final_rows().values():
            if row.outcome in WRONG_ANSWERS:
                wrong.setdefault((row.family or "(unknown)", row.case_id), []).append(row)
    cards: list[_Card] = []
    used: dict[str, PageCrop] = {}
    answers = 0
    for (family, case_id), rows in sorted(wrong.items()):
        crop = crops.get(case_id)
        if crop is not None:
            used[_crop_key(crop)] = crop
        question = (questions or {}).get(case_id) or str(rows[0].record.extra.get("question") or "")
        cards.append(_card(case_id, family, rows, crop, question, answers))
        answers += len(rows)
    families = sorted({c["family"] for c in cards})
    outcomes_seen = {a["outcome"] for c in cards for a in c["answers"]}
    states = [_states(run) for run in runs]
    return {
        "title": f"{suite.name or 'pdfworkbench'} report",
        "suite": {"name": suite.name or "(unknown)", "hash": suite.hash or "not recorded",
                  "hash_from": suite.hash_from, "graded_by": suite.graded_by},
        "gold": gold or "v1",
        "readers": sorted({r for run in runs for r in run.readers}),
        "modalities": sorted({m for run in runs for m in run.modalities}),
        "dates": _dates([r for run in runs for r in run.rows]),
        "tool_versions": sorted({str(r.record.tool_version) for run in runs for r in run.rows}),
        "states": states,
        "any_tokens": any(run.tokens.reported for run in runs),
        **(report_charts(report) if drawn is None else drawn),
        "attributed": report.by == "source",
        "untraced": _untraced(runs) if report.by == "source" else [],
        "untraced_why": UNTRACED_WHY, "untraced_flag": limits.flag("forensic_pages"),
        "cards": cards, "answers": answers,
        "filters": {"family": families, "reader": [r.label for r in runs],
                    "verdict": [k for k in WRONG_ANSWERS if k in outcomes_seen]},
        "crop_styles": [(k, base64.b64encode(c.png).decode("ascii")) for k, c in sorted(used.items())],
        "crop_count": len(used),
        "unknown_cases": len(report.unknown_cases),
    }


def report_html(report: Report, crops: Mapping[str, PageCrop | None] | None = None,
                questions: Mapping[str, str] | None = None, gold: str | None = None,
                drawn: Mapping[str, object] | None = None) -> bytes:
    """The report as one HTML page (see the module docstring); `drawn` as `report_context`'s."""
    ctx = report_context(report, crops or {}, questions, gold, drawn)
    html = _env().get_template("report.html.j2").render(css=_asset("report.css"), js=_asset("report.js"), **ctx)
    return html.encode("utf-8")


def write_report_html(report: Report, path: Path, crops: Mapping[str, PageCrop | None] | None = None,
                      questions: Mapping[str, str] | None = None, gold: str | None = None,
                      drawn: Mapping[str, object] | None = None) -> int:
    """Write the page atomically; return its size in bytes."""
    data = report_html(report, crops, questions, gold, drawn)
    atomic.write_bytes(Path(path), data)
    return len(data)


# ---- the comparison of two runs --------------------------------------------------------------

def compare_html(cmp: Any) -> bytes:
    """A `workbench.grading.compare.Comparison` as one HTML page."""
    o = cmp.overall
    rows = []
    for f in [o, *cmp.families]:
        ci = f.difference_ci
        rows.append({"group": f.group, "paired": f.n, "a_only": f.b, "b_only": f.c,
                     "rate_a": _pct(f.rate_a), "rate_b": _pct(f.rate_b),
                     "difference": "n/a" if f.difference is None else f"{100 * f.difference:+.1f}",
                     "ci": "n/a" if ci is None else f"{100 * ci[0]:+.1f} to {100 * ci[1]:+.1f}",
                     "p": f"{f.p_value:.3f}", "p_adjusted": "" if f.p_adjusted is None else f"{f.p_adjusted:.3f}",
                     "flips_a": sorted(f.a_only), "flips_b": sorted(f.b_only)})
    chart_rows = [{"reader": label, "rate": round(k / o.n, 6) if o.n else 0.0,
                   "lo": round(wilson(k, o.n)[0], 6), "hi": round(wilson(k, o.n)[1], 6),
                   "label": f"{_pct(k / o.n if o.n else None)} of {o.n} paired"}
                  for label, k in ((f"A {cmp.a}", o.both + o.b), (f"B {cmp.b}", o.both + o.c))]
    html = _env().get_template("compare.html.j2").render(
        css=_asset("report.css"), cmp=cmp, rows=rows, chart=charts.pass_rate_chart(chart_rows),
        suite=cmp.suite.to_json() if cmp.suite else {}, unpaired=sorted(cmp.unpaired.items()))
    return html.encode("utf-8")


def write_compare_html(cmp: Any, path: Path) -> int:
    data = compare_html(cmp)
    atomic.write_bytes(Path(path), data)
    return len(data)
