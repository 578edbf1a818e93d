"""Opening and deciding gold disputes: the two writes to a suite's dispute journal.

- `add_dispute(folder, case_id, field, proposed, rationale, page=, box=, quote=, who=)`: open a
  dispute (e.g. from Inspect on a selected field); the original value is read from latest gold.
- `decide(folder, dispute_id, decision, rationale, who=None, redecide=False) -> Decided`:
  `decision` is `accept`/`reject`/`defer` (or `accepted`/...); a rationale is required; the
  same decision again writes nothing; changing an accept or reject needs `redecide`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core import atomic
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.extraction import Evidence
from workbench.core.runs import utc_now
from workbench.core.suite import load_suite
from workbench.gold import keys, versions
from workbench.gold.journal import Dispute, append_event, default_who, get_dispute, read_events
from workbench.pdf.document import open_fitz, read_pdf_bytes

_DECISIONS = {"accept": "accepted", "accepted": "accepted", "reject": "rejected", "rejected": "rejected",
              "defer": "deferred", "deferred": "deferred"}


def parse_value(text: str, like: Any) -> Any:
    """A command-line value in the type of the value it replaces: JSON for non-strings."""
    if isinstance(like, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _check_evidence(page: int | None, box: Any, quote: str | None,
                    pages: tuple[int, tuple[float, float] | None] | None) -> Evidence | None:
    """The evidence given, checked against the case's pages (`pages`: `_pages_of`, None when the
    PDF cannot be read)."""
    if page is None and box is None and not quote:
        return None
    if page is None:
        raise UserError("evidence needs --page N (pages count from 1) with --box or --quote")
    if page < 1:
        raise UserError(f"--page {page}: pages count from 1")
    if pages is not None and page > pages[0]:
        raise UserError(f"--page {page}: the case has {pages[0]} page(s); pages count from 1")
    coords = None
    if box is not None:
        try:
            coords = [float(v) for v in (box.split(",") if isinstance(box, str) else box)]
        except (TypeError, ValueError):
            coords = []
        if len(coords) != 4 or not all(map(math.isfinite, coords)) or coords[0] >= coords[2] \
                or coords[1] >= coords[3]:
            raise UserError(f"--box {box!r}: write it as x0,y0,x1,y1 in points from the top-left, x0<x1, y0<y1")
        if pages is not None and pages[1] is not None:   # (a box off its page is drawn nowhere)
            width, height = pages[1]
            if coords[2] <= 0 or coords[3] <= 0 or coords[0] >= width or coords[1] >= height:
                raise UserError(f"--box {box!r} is not on page {page}, which is {width:.0f} x {height:.0f} "
                                "points (x0,y0,x1,y1 from its top-left corner, as displayed)")
        coords = tuple(round(c, 2) for c in coords)
    # A dispute records all three, null where not given.
    return Evidence(int(page), coords, quote or None, written=("page", "box", "quote"))


def _squash(text: str) -> str:
    return " ".join(text.split()).casefold()


def _check_quote(case: Case, page: int, quote: str) -> None:
    """A quote must be on its page (case and spacing aside); refused with the nearest text there.
    A page without a text layer (a scan) cannot be checked and is taken on trust."""
    import difflib

    try:
        with open_fitz(read_pdf_bytes(case.pdf_file), str(case.pdf_file)) as doc:
            text = doc[page - 1].get_text("text")
    except UserError:
        return
    if not text.strip() or _squash(quote) in _squash(text):
        return
    words, n = text.split(), len(quote.split())
    windows = {" ".join(words[i:i + k]) for k in range(max(1, n - 1), n + 2) for i in range(len(words))}
    near = max(windows, key=lambda w: difflib.SequenceMatcher(None, _squash(w), _squash(quote)).ratio())
    # (worded for `gold dispute --quote` and the workbench's dispute form's quote box alike)
    raise UserError(f"the quote {quote!r} is not on page {page}; the nearest text there is {near!r}: "
                    "quote the page as printed, or leave the quote out")


def _pages_of(case: Case, page: int) -> tuple[int, tuple[float, float] | None] | None:
    """The case's page count, and the width and height of its page `page` (1-based) as displayed
    (turned by its /Rotate), in points, None when it has no such page; None when the PDF cannot
    be read."""
    try:
        with open_fitz(read_pdf_bytes(case.pdf_file), str(case.pdf_file)) as doc:
            rect = doc[page - 1].rect if 1 <= page <= doc.page_count else None
            return doc.page_count, (rect.width, rect.height) if rect is not None else None
    except UserError:
        return None


def add_dispute(
    folder: Path, case_id: str, field_path: str, proposed: Any, rationale: str,
    page: int | None = None, box: Any = None, quote: str | None = None,
    who: str | None = None, at: str | None = None, original: Any = None,
) -> Dispute:
    """Open a dispute against the latest gold; returns it. `original` defaults to latest gold's value."""
    folder = Path(folder)
    if not rationale or not rationale.strip():
        raise UserError("a dispute needs a rationale: say why the gold value is wrong (--rationale)")
    suite = load_suite(folder)
    case = suite.case(case_id)
    with atomic.suite_lock(folder):
        latest = versions.resolve_version(folder, "latest")
        latest_keys = versions.gold_keys(folder, latest.number, suite).keys
        keys.key_path(field_path)  # a malformed path is an error before anything else
        try:
            current = keys.get_field(latest_keys[case.id], field_path)
        except UserError:
            if not keys.can_add_field(latest_keys[case.id], field_path):
                raise
            current = None  # a field the structured gold left out: the dispute adds it
        if isinstance(proposed, str) and not isinstance(current, str) and current is not None:
            proposed = parse_value(proposed, current)
        if original is None:
            original = current
        if proposed == original:
            raise UserError(f"{case_id} {field_path} is already {original!r}; propose a different value")
        evidence = _check_evidence(page, box, quote, _pages_of(case, page) if page is not None else None)
        if evidence and evidence.quote:
            _check_quote(case, evidence.page, evidence.quote)
        existing = read_events(folder)
        number = 1 + sum(1 for e in existing if e.get("event") == "opened")
        did = f"d{number:04d}"
        append_event(folder, {
            "event": "opened", "id": did, "case_id": case.id, "field": field_path.strip(),
            "original": original, "proposed": proposed, "based_on": latest.name,
            "evidence": evidence.to_json() if evidence else None, "rationale": rationale.strip(), "who": who or default_who(),
            "at": at or utc_now(),
        })
    return get_dispute(folder, did)


