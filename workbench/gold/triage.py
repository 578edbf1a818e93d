"""The triage queue: disputes in the order to decide them, their page evidence, and progress.

All take the suite folder; none imports Textual.

- `triage_queue(folder) -> list[QueueItem]`: every dispute, open ones first, then deferred, then
  decided; within each group by impact (saved verdicts the decision would flip, computed from the
  suite's saved runs), highest first. `QueueItem.flips` lists those verdicts.
- `evidence_for(folder, dispute_id) -> DisputeEvidence`: the page to show, the evidence box, and
  every place on the pages where the original and the proposed values occur (`Hit.visible` is
  False for a place only in the text layer).
- `acceptance_warnings(folder, id) -> list[str]`: what accepting would leave wrong in the key
  (an expected value that is also a forbidden answer, a value that changed since it was opened).
- `progress(folder) -> Progress`: `decided` (accepted + rejected) of `total`, with counts per status.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.checks.search import find_evidence
from workbench.core.case import Case
from workbench.core.extraction import Evidence
from workbench.core.layout import run_files
from workbench.core.schema import JSONObject
from workbench.core.suite import load_suite
from workbench.gold import versions
from workbench.gold.journal import STATUSES, Dispute, get_dispute, load_disputes
from workbench.gold.keys import key_conflicts, parse_path
from workbench.gold.regrade import Flip, dispute_flips
from workbench.pdf.document import read_pdf_bytes


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

    def to_json(self) -> JSONObject:
        return {"total": self.total, "decided": self.decided, "open": self.open,
                "accepted": self.accepted, "rejected": self.rejected, "deferred": self.deferred}


def progress(folder: Path) -> Progress:
    disputes = load_disputes(folder)
    count = {s: sum(1 for d in disputes if d.status == s) for s in STATUSES}
    return Progress(len(disputes), count["open"], count["accepted"], count["rejected"], count["deferred"])


@dataclass
class QueueItem:
    dispute: Dispute
    impact: int                   # saved verdicts the decision would flip
    flips: list[Flip]             # one per flipped verdict


_GROUP = {"open": 0, "deferred": 1, "accepted": 2, "rejected": 2}


def triage_queue(folder: Path, runs: list[Path] | None = None) -> list[QueueItem]:
    """Every dispute, open first, then deferred, then decided; by impact (highest first) within each."""
    folder = Path(folder)
    disputes = load_disputes(folder)
    flips = dispute_flips(folder, disputes, run_files(folder) if runs is None else runs)
    items = [QueueItem(d, len(flips.get(d.id, [])), flips.get(d.id, [])) for d in disputes]
    items.sort(key=lambda it: (_GROUP[it.dispute.status], -it.impact, it.dispute.id))
    return items


def acceptance_warnings(folder: Path, dispute_id: str) -> list[str]:
    """What would be wrong with the key if the dispute were accepted (e.g. it expects a forbidden answer)."""
    d = get_dispute(folder, dispute_id)
    latest = versions.gold_keys(folder, "latest").keys
    if d.case_id not in latest:
        return [f"case {d.case_id!r} is no longer in the suite"]
    if d.status == "accepted":   # already in latest gold
        return key_conflicts(latest[d.case_id])
    _, notes = versions.apply_disputes(latest[d.case_id], [d])
    return [n.split(": ", 1)[1] for n in notes]


@dataclass
class Hit:
    which: str                    # "original" | "proposed" | "evidence"
    text: str
    page: int                     # from 1
    box: list[float]              # points, top-left origin
    visible: bool = True          # False: only in the text layer (hidden text)

    def to_json(self) -> JSONObject:
        return {"which": self.which, "text": self.text, "page": self.page, "box": self.box,
                "visible": self.visible}


@dataclass
class DisputeEvidence:
    dispute_id: str
    page: int                     # the page to show first (from 1)
    box: list[float] | None       # the dispute's evidence box, else the gold's, else None
    quote: str | None
    hits: list[Hit]               # where the original, proposed and quoted text occur

    def to_json(self) -> JSONObject:
        return {"dispute": self.dispute_id, "page": self.page, "box": self.box, "quote": self.quote,
                "hits": [h.to_json() for h in self.hits]}


def _gold_evidence(case: Case, field_path: str) -> Evidence | None:
    """Per-field evidence the case's structured gold records for `field_path`, if any."""
    if case.gold is None:
        return None
    parts = parse_path(field_path)
    if parts[:2] == ["gold", "expected"]:
        field_path = field_path.split(".", 2)[2]
    return case.gold.evidence_of(field_path)


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

    Uses the forensics area's tolerant search (`workbench.checks.search.find_evidence`: money
    written differently, line breaks, split runs, hidden text); text drawn only as pixels is not
    found (that needs OCR).
    """
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
    folder = Path(folder)
    d = get_dispute(folder, dispute_id)
    suite = load_suite(folder)
    case = suite.case(d.case_id)
    recorded = _gold_evidence(case, d.field) or Evidence()    # gold v1: the case as written
    ev = d.evidence or Evidence()
    page = ev.page or recorded.page or 1
    box = list(ev.box or recorded.box or ()) or None
    quote = ev.quote or recorded.quote
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
    if recorded.box and not any(h.which == "original" for h in hits):
        # Printed in another form (a date written out, say): the gold knows where it is.
        hits.insert(0, Hit("original", str(recorded.quote or d.original), recorded.page or 1,
                           [float(v) for v in recorded.box]))
    if not ev.page and not recorded.page:
        first = next((h for h in hits if h.which == "original"), None) or (hits[0] if hits else None)
        page = first.page if first else 1
    return DisputeEvidence(d.id, int(page), box, quote, hits)
