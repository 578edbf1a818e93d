"""Layer differences: what each reader of a page gets, and where they part ways.

API:

- `diff_page(spans, texts, page) -> LayerDiff`: for one page (0-based), from its analysed spans
  and each extractor's text of it: the text present only in the text layer (hidden spans, with
  their reasons), visible words each extractor misses, the words where pypdf and pymupdf
  disagree, and whether they read the shared words in one order. (`textlayer.layer_diff` reads
  a PDF's page for it.)
- `words(text)`: words as compared across layers.

Words are compared as the glyphs read (zero-width characters dropped, look-alikes folded) for
what is visible, and as written for each extractor: a word a pipeline reads with a Cyrillic letter
or a zero-width space inside is not the word on the page, so it counts as missing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from workbench.core.schema import JSONObject
from workbench.pdf.spans import Span

_STRIP = ".,;:!?()[]{}\"'"


def words(text: str) -> list[str]:
    """Words as compared across layers: lower case, outer punctuation stripped."""
    return _normalised(text.split())  # at every run of Unicode white space (as regex \s)


def _normalised(tokens: list[str]) -> list[str]:
    out = []
    for w in tokens:
        w = w.strip(_STRIP).lower()
        if w:
            out.append(w)
    return out


@dataclass
class LayerDiff:
    """How a page's text layers differ from what it shows, and from each other."""

    page: int                                           # 0-based
    hidden: list[Span]                                  # text only in the text layer
    missing: dict[str, list[str]]                       # extractor -> visible words it lacks
    only_in: dict[str, list[str]]                       # extractor -> words the other lacks
    same_order: bool                                    # shared words read in the same order
    similarity: float                                   # 0..1, word sequences pypdf vs pymupdf
    differs: list[Span] = field(default_factory=list)   # visible spans whose layer text differs

    def to_json(self) -> JSONObject:
        return {
            "page_number": self.page + 1,
            "hidden": [{"text": s.text, "bbox": [round(v, 2) for v in s.bbox], "reasons": s.reasons}
                       for s in self.hidden],
            "differs": [{"text": s.text, "seen": s.seen, "issues": s.layer_issues} for s in self.differs],
            "missing": self.missing,
            "only_in": self.only_in,
            "same_order": self.same_order,
            "similarity": round(self.similarity, 3),
        }


def _multiset_minus(a: list[str], b: list[str]) -> list[str]:
    left = Counter(a) - Counter(b)
    out = []
    for w in a:  # keep reading order
        if left[w] > 0:
            out.append(w)
            left[w] -= 1
    return out


def diff_page(spans: list[Span], texts: dict[str, str], page: int) -> LayerDiff:
    """The layer differences of one page, from its spans and each extractor's text of it.

    Most pages read the same in every layer, so the layers' tokens (text split at spaces) are
    compared first: equal tokens give equal words, and then nothing is missing and the order is
    the same, without counting words."""
    # (one text for all visible spans: splitting "a b" gives the tokens of "a" and of "b")
    visible_tokens = " ".join([s.seen for s in spans if s.visible]).split()
    tokens = {name: text.split() for name, text in texts.items()}
    normal: dict[int, list[str]] = {}  # id(token list) -> its words, each computed once

    def words_of(toks: list[str]) -> list[str]:
        hit = normal.get(id(toks))
        if hit is None:
            hit = normal[id(toks)] = _normalised(toks)
        return hit

    missing = {name: [] if toks == visible_tokens else _multiset_minus(words_of(visible_tokens), words_of(toks))
               for name, toks in tokens.items()}
    empty: list[str] = []
    ta, tb = tokens.get("pypdf", empty), tokens.get("pymupdf", empty)
    if ta == tb:  # the same words in the same order
        only_in: dict[str, list[str]] = {"pypdf": [], "pymupdf": []}
        same_order, similarity = True, 1.0
    else:
        a, b = words_of(ta), words_of(tb)
        only_in = {"pypdf": _multiset_minus(a, b), "pymupdf": _multiset_minus(b, a)}
        common = Counter(a) & Counter(b)
        same_order = _filter(a, common) == _filter(b, common)
        similarity = _similarity(a, b)
    return LayerDiff(
        page=page,
        hidden=[s for s in spans if not s.visible],
        missing=missing,
        only_in=only_in,
        same_order=same_order,
        similarity=similarity,
        differs=[s for s in spans if s.visible and s.layer_issues],
    )


def _similarity(a: list[str], b: list[str]) -> float:
    """difflib's ratio of two word sequences; equal ones (most pages) are 1.0 without the 11 ms
    a page of text costs difflib, which compares them pairwise."""
    if a == b:
        return 1.0
    # (difflib with heapq, loaded for the first page whose layers differ: the workbench's first
    # frame and `grade --explain` of most pages need neither)
    import difflib

    return difflib.SequenceMatcher(a=a, b=b, autojunk=False).ratio()


def _filter(ws: list[str], keep: Counter) -> list[str]:
    left = Counter(keep)
    out = []
    for w in ws:
        if left[w] > 0:
            out.append(w)
            left[w] -= 1
    return out
