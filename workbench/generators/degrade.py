"""Scan degradation: render a PDF's pages, age them like a scan, and write an image-only PDF.

The spec (`DegradeSpec`: a tier, knob overrides, the text layer, the DPI) and its knob table are
the case's, in `workbench.core.scan`; this module applies them. `apply_degrade` returns the scanned PDF and the normalised spec; giving that spec
back reproduces the same bytes. Randomness comes only from `rng_for(seed, ...)`.
"""

from __future__ import annotations

import io
import math
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from workbench.core.errors import UserError
from workbench.core.scan import VERSION, DegradeSpec
from workbench.generators.base import AnswerKey, rng_for
from workbench.text.search import fold_word

_PAPER = (0.97, 0.90, 0.76)  # the colour full sepia moves white paper to
_PUNCT = "\"'()[]{}.,;:!?\u2018\u2019\u201c\u201d\u2014\u2013-"


def resolve_knobs(spec: DegradeSpec | Mapping[str, Any]) -> dict[str, float | int]:
    """Every knob's value for a spec: the tier's preset, then the overrides, then `dpi`."""
    return DegradeSpec.parse(spec).knobs()


def normalise_spec(spec: DegradeSpec | Mapping[str, Any]) -> dict[str, Any]:
    """The spec as recorded: tier, numeric overrides, text layer, dpi, version and resolved knobs."""
    return DegradeSpec.parse(spec).to_json()


# ---- pixels ------------------------------------------------------------------------------------

def _np_rng(seed: int, page: int, op: str):
    import numpy as np

    return np.random.default_rng(rng_for(seed, "degrade", page, op).getrandbits(64))


