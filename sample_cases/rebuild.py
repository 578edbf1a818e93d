"""Rebuild every shipped sample from code: the suites, real runs of the offline probes, and the
sample disputes of the extraction suite. Run it after a family changes its output bytes.

    .venv/bin/python sample_cases/rebuild.py
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROBES = ("probe:pymupdf", "probe:pypdf")


def clean(folder: Path) -> None:
    for path in folder.iterdir():
        if path.suffix in (".pdf", ".json", ".jsonl") or path.name in ("runs", "sources"):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def cli(*argv: object) -> None:
    from workbench.cli import main

    code = main([str(a) for a in argv])
    if code != 0:
        sys.exit(f"rebuild: pdfworkbench {' '.join(map(str, argv))} exited {code}")


def extraction_disputes(folder: Path) -> None:
    from workbench.core.suite import load_suite
    from workbench.gold.disputes import add_dispute
    from workbench.checks.evidence import find_evidence

    cases = {c.trap_family + ":" + str(c.seed): c for c in load_suite(folder).cases}
    gold = {c.id: (c.gold or {}).get("evidence", {}) for c in cases.values()}

    def ev(case, field_path: str) -> dict:
        return gold[case.id].get(field_path) or {}

    phone = cases["invoice_extraction:1"]
    direct = phone.gold["decoys"]["invoice.vendor_phone"][0]
    box = next(h.boxes[0] for h in find_evidence(phone.pdf_file.read_bytes(), direct))
    add_dispute(folder, phone.id, "invoice.vendor_phone", direct,
                "The contact box prints the direct line in bold; that is the number accounts payable "
                "actually calls, so it should be the vendor phone.",
                page=1, box=box, quote=f"Direct line: {direct}", who="priya",
                at="2026-11-20T09:12:00Z")

    wrapped = cases["invoice_extraction:2"]
    name_ev = ev(wrapped, "invoice.vendor_name")
    legal = wrapped.gold["expected"]["invoice"]["vendor_name"]
    words = legal.split(" ")
    short = " ".join(words[:3] + words[-1:])
    add_dispute(folder, wrapped.id, "invoice.vendor_name", short,
                "The company is the first words plus the legal suffix; the middle of the name is a "
                "division, not part of the legal name.",
                # the gold's quote marks the line break with " / "; the page prints the words
                page=1, box=name_ev.get("box"), quote=" ".join(name_ev.get("quote", "").split(" / ")), who="marcus",
                at="2026-11-20T09:20:00Z")

    due = cases["invoice_extraction:4"]
    due_ev = ev(due, "invoice.due_date")
    from datetime import date, timedelta

    printed = date.fromisoformat(due.gold["expected"]["invoice"]["due_date"])
    add_dispute(folder, due.id, "invoice.due_date", (printed - timedelta(days=1)).isoformat(),
                "The footer says payment is due within 30 days; counted from the invoice date the "
                "printed due date is one day too late.",
                page=1, box=due_ev.get("box"), quote="Payment due within 30 days", who="marcus",
                at="2026-11-20T09:31:00Z")

    hidden = cases["hidden_ocr_mismatch:1"]
    wrong = hidden.forbidden_answers[0]
    box = next(h.boxes[0] for h in find_evidence(hidden.pdf_file.read_bytes(), wrong))
    add_dispute(folder, hidden.id, "expected_answer", wrong,
                f"Copying the total out of the PDF gives {wrong}; the text layer is the document's "
                "own data, the printed figure is only an image.",
                page=1, box=box, quote=wrong, who="priya", at="2026-11-20T09:40:00Z")


def adopted(folder: Path) -> None:
    """A document we did not draw (statement.py: reportlab platypus), adopted and keyed by hand,
    with three traps armed in it by mutations."""
    import tempfile

    import statement

    folder.mkdir(exist_ok=True)
    clean(folder)
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "statement.pdf"
        pdf.write_bytes(statement.statement_pdf())
        cli("adopt", pdf, "--into", folder, "--question", statement.QUESTION,
            "--expected", statement.NEW_BALANCE)
    case = folder / "statement.json"
    # The summary's new balance on page 2 (the last row of page 1 prints it too).
    cli("mutate", case, "--trap", "hidden_layer", "--page", "2", "--id", "statement-hidden-layer")
    cli("mutate", case, "--trap", "tiny_print", "--page", "2", "--id", "statement-tiny-print")
    cli("mutate", case, "--trap", "redact_overlay", "--page", "2", "--id", "statement-redacted")


def main() -> None:
    for name in ("mini", "extraction"):
        folder = HERE / name
        clean(folder)
        cli("build", folder / "spec.toml", "--out", folder)
    adopted(HERE / "adopted")
    for name in ("mini", "extraction", "adopted"):
        for probe in PROBES:
            folder = HERE / name
            cli("run", folder, "--reader", probe, "--out", folder / "runs" / f"{probe.replace(':', '-')}.jsonl")
    extraction_disputes(HERE / "extraction")
    for name in ("mini", "extraction", "adopted"):
        cli("verify", HERE / name)


if __name__ == "__main__":
    main()
