"""Work per page, counted before it is done: a hostile page costs milliseconds, not minutes.

Every per-page job (spans and their visibility, each extractor's text, a render) first asks
`too_complex(doc, index)`. It reads the page's dictionary and content streams without loading
the page in MuPDF (loading a page of 100,000 annotations takes 3 s, of an XObject fan-out 2 s,
and pymupdf holds the GIL throughout, so the workbench would stop answering keys):

    annotations        the length of the page's /Annots array
    XObject depth      form XObjects drawn inside form XObjects, deepest chain
    XObject visits     every `Do` the page's drawing runs, through every form (a form drawn ten
                       times that draws another ten times is 111 visits): counted per distinct
                       form once, so a fan-out of 10^10 visits costs ten scans
    operators          content stream operators, the forms' counted as often as they are drawn
    image pixels       the largest image the page draws, /Width x /Height from its dictionary
                       (a 4 KB stream of zeros can hold a 20,000 x 20,000 picture)

Operators are counted by a bounded scan of the stream's bytes (strings, names and comments
removed, then the runs of letters that remain), Flate streams decompressed a piece at a time, and
the count stops at `_COUNT_STOP` (20) times the limit. Over a limit, the page is "too complex:
skipped (N annotations)": it has no spans, no text, no render, and says which `--limit` raises
the limit (`workbench.core.limits`).

`PageClock` is the time per page (`page_seconds`): the spans analysis asks it between its
steps; past it, what is left of the page is judged by its drawing operators (a step that has
started in MuPDF cannot be stopped, which is why the counts come first).
"""

from __future__ import annotations

import re
import time
import zlib
from dataclasses import dataclass
from typing import Any

from workbench.core import limits

TOO_COMPLEX = "too complex: skipped"
# A count goes on to this many times its limit, so the message can say how far over it is
# (2 million operators, not "over 100,000"), then stops: the scan itself stays bounded (2 million
# operators are 12 MB of content, scanned in about 0.3 s).
_COUNT_STOP = 20
# Decompressed a piece at a time (bytes), so a Flate bomb is never held whole.
_PIECE = 1 << 20
# /Parent links followed to find a page's inherited /Resources.
_MAX_PARENTS = 64

_REF = re.compile(r"(\d+)\s+\d+\s+R\b")
_NAMED_REF = re.compile(r"/([^\s/\[\]()<>{}%]+)\s*(\d+)\s+\d+\s+R\b")
# What is not an operator but may hold letters: strings, hex strings, names, comments.
_NOT_OPERATORS = re.compile(rb"\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>{}%]*|%[^\r\n]*", re.S)
# What is left is counted as runs of letters (an operator is one: `Tj`, `d0`, `T*`), in C: the
# bytes mapped to "a" for a letter and " " for anything else, then the starts of runs counted.
_LETTERS = bytes(ord("a") if chr(b).isascii() and (chr(b).isalpha() or chr(b) in "'\"") else ord(" ")
                 for b in range(256))
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do(?![A-Za-z0-9*])")


@dataclass
class PageCost:
    """What drawing a page takes, as far as it was counted (a count may stop past its limit)."""

    annotations: int = 0
    operators: int = 0
    xobject_visits: int = 0
    xobject_depth: int = 0
    image_pixels: int = 0


def too_complex(doc: Any, index: int) -> str:
    """'' when page `index` of the open pymupdf `doc` is within every per-page limit, else the
    one line saying which it is over and how to raise it."""
    try:
        cost = page_cost(doc, index)
    except _Over as over:
        return over.line
    except Exception:  # a dictionary MuPDF cannot read: the page's own analysis will say so
        return ""
    return _over(cost)


def _over(cost: PageCost) -> str:
    for name, count, what in (
            ("page_annotations", cost.annotations, "annotations"),
            ("xobject_depth", cost.xobject_depth, "XObjects nested deep"),
            ("xobject_visits", cost.xobject_visits, "XObject visits"),
            ("page_operators", cost.operators, "operators"),
            ("image_pixels", cost.image_pixels, "pixels in one image")):
        if count > limits.get(name):
            return limits.exceeded(name, f"{TOO_COMPLEX} ({count:,} {what})")
    return ""


class _Over(Exception):
    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


def page_cost(doc: Any, index: int) -> PageCost:
    """The counts of page `index` (see the module docstring), raising `_Over` as soon as a
    count that is expensive to go on with is past its limit."""
    xref = doc.page_xref(index)
    cost = PageCost(annotations=_annotations(doc, xref))
    if cost.annotations > limits.get("page_annotations"):
        return cost  # (nothing else needs counting)
    walk = _Walk(doc, cost)
    own_ops, calls = walk.scan_streams(_contents(doc, xref))
    names = _xobjects(doc, _resources_of(doc, xref))
    ops, visits, depth = own_ops, 0, 0
    for name in calls:
        target = names.get(name)
        if target is None:
            continue
        t_ops, t_visits, t_depth = walk.form(target, names, 1)
        ops, visits, depth = ops + t_ops, visits + t_visits, max(depth, t_depth)
        walk.follow(visits, ops)
    cost.operators, cost.xobject_visits, cost.xobject_depth = ops, visits, depth
    return cost


