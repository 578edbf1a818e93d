"""Gold disputes: an append-only journal in the suite, and the functions the triage screen calls.

A dispute names a case and a field of its answer key (see `workbench.core.gold` for field
paths), the original value, the proposed value, page evidence (page, box, quote), a status
(`open`, `accepted`, `rejected`, `deferred`), the rationale, who and when, and its history of
decisions. Accepted disputes make new gold versions (`workbench.core.gold`).

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

API for the triage screen (all take the suite folder; none imports Textual):

- `triage_queue(folder) -> list[QueueItem]`: every dispute, open ones first, then deferred, then
  decided; within each group by impact (saved verdicts the decision would flip, computed from the
  run files in `<suite>/runs/*.jsonl`), highest first. `QueueItem.flips` lists those verdicts.
- `decide(folder, dispute_id, decision, rationale, who=None) -> Dispute`: `decision` is
  `accept`/`reject`/`defer` (or `accepted`/...); a rationale is required.
- `add_dispute(folder, case_id, field, proposed, rationale, page=, box=, quote=, who=)`: open a
  dispute (e.g. from Inspect on a selected field); the original value is read from latest gold.
- `evidence_for(folder, dispute_id) -> DisputeEvidence`: the page to show, the evidence box, and
  every place on the pages where the original and the proposed values occur (`Hit.visible` is
  False for a place only in the text layer).
- `acceptance_warnings(folder, id) -> list[str]`: what accepting would leave wrong in the key
  (an expected value that is also a forbidden answer, a value that changed since it was opened).
- `progress(folder) -> Progress`: `decided` (accepted + rejected) of `total`, with counts per status.
- `get_dispute(folder, id)`, `load_disputes(folder)`: the disputes, folded from the journal.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import atomic
from workbench.core.errors import UserError

JOURNAL = "disputes.jsonl"
EVENT_FORMAT = "pdfworkbench-disputes/1"
STATUSES = ("open", "accepted", "rejected", "deferred")
_DECISIONS = {"accept": "accepted", "accepted": "accepted", "reject": "rejected", "rejected": "rejected",
              "defer": "deferred", "deferred": "deferred"}
RUNS_DIR = "runs"


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

def journal_path(folder: Path) -> Path:
    return Path(folder) / JOURNAL


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
    who = os.environ.get("PDFWORKBENCH_USER")
    if who:
        return who
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


# ---- opening and deciding -------------------------------------------------------------------

def parse_value(text: str, like: Any) -> Any:
    """A command-line value in the type of the value it replaces: JSON for non-strings."""
    if isinstance(like, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _check_evidence(page: int | None, box: Any, quote: str | None, pdf_pages: int | None) -> dict[str, Any] | None:
    if page is None and box is None and not quote:
        return None
    if page is None:
        raise UserError("evidence needs --page N (pages count from 1) with --box or --quote")
    if page < 1 or (pdf_pages is not None and page > pdf_pages):
        raise UserError(f"--page {page}: the case has {pdf_pages} page(s); pages count from 1")
    ev: dict[str, Any] = {"page": int(page), "box": None, "quote": quote or None}
    if box is not None:
        try:
            coords = [float(v) for v in (box.split(",") if isinstance(box, str) else box)]
        except (TypeError, ValueError):
            coords = []
        if len(coords) != 4 or coords[0] >= coords[2] or coords[1] >= coords[3]:
            raise UserError(f"--box {box!r}: write it as x0,y0,x1,y1 in points from the top-left, x0<x1, y0<y1")
        ev["box"] = [round(c, 2) for c in coords]
    return ev


def _page_count(case: Any) -> int | None:
    try:
        from workbench.pdf.document import open_fitz, read_pdf_bytes

        with open_fitz(read_pdf_bytes(case.pdf_file), str(case.pdf_file)) as doc:
            return doc.page_count
    except UserError:
        return None


def add_dispute(
    folder: Path, case_id: str, field_path: str, proposed: Any, rationale: str,
    page: int | None = None, box: Any = None, quote: str | None = None,
    who: str | None = None, at: str | None = None, original: Any = None,
) -> Dispute:
    """Open a dispute against the latest gold; returns it. `original` defaults to latest gold's value."""
    from workbench.core import gold
    from workbench.core.runs import utc_now
    from workbench.core.suite import load_suite

    folder = Path(folder)
    if not rationale or not rationale.strip():
        raise UserError("a dispute needs a rationale: say why the gold value is wrong (--rationale)")
    suite = load_suite(folder)
    case = suite.case(case_id)
    with atomic.suite_lock(folder):
        latest = gold.resolve_version(folder, "latest")
        keys = gold.gold_keys(folder, latest.number, suite).keys
        gold.key_path(field_path)  # a malformed path is an error before anything else
        try:
            current = gold.get_field(keys[case.id], field_path)
        except UserError:
            if not gold.can_add_field(keys[case.id], field_path):
                raise
            current = None  # a field the structured gold left out: the dispute adds it
        if isinstance(proposed, str) and not isinstance(current, str) and current is not None:
            proposed = parse_value(proposed, current)
        if original is None:
            original = current
        if proposed == original:
            raise UserError(f"{case_id} {field_path} is already {original!r}; propose a different value")
        evidence = _check_evidence(page, box, quote, _page_count(case) if page is not None else None)
        existing = read_events(folder)
        number = 1 + sum(1 for e in existing if e.get("event") == "opened")
        did = f"d{number:04d}"
        append_event(folder, {
            "event": "opened", "id": did, "case_id": case.id, "field": field_path.strip(),
            "original": original, "proposed": proposed, "based_on": latest.name,
            "evidence": evidence, "rationale": rationale.strip(), "who": who or default_who(),
            "at": at or utc_now(),
        })
    return get_dispute(folder, did)


