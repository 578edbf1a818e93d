"""Scan degradation: render a PDF's pages, age them like a scan, and write an image-only PDF.

The spec (`DegradeSpec`: a tier, knob overrides, the text layer, the DPI) and its knob table are
the case's, in `workbench.core.scan`; this module applies them (the pixels are aged by
`workbench.generators.aging`). `apply_degrade` returns the scanned PDF and the normalised spec; giving that spec
back reproduces the same bytes. Randomness comes only from `rng_for(seed, ...)`.
"""

from __future__ import annotations

import io
import math
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from PIL import Image
from reportlab.pdfbase.pdfmetrics import stringWidth

from workbench.core.errors import UserError
from workbench.core.scan import VERSION, DegradeSpec
from workbench.core.schema import JSONObject
from workbench.generators.aging import degrade_image, degrade_pixels, jpeg_bytes
from workbench.generators.base import AnswerKey, rng_for
from workbench.pdf.document import open_fitz
from workbench.text.search import fold_word

_PUNCT = "\"'()[]{}.,;:!?\u2018\u2019\u201c\u201d\u2014\u2013-"


def resolve_knobs(spec: DegradeSpec | Mapping[str, Any]) -> dict[str, float | int]:
    """Every knob's value for a spec: the tier's preset, then the overrides, then `dpi`."""
    return DegradeSpec.parse(spec).knobs()


def normalise_spec(spec: DegradeSpec | Mapping[str, Any]) -> JSONObject:
    """The spec as recorded: tier, numeric overrides, text layer, dpi, version and resolved knobs."""
    return DegradeSpec.parse(spec).to_json()


def render_degraded(pdf: bytes, spec: DegradeSpec | Mapping[str, Any], seed: int, page: int = 0):
    """Page `page` of `pdf` as the scan would show it (a PIL image), without writing a PDF."""
    knobs = resolve_knobs(spec)
    doc = _open(pdf)
    try:
        img = _render(doc[page], int(knobs["dpi"]))
    finally:
        doc.close()
    return degrade_image(img, spec, seed, page)


def _open(pdf: bytes):
    return open_fitz(pdf, "PDF to degrade")


def _render(page, dpi: int):
    pix = page.get_pixmap(dpi=dpi, alpha=False)
    return Image.frombytes("RGB", (pix.width, pix.height), pix.samples)


# ---- the text layer ------------------------------------------------------------------------------

@dataclass
class _Word:
    text: str
    x: float          # baseline origin, PDF points from the top-left (as pymupdf gives them)
    y: float
    size: float
    width: float      # advance along the line, in points
    dir: tuple[float, float]
    last_in_line: bool


def _page_words(page) -> list[_Word]:
    """Words with baseline origin, size and width, from the page's text layer.

    pymupdf gives text in the unrotated page's space; a page with /Rotate renders turned, so the
    words are turned with it.
    """
    words: list[_Word] = []
    m = page.rotation_matrix
    raw = page.get_text("rawdict", flags=0)
    for block in raw.get("blocks", []):
        for line in block.get("lines", []):
            chars = [(ch, span["size"]) for span in line.get("spans", []) for ch in span.get("chars", [])]
            direction = tuple(line.get("dir", (1.0, 0.0)))
            line_words: list[_Word] = []
            current: list = []
            for ch, size in [*chars, (None, 0)]:
                if ch is not None and not ch["c"].isspace():
                    current.append((ch, size))
                    continue
                if current:
                    first, last = current[0][0], current[-1][0]
                    ox, oy = first["origin"]
                    lx, ly = last["origin"]
                    advance = (lx - ox) * direction[0] + (ly - oy) * direction[1]
                    bx0, by0, bx1, by1 = last["bbox"]
                    advance += abs(bx1 - bx0) if abs(direction[0]) >= abs(direction[1]) else abs(by1 - by0)
                    line_words.append(_Word("".join(c["c"] for c, _ in current), ox, oy,
                                            current[0][1], advance, direction, False))
                    current = []
            if line_words and page.rotation:
                for w in line_words:
                    w.x, w.y = w.x * m.a + w.y * m.c + m.e, w.x * m.b + w.y * m.d + m.f
                    w.dir = (w.dir[0] * m.a + w.dir[1] * m.c, w.dir[0] * m.b + w.dir[1] * m.d)
            if line_words:
                line_words[-1].last_in_line = True
                words.extend(line_words)
    return words


_STOP = {"the", "a", "an", "and", "or", "of", "to", "in", "on", "at", "for", "by", "with", "is", "was"}
_DRIFT_WORDS = (
    "harbour", "lantern", "orchard", "meadow", "thunder", "carriage", "kettle", "parlour", "window",
    "garden", "winter", "candle", "pocket", "ladder", "silver", "bridge", "market", "hollow",
    "marble", "saddle", "feather", "timber", "velvet", "copper", "basket", "cellar", "needle",
)


