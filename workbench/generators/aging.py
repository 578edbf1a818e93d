"""Aging a page's picture as a scanner and old paper would: rotation, fading, show-through,
paper texture, uneven lighting, dirt, blur, noise, sepia and JPEG, in the order a page meets
them. The knobs are a degradation spec's (`workbench.core.scan`); randomness comes only from
`rng_for(seed, "degrade", page, operation)`. `workbench.generators.degrade` writes the aged
pages into a scanned PDF.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from workbench.core.scan import DegradeSpec
from workbench.generators.base import rng_for

_PAPER = (0.97, 0.90, 0.76)  # the colour full sepia moves white paper to


def _np_rng(seed: int, page: int, op: str):
    return np.random.default_rng(rng_for(seed, "degrade", page, op).getrandbits(64))


def _texture_field(width: int, height: int, texture: float, scale: float, rng):
    """Paper reflectance: broad blotches plus fine grain, made at a quarter size and enlarged once."""
    qw, qh = max(2, width // 4), max(2, height // 4)
    cell = max(2.0, 15 * scale)
    coarse = rng.standard_normal((max(2, int(qh / cell) + 2), max(2, int(qw / cell) + 2)), dtype=np.float32)
    blotch = np.asarray(Image.fromarray(coarse, mode="F").resize((qw, qh), Image.Resampling.BICUBIC))
    grain = rng.standard_normal((qh, qw), dtype=np.float32)
    small = (1.0 - 0.05 * texture) - (0.035 * texture) * blotch - (0.03 * texture) * grain
    up = Image.fromarray(small.astype(np.float32), mode="F").resize((width, height), Image.Resampling.BILINEAR)
    return np.asarray(up, dtype=np.float32)


def degrade_pixels(img, knobs: Mapping[str, float], seed: int, page: int,
                    keep_clear: list[tuple[float, float, float, float]] = ()):
    """Every operation except JPEG, in the order a page meets them; returns a PIL image (L or RGB).

    Dirt never lands on the `keep_clear` boxes (pixels of the unrotated page): the answer stays legible.

    A grey page (most are) is worked as one channel and tinted at the end through lookup tables,
    which is a third of the work of three channels.
    """
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
    knobs = DegradeSpec.parse(spec).knobs()
    if not isinstance(img, Image.Image):
        img = Image.fromarray(img)
    out = degrade_pixels(img, knobs, seed, page, keep_clear)
    quality = int(knobs["jpeg_quality"])
    if quality:
        out = Image.open(io.BytesIO(jpeg_bytes(out, quality)))
    return out.convert("RGB")


def jpeg_bytes(img, quality: int) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality, optimize=False, progressive=False)
    return buf.getvalue()