def decide(
    folder: Path, dispute_id: str, decision: str, rationale: str,
    who: str | None = None, at: str | None = None,
) -> Dispute:
    """Record a decision (accept, reject, defer) with its rationale; returns the dispute as it now is."""
    from workbench.core.runs import utc_now

    folder = Path(folder)
    status = _DECISIONS.get(str(decision).strip().lower())
    if status is None:
        raise UserError(f"decision {decision!r}: use accept, reject or defer")
    if not rationale or not rationale.strip():
        raise UserError("a decision needs a rationale: say why (--rationale)")
    with atomic.suite_lock(folder):
        get_dispute(folder, dispute_id)
        append_event(folder, {"event": "decided", "id": dispute_id, "decision": status,
                              "rationale": rationale.strip(), "who": who or default_who(),
                              "at": at or utc_now()})
    return get_dispute(folder, dispute_id)


# ---- triage ---------------------------------------------------------------------------------

@dataclass
class Progress:
    total: int
    open: int
    accepted: int
    rejected: int
    deferred: int

    @property
    def decided(self) -> int:
        """Accepted or rejected; a deferred dispute still waits for a decision."""
        return self.accepted + self.rejected

    def __str__(self) -> str:
        extra = f" ({self.deferred} deferred)" if self.deferred else ""
        return f"{self.decided} of {self.total} decided{extra}"

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "decided": self.decided, "open": self.open,
                "accepted": self.accepted, "rejected": self.rejected, "deferred": self.deferred}


def progress(folder: Path) -> Progress:
    disputes = load_disputes(folder)
    count = {s: sum(1 for d in disputes if d.status == s) for s in STATUSES}
    return Progress(len(disputes), count["open"], count["accepted"], count["rejected"], count["deferred"])


def run_files(folder: Path) -> list[Path]:
    """The suite's saved runs: `<suite>/runs/*.jsonl`."""
    return sorted((Path(folder) / RUNS_DIR).glob("*.jsonl"))


@dataclass
class QueueItem:
    dispute: Dispute
    impact: int                   # saved verdicts the decision would flip
    flips: list[Any]              # workbench.grading.regrade.Flip, one per flipped verdict


_GROUP = {"open": 0, "deferred": 1, "accepted": 2, "rejected": 2}


def triage_queue(folder: Path, runs: list[Path] | None = None) -> list[QueueItem]:
    """Every dispute, open first, then deferred, then decided; by impact (highest first) within each."""
    from workbench.grading.regrade import dispute_flips

    folder = Path(folder)
    disputes = load_disputes(folder)
    flips = dispute_flips(folder, disputes, run_files(folder) if runs is None else runs)
    items = [QueueItem(d, len(flips.get(d.id, [])), flips.get(d.id, [])) for d in disputes]
    items.sort(key=lambda it: (_GROUP[it.dispute.status], -it.impact, it.dispute.id))
    return items


def acceptance_warnings(folder: Path, dispute_id: str) -> list[str]:
    """What would be wrong with the key if the dispute were accepted (e.g. it expects a forbidden answer)."""
    from workbench.core import gold

    d = get_dispute(folder, dispute_id)
    latest = gold.gold_keys(folder, "latest").keys
    if d.case_id not in latest:
        return [f"case {d.case_id!r} is no longer in the suite"]
    if d.status == "accepted":   # already in latest gold
        return gold.key_conflicts(latest[d.case_id])
    _, notes = gold.apply_disputes(latest[d.case_id], [d])
    return [n.split(": ", 1)[1] for n in notes]