def _drift_targets(key: AnswerKey, present: set[str]) -> list[str]:
    """The values of the answer to change: the answer's numbers, its words, or its tokens."""
    tokens = key.expected_answer.split()
    if tokens and len(tokens) <= 4:
        if any(ch.isdigit() for ch in key.expected_answer):
            picked = [t for t in tokens if any(ch.isdigit() for ch in t)]
        else:
            picked = [t for t in tokens if fold_word(t) not in _STOP]
        targets = [t.strip(_PUNCT) for t in picked]
        if all(fold_word(t) in present for t in targets):
            return [t for t in targets if t]
    targets = [t.strip(_PUNCT) for t in key.expected_tokens if fold_word(t) in present]
    return [t for t in targets if t]


def _drift_value(value: str, rng, taken: set[str]) -> str:
    if any(ch.isdigit() for ch in value):
        digits = [i for i, ch in enumerate(value) if ch.isdigit()]
        for _ in range(100):
            chars = list(value)
            for i in rng.sample(digits, min(len(digits), 1 + (len(digits) > 3))):
                lo = 1 if i == digits[0] and len(digits) > 1 else 0
                chars[i] = str(rng.choice([d for d in range(lo, 10) if str(d) != value[i]]))
            out = "".join(chars)
            if out != value and out.casefold() not in taken:
                return out
    pool = [w for w in _DRIFT_WORDS if w not in taken and w != value.casefold()]
    word = rng.choice(pool)
    if value[:1].isupper():
        word = word.upper() if value.isupper() and len(value) > 1 else word.capitalize()
    return word


def _apply_drift(words: list[list[_Word]], mapping: Mapping[str, str]) -> int:
    """Replace every occurrence of each original (case-insensitive, punctuation kept); count them."""
    by_core = {fold_word(k): v for k, v in mapping.items()}
    hits = 0
    for page_words in words:
        for w in page_words:
            core = fold_word(w.text)
            if core in by_core:
                start = len(w.text) - len(w.text.lstrip(_PUNCT))
                end = start + len(w.text.strip(_PUNCT))
                w.text = w.text[:start] + by_core[core] + w.text[end:]
                hits += 1
    return hits


# ---- the PDF -------------------------------------------------------------------------------------

