"""Evidence: where a string (an expected answer, a forbidden answer, a gold value) is on the pages.

API:

- `find_evidence(data, needle, dpi=150) -> list[Hit]`: every place the needle is drawn or hidden,
  searched in what the glyphs read as (zero-width characters dropped, look-alike letters folded).
  A `Hit` has `page` (0-based), `boxes` (PDF points, top-left origin, one per span it touches;
  multiply by dpi/72 for pixels of the rendered page), `visible` (every character it covers is
  visible), `text` (the matched text as the text layer holds it) and `exact` (the text layer
  spells it the same way the glyphs do: no zero-width or look-alike characters inside).
- `find_in_layers(data, needle) -> dict[str, list[int]]`: for each extractor (pypdf, pymupdf),
  the pages (0-based) whose extracted text contains the needle as written (no folding: a text
  pipeline reads what the layer says).
- `needle_pattern(needle, fold=True) -> re.Pattern`: the tolerant pattern used by both.

Matching is tolerant of how documents write things: case, extra spaces, line breaks, words
hyphenated across lines, text split into several runs, and money written as `$1,234.56`,
`1234.56`, `USD 1,234.56`, `1.234,56` or `$1,234.56` with trailing zeros; a money needle with a
currency does not match an amount in another currency, and never matches inside a larger number.
Text drawn only as pixels (an image) cannot be found here: that needs OCR.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from workbench.pdf.spans import Span, analyze_document, fold_char, fold_text

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"
_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u2032": "'", "\u201c": '"', "\u201d": '"'}
_SPACES = "\u00a0\u2007\u2009\u202f\u2002\u2003\u2004\u2005\u2006\u200a\u3000"

_CURRENCY = r"[$€£¥₹]|usd|eur|gbp|jpy|inr|chf|cad|aud|cny"
_CURRENCY_NAMES = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "₹": "inr"}
_MONEY = re.compile(
    rf"^\s*(?P<sign>[-+])?\s*(?P<pre>{_CURRENCY})?\s*(?P<sign2>-)?\s*"
    r"(?P<int>\d{1,3}(?:[,\u00a0\u202f ]\d{3})+|\d+)(?:\.(?P<dec>\d+))?"
    rf"\s*(?P<suf>{_CURRENCY})?\s*$",
    re.IGNORECASE,
)
_CURRENCY_AT = re.compile(rf"({_CURRENCY})", re.IGNORECASE)

# Between two characters of a needle: extra spaces, or a line break (after a hyphen or not).
_FILL = r"[ \t]*(?:-?\n[ \t]*)?"
_DIGIT_SEP = r"[,.'\u00a0\u202f ]?"


def canon_char(ch: str, fold: bool = False) -> str:
    """One character as the matcher compares it: lower case, plain dashes, quotes and spaces."""
    if fold:
        ch = fold_char(ch)
        if not ch:
            return ""
    if ch in _DASHES:
        return "-"
    if ch in _QUOTES:
        return _QUOTES[ch]
    if ch in _SPACES:
        return " "
    if ch == "\r":
        return "\n"
    return ch.lower()


@functools.lru_cache(maxsize=512)
def canon(text: str, fold: bool = True) -> tuple[str, list[int]]:
    """`text` canonicalised, and for each output character the index of its source character.

    With `fold`, as the glyphs read (see `spans.fold_text`); without, as the layer spells it.
    """
    if fold:
        text_in, src = fold_text(text)
    else:
        text_in, src = text, list(range(len(text)))
    if text_in.isascii():
        return text_in.lower().replace("\r", "\n"), src
    out: list[str] = []
    where: list[int] = []
    for ch, i in zip(text_in, src, strict=True):
        for c in canon_char(ch, False):
            out.append(c)
            where.append(i)
    return "".join(out), where


def _money_parts(needle: str) -> re.Match | None:
    m = _MONEY.match(needle)
    if m is None or (m["pre"] and m["suf"]):
        return None
    return m


def needle_pattern(needle: str, fold: bool = True) -> re.Pattern[str]:
    """The tolerant regular expression for `needle` (see the module docstring)."""
    money = _money_parts(needle)
    if money is not None:
        digits = re.sub(r"\D", "", money["int"])
        body = re.escape(digits[0]) + "".join(_DIGIT_SEP + re.escape(d) for d in digits[1:])
        if money["dec"]:
            body += r"[.,]" + re.escape(money["dec"]) + "0*"
        else:
            body += r"(?:[.,]0{1,2})?"
        return re.compile(rf"(?<![\d])(?<!\d[.,]){body}(?!\d)(?![.,]\d)")
    text, _ = canon(needle.strip(), fold)
    parts: list[str] = []
    pending_space = False
    for ch in text:
        if ch.isspace():
            pending_space = True
            continue
        if parts:
            parts.append(r"\s*" if pending_space else _FILL)
        parts.append(re.escape(ch))
        pending_space = False
    if not parts:
        return re.compile(r"(?!x)x")
    body = "".join(parts)
    first, last = text.strip()[0], text.strip()[-1]
    lead = r"(?<!\w)" if first.isalnum() else ""
    if first.isdigit():
        lead += r"(?<!\d[.,])"
    tail = r"(?!\w)" if last.isalnum() else ""
    if last.isdigit():
        tail += r"(?![.,]\d)"
    return re.compile(lead + body + tail)


def _currency_ok(needle: str, hay: str, start: int, end: int) -> bool:
    """False if the amount in `hay` is marked with a currency other than the needle's."""
    money = _money_parts(needle)
    if money is None:
        return True
    before = hay[max(0, start - 8):start].rstrip()
    after = hay[end:end + 5].lstrip()
    bare = re.sub(rf"(?:{_CURRENCY})\s*$", "", before, flags=re.IGNORECASE).rstrip()
    negative = bool(money["sign"] == "-" or money["sign2"])
    minus = bool(re.search(r"(?:^|[\s(:=])-$", bare)) or bare.endswith("(")
    if negative != minus:
        return False
    mark = money["pre"] or money["suf"]
    if not mark:
        return True
    want = _CURRENCY_NAMES.get(mark, mark.lower())
    found: list[str] = []
    m = re.search(rf"({_CURRENCY})\s*-?$", before, re.IGNORECASE)
    if m:
        found.append(m.group(1))
    m = re.match(rf"({_CURRENCY})(?![a-z])", after, re.IGNORECASE)
    if m:
        found.append(m.group(1))
    return all(_CURRENCY_NAMES.get(f, f.lower()) == want for f in found)