class _Walk:
    """The form XObjects under one page, each scanned once (memoised by xref)."""

    def __init__(self, doc: Any, cost: PageCost) -> None:
        self.doc, self.cost = doc, cost
        self.memo: dict[int, tuple[int, int, int]] = {}
        self.open: set[int] = set()        # forms on the current chain (a cycle draws nothing)
        self.scanned = 0                   # distinct streams scanned: bounded by the visit limit
        self.steps = 0                     # `Do`s followed: bounded too
        self.max_depth = int(limits.get("xobject_depth"))
        self.max_visits = int(limits.get("xobject_visits"))
        self.max_ops = int(limits.get("page_operators"))

    def follow(self, visits: int, ops: int) -> None:
        """One `Do` followed. Memoised forms make the counts exact at the cost of one step per
        `Do` written (a fan-out of a billion visits is 100 steps); the steps are bounded."""
        self.steps += 1
        if self.steps > self.max_visits * _COUNT_STOP:
            self.check(visits, ops, stop=True)

    def check(self, visits: int, ops: int, stop: bool = False) -> None:
        """Stop counting far past a limit (the visits named first: they multiply the operators)."""
        if stop or visits > self.max_visits * _COUNT_STOP or ops > self.max_ops * _COUNT_STOP:
            if visits > self.max_visits:
                raise _Over(limits.exceeded("xobject_visits", f"{TOO_COMPLEX} (over {visits:,} XObject visits)"))
            raise _Over(limits.exceeded("page_operators", f"{TOO_COMPLEX} (over {ops:,} operators)"))

    def form(self, xref: int, inherited: dict[str, int], depth: int) -> tuple[int, int, int]:
        """(operators, visits, depth) of drawing XObject `xref` once, itself included."""
        if depth > self.max_depth:
            raise _Over(limits.exceeded("xobject_depth", f"{TOO_COMPLEX} (XObjects nested over "
                                                         f"{self.max_depth} deep)"))
        if xref in self.memo:
            return self.memo[xref]
        if xref in self.open:
            return (0, 0, 0)  # a form that draws itself: MuPDF refuses the cycle
        doc = self.doc
        if doc.xref_get_key(xref, "Subtype")[1] != "/Form":
            self.memo[xref] = (0, 1, depth)  # an image (or nothing): one visit
            self.image(xref)
            return self.memo[xref]
        self.scanned += 1
        if self.scanned > self.max_visits:
            raise _Over(limits.exceeded("xobject_visits", f"{TOO_COMPLEX} (over {self.scanned - 1:,} "
                                                          "distinct XObjects)"))
        self.open.add(xref)
        try:
            ops, calls = self.scan_streams([xref])
            own = _xobjects(doc, ("form", xref))
            names = own if doc.xref_get_key(xref, "Resources")[0] != "null" else inherited
            visits, deepest = 1, depth
            for name in calls:
                target = names.get(name)
                if target is None:
                    continue
                t_ops, t_visits, t_depth = self.form(target, names, depth + 1)
                ops, visits, deepest = ops + t_ops, visits + t_visits, max(deepest, t_depth)
                self.follow(visits, ops)
        finally:
            self.open.discard(xref)
        self.memo[xref] = (ops, visits, deepest)
        return self.memo[xref]

    def image(self, xref: int) -> None:
        """An image drawn: its pixels, as its dictionary says (nothing is decoded)."""
        pixels = 1
        for key in ("Width", "Height"):
            kind, value = self.doc.xref_get_key(xref, key)
            if kind == "xref":   # (an indirect number, as a writer may give it)
                value = self.doc.xref_object(int(value.split()[0])).strip()
            try:   # (a real number is read as MuPDF reads it, whole)
                pixels *= max(0, int(float(value)))
            except (ValueError, OverflowError):   # (not a number, or not a finite one: no picture)
                pixels = 0
        self.cost.image_pixels = max(self.cost.image_pixels, pixels)
        if pixels > limits.get("image_pixels"):
            raise _Over(limits.exceeded("image_pixels", f"{TOO_COMPLEX} ({pixels:,} pixels in one image)"))

    def scan_streams(self, xrefs: list[int]) -> tuple[int, list[str]]:
        """(operators, names drawn with `Do`, in order) of these streams, read as one."""
        ops, calls = 0, []
        stop = self.max_ops * _COUNT_STOP
        for xref in xrefs:
            for piece in _pieces(self.doc, xref):
                ops += _operators(piece)
                if b"Do" in piece:
                    calls += [m.decode("latin-1") for m in _DO.findall(piece)]
                if ops > stop or len(calls) > self.max_visits * _COUNT_STOP:
                    self.check(len(calls), ops)
                    return ops, calls
        return ops, calls


