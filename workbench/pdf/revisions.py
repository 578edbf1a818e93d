"""Revisions: each incremental update of a file, and what it changed on the pages.

A file written once has one revision; each update appends objects and a cross-reference section
after the last %%EOF. `revisions(data)` opens each revision that stands alone and compares the text
drawn on each page with the revision before (text runs gone and new, images stamped on), for
`inspect` and the lint; `workbench.pdf.structure` marks text that a later revision superseded.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass, field

from workbench.core.schema import JSONObject
from workbench.pdf.budget import too_complex
from workbench.pdf.document import file_facts, mupdf, mupdf_switches_kept
from workbench.pdf.trace import text_runs


@dataclass
class Revision:
    """One revision of the file: the bytes up to its %%EOF, and what it changed on the pages."""

    number: int                                     # 1 = the original
    end: int                                        # byte offset of the end of this revision
    objects: int                                    # objects its cross-reference section lists
    pages_changed: list[int] = field(default_factory=list)   # 0-based
    removed: list[str] = field(default_factory=list)          # text runs gone from the pages
    added: list[str] = field(default_factory=list)            # text runs (and "[N images]") new on them

    def to_json(self) -> JSONObject:
        return {"number": self.number, "end": self.end, "objects": self.objects,
                "pages_changed": [p + 1 for p in self.pages_changed],
                "removed": self.removed, "added": self.added}


_EOF = re.compile(rb"%%EOF[ \t]*(?:\r\n|\r|\n)?")
_XREF_ROW = re.compile(rb"^\d{10} \d{5} [nf]", re.MULTILINE)


def _revision_ends(data: bytes) -> list[int]:
    """Byte offsets where each revision ends (after its %%EOF), in file order."""
    marks = list(_EOF.finditer(data))
    # A %%EOF with nothing but whitespace before the next one is no revision of its own (some
    # writers end a file with two): the last of them ends it.
    return [m.end() for i, m in enumerate(marks)
            if i == len(marks) - 1 or data[m.end():marks[i + 1].start()].strip()]


def _quiet_open(data: bytes):
    with mupdf_switches_kept() as tools:
        tools.mupdf_display_errors(False)
        try:
            return mupdf().open(stream=data, filetype="pdf")
        except Exception:  # an earlier revision that does not stand alone: skip it
            return None


def _standalone(data: bytes, ends: list[int]):
    """(end, the revision opened) of each revision that opens on its own, in file order; each
    closed when the caller goes on to the next."""
    for end in ends:
        doc = _quiet_open(data[:end])
        if doc is None or doc.is_repaired:
            # Not a revision that stands alone: a linearized file's first-page section, say,
            # which only opens by rebuilding the cross-reference table.
            if doc is not None:
                doc.close()
            continue
        try:
            yield end, doc
        finally:
            doc.close()


def _drawn(doc) -> set[int]:
    """The pages within the per-page limits (a page over one is read as empty in every revision)."""
    return {i for i in range(doc.page_count) if not too_complex(doc, i)}


def _traces_of(data: bytes) -> list[tuple[int, int, list[list[tuple]]]]:
    """(end, objects listed, text runs per page) for each revision that opens on its own."""
    ends = _revision_ends(data)
    if len(ends) < 2:
        return []
    out = []
    start = 0
    for end, doc in _standalone(data, ends):
        drawn = _drawn(doc)
        pages = [text_runs(doc[i]) if i in drawn else [] for i in range(doc.page_count)]
        out.append((end, len(_XREF_ROW.findall(data[start:end])), pages))
        start = end
    return out if len(out) > 1 else []


def _images_of(data: bytes, ends: list[int]) -> dict[int, list[int]]:
    """end -> images drawn on each page, for the revisions of these ends (read only for
    `revisions`: what the text checks compare is the text)."""
    out = {}
    for end, doc in _standalone(data, ends):
        drawn = _drawn(doc)
        out[end] = [len(doc[i].get_image_info()) if i in drawn else 0 for i in range(doc.page_count)]
    return out


_REV_CACHE: OrderedDict[bytes, list] = OrderedDict()


def revision_traces(data: bytes) -> list[tuple[int, int, list[list[tuple]]]]:
    """(end, objects listed, text runs per page) of each revision that opens on its own (empty
    for a file written once), worked out once per file."""
    facts = file_facts(data)
    if "revisions" not in facts:  # hashing a long file for each of its pages costs: once per bytes
        facts["revisions"] = _revisions_by_content(data)
    return facts["revisions"]


def _revisions_by_content(data: bytes) -> list[tuple[int, int, list[list[tuple]]]]:
    key = hashlib.sha1(data).digest()
    if key not in _REV_CACHE:
        _REV_CACHE[key] = _traces_of(data)
        while len(_REV_CACHE) > 6:
            _REV_CACHE.popitem(last=False)
    return _REV_CACHE[key]


def revisions(data: bytes) -> list[Revision]:
    """Every revision of the file and what it changed (empty for a file written once)."""
    traces = revision_traces(data)
    drawn_images = _images_of(data, [end for end, _, _ in traces])
    out: list[Revision] = []
    prev: list[list[tuple]] | None = None
    prev_images: list[int] = []
    for n, (end, objects, pages) in enumerate(traces, 1):
        images = drawn_images.get(end, [])
        rev = Revision(n, end, objects)
        if prev is not None:
            for i in range(max(len(pages), len(prev))):
                old = [t.strip() for t, *_ in prev[i]] if i < len(prev) else []
                new = [t.strip() for t, *_ in pages[i]] if i < len(pages) else []
                gone = [w for w in old if w not in new]
                came = [w for w in new if w not in old]
                drawn = (images[i] if i < len(images) else 0) - (prev_images[i] if i < len(prev_images) else 0)
                if drawn > 0:  # an image the update stamps on the page is a change a person sees
                    came.append(f"[{drawn} image{'s' if drawn > 1 else ''}]")
                if gone or came:
                    rev.pages_changed.append(i)
                    rev.removed += gone
                    rev.added += came
        out.append(rev)
        prev, prev_images = pages, images
    return out