def _with_currency(needle: str, hay: str, start: int, end: int) -> tuple[int, int]:
    """Widen an amount's match to the currency marker and sign written next to it."""
    if _money_parts(needle) is None:
        return start, end
    m = re.search(rf"(?:-\s?)?(?:{_CURRENCY})\s?-?$", hay[max(0, start - 6):start], re.IGNORECASE)
    if m:
        start -= len(m.group())
    m = re.match(rf"\s?(?:{_CURRENCY})(?![a-z])", hay[end:end + 5], re.IGNORECASE)
    if m:
        end += len(m.group())
    return start, end


def search_text(needle: str, text: str, fold: bool = False) -> list[tuple[int, int]]:
    """Where `needle` occurs in plain `text`: (start, end) indices into `text`."""
    hay, where = canon(text, fold)
    pat = needle_pattern(needle, fold)
    out = []
    for m in pat.finditer(hay):
        if m.end() > m.start() and _currency_ok(needle, hay, m.start(), m.end()):
            a, b = _with_currency(needle, hay, m.start(), m.end())
            out.append((where[a], where[b - 1] + 1))
    return out


@dataclass
class Hit:
    page: int                                           # 0-based
    boxes: list[tuple[float, float, float, float]]      # PDF points, top-left origin
    visible: bool
    text: str
    exact: bool = True
    reasons: list[str] = field(default_factory=list)    # why hidden, from the spans it covers

    def to_json(self) -> dict[str, Any]:
        return {
            "page_number": self.page + 1,
            "boxes": [[round(v, 2) for v in b] for b in self.boxes],
            "visible": self.visible,
            "text": self.text,
            "exact": self.exact,
            "reasons": list(self.reasons),
        }


def _lines(spans: list[Span]) -> list[list[Span]]:
    """Spans grouped into visual lines (top to bottom), each sorted left to right."""
    lines: list[tuple[float, float, list[Span]]] = []
    for s in sorted(spans, key=lambda s: ((s.bbox[1] + s.bbox[3]) / 2, s.bbox[0])):
        y0, y1 = s.bbox[1], s.bbox[3]
        if lines:
            ly0, ly1, members = lines[-1]
            overlap = min(y1, ly1) - max(y0, ly0)
            if overlap >= 0.5 * max(1e-3, min(y1 - y0, ly1 - ly0)):
                members.append(s)
                lines[-1] = (min(ly0, y0), max(ly1, y1), members)
                continue
        lines.append((y0, y1, [s]))
    return [sorted(m, key=lambda s: s.bbox[0]) for _, _, m in lines]