def _operators(piece: bytes) -> int:
    """The operators in a piece of a content stream (strings, names and comments left out)."""
    if any(c in piece for c in (b"(", b"<", b"/", b"%")):
        piece = _NOT_OPERATORS.sub(b" ", piece)
    runs = piece.translate(_LETTERS)
    return runs.count(b" a") + runs.startswith(b"a")


def _pieces(doc: Any, xref: int):
    """The decoded stream `xref` a piece at a time, each cut after white space so no token is
    split (Flate alone is decompressed here a piece at a time; other filters by MuPDF, whole)."""
    if not doc.xref_is_stream(xref):
        return
    kind, value = doc.xref_get_key(xref, "Filter")
    parms = doc.xref_get_key(xref, "DecodeParms")[0]
    if kind == "name" and value == "/FlateDecode" and parms == "null":
        raw = doc.xref_stream_raw(xref) or b""
        inflate = zlib.decompressobj()
        chunks = _inflated(inflate, raw)
    else:
        chunks = iter([doc.xref_stream(xref) or b""])
    carry = b""
    for chunk in chunks:
        data = carry + chunk
        cut = max(data.rfind(b" "), data.rfind(b"\n"), data.rfind(b"\r"))
        if cut < 0 or len(data) - cut > _PIECE:  # no white space to cut at: take it whole
            cut = len(data) - 1
        yield data[:cut + 1]
        carry = data[cut + 1:]
    if carry:
        yield carry


def _inflated(inflate: Any, raw: bytes):
    pending = raw
    while pending:
        try:
            out = inflate.decompress(pending, _PIECE)
        except zlib.error:  # a broken stream: what came out is what MuPDF would draw, at most
            return
        pending = inflate.unconsumed_tail
        if out:
            yield out
        elif not pending:
            break
    try:
        rest = inflate.flush()
    except zlib.error:
        return
    if rest:
        yield rest


def _annotations(doc: Any, xref: int) -> int:
    kind, value = doc.xref_get_key(xref, "Annots")
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]), compressed=True)
    elif kind != "array":
        return 0
    return len(_REF.findall(value)) + value.count("<<")


def _contents(doc: Any, xref: int) -> list[int]:
    kind, value = doc.xref_get_key(xref, "Contents")
    if kind == "xref":
        target = int(value.split()[0])
        if doc.xref_is_stream(target):
            return [target]
        value = doc.xref_object(target, compressed=True)
    elif kind != "array":
        return []
    return [int(n) for n in _REF.findall(value)]


def _resources_of(doc: Any, xref: int) -> tuple[str, int]:
    """Where a page's resources are: its own dictionary's, or the nearest ancestor's."""
    for _ in range(_MAX_PARENTS):
        if doc.xref_get_key(xref, "Resources")[0] != "null":
            return ("page", xref)
        kind, parent = doc.xref_get_key(xref, "Parent")
        if kind != "xref":
            break
        xref = int(parent.split()[0])
    return ("page", xref)


def _xobjects(doc: Any, where: tuple[str, int]) -> dict[str, int]:
    """Name -> xref of the XObjects in the resources of `where` (a page or a form's xref)."""
    kind, value = doc.xref_get_key(where[1], "Resources/XObject")
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]), compressed=True)
    elif kind != "dict":
        return {}
    return {name: int(ref) for name, ref in _NAMED_REF.findall(value)}


def page_size(doc: Any, index: int) -> tuple[float, float]:
    """Page `index`'s width and height in points as shown (its crop box, turned by /Rotate),
    read from its dictionary: for a page over a count of work, which is never loaded."""
    box = doc.page_cropbox(index)
    turned = page_rotation(doc, index) % 180 != 0
    return (box.height, box.width) if turned else (box.width, box.height)


def page_rotation(doc: Any, index: int) -> int:
    kind, turn = doc.xref_get_key(doc.page_xref(index), "Rotate")
    return int(turn) % 360 if kind == "int" else 0


class PageClock:
    """The time one page's analysis may take (`page_seconds`), from its start."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.seconds = float(limits.get("page_seconds"))

    def over(self) -> bool:
        return time.perf_counter() - self.started > self.seconds

    def line(self, what: str) -> str:
        """`what` was not done in time, as one line naming the limit."""
        return limits.exceeded("page_seconds", what)