@dataclass
class Decided:
    """What `decide` did: the dispute as it now is, and whether a decision was appended."""

    dispute: Dispute
    written: bool        # False: the dispute already had this decision; nothing was written


def decide(
    folder: Path, dispute_id: str, decision: str, rationale: str,
    who: str | None = None, at: str | None = None, redecide: bool = False,
) -> Decided:
    """Record a decision (accept, reject, defer) with its rationale, at most once.

    The whole journal is read and checked before anything is written, and the decision is one
    append. Deciding a dispute the way it is already decided writes nothing (so a retry is
    safe); changing an accept or a reject needs `redecide`. Accepting a value the key also
    forbids is refused: that gold would fail its own expected answer.
    """
    folder = Path(folder)
    status = _DECISIONS.get(str(decision).strip().lower())
    if status is None:
        raise UserError(f"decision {decision!r}: use accept, reject or defer")
    if not rationale or not rationale.strip():
        raise UserError("a decision needs a rationale: say why (--rationale)")
    with atomic.suite_lock(folder):
        d = get_dispute(folder, dispute_id)
        if d.status == status:
            return Decided(d, written=False)
        if d.status in ("accepted", "rejected") and not redecide:
            last = d.history[-1]
            raise UserError(f"{d.id} was already {d.status} by {last.who or 'someone'} ({last.at}); to change "
                            f"that decision to {status}, give --redecide (the journal keeps both)")
        if status == "accepted":
            _refuse_contradiction(folder, d)
        append_event(folder, {"event": "decided", "id": dispute_id, "decision": status,
                              "rationale": rationale.strip(), "who": who or default_who(),
                              "at": at or utc_now()})
    return Decided(get_dispute(folder, dispute_id), written=True)


def _refuse_contradiction(folder: Path, d: Dispute) -> None:
    """Refuse to accept `d` when the key it makes expects a value it also forbids."""
    suite = load_suite(folder)
    case = next((c for c in suite.cases if c.id == d.case_id), None)
    if case is None:
        return
    before = versions.gold_keys(folder, "latest", suite).keys[case.id]
    after, _ = versions.apply_disputes(before, [d])
    known = {why for _, why in versions.contradictions(case, before)}
    for index, why in versions.contradictions(case, after):
        if why not in known:
            raise UserError(f"{d.id}: accepting it would make gold contradict itself: {why}; if that value is "
                            f"right, first dispute forbidden_answers[{index}] (--field 'forbidden_answers[{index}]' "
                            f"--proposed '') and accept that, else reject {d.id}")
