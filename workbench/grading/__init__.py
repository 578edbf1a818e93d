"""Grading: matchers, verdicts, statistics and reports. Pure functions: no printing, no Textual.

Public names (other areas import these from `workbench.grading`):

- `grade(case, answer) -> Verdict`: grade one answer text against the case's key.
- `grade_record(case, record) -> Verdict | None`: grade a run record; None when the call did not
  finish (error, timeout, blocked, cancelled), which is never a wrong answer.
- `build_report(records, cases_by_id, by=None) -> Report`: records (a list, or a mapping of run
  label to list) and the cases they ran on; `by` is None, "family", "tier", "reader",
  "modality" or "param:NAME". `Report.to_json()` gives the JSON that `report --json` prints.
- `render_report_text(report) -> str`: the text table `pdfworkbench report` prints.
- `write_junit(report_or_records, path, cases_by_id=None)`, `junit_xml(report) -> bytes`.
- `write_audit_pack(report, records_by_run, cases_by_id, path, suite=None)`.
- `wilson(k, n, z=1.96) -> (lo, hi)`: Wilson score interval.
- `Verdict`, `Part`: what a verdict holds (see verdict.py).
"""

from workbench.grading.matchers import grade, grade_record
from workbench.grading.stats import wilson
from workbench.grading.verdict import Verdict
from workbench.text.search import Part

__all__ = [
    "Part", "Report", "Verdict", "build_report", "grade", "grade_record", "junit_xml",
    "render_report_text", "wilson", "write_audit_pack", "write_junit",
]


def __getattr__(name: str):  # report, JUnit and audit pack load on first use
    if name in ("Report", "build_report", "render_report_text"):
        from workbench.grading import report

        return getattr(report, name)
    if name in ("write_junit", "junit_xml"):
        from workbench.grading import junit

        return getattr(junit, name)
    if name == "write_audit_pack":
        from workbench.grading.auditpack import write_audit_pack

        return write_audit_pack
    raise AttributeError(name)
