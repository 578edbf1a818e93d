"""Where in the document each value of an answer came from, as `grade --explain` and
`grade --json` say it: the PDF is read for this alone (a verdict needs only the key)."""

from __future__ import annotations

from workbench.checks.attribution import attribute
from workbench.checks.sources import Attribution
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.pdf.document import read_pdf_bytes


def attribute_answer(case: Case, answer: str) -> tuple[list[Attribution] | None, str | None]:
    """(attributions, None), or (None, why attribution was skipped): grading needs only the key;
    the PDF is read for attribution alone, so a key shared without its PDF still grades."""
    try:
        path = case.pdf_file
        if not path.exists():
            return None, f"the PDF {path} is not there (the key was given alone); the verdict needs only the key"
        data = read_pdf_bytes(path)
    except UserError as exc:
        return None, f"{exc}; the verdict needs only the key"
    return attribute(case, data, answer), None


def render_attribution(attributions: list[Attribution]) -> str:
    """One line per value of the answer: the value, its source, where and why."""
    if not attributions:
        return "  where from: the answer states no value to look for"
    lines = ["  where from:"]
    width = min(24, max(len(a.value) for a in attributions))
    for a in attributions:
        where = f" p{a.page + 1}" if a.page is not None else ""
        lines.append(f"    {a.value[:40]:<{width}}  {a.source:<12}{where}  {a.detail}")
    return "\n".join(lines)


def where_from(case: Case, answer: str) -> str:
    """`grade --explain`'s lines: each value's source, or why the PDF was not read."""
    attributions, skipped = attribute_answer(case, answer)
    return f"  where from: skipped: {skipped}" if skipped else render_attribution(attributions or [])
