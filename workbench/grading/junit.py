"""JUnit XML for CI dashboards: one testsuite per run, one testcase per record.

A wrong answer is a `<failure type="wrong">` (`type="fell_for_trap"` when it gave the trap's
answer), a refusal is a `<failure type="refusal">`; a call that did not finish (provider error,
timeout, block, cancel) is an `<error>`, as is a truncated answer; a record whose case has no
answer key is `<skipped>`. Output bytes depend only on the report (no clock, no host name).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path

from workbench.core import atomic
from workbench.core.case import Case
from workbench.core.runs import RunRecord
from workbench.grading.report import Report, Row, build_report


def _testcase(row: Row) -> ET.Element:
    tc = ET.Element("testcase", {
        "classname": f"{row.run}.{row.family or 'unknown'}",
        "name": row.case_id,
        "time": "0",
    })
    reason = row.reason
    if row.source:
        reason = f"{reason} (answer from: {row.source})"
    if row.outcome == "pass":
        pass
    elif row.result.failed:
        kind = {"fail": "wrong", "trap": "fell_for_trap", "refused": "refusal"}[row.outcome]
        el = ET.SubElement(tc, "failure", {"type": kind, "message": reason})
        el.text = f"answer: {row.answer!r}\n{reason}"
    elif row.outcome == "no_key":
        ET.SubElement(tc, "skipped", {"message": reason})
    else:   # errored, timed_out, blocked, cancelled, truncated
        el = ET.SubElement(tc, "error", {"type": row.outcome, "message": reason})
        el.text = reason
    return tc


def junit_xml(report: Report) -> bytes:
    root = ET.Element("testsuites", {"name": "pdfworkbench"})
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for run in report.runs:
        cases = [_testcase(r) for r in run.rows]
        counts = {
            "tests": len(cases),
            "failures": sum(tc.find("failure") is not None for tc in cases),
            "errors": sum(tc.find("error") is not None for tc in cases),
            "skipped": sum(tc.find("skipped") is not None for tc in cases),
        }
        for k, v in counts.items():
            totals[k] += v
        suite = ET.SubElement(root, "testsuite", {"name": run.label, **{k: str(v) for k, v in counts.items()},
                                                  "time": "0"})
        props = ET.SubElement(suite, "properties")
        s = run.overall
        for name, value in (("pass_rate", s.pass_rate), ("error_rate", s.error_rate),
                            ("modality", ",".join(run.modalities)),
                            ("dpi", ",".join(str(d) for d in run.dpis if d))):
            ET.SubElement(props, "property", {"name": name, "value": "" if value is None else str(value)})
        suite.extend(cases)
    for k, v in totals.items():
        root.set(k, str(v))
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8", xml_declaration=False) + b"\n"


def write_junit(
    report_or_records: Report | Sequence[RunRecord] | Mapping[str, Sequence[RunRecord]],
    path: Path,
    cases_by_id: Mapping[str, Case] | None = None,
) -> None:
    """Write JUnit XML for a report (or for records, graded against `cases_by_id`), atomically."""
    report = report_or_records
    if not isinstance(report, Report):
        report = build_report(report_or_records, cases_by_id or {})  # type: ignore[arg-type]
    atomic.write_bytes(Path(path), junit_xml(report))