def _pdf_string(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _num(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _text_ops(words: list[_Word], page_h: float, rotation: float, cx: float, cy: float) -> bytes:
    if not words:
        return b""
    out = [b"q"]
    if rotation:
        a = math.radians(rotation)
        c, s = math.cos(a), math.sin(a)
        e, f = cx - c * cx + s * cy, cy - s * cx - c * cy
        out.append(f"{_num(c)} {_num(s)} {_num(-s)} {_num(c)} {_num(e)} {_num(f)} cm".encode())
    out.append(b"BT 3 Tr")
    current_size = None
    for w in words:
        text = w.text if w.last_in_line else w.text + " "
        size = max(w.size, 1.0)
        if size != current_size:
            out.append(f"/F1 {_num(size)} Tf".encode())
            current_size = size
        natural = stringWidth(w.text.encode("cp1252", errors="replace").decode("cp1252"), "Helvetica", size)
        h = w.width / natural if natural > 0 and w.width > 0 else 1.0
        dx, dy = w.dir[0], -w.dir[1]   # pymupdf's y grows downwards, PDF's upwards
        out.append(f"{_num(dx * h)} {_num(dy * h)} {_num(-dy)} {_num(dx)} {_num(w.x)} {_num(page_h - w.y)} Tm "
                   .encode() + _pdf_string(text) + b" Tj")
    out.append(b"ET Q")
    return b"\n".join(out)


def _write_pdf(pages: list[tuple[float, float, _Encoded, bytes]]) -> bytes:
    """An image-only PDF: each page (width, height, image, text operators), no dates or IDs."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def stream(head: str, data: bytes) -> bytes:
        return f"<< {head} /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"

    catalog = add(b"")
    pages_obj = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for width, height, image, text in pages:
        img_head = (f"/Type /XObject /Subtype /Image /Width {image.w} /Height {image.h} "
                    f"/ColorSpace /{image.space} /BitsPerComponent 8 /Filter /{image.filter}")
        img = add(stream(img_head, image.data))
        content = f"q {_num(width)} 0 0 {_num(height)} 0 0 cm /Im0 Do Q\n".encode() + text
        packed = zlib.compress(content, 6)
        contents = add(stream("/Filter /FlateDecode", packed))
        kids.append(add(
            f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {_num(width)} {_num(height)}] "
            f"/Resources << /XObject << /Im0 {img} 0 R >> /Font << /F1 {font} 0 R >> >> "
            f"/Contents {contents} 0 R >>".encode()))
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_obj} 0 R >>".encode()
    objects[pages_obj - 1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                              f"/Count {len(kids)} >>").encode()
    info = add(b"<< /Producer (pdfworkbench scan degradation) >>")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(f"{n} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for off in offsets:
        out.write(f"{off:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
              f"startxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


@dataclass(frozen=True)
class _Encoded:
    """A page's scan as the PDF's image holds it: its size, colour space, filter and bytes."""

    w: int
    h: int
    space: Literal["DeviceGray", "DeviceRGB"]
    filter: Literal["DCTDecode", "FlateDecode"]
    data: bytes


def _encode_image(img, quality: int) -> _Encoded:
    space: Literal["DeviceGray", "DeviceRGB"] = "DeviceGray" if img.mode == "L" else "DeviceRGB"
    if quality:
        return _Encoded(img.width, img.height, space, "DCTDecode", jpeg_bytes(img, quality))
    return _Encoded(img.width, img.height, space, "FlateDecode", zlib.compress(img.tobytes(), 6))


def _keep_clear(words: list[_Word], key: AnswerKey, dpi: int) -> list[tuple[float, float, float, float]]:
    """Pixel boxes of the words a reader must see: the expected tokens, and a short answer's words."""
    wanted = {fold_word(t) for t in key.expected_tokens}
    if len(key.expected_answer.split()) <= 6:
        wanted |= {fold_word(t) for t in key.expected_answer.split()}
    wanted.discard("")
    k = dpi / 72.0
    boxes = []
    for w in words:
        if fold_word(w.text) not in wanted:
            continue
        (dx, dy), up = w.dir, (w.dir[1], -w.dir[0])  # "up" from the baseline, y growing downwards
        xs, ys = [], []
        for along in (0.0, w.width):
            for rise in (-0.3 * w.size, 0.85 * w.size):
                xs.append((w.x + dx * along + up[0] * rise) * k)
                ys.append((w.y + dy * along + up[1] * rise) * k)
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


# ---- the pipeline --------------------------------------------------------------------------------

def apply_degrade(pdf: bytes, spec: DegradeSpec | Mapping[str, Any], seed: int,
                  key: AnswerKey) -> tuple[bytes, DegradeSpec]:
    """Scan `pdf` as `spec` says; return the scanned PDF and the spec to record (`.to_json()`).

    With `text_layer = "drifted"`, the answer's values in the text layer are replaced: the mapping
    is recorded as `drifted` ({original: replacement}; a spec that names one reuses it), and a
    short expected answer as the drifted layer reads it as `drifted_answer` (what a reader of the
    text layer answers). `key` is read, never changed.
    """
    asked = DegradeSpec.parse(spec)
    if asked.version != VERSION:
        raise UserError(f"degraded with scan pipeline version {asked.version}, installed version is {VERSION}: "
                        "this scan cannot be made again here; rebuild the suite to scan it anew")
    recorded = asked.request()
    knobs = asked.knobs()
    dpi, quality, rotation = int(knobs["dpi"]), int(knobs["jpeg_quality"]), float(knobs["rotation"])
    doc = _open(pdf)
    try:
        sizes = [(p.rect.width, p.rect.height) for p in doc]
        words = [_page_words(p) for p in doc]
        images = [_encode_image(degrade_pixels(_render(p, dpi), knobs, seed, i,
                                                _keep_clear(words[i], key, dpi) if knobs["dirt"] else ()),
                                quality)
                  for i, p in enumerate(doc)]
    finally:
        doc.close()
    if asked.text_layer == "none":
        words = [[] for _ in sizes]

    if asked.text_layer == "drifted":
        present = {fold_word(w.text) for page in words for w in page}
        mapping = dict(asked.drifted)
        if not mapping:
            targets = _drift_targets(key, present)
            if not targets:
                raise UserError(f"--text-layer drifted: the answer {key.expected_answer!r} is not in the "
                                "page's text layer, so there is nothing to drift; use faithful or none")
            rng = rng_for(seed, "degrade", "drift")
            taken = {fold_word(t) for t in targets}
            for t in targets:
                if t not in mapping:
                    mapping[t] = _drift_value(t, rng, taken)
                    taken.add(fold_word(mapping[t]))
        missing = [k for k in mapping if fold_word(k) not in present]
        if missing:
            raise UserError(f"drifted values {', '.join(map(repr, missing))} are not in the page's text layer")
        _apply_drift(words, mapping)
        drifted_answer = " ".join(
            re.sub(re.escape(t.strip(_PUNCT)), mapping.get(t.strip(_PUNCT), t.strip(_PUNCT)), t)
            if t.strip(_PUNCT) in mapping else t for t in key.expected_answer.split())
        short = len(key.expected_answer.split()) <= 4 and drifted_answer != key.expected_answer
        recorded = replace(recorded, drifted=tuple(mapping.items()),
                           drifted_answer=drifted_answer if short else None)

    pages = []
    for (w, h), image, page_words in zip(sizes, images, words, strict=True):
        pages.append((w, h, image, _text_ops(page_words, h, rotation, w / 2, h / 2)))
    return _write_pdf(pages), recorded
