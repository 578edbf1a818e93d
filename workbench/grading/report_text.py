"""The text `pdfworkbench report` prints (and the workbench's report screen shows): per run its
four states, the metric with its interval, tokens, groups and the answers that did not pass, then
the differences between runs."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.core import limits
from workbench.core.words import counted
from workbench.grading.report import (
    UNTRACED_WHY,
    Report,
    Row,
    SourceTally,
    source_tallies,
    untraced,
)
from workbench.grading.stats import rate, wilson
from workbench.grading.verdict import AGENT_EXECUTION


def _pct(x: float | None) -> str:
    return "  n/a" if x is None else f"{100 * x:5.1f}%"


def _ci(ci: tuple[float, float] | None) -> str:
    return "n/a" if ci is None else f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def _short(text: str | None, limit: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# How `render_sources` names each source in a sentence ("10 from hidden text").
SOURCE_PHRASES = {
    "injected": "injected instructions", "question": "the question", "small_print": "small print",
    "rotated": "rotated text", "low_contrast": "faint text", "other_page": "another page",
    "visible": "visible text", "hidden": "hidden text", "computed": "a computation",
    "misread": "misreadings", "absent": "nowhere (made up)", "no-value": "answers stating no value",
}


def _source_sentence(t: SourceTally) -> str:
    parts = [f"{n} from {SOURCE_PHRASES.get(src, src)}"
             for src, n in sorted(t.sources.items(), key=lambda kv: (-kv[1], kv[0]))]
    return f"of {counted(t.wrong, 'wrong answer')}, " + ", ".join(parts)


def render_sources(rows: Sequence[Row]) -> list[str]:
    """Where the wrong answers came from: overall, then by family and by reader."""
    overall = source_tallies(rows)
    left = untraced(rows)
    not_traced = [f"    not traced {counted(left, 'wrong answer')}: {UNTRACED_WHY} ({limits.flag('forensic_pages')})"
                  ] if left else []
    if not overall:
        return ["", "  where from  " + ("none traced" if left else "no wrong answers to trace"), *not_traced]
    lines = ["", f"  where from  {_source_sentence(overall[0])}", *not_traced]
    for src, n in sorted(overall[0].sources.items(), key=lambda kv: (-kv[1], kv[0])):
        lo, hi = wilson(n, overall[0].wrong)
        lines.append(f"    {src:<13} {n:4d}  {_pct(n / overall[0].wrong)}  [95% CI {_ci((lo, hi))}]")
    for by in ("family", "reader"):
        tallies = source_tallies(rows, by)
        if len(tallies) > 1 or by == "family":
            lines.append(f"  by {by}:")
            width = max(len(t.group) for t in tallies)
            lines.extend(f"    {t.group:<{width}}  {_source_sentence(t)}" for t in tallies)
    return lines


def render_report_text(report: Report, max_rows: int = 25) -> str:
    lines: list[str] = []
    suite = report.suite
    if suite:
        shown = suite.hash[:12] if suite.hash else "not recorded"
        if suite.hash and suite.hash_from:
            shown += f", as {suite.hash_from} records it"
        if suite.run_hash:
            shown += f"; the run records {suite.run_hash[:12]}"
        lines.append(f"suite: {suite.name} (hash {shown})")
    if report.gold_line:   # (also after a run, whose report has no suite line: --json names it too)
        lines.append(report.gold_line)
    if suite:
        if suite.graded_by == "source":
            lines.append("verdicts: as the source graded them (no suite folder, so nothing was regraded; "
                         "give --suite DIR to regrade against the answer keys)")
    for run in report.runs:
        s = run.overall
        dpis = ", ".join(f"{d} dpi" for d in run.dpis if d)
        lines.append("")
        lines.append(f"run {run.label}  ({', '.join(run.modalities)}{'; ' + dpis if dpis else ''}; "
                     f"{counted(s.calls, 'call')}; {', '.join(run.provenance)})")
        ex = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in s.execution.items() if n or k == "finished")
        lines.append(f"  execution   {ex}")
        unparsable = sum(r.outcome == "unparsable" for r in run.rows)
        lines.append(f"  grading     {s.gradable} gradable, {s.calls - s.gradable} not gradable"
                     + (f" ({unparsable} unparsable)" if unparsable else ""))
        lines.append(f"  complete    {s.gradable - s.truncated} complete, {s.truncated} truncated")
        if s.scored:
            lines.append(
                f"  metric      pass {s.passed}/{s.scored} = {_pct(s.pass_rate).strip()} "
                f"[95% CI {_ci(s.pass_ci)}]   fell for trap {s.fell_for_trap}/{s.scored}   "
                f"refused {s.refused}/{s.scored}"
            )
        else:
            lines.append("  metric      nothing to score: no call finished with a gradable, complete answer")
        if run.hashes:
            lines.append("  hashes      " + ", ".join(f"{k.removesuffix('_hash')} {v}" for k, v in run.hashes.items()))
        if s.agent_ends:
            ends = ", ".join(f"{s.execution[k]} {k.replace('_', ' ')}" for k in AGENT_EXECUTION if s.execution[k])
            lines.append(f"  agent ends  {ends}: scored as zero, in the metric's {s.scored}")
        if s.calls:
            lines.append(f"  error rate  {_pct(s.error_rate).strip()} ({s.not_finished} of {s.calls} calls did not "
                         "finish; counted apart, never as wrong answers)")
        if run.shards:
            sh = run.shards
            whole = (f"{len(sh.present)} of {sh.of}" + (f"; missing {', '.join(f'{i}/{sh.of}' for i in sh.missing)}"
                                                         " (this run is not whole)" if sh.missing else ""))
            lines.append(f"  shards      {whole}; run id {sh.run_id}")
            if sh.duplicates:
                lines.append(f"  note        {sh.duplicates} record(s) of cases already counted (a shard's "
                             "file given twice, or a shard run again) were left out")
        lines.extend(run.tokens.lines())
        if run.key_changed:
            lines.append(f"  note        {run.key_changed} record(s) were made against a different answer key")
        if any(r.source for r in run.rows) or (report.by == "source" and untraced(run.rows)):
            lines.extend(render_sources(run.rows))
        if run.groups:
            width = max(12, *(len(g.group) for g in run.groups))
            lines.append("")
            lines.append(f"  {'group':<{width}}  calls  err  scored   pass  95% CI         trap  refused")
            for g in run.groups:
                lines.append(
                    f"  {g.group:<{width}}  {g.calls:5d}  {g.not_finished:3d}  {g.scored:6d}  {_pct(g.pass_rate)}  "
                    f"{_ci(g.pass_ci):<13} {_pct(rate(g.fell_for_trap, g.scored))}  {_pct(rate(g.refused, g.scored))}"
                )
        bad = [r for r in run.rows if r.outcome != "pass"]
        if bad:
            width = max(len(r.case_id) for r in bad)
            lines.append("")
            lines.append("  not passed:")
            for r in sorted(bad, key=lambda r: r.case_id)[:max_rows]:
                lines.append(f"    {r.case_id:<{width}}  {r.outcome:<10}  {_short(r.reason, 100)}")
                if r.agent_read:
                    lines.append(f"    {'':<{width}}  {'':<10}  {r.agent_read}")
            if len(bad) > max_rows:
                lines.append(f"    … {len(bad) - max_rows} more (use --json)")
    if report.differences:
        labels = [run.label for run in report.runs]
        width = max(len(d.case_id) for d in report.differences)
        cols = [max(9, len(label)) for label in labels]
        lines.append("")
        lines.append(f"differences ({len(report.differences)} case(s) whose verdict differs):")
        lines.append("  " + f"{'case':<{width}}  " + "  ".join(f"{lab:<{w}}" for lab, w in zip(labels, cols, strict=True)))
        for d in report.differences[:max_rows * 2]:
            lines.append("  " + f"{d.case_id:<{width}}  " + "  ".join(
                f"{d.outcomes[lab]:<{w}}" for lab, w in zip(labels, cols, strict=True)))
            for lab in labels:
                said = d.answers[lab]
                shown = repr(_short(said, 70)) if said is not None else f"({_short(d.reasons[lab], 70)})"
                lines.append(f"  {'':<{width}}    {lab}: {shown}")
    if report.unknown_cases:
        lines.append("")
        lines.append(f"no answer key for {len(report.unknown_cases)} case(s): "
                     f"{', '.join(report.unknown_cases[:8])}{' …' if len(report.unknown_cases) > 8 else ''}")
    return "\n".join(lines).lstrip("\n") + "\n"