def _texture_field(width: int, height: int, texture: float, scale: float, rng):
    """Paper reflectance: broad blotches plus fine grain, made at a quarter size and enlarged once."""
    import numpy as np
    from PIL import Image

    qw, qh = max(2, width // 4), max(2, height // 4)
    cell = max(2.0, 15 * scale)
    coarse = rng.standard_normal((max(2, int(qh / cell) + 2), max(2, int(qw / cell) + 2)), dtype=np.float32)
    blotch = np.asarray(Image.fromarray(coarse, mode="F").resize((qw, qh), Image.Resampling.BICUBIC))
    grain = rng.standard_normal((qh, qw), dtype=np.float32)
    small = (1.0 - 0.05 * texture) - (0.035 * texture) * blotch - (0.03 * texture) * grain
    up = Image.fromarray(small.astype(np.float32), mode="F").resize((width, height), Image.Resampling.BILINEAR)
    return np.asarray(up, dtype=np.float32)


def _degrade_pixels(img, knobs: Mapping[str, float], seed: int, page: int,
                    keep_clear: list[tuple[float, float, float, float]] = ()):
    """Every operation except JPEG, in the order a page meets them; returns a PIL image (L or RGB).

    Dirt never lands on the `keep_clear` boxes (pixels of the unrotated page): the answer stays legible.

    A grey page (most are) is worked as one channel and tinted at the end through lookup tables,
    which is a third of the work of three channels.
    """
    import numpy as np
    from PIL import Image, ImageFilter

    scale = float(knobs["dpi"]) / 150.0
    if img.mode not in ("RGB", "L"):
        img = img.convert("RGB")
    if img.mode == "RGB":
        px = np.asarray(img)
        if (px[:, :, 0] == px[:, :, 1]).all() and (px[:, :, 1] == px[:, :, 2]).all():
            img = img.convert("L")
    white = 255 if img.mode == "L" else (255, 255, 255)
    rotation = float(knobs["rotation"])
    if rotation:
        img = img.rotate(rotation, resample=Image.Resampling.BILINEAR, fillcolor=white)
    width, height = img.size

    fade, ghost = float(knobs["fade"]), float(knobs["show_through"])
    texture, lighting = float(knobs["texture"]), float(knobs["lighting"])
    dirt = int(knobs["dirt"]) if knobs["dirt_size"] > 0 else 0
    if fade or ghost or texture or lighting or dirt:
        arr = np.asarray(img, dtype=np.float32)
        if fade:
            arr = arr * (1.0 - fade) + 255.0 * fade
        # One multiplicative map (the paper's reflectance) for every effect on the paper.
        paper = None
        if ghost:
            mirror = img.convert("L").transpose(Image.Transpose.FLIP_LEFT_RIGHT)
            mirror = mirror.filter(ImageFilter.GaussianBlur(1.5 * scale))
            paper = 1.0 - (0.22 * ghost / 255.0) * (255.0 - np.asarray(mirror, dtype=np.float32))
        if texture:
            field = _texture_field(width, height, texture, scale, _np_rng(seed, page, "texture"))
            paper = field if paper is None else paper * field
        if lighting:
            rng = _np_rng(seed, page, "lighting")
            angle = rng.uniform(0, 2 * math.pi)
            ys = np.linspace(-0.5, 0.5, height, dtype=np.float32)[:, None] * math.sin(angle)
            xs = np.linspace(-0.5, 0.5, width, dtype=np.float32)[None, :] * math.cos(angle)
            ramp = np.clip(ys + xs + 0.5, 0.0, 1.0)
            field = 1.0 - 0.4 * lighting * ramp * ramp
            paper = field if paper is None else paper * field
        if dirt:
            boxes = [_rotate_box(b, rotation, width, height) for b in keep_clear]
            spots = _dirt_field(width, height, dirt, float(knobs["dirt_size"]) * scale, seed, page, boxes)
            paper = spots if paper is None else paper * spots
        if paper is not None:
            arr = arr * (paper if arr.ndim == 2 else paper[:, :, None])
        img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), img.mode)

    blur = float(knobs["blur"])
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur * scale))
    noise = float(knobs["noise"])
    if noise:
        rng = _np_rng(seed, page, "noise")
        grain = rng.standard_normal((height, width), dtype=np.float32)
        grain *= noise
        grain += np.asarray(img, dtype=np.float32) if img.mode == "L" else 0.0
        if img.mode == "L":
            arr = grain
        else:
            arr = np.asarray(img, dtype=np.float32) + grain[:, :, None]
        img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), img.mode)

    sepia = float(knobs["sepia"])
    if img.mode == "L":
        if not sepia:
            return img
        return Image.merge("RGB", [img.point(_tint_lut(c, sepia)) for c in _PAPER])
    if sepia:
        return img.point([v for c in _PAPER for v in _tint_lut(c, sepia)])
    return img


def _tint_lut(channel: float, sepia: float) -> list[int]:
    factor = 1.0 + sepia * (channel - 1.0)
    return [min(255, int(v * factor + 0.5)) for v in range(256)]


def _rotate_box(box, degrees: float, width: int, height: int) -> tuple[float, float, float, float]:
    """The bounding box of `box` after the page turns `degrees` counter-clockwise about its centre."""
    if not degrees:
        return box
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    cx, cy = width / 2, height / 2
    xs, ys = [], []
    for x, y in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
        dx, dy = x - cx, y - cy
        xs.append(cx + dx * c + dy * s)
        ys.append(cy - dx * s + dy * c)
    return (min(xs), min(ys), max(xs), max(ys))