@dataclass
class Hit:
    which: str                    # "original" | "proposed" | "evidence"
    text: str
    page: int                     # from 1
    box: list[float]              # points, top-left origin
    visible: bool = True          # False: only in the text layer (hidden text)

    def to_json(self) -> dict[str, Any]:
        return {"which": self.which, "text": self.text, "page": self.page, "box": self.box,
                "visible": self.visible}


@dataclass
class DisputeEvidence:
    dispute_id: str
    page: int                     # the page to show first (from 1)
    box: list[float] | None       # the dispute's evidence box, else the gold's, else None
    quote: str | None
    hits: list[Hit]               # where the original, proposed and quoted text occur

    def to_json(self) -> dict[str, Any]:
        return {"dispute": self.dispute_id, "page": self.page, "box": self.box, "quote": self.quote,
                "hits": [h.to_json() for h in self.hits]}


def _gold_evidence(key: dict[str, Any], field_path: str) -> dict[str, Any] | None:
    """Per-field evidence recorded in structured gold for `field_path`, if any."""
    gold = key.get("gold") or {}
    evidence = gold.get("evidence") if isinstance(gold, dict) else None
    if not isinstance(evidence, dict):
        return None
    from workbench.core.gold import parse_path

    parts = parse_path(field_path)
    if parts[:2] == ["gold", "expected"]:
        field_path = field_path.split(".", 2)[2]
    return evidence.get(field_path)


def value_texts(value: Any) -> list[str]:
    """The strings to search the page for to find a value (a list or record: each leaf)."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, dict):
        return [t for v in value.values() for t in value_texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in value_texts(v)]
    if isinstance(value, float):
        texts = [f"{value:,.2f}", f"{value:.2f}"] if value != int(value) or abs(value) >= 1000 else [f"{value:g}"]
        return list(dict.fromkeys(texts))
    text = str(value).strip()
    return [text] if text else []


def find_text(pdf: bytes, texts: list[str]) -> list[tuple[str, int, list[float], bool]]:
    """Every place each text is on the pages: (text, page from 1, box, visible).

    Uses the forensics area's tolerant search (`workbench.pdf.evidence.find_evidence`: money
    written differently, line breaks, split runs, hidden text); text drawn only as pixels is not
    found (that needs OCR).
    """
    from workbench.pdf.evidence import find_evidence

    out: list[tuple[str, int, list[float], bool]] = []
    for text in texts:
        for hit in find_evidence(pdf, text):
            if not hit.boxes:
                continue
            box = [min(b[0] for b in hit.boxes), min(b[1] for b in hit.boxes),
                   max(b[2] for b in hit.boxes), max(b[3] for b in hit.boxes)]
            out.append((text, hit.page + 1, [round(v, 2) for v in box], bool(hit.visible)))
    return out


def evidence_for(folder: Path, dispute_id: str) -> DisputeEvidence:
    """What to highlight for a dispute: its evidence box and where both values occur on the pages."""
    from workbench.core import gold
    from workbench.core.suite import load_suite
    from workbench.pdf.document import read_pdf_bytes

    folder = Path(folder)
    d = get_dispute(folder, dispute_id)
    suite = load_suite(folder)
    case = suite.case(d.case_id)
    key = gold.gold_keys(folder, "v1", suite).keys[case.id]
    recorded = _gold_evidence(key, d.field) or {}
    ev = d.evidence or {}
    page = ev.get("page") or recorded.get("page") or 1
    box = ev.get("box") or recorded.get("box")
    quote = ev.get("quote") or recorded.get("quote")
    pdf = read_pdf_bytes(case.pdf_file)
    hits: list[Hit] = []
    seen: set[Any] = set()
    for which, value in (("original", d.original), ("proposed", d.proposed), ("evidence", quote)):
        texts = value_texts(value)
        for text, pno, hbox, visible in find_text(pdf, texts):
            mark = (pno, tuple(hbox))
            if (which, mark) in seen or (which == "evidence" and mark in seen):
                continue
            seen.update({mark, (which, mark)})
            hits.append(Hit(which, text, pno, hbox, visible))
    if recorded.get("box") and not any(h.which == "original" for h in hits):
        # Printed in another form (a date written out, say): the gold knows where it is.
        hits.insert(0, Hit("original", str(recorded.get("quote") or d.original), int(recorded.get("page") or 1),
                           [float(v) for v in recorded["box"]]))
    if not ev.get("page") and not recorded.get("page"):
        first = next((h for h in hits if h.which == "original"), None) or (hits[0] if hits else None)
        page = first.page if first else 1
    return DisputeEvidence(d.id, int(page), box, quote, hits)
