"""`pdfworkbench inspect`: page sizes and text layers of a PDF or a case, hidden text marked,
then the file's revisions and form fields."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from workbench.checks.evidence import evidence_needles
from workbench.checks.inspect import inspect_stream
from workbench.cli.logs import note
from workbench.cli.output import json_text, print_json_stream
from workbench.core.case import Case, load_case
from workbench.pdf.document import read_pdf_bytes
from workbench.pdf.pages import PdfPages, hidden_stretches, parse_pages
from workbench.pdf.structure import REPAIRED, structure_report
from workbench.text import terminal


def load_target(path: Path, password: str | None = None) -> tuple[bytes, Case | None]:
    """A PDF path or a case JSON path -> (pdf bytes, case or None)."""
    if path.suffix.lower() == ".json":
        case = load_case(path)
        return read_pdf_bytes(case.pdf_file, password), case
    return read_pdf_bytes(path, password), None


def cmd_inspect(args: argparse.Namespace) -> int:
    data, case = load_target(args.path, args.password)
    name = str(args.path)
    with PdfPages(data, name, args.dpi, cache_pages=1) as doc:
        count = doc.page_count
    # A case's PDF as a bare one: the first `inspect_pages` pages unless --pages says otherwise (a
    # case adopted from a 10,000-page PDF printed every page, 9.5 s).
    chosen, left_out = parse_pages(args.pages, count)
    needles = evidence_needles(case) if case is not None else []
    # --json: each page's text is made where the page is analysed (see `inspect_stream`)
    encode = partial(json_text, level=2) if args.json else None
    unread: dict[str, int] = {}  # line -> the pages it was said of

    def warn(line: str) -> None:
        if line not in unread:  # (a file pypdf cannot open at all says so once, not each page)
            note(f"pdfworkbench: {line}")
        unread[line] = unread.get(line, 0) + 1

    pages = inspect_stream(data, chosen, name, args.dpi, needles, args.jobs, encode, warn)
    if args.json:
        if left_out:  # (the text output says it in its first line, once)
            note(f"pdfworkbench: {name}: {left_out}")
        head = {"page_count": count, "dpi": args.dpi}
        if left_out:
            head["pages_left_out"] = left_out
        tail = {"structure": _structure(data, name)}  # the whole file's, after its pages
        if case is not None:
            tail["case_id"] = case.id
        print_json_stream(head, "pages", pages, tail, encoded=True)
        return _unread_code(name, unread)
    print(f"{args.path}: {count} page(s)" + (f" ({left_out})" if left_out else ""))
    colour = _colour_stdout()
    out = terminal.raw_stream(sys.stdout)
    show = terminal.shown if out is not sys.stdout else str
    for page in pages:
        print(f"\n=== page {page['number']}: {page['width_pt']:.0f} x {page['height_pt']:.0f} pt"
              f" (rotation {page['rotation']})")
        if page.get("skipped"):
            print(f"({page['skipped']})")
        for extractor in ("pypdf", "pymupdf"):
            print(f"--- text layer ({extractor}) ---")
            why = page.get("unread", {}).get(extractor)
            text = page["text"][extractor].rstrip()
            # (the layer's own control characters shown on a terminal, the colour sent as it is)
            print(f"(not read: {show(why)})" if why else mark_hidden_text(text, page["spans"], colour, show)
                  or "(empty)", file=out, flush=True)
    _print_structure(_structure(data, name))
    return _unread_code(name, unread)


HIDDEN_ANSI = "\x1b[1;30;48;5;208m"  # bold black on dark orange: the Inspect screen's hidden text


def _colour_stdout() -> bool:
    """Colour on a terminal, unless NO_COLOR is set (https://no-color.org); plain tags in a pipe."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def mark_hidden_text(text: str, spans: list[dict], colour: bool, show: Callable[[str], str] = str) -> str:
    """A text layer with each stretch of hidden text marked, as the Inspect screen marks it:
    coloured on a terminal, else followed by a `[hidden: why]` tag; the layer's text (not the
    colour) as `show` gives it (`text.terminal.shown` on a terminal)."""
    hidden = [(s["text"], ", ".join(s["reasons"]) or "hidden") for s in spans if not s["visible"]]
    out, at = [], 0
    for start, end, why in hidden_stretches(text, hidden):
        out.append(show(text[at:start]))
        piece = show(text[start:end])
        out.append(f"{HIDDEN_ANSI}{piece}\x1b[0m" if colour else f"{piece} [hidden: {show(why)}]")
        at = end
    return "".join(out) + show(text[at:])


def _unread_code(name: str, unread: dict[str, int]) -> int:
    """inspect's exit code: 1 when a page's layer could not be read (the output says which)."""
    if not unread:
        return 0
    note(f"pdfworkbench: {name}: {sum(unread.values())} page layer(s) could not be read and are shown empty "
         "(\"unread\" in the page's JSON); the rest of the output is whole")
    return 1


def _structure(data: bytes, name: str) -> dict:
    return structure_report(data, name).to_json()


def _print_structure(structure: dict) -> None:
    """Damage, revisions and form fields, when the file is damaged, has more than one revision or
    any field."""
    if structure["repaired"]:
        print(f"\n({REPAIRED})")
    revisions = structure["revisions"]
    if len(revisions) > 1:
        print("\n=== revisions (incremental updates) ===")
        for r in revisions:
            change = (f"changed page(s) {', '.join(map(str, r['pages_changed']))}: removed {r['removed'][:4]},"
                      f" added {r['added'][:4]}" if r["pages_changed"] else "the original" if r["number"] == 1
                      else "no page text changed")
            print(f"revision {r['number']} (to byte {r['end']}, {r['objects']} objects): {change}")
    if structure["fields"]:
        print("\n=== form fields ===")
        for f in structure["fields"]:
            mark = "  <- differs" if f["differs"] else ""
            print(f"page {f['page_number']} {f['name']!r}: value {f['value']!r}, appearance {f['appearance']!r}{mark}")
