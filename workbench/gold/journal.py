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
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import files
from workbench.core.config import user_name
from workbench.core.errors import UserError
from workbench.core.extraction import Evidence
from workbench.core.layout import journal_path, require_suite_folder
from workbench.core.schema import (
    DISPUTE_DECIDED,
    DISPUTE_EVENT,
    DISPUTE_OPENED,
    EVIDENCE,
    JSONObject,
    check_key_text,
    check_shape,
    parse_json,
    plain_id,
)
from workbench.gold.keys import value_problem

EVENT_FORMAT = "pdfworkbench-disputes/1"
STATUSES = ("open", "accepted", "rejected", "deferred")


@dataclass
class Decision:
    """A decision on a dispute: accepted, rejected or deferred, why, by whom and when."""

    decision: str          # accepted | rejected | deferred
    rationale: str
    who: str
    at: str

    def to_json(self) -> JSONObject:
        return {"decision": self.decision, "rationale": self.rationale, "who": self.who, "at": self.at}


@dataclass
class Dispute:
    """A proposed change to one field of a case's key, with its evidence and its decisions."""

    id: str
    case_id: str
    field: str
    original: Any
    proposed: Any
    rationale: str
    who: str
    at: str
    evidence: Evidence | None = None
    based_on: str | None = None
    status: str = "open"
    history: list[Decision] = field(default_factory=list)

    @property
    def page(self) -> int | None:
        return self.evidence.page if self.evidence else None

    @property
    def box(self) -> list[float] | None:
        return list(self.evidence.box) if self.evidence and self.evidence.box else None

    @property
    def quote(self) -> str | None:
        return self.evidence.quote if self.evidence else None

    def rationale_so_far(self) -> list[str]:
        """The opening rationale and every decision's, as lines a person reads."""
        lines = [f"{self.who} opened it ({self.at}): {self.rationale}"]
        lines += [f"{d.who} {d.decision} it ({d.at}): {d.rationale}" for d in self.history]
        return lines

    def to_json(self) -> JSONObject:
        return {
            "id": self.id, "case_id": self.case_id, "field": self.field, "original": self.original,
            "proposed": self.proposed, "status": self.status,
            "evidence": self.evidence.to_json() if self.evidence else None,
            "rationale": self.rationale, "who": self.who, "at": self.at, "based_on": self.based_on,
            "history": [d.to_json() for d in self.history],
        }


# ---- the journal ----------------------------------------------------------------------------

_FIX = "fix or remove that line (the journal is append-only: restore it from version control)"
_DECISION_STATUSES = ("accepted", "rejected", "deferred")


def read_events(folder: Path) -> list[JSONObject]:
    """Every complete event of the journal, in order, each checked; a torn last line is skipped.

    A line of the wrong shape (a field of the wrong type, an unknown event, a decision for a
    dispute no earlier line opens, an id opened twice) is one UserError naming the file and line.
    """
    require_suite_folder(folder)
    path = journal_path(folder)
    if not os.path.lexists(path):
        return []
    data = files.read_bytes(path, "dispute journal", "run_file_bytes", within=folder)
    lines = data.split(b"\n")
    # After the last newline: nothing, a torn write (skipped, and cut off by the next append), or
    # a whole final record that lost only its newline (it counts).
    complete = lines if lines[-1].strip() and _parses(lines[-1]) else lines[:-1]
    events: list[JSONObject] = []
    opened: dict[str, int] = {}
    for n, raw in enumerate(complete, 1):
        if not raw.strip():
            continue
        source = f"{path}:{n}"
        try:
            ev = check_event(parse_json(raw, source, "dispute event"), source)
            did = ev["id"]
            if ev["event"] == "opened":
                if did in opened:
                    raise UserError(f"{source}: dispute {did!r} is opened again (first on line {opened[did]})")
                opened[did] = n
            elif did not in opened:
                raise UserError(f"{source}: decides dispute {did!r}, which no earlier line opens")
        except UserError as exc:
            raise UserError(f"{exc}; {_FIX}") from None
        events.append(ev)
    return events


def _parses(raw: bytes) -> bool:
    try:
        return isinstance(json.loads(raw.decode("utf-8")), dict)
    except ValueError:      # a torn write: cut JSON, or a character cut in half
        return False
    except RecursionError:  # whole, only too deep: check_event says so
        return True


