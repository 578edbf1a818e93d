"""Paired comparison of two runs on the same cases: which cases flipped each way, the exact McNemar
test on the discordant pairs, the difference in pass rate with its 95% interval, per family, and
what the data does and does not support.

Outcomes are the report's (`workbench.grading.outcome`). A pair counts when both runs scored the
case (a finished, gradable, complete answer in each); a case one run did not score (an error, a
truncated answer, no key) or did not run is counted apart and is never a flip. A flip is a scored
pair that passed in one run and not in the other, as `workbench.gold.regrade` calls a verdict that
changes between gold versions.

Intervals: the difference in pass rate (A's minus B's, over the paired cases) carries Newcombe's
hybrid score interval for paired proportions (`stats.paired_difference_ci`); each rate its Wilson
interval. Per-family p-values are Holm-adjusted over the families that have a discordant pair, so
a claim about one family allows for having looked at all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.runs import RunRecord
from workbench.core.schema import JSONObject
from workbench.grading.report import Row, RunReport, SuiteRef
from workbench.grading.stats import holm, mcnemar_exact, paired_difference_ci, wilson

COMPARE_FORMAT = "pdfworkbench-compare/1"
ALPHA = 0.05          # the level a claim is made at (two-sided)
FEW_PAIRS = 30        # below this many paired cases a "no difference" says little: said so


@dataclass
class Paired:
    """One group's 2x2 table of paired outcomes (`both`, `a_only`, `b_only`, `neither` passed) and
    the cases that flipped each way."""

    group: str
    both: int = 0
    a_only: list[str] = field(default_factory=list)    # case ids A passed and B did not
    b_only: list[str] = field(default_factory=list)
    neither: int = 0
    p_adjusted: float | None = None                     # Holm-adjusted (families only)

    @property
    def n(self) -> int:
        return self.both + len(self.a_only) + len(self.b_only) + self.neither

    @property
    def b(self) -> int:
        return len(self.a_only)

    @property
    def c(self) -> int:
        return len(self.b_only)

    @property
    def p_value(self) -> float:
        return mcnemar_exact(self.b, self.c)

    @property
    def rate_a(self) -> float | None:
        return (self.both + self.b) / self.n if self.n else None

    @property
    def rate_b(self) -> float | None:
        return (self.both + self.c) / self.n if self.n else None

    @property
    def difference(self) -> float | None:
        return (self.b - self.c) / self.n if self.n else None

    @property
    def difference_ci(self) -> tuple[float, float] | None:
        return paired_difference_ci(self.both, self.b, self.c, self.neither) if self.n else None

    def add(self, case_id: str, a_passed: bool, b_passed: bool) -> None:
        if a_passed and b_passed:
            self.both += 1
        elif a_passed:
            self.a_only.append(case_id)
        elif b_passed:
            self.b_only.append(case_id)
        else:
            self.neither += 1

    def to_json(self) -> JSONObject:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 6)

        ci = self.difference_ci
        out: JSONObject = {
            "group": self.group, "paired": self.n, "both_pass": self.both, "neither_pass": self.neither,
            "mcnemar": {"b": self.b, "c": self.c, "p_value": r(self.p_value)},
            "pass_rate_a": r(self.rate_a), "pass_rate_b": r(self.rate_b),
            "pass_rate_a_ci": [r(v) for v in wilson(self.both + self.b, self.n)] if self.n else None,
            "pass_rate_b_ci": [r(v) for v in wilson(self.both + self.c, self.n)] if self.n else None,
            "difference": r(self.difference),
            "difference_ci": [r(ci[0]), r(ci[1])] if ci else None,
            "flips": {"a_only": sorted(self.a_only), "b_only": sorted(self.b_only)},
        }
        if self.p_adjusted is not None:
            out["p_adjusted"] = r(self.p_adjusted)
        return out


@dataclass
class Comparison:
    a: str                              # run labels
    b: str
    overall: Paired
    families: list[Paired]
    unpaired: dict[str, int]            # why a case is not in the pairs -> how many
    gold: str | None = None
    suite: SuiteRef | None = None
    summary: str = ""
    supported: list[str] = field(default_factory=list)
    not_supported: list[str] = field(default_factory=list)

    def to_json(self) -> JSONObject:
        o = self.overall.to_json()
        return {
            "format": COMPARE_FORMAT, "a": self.a, "b": self.b, "suite": self.suite.to_json() if self.suite else None,
            "gold": self.gold,
            "paired": o["paired"], "mcnemar": o["mcnemar"], "difference": o["difference"],
            "difference_ci": o["difference_ci"], "interval_method": "Newcombe hybrid score (paired), 95%",
            "overall": o, "families": [f.to_json() for f in self.families], "unpaired": self.unpaired,
            "alpha": ALPHA, "family_p_adjustment": "Holm", "summary": self.summary,
            "supported": self.supported, "not_supported": self.not_supported,
        }



def compare_runs(a: RunReport, b: RunReport, family_of: Mapping[str, str] | None = None) -> Comparison:
    """The paired comparison of run `a` against run `b` (their last record of each case)."""
    rows_a, rows_b = a.final_rows(), b.final_rows()
    overall = Paired("all")
    fams: dict[str, Paired] = {}
    unpaired: dict[str, int] = {}
    for cid in sorted(set(rows_a) | set(rows_b)):
        ra, rb = rows_a.get(cid), rows_b.get(cid)
        why = _unpaired_reason(ra, rb, a.label, b.label)
        if why:
            unpaired[why] = unpaired.get(why, 0) + 1
            continue
        assert ra is not None and rb is not None
        family = (family_of or {}).get(cid) or ra.family or "(unknown)"
        overall.add(cid, ra.result.passed, rb.result.passed)
        fams.setdefault(family, Paired(family)).add(cid, ra.result.passed, rb.result.passed)
    families = [fams[k] for k in sorted(fams)]
    tested = [f for f in families if f.b + f.c]
    for f, p in zip(tested, holm([f.p_value for f in tested]), strict=True):
        f.p_adjusted = p
    out = Comparison(a.label, b.label, overall, families, dict(sorted(unpaired.items())))
    out.summary, out.supported, out.not_supported = _conclusions(out)
    return out


def check_paired(label_a: str, recs_a: Sequence[RunRecord], label_b: str, recs_b: Sequence[RunRecord],
                 cases: Mapping[str, Case], regraded: bool = False) -> None:
    """Refuse (a UserError, one line) two runs that did not see the PDFs the suite holds, or the same
    answer keys (unless both are `regraded` against one gold version)."""
    last_a = {str(r.case_id): r for r in recs_a}
    last_b = {str(r.case_id): r for r in recs_b}
    for label, last in ((label_a, last_a), (label_b, last_b)):
        other = sorted(cid for cid, r in last.items()
                       if cid in cases and r.case_sha256 and cases[cid].sha256 and r.case_sha256 != cases[cid].sha256)
        if other:
            raise UserError(f"{label}: {len(other)} case(s) were run on other PDFs than the suite holds "
                            f"(first {other[0]}): not the same suite hash, so not a paired comparison")
    common = sorted(set(last_a) & set(last_b))
    pdfs = [cid for cid in common if last_a[cid].case_sha256 and last_b[cid].case_sha256
            and last_a[cid].case_sha256 != last_b[cid].case_sha256]
    if pdfs:
        raise UserError(f"{len(pdfs)} case(s) were run on different PDFs in the two runs (first {pdfs[0]}): "
                        "not the same suite hash, so not a paired comparison")
    keys = [cid for cid in common if last_a[cid].key_sha256 and last_b[cid].key_sha256
            and last_a[cid].key_sha256 != last_b[cid].key_sha256]
    if keys and not regraded:
        raise UserError(f"{len(keys)} case(s) were answered against different answer keys in the two runs "
                        f"(first {keys[0]}): give --gold vN to grade both against one gold version")


def _unpaired_reason(ra: Row | None, rb: Row | None, label_a: str, label_b: str) -> str | None:
    if ra is None:
        return f"only in {label_b}"
    if rb is None:
        return f"only in {label_a}"
    if not ra.scored and not rb.scored:
        return "scored in neither"
    if not ra.scored:
        return f"not scored in {label_a} ({ra.outcome})"
    if not rb.scored:
        return f"not scored in {label_b} ({rb.outcome})"
    return None


def _p(p: float) -> str:
    return f"p={p:.3f}" if p >= 0.001 else "p<0.001"


def _points(d: float) -> str:
    return f"{100 * d:+.1f} points"


def _conclusions(cmp: Comparison) -> tuple[str, list[str], list[str]]:
    """One sentence, and what the data does and does not support, in plain words."""
    o, a, b = cmp.overall, cmp.a, cmp.b
    supported: list[str] = []
    not_supported: list[str] = []
    if o.n == 0:
        return (f"{a} and {b} share no case that both scored: nothing to compare.", [],
                ["any claim about which reader is better: no paired case"])
    ci = o.difference_ci
    assert ci is not None and o.difference is not None
    ci_text = f"95% CI {100 * ci[0]:+.1f} to {100 * ci[1]:+.1f}"
    if o.p_value < ALPHA:
        better, worse = (a, b) if o.b > o.c else (b, a)
        overall = (f"{better} passes more cases than {worse} overall ({_points(abs(o.difference))}, "
                   f"{ci_text}; McNemar {_p(o.p_value)}, {o.b} vs {o.c} flips)")
        supported.append(overall)
    else:
        overall = (f"the overall difference ({_points(o.difference)}, {ci_text}; McNemar {_p(o.p_value)}, "
                   f"{o.b} vs {o.c} flips) is within noise")
        not_supported.append(f"that {a} and {b} differ overall")
        if o.n < FEW_PAIRS:
            not_supported.append(f"that they perform alike: {o.n} paired cases are too few to rule out "
                                 "a real difference")
    wins = []
    for f in cmp.families:
        if f.p_adjusted is not None and f.p_adjusted < ALPHA:
            better, worse = (a, b) if f.b > f.c else (b, a)
            wins.append(f"{better} is better than {worse} on {f.group} ({_p(f.p_adjusted)}, Holm-adjusted; "
                        f"{max(f.b, f.c)} vs {min(f.b, f.c)} flips)")
    supported.extend(wins)
    noisy = [f.group for f in cmp.families if f.b + f.c and (f.p_adjusted or 1.0) >= ALPHA]
    if noisy:
        not_supported.append(f"a difference on {_list(noisy)}: flips there are within noise")
    if cmp.unpaired:
        n = sum(cmp.unpaired.values())
        not_supported.append(f"anything about the {n} case(s) not scored in both runs "
                             f"({'; '.join(f'{k}: {v}' for k, v in cmp.unpaired.items())})")
    not_supported.append("anything beyond this suite and gold version: other documents, prompts or settings")
    summary = (wins[0] + "; " if wins else "") + overall
    if len(wins) > 1:
        summary = "; ".join(wins) + "; " + overall
    summary = summary[0].upper() + summary[1:] + "."
    return summary, supported, not_supported


def _list(names: list[str], most: int = 6) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def render_compare_text(cmp: Comparison) -> str:
    """The comparison as `pdfworkbench compare` prints it."""
    o = cmp.overall
    lines = [f"A = {cmp.a}", f"B = {cmp.b}"]
    if cmp.suite:
        lines.append(f"suite {cmp.suite.name} (hash {(cmp.suite.hash or 'not recorded')[:12]})"
                     f"{', gold ' + cmp.gold if cmp.gold else ''}")
    lines.append("")
    if o.n:
        ci = o.difference_ci
        assert ci is not None and o.rate_a is not None and o.rate_b is not None and o.difference is not None
        lines.append(f"paired cases  {o.n}: both pass {o.both}, A only {o.b}, B only {o.c}, neither {o.neither}")
        lines.append(f"pass rate     A {100 * o.rate_a:.1f}%, B {100 * o.rate_b:.1f}%; A - B {_points(o.difference)} "
                     f"[95% CI {100 * ci[0]:+.1f} to {100 * ci[1]:+.1f}, Newcombe]")
        lines.append(f"McNemar       b={o.b} c={o.c} exact two-sided {_p(o.p_value)}")
    for why, n in cmp.unpaired.items():
        lines.append(f"not paired    {n} {why}")
    flipped = [f for f in cmp.families if f.b or f.c]
    if flipped:
        width = max(len(f.group) for f in flipped)
        lines.append("")
        lines.append(f"  {'family':<{width}}  paired  A only  B only  p (Holm)")
        for f in flipped:
            lines.append(f"  {f.group:<{width}}  {f.n:6d}  {f.b:6d}  {f.c:6d}  {_p(f.p_adjusted or f.p_value)}")
        lines.append("")
        lines.append("flips:")
        for f in flipped:
            if f.a_only:
                lines.append(f"  {f.group}: A only  {', '.join(sorted(f.a_only))}")
            if f.b_only:
                lines.append(f"  {f.group}: B only  {', '.join(sorted(f.b_only))}")
    lines.append("")
    lines.append(cmp.summary)
    if cmp.supported:
        lines.append("supported:")
        lines.extend(f"  + {s}" for s in cmp.supported)
    if cmp.not_supported:
        lines.append("not supported:")
        lines.extend(f"  - {s}" for s in cmp.not_supported)
    return "\n".join(lines) + "\n"
