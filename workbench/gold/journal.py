"""Gold disputes: an append-only journal in the suite, and the functions the triage screen calls.

A dispute names a case and a field of its answer key (see `workbench.gold.keys` for field
paths), the original value, the proposed value, page evidence (page, box, quote), a status
(`open`, `accepted`, `rejected`, `deferred`), the rationale, who and when, and its history of
decisions. Accepted disputes make new gold versions (`workbench.gold.versions`).

The journal is `<suite>/disputes.jsonl`, one JSON event per line, appended under the suite lock,
flushed and fsynced per event. A crash mid-write loses at most the event being written: a torn
last line is skipped when read and cut off before the next append. Events:

    {"format": "pdfworkbench-disputes/1", "event": "opened", "id": "d0001", "case_id": "...",
     "field": "invoice.vendor_phone", "original": ..., "proposed": ..., "based_on": "v1",
     "evidence": {"page": 1, "box": [x0, y0, x1, y1], "quote": "..."} | null,
     "rationale": "...", "who": "...", "at": "2025-01-01T12:00:00Z"}
    {"format": "pdfworkbench-disputes/1", "event": "decided", "id": "d0001",
     "decision": "accepted" | "rejected" | "deferred", "rationale": "...", "who": "...", "at": "..."}

Boxes are in PDF points with the origin at the top-left of the page (pymupdf's convention);
pages are numbered from 1.

Opening and deciding disputes: `workbench.gold.disputes`; the triage queue: `workbench.gold.triage`.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.config import user_name
from workbench.core.errors import UserError
from workbench.core.layout import journal_path

EVENT_FORMAT = "pdfworkbench-disputes/1"
STATUSES = ("open", "accepted", "rejected", "deferred")


@dataclass
class Decision:
    decision: str          # accepted | rejected | deferred
    rationale: str
    who: str
    at: str

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.decision, "rationale": self.rationale, "who": self.who, "at": self.at}


@dataclass
class Dispute:
    id: str
    case_id: str
    field: str
    original: Any
    proposed: Any
    rationale: str
    who: str
    at: str
    evidence: dict[str, Any] | None = None
    based_on: str | None = None
    status: str = "open"
    history: list[Decision] = field(default_factory=list)

    @property
    def page(self) -> int | None:
        return (self.evidence or {}).get("page")

    @property
    def box(self) -> list[float] | None:
        return (self.evidence or {}).get("box")

    @property
    def quote(self) -> str | None:
        return (self.evidence or {}).get("quote")

    def rationale_so_far(self) -> list[str]:
        """The opening rationale and every decision's, as lines a person reads."""
        lines = [f"{self.who} opened it ({self.at}): {self.rationale}"]
        lines += [f"{d.who} {d.decision} it ({d.at}): {d.rationale}" for d in self.history]
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "case_id": self.case_id, "field": self.field, "original": self.original,
            "proposed": self.proposed, "status": self.status, "evidence": self.evidence,
            "rationale": self.rationale, "who": self.who, "at": self.at, "based_on": self.based_on,
            "history": [d.to_json() for d in self.history],
        }


# ---- the journal ----------------------------------------------------------------------------

def read_events(folder: Path) -> list[dict[str, Any]]:
    """Every complete event of the journal, in order; a torn last line is skipped."""
    path = journal_path(folder)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise UserError(f"{path}: cannot read the dispute journal ({exc.strerror})") from None
    lines = data.split(b"\n")
    # Everything after the last newline is an unfinished write (or empty).
    complete, tail = lines[:-1], lines[-1]
    events: list[dict[str, Any]] = []
    for n, raw in enumerate(complete, 1):
        if not raw.strip():
            continue
        try:
            ev = json.loads(raw.decode("utf-8"))
            if not isinstance(ev, dict) or "event" not in ev or "id" not in ev:
                raise ValueError("not an event")
        except (UnicodeDecodeError, ValueError) as exc:
            raise UserError(f"{path}:{n}: not a dispute event ({exc}); the journal was edited by hand? "
                            "restore it from version control") from None
        events.append(ev)
    if tail.strip():
        # A complete final record without its newline still counts; a torn one does not.
        with contextlib.suppress(UnicodeDecodeError, ValueError):
            ev = json.loads(tail.decode("utf-8"))
            if isinstance(ev, dict) and "event" in ev and "id" in ev:
                events.append(ev)
    return events


def append_event(folder: Path, event: dict[str, Any]) -> None:
    """Append one event: one write, flushed and fsynced. The caller holds the suite lock."""
    path = journal_path(folder)
    line = (json.dumps({"format": EVENT_FORMAT, **event}, ensure_ascii=False, sort_keys=True) + "\n").encode()
    created = not path.exists()
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        _repair_tail(fd)
        view = memoryview(line)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        _fsync_dir(path.parent)


def _repair_tail(fd: int) -> None:
    """If the journal ends in a torn write, cut it off (a whole record that lost only its newline stays)."""
    size = os.fstat(fd).st_size
    if not size or os.pread(fd, 1, size - 1) == b"\n":
        return
    end, start = size, size
    while start > 0:
        start = max(0, end - 65536)
        chunk = os.pread(fd, end - start, start)
        nl = chunk.rfind(b"\n")
        if nl >= 0:
            start += nl + 1
            break
        end = start
    tail = os.pread(fd, size - start, start)
    try:
        ev = json.loads(tail.decode("utf-8"))
        whole = isinstance(ev, dict) and "event" in ev and "id" in ev
    except (UnicodeDecodeError, ValueError):
        whole = False
    if whole:
        os.write(fd, b"\n")
    else:
        os.ftruncate(fd, start)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def fold(events: list[dict[str, Any]]) -> list[Dispute]:
    """The disputes the events describe, in the order they were opened."""
    disputes: dict[str, Dispute] = {}
    for ev in events:
        kind, did = ev.get("event"), str(ev.get("id"))
        if kind == "opened" and did not in disputes:
            disputes[did] = Dispute(
                id=did, case_id=str(ev.get("case_id")), field=str(ev.get("field")),
                original=ev.get("original"), proposed=ev.get("proposed"),
                rationale=str(ev.get("rationale") or ""), who=str(ev.get("who") or ""),
                at=str(ev.get("at") or ""), evidence=ev.get("evidence"), based_on=ev.get("based_on"),
            )
        elif kind == "decided" and did in disputes and ev.get("decision") in STATUSES:
            d = disputes[did]
            d.status = ev["decision"]
            d.history.append(Decision(ev["decision"], str(ev.get("rationale") or ""),
                                      str(ev.get("who") or ""), str(ev.get("at") or "")))
    return list(disputes.values())


def load_disputes(folder: Path, status: str | None = None) -> list[Dispute]:
    disputes = fold(read_events(folder))
    if status:
        if status not in STATUSES:
            raise UserError(f"status {status!r}: use one of {', '.join(STATUSES)}")
        disputes = [d for d in disputes if d.status == status]
    return disputes


def get_dispute(folder: Path, dispute_id: str) -> Dispute:
    for d in load_disputes(folder):
        if d.id == dispute_id:
            return d
    raise UserError(f"{folder}: no dispute {dispute_id!r}; `pdfworkbench dispute list {folder}` shows them")


def default_who() -> str:
    """`$PDFWORKBENCH_USER`, the config's `user`, or the login (see `core.config.user_name`)."""
    return user_name()