def check_event(ev: Any, source: str) -> JSONObject:
    """One journal event, checked: its shape, its ids, its field path and the values it proposes."""
    kind = ev.get("event") if isinstance(ev, dict) and isinstance(ev.get("event"), str) else None
    shape = {"opened": DISPUTE_OPENED, "decided": DISPUTE_DECIDED}.get(kind, DISPUTE_EVENT)  # type: ignore[arg-type]
    check_shape(ev, shape, source, "dispute event")
    if ev.get("format", EVENT_FORMAT) != EVENT_FORMAT:
        raise UserError(f"{source}: the event is {ev['format'][:40]!r}, not {EVENT_FORMAT}; "
                        "was it written by another version of pdfworkbench?")
    if kind not in ("opened", "decided"):
        raise UserError(f"{source}: unknown dispute event {str(kind)[:40]!r}; events are opened or decided")
    plain_id(ev["id"], "dispute event field 'id'", source)
    if kind == "decided":
        if ev["decision"] not in _DECISION_STATUSES:
            raise UserError(f"{source}: decision {ev['decision'][:40]!r}: use one of {', '.join(_DECISION_STATUSES)}")
        return ev
    plain_id(ev["case_id"], "dispute event field 'case_id'", source)
    # Each becomes a needle grading or the evidence search looks for: the key's own text cap.
    quote = ev["evidence"].get("quote") if isinstance(ev.get("evidence"), dict) else None
    for name, value in (("proposed", ev.get("proposed")), ("original", ev.get("original")), ("evidence quote", quote)):
        check_key_text(value, f"the {name}", source)
    try:
        problem = value_problem(ev["field"], ev.get("proposed"))
    except UserError as exc:
        raise UserError(f"{source}: {exc}") from None
    if problem:
        raise UserError(f"{source}: proposed value for {ev['field'][:60]!r}: {problem}")
    evidence = ev.get("evidence")
    if evidence is not None:
        check_shape(evidence, EVIDENCE, f"{source}: evidence", "evidence")
        box = evidence.get("box")
        if box is not None and (len(box) != 4 or not all(math.isfinite(v) for v in box)
                                or box[0] >= box[2] or box[1] >= box[3]):
            raise UserError(f"{source}: evidence box must be four finite numbers x0,y0,x1,y1 with x0<x1, y0<y1")
    return ev


def append_event(folder: Path, event: JSONObject) -> None:
    """Append one event: one write, flushed and fsynced. The caller holds the suite lock."""
    path = journal_path(folder)
    event = check_event({"format": EVENT_FORMAT, **event}, f"{path}: the new event")  # what reading would refuse
    line = (json.dumps(event, ensure_ascii=False, sort_keys=True) + "\n").encode()
    created = not os.path.lexists(files.check_own(path, folder))
    # No link, FIFO or device: the journal grows in place and must stay the suite's own file.
    with files.open_append(path, "dispute journal") as fh:
        fd = fh.fileno()   # written to directly (the text wrapper is never used, so it buffers nothing)
        rfd = files.open_regular(path, "dispute journal", within=folder)
        try:
            _repair_tail(rfd, fd)
        finally:
            os.close(rfd)
        view = memoryview(line)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    if created:
        _fsync_dir(path.parent)


def _repair_tail(rfd: int, fd: int) -> None:
    """If the journal ends in a torn write, cut it off (a whole record that lost only its newline
    stays). Reads through `rfd`, writes through `fd` (appending)."""
    size = os.fstat(rfd).st_size
    if not size or os.pread(rfd, 1, size - 1) == b"\n":
        return
    end, start = size, size
    while start > 0:
        start = max(0, end - 65536)
        chunk = os.pread(rfd, end - start, start)
        nl = chunk.rfind(b"\n")
        if nl >= 0:
            start += nl + 1
            break
        end = start
    tail = os.pread(rfd, size - start, start)
    if _parses(tail):   # the rule read_events follows
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


def fold(events: list[JSONObject]) -> list[Dispute]:
    """The disputes the events describe, in the order they were opened."""
    disputes: dict[str, Dispute] = {}
    for ev in events:
        kind, did = ev.get("event"), str(ev.get("id"))
        if kind == "opened" and did not in disputes:
            disputes[did] = Dispute(
                id=did, case_id=str(ev.get("case_id")), field=str(ev.get("field")),
                original=ev.get("original"), proposed=ev.get("proposed"),
                rationale=str(ev.get("rationale") or ""), who=str(ev.get("who") or ""),
                at=str(ev.get("at") or ""), based_on=ev.get("based_on"),
                evidence=Evidence.parse(ev["evidence"]) if ev.get("evidence") is not None else None,
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