def _dirt_field(width: int, height: int, count: int, radius: float, seed: int, page: int,
                keep_clear: list[tuple[float, float, float, float]] = ()):
    """Dark specks and blotches of seeded size, place and darkness, as a map of 0..1 factors."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter

    rng = rng_for(seed, "degrade", page, "dirt")
    # Drawn at half size and enlarged: the enlargement softens the edges as a blur would, for less.
    mask = Image.new("L", ((width + 1) // 2, (height + 1) // 2), 0)
    draw = ImageDraw.Draw(mask)
    for _ in range(count):
        r = radius * (0.25 + 0.75 * rng.random() ** 2)
        for _ in range(30):
            cx, cy = rng.uniform(0, width), rng.uniform(0, height)
            pad = 2.5 * r + 2
            if not any(x0 - pad < cx < x1 + pad and y0 - pad < cy < y1 + pad
                       for x0, y0, x1, y1 in keep_clear):
                break
        else:
            continue
        rx, ry = r * rng.uniform(0.6, 1.4), r * rng.uniform(0.6, 1.4)
        draw.ellipse(((cx - rx) / 2, (cy - ry) / 2, (cx + rx) / 2, (cy + ry) / 2),
                     fill=int(rng.uniform(90, 220)))
    if radius > 6:
        mask = mask.filter(ImageFilter.GaussianBlur(radius * 0.1))
    mask = mask.resize((width, height), Image.Resampling.BILINEAR)
    return 1.0 - np.asarray(mask, dtype=np.float32) * (1.0 / 255.0)





def degrade_image(img, spec: DegradeSpec | Mapping[str, Any], seed: int, page: int = 0,
                  keep_clear: list[tuple[float, float, float, float]] = ()):
    """One page image (numpy array or PIL image, rendered at the spec's DPI) aged as the spec says.

    Returns a PIL RGB image, JPEG artefacts included, for previews. `spec` is a degradation spec
    (tier, overrides, dpi) as `apply_degrade` takes it.
    """
    from PIL import Image

    knobs = resolve_knobs(spec)
    if not isinstance(img, Image.Image):
        img = Image.fromarray(img)
    out = _degrade_pixels(img, knobs, seed, page, keep_clear)
    quality = int(knobs["jpeg_quality"])
    if quality:
        out = Image.open(io.BytesIO(_jpeg(out, quality)))
    return out.convert("RGB")


def render_degraded(pdf: bytes, spec: DegradeSpec | Mapping[str, Any], seed: int, page: int = 0):
    """Page `page` of `pdf` as the scan would show it (a PIL image), without writing a PDF."""
    knobs = resolve_knobs(spec)
    doc = _open(pdf)
    try:
        img = _render(doc[page], int(knobs["dpi"]))
    finally:
        doc.close()
    return degrade_image(img, spec, seed, page)


def _jpeg(img, quality: int) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality, optimize=False, progressive=False)
    return buf.getvalue()


def _open(pdf: bytes):
    from workbench.pdf.document import open_fitz

    return open_fitz(pdf, "PDF to degrade")


def _render(page, dpi: int):
    from PIL import Image

    pix = page.get_pixmap(dpi=dpi, alpha=False)
    return Image.frombytes("RGB", (pix.width, pix.height), pix.samples)


# ---- the text layer ----------------------------------------------------------------------------

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


# ---- the PDF -----------------------------------------------------------------------------------

def _pdf_string(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _num(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _text_ops(words: list[_Word], page_h: float, rotation: float, cx: float, cy: float) -> bytes:
    from reportlab.pdfbase.pdfmetrics import stringWidth

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


def _write_pdf(pages: list[tuple[float, float, dict[str, Any], bytes]]) -> bytes:
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
        img_head = (f"/Type /XObject /Subtype /Image /Width {image['w']} /Height {image['h']} "
                    f"/ColorSpace /{image['space']} /BitsPerComponent 8 /Filter /{image['filter']}")
        img = add(stream(img_head, image["data"]))
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


def _encode_image(img, quality: int) -> dict[str, Any]:
    space = "DeviceGray" if img.mode == "L" else "DeviceRGB"
    if quality:
        return {"w": img.width, "h": img.height, "filter": "DCTDecode", "data": _jpeg(img, quality),
                "space": space}
    return {"w": img.width, "h": img.height, "filter": "FlateDecode", "space": space,
            "data": zlib.compress(img.tobytes(), 6)}


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


# ---- the pipeline ------------------------------------------------------------------------------

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
        images = [_encode_image(_degrade_pixels(_render(p, dpi), knobs, seed, i,
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