def _stream(spans: list[Span]) -> tuple[str, list[tuple[int, int] | None]]:
    """The page text as a reader would run over it, with each character's (span, char) origin."""
    chars: list[str] = []
    origin: list[tuple[int, int] | None] = []
    index = {id(s): i for i, s in enumerate(spans)}
    for n, line in enumerate(_lines(spans)):
        if n:
            chars.append("\n")
            origin.append(None)
        prev: Span | None = None
        for s in line:
            if prev is not None:
                gap = s.bbox[0] - prev.bbox[2]
                size = max(1.0, min(s.size, prev.size))
                if (gap > 0.2 * size or gap < -0.5 * size) and not prev.text.endswith(" "):
                    chars.append(" ")
                    origin.append(None)
            k = index[id(s)]
            for j, ch in enumerate(s.text):
                chars.append(ch)
                origin.append((k, j))
            prev = s
    return "".join(chars), origin


def _hits_in(spans: list[Span], needle: str, pat: re.Pattern[str], page: int,
             memo: dict | None = None, kind: str = "") -> list[tuple[Hit, frozenset]]:
    if not spans:
        return []
    if memo is not None and kind in memo:
        text, origin, hay, where = memo[kind]
    else:
        text, origin = _stream(spans)
        hay, where = canon(text, fold=True)
        if memo is not None:
            memo[kind] = (text, origin, hay, where)
    out: list[tuple[Hit, frozenset]] = []
    for m in pat.finditer(hay):
        if m.end() <= m.start() or not _currency_ok(needle, hay, m.start(), m.end()):
            continue
        a, b = _with_currency(needle, hay, m.start(), m.end())
        a, b = where[a], where[b - 1] + 1
        cells = [origin[i] for i in range(a, b) if origin[i] is not None]
        if not cells:
            continue
        groups: dict[int, list[int]] = {}
        for k, j in cells:
            groups.setdefault(k, []).append(j)
        boxes = []
        visible = True
        reasons: list[str] = []
        exact = True
        for k, js in groups.items():
            span = spans[k]
            cb = [span.char_boxes[j] for j in js if j < len(span.char_boxes)] or [span.bbox]
            boxes.append((min(c[0] for c in cb), min(c[1] for c in cb),
                          max(c[2] for c in cb), max(c[3] for c in cb)))
            visible = visible and span.visible
            reasons.extend(r for r in span.reasons if r not in reasons)
            raw = "".join(span.text[j] for j in js)
            if canon(raw, fold=False)[0] != canon(raw, fold=True)[0]:
                exact = False
        out.append((Hit(page, boxes, visible, text[a:b], exact, reasons), frozenset(cells)))
    return out


def find_evidence(data: bytes, needle: str, dpi: int = 150, name: str = "PDF") -> list[Hit]:
    """Every place `needle` is on the pages, visible or hidden (see the module docstring)."""
    if not needle or not needle.strip():
        return []
    hits: list[Hit] = []
    for pa in analyze_document(data, dpi, name).pages:
        hits.extend(evidence_on_page(pa, needle))
    return hits


def evidence_on_page(pa, needle: str) -> list[Hit]:
    """Every place `needle` is on one analysed page (a `spans.PageAnalysis`)."""
    if not needle or not needle.strip():
        return []
    pat = needle_pattern(needle, fold=True)
    shown = [s for s in pa.spans if s.visible]
    hidden = [s for s in pa.spans if not s.visible]
    page_hits = _hits_in(shown, needle, pat, pa.page, pa.streams, "shown")
    page_hits += _hits_in(hidden, needle, pat, pa.page, pa.streams, "hidden")
    # Spans of both kinds together: a needle that straddles visible and hidden text.
    seen_boxes = {tuple(b) for h, _ in page_hits for b in h.boxes}
    for h, _cells in _hits_in(pa.spans, needle, pat, pa.page, pa.streams, "all"):
        if not any(tuple(b) in seen_boxes for b in h.boxes):
            page_hits.append((h, _cells))
    return [h for h, _ in page_hits]


def find_in_layers(data: bytes, needle: str, name: str = "PDF") -> dict[str, list[int]]:
    """For each extractor, the pages (0-based) whose text layer contains `needle` as written."""
    from workbench.pdf.layers import page_texts

    out: dict[str, list[int]] = {}
    for extractor, pages in page_texts(data, name).items():
        out[extractor] = [i for i, text in enumerate(pages) if search_text(needle, text, fold=False)]
    return out
