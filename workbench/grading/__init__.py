"""Grading: matchers, verdicts, statistics and reports. Pure functions: no printing, no Textual.

What grades one answer is here (`grade` needs nothing more: issue 40's one-shot `grade`):

- `grade(case, answer) -> Verdict`: grade one answer text against the case's key.
- `grade_record(case, record) -> Verdict | None`: grade a run record; None when the call did not
  finish (error, timeout, blocked, cancelled), which is never a wrong answer.
- `wilson(k, n, z=1.96) -> (lo, hi)`: Wilson score interval.
- `Verdict`, `Part`: what a verdict holds (see verdict.py).

Reports are in their own modules: `report.build_report(records, cases_by_id, by=None) -> Report`
(`Report.to_json()` is what `report --json` prints), `report_text.render_report_text(report)`,
`junit.write_junit`, `auditpack.write_audit_pack`, `compare`, `leaderboard`, `html`; other
harnesses' answers in `importers`.
"""

from workbench.grading.matchers import grade, grade_record
from workbench.grading.stats import wilson
from workbench.grading.verdict import Verdict
from workbench.text.search import Part

__all__ = ["Part", "Verdict", "grade", "grade_record", "wilson"]
