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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.grading.matchers import grade, grade_record
    from workbench.grading.stats import wilson
    from workbench.grading.verdict import Verdict
    from workbench.text.search import Part

__all__ = ["Part", "Verdict", "grade", "grade_record", "wilson"]

# Each name's module, loaded when the name is first asked for: importing any module of this
# package runs this file, and the workbench's first frame imports `outcome` (the case list's
# marks) without the matchers and the text search they load (about 6 ms).
_HOMES = {"grade": "workbench.grading.matchers", "grade_record": "workbench.grading.matchers",
          "wilson": "workbench.grading.stats", "Verdict": "workbench.grading.verdict",
          "Part": "workbench.text.search"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
