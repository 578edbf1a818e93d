"""The shared drawing kit: a deterministic reportlab canvas, money formatting, and name pools."""

from __future__ import annotations

import io
import os
import random
from collections.abc import Sequence

import reportlab
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from workbench.generators.base import Param

PAGE_SIZES = {"letter": LETTER, "a4": A4}
CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}

VENDORS = (
    "Initech Software Solutions", "Globex Logistics GmbH", "Umbrella Facilities Ltd.",
    "Hooli Cloud Services", "Stark Precision Tooling", "Wayne Office Supply Co.",
    "Cyberdyne Analytics Inc.", "Soylent Catering Group", "Tyrell Components LLC",
    "Vandelay Industries", "Pied Piper Storage Inc.", "Oscorp Laboratory Supply",
)
CUSTOMERS = (
    "Northwind Traders", "Contoso Retail Ltd.", "Fabrikam Medical", "Adventure Works Cycles",
    "Tailspin Toys", "Wide World Importers", "Litware Publishing", "Proseware Health",
)
STREETS = ("Harbour Road", "Elm Street", "Market Square", "Station Lane", "King's Parade", "Mill Road")
CITIES = ("Springfield, IL 62704", "Portland, OR 97205", "Leeds LS1 4AP", "Austin, TX 78701", "Dublin D02 X285")
ITEMS = (
    "Annual support licence", "Onsite installation (day rate)", "Network switch, 24-port",
    "Consulting services", "Cloud storage, 5 TB tier", "Replacement parts kit",
    "Training workshop", "Data migration", "Maintenance call-out", "Hardware lease (quarterly)",
    "Security audit", "Software subscription",
)
PEOPLE = ("Dana Whitfield", "Marcus Oyelaran", "Priya Raman", "Tomasz Nowak", "Elena Duarte", "Hiro Tanaka")

# Parameters many invoice families declare alike.
CURRENCY_PARAM = Param("currency", "choice", "USD", "currency of every amount", choices=tuple(CURRENCY_SYMBOLS))
VENDOR_PARAM = Param("vendor", "str", VENDORS[0], "vendor name in the letterhead", pool=VENDORS, max=60)


def new_canvas(pagesize: tuple[float, float] = LETTER, title: str = "") -> tuple[Canvas, io.BytesIO]:
    """A canvas whose output depends only on what is drawn: no clock, no random document id."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=pagesize, invariant=1, pageCompression=1)
    c.setCreator("pdfworkbench")
    c.setProducer("pdfworkbench")
    if title:
        c.setTitle(title)
    return c, buf


def finish(c: Canvas, buf: io.BytesIO) -> bytes:
    c.save()
    return buf.getvalue()


def money(amount: float, symbol: str = "$", code: str | None = None) -> str:
    """`$12,345.67`; with `code` ("EUR"), `EUR 12,345.67`."""
    text = f"{abs(amount):,.2f}"
    sign = "-" if amount < 0 else ""
    if code:
        return f"{sign}{code} {text}"
    return f"{sign}{symbol}{text}"


def full_stop(name: str) -> str:
    """`name` ending a sentence: one full stop, never two ("Umbrella Facilities Ltd." stays as it is)."""
    return name if name.endswith(".") else name + "."


def total_due_question(invoice_no: str, vendor: str) -> str:
    """The accounts-payable question the invoice families ask."""
    return (
        f"You are an accounts-payable assistant. The attached PDF is invoice {invoice_no} from "
        f"{full_stop(vendor)} What is the TOTAL AMOUNT DUE? Respond with only the amount including "
        "currency symbol, no other text."
    )


def cents(rng: random.Random, low: float, high: float) -> float:
    return round(rng.uniform(low, high), 2)


def split_total(rng: random.Random, total: float, parts: int) -> list[float]:
    """`parts` positive amounts, in cents, that add up to `total` exactly."""
    total_cents = round(total * 100)
    parts = max(1, min(parts, total_cents))
    cuts = sorted(rng.sample(range(1, total_cents), parts - 1)) if parts > 1 else []
    bounds = [0, *cuts, total_cents]
    return [(bounds[i + 1] - bounds[i]) / 100 for i in range(parts)]


def text_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap to `width` points."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def draw_paragraph(
    c: Canvas, text: str, x: float, y: float, width: float, font: str = "Helvetica",
    size: float = 10, leading: float | None = None,
) -> float:
    """Draw wrapped text from the top line at `y`; return the y below the last line."""
    leading = leading or size * 1.35
    c.setFont(font, size)
    for line in wrap(text, font, size, width):
        c.drawString(x, y, line)
        y -= leading
    return y


def draw_footer_line(
    c: Canvas, left: float, right: float, text: str, font: str = "Helvetica", size: float = 7.5,
    gray: float = 0.35, page: str = "Page 1 of 1", y: float = 40,
) -> None:
    """The one-line page footer most documents carry: `text` on the left, the page on the right."""
    c.setFont(font, size)
    if gray:
        c.setFillGray(gray)
    c.drawString(left, y, text)
    c.drawRightString(right, y, page)
    if gray:
        c.setFillGray(0)


def pick(rng: random.Random, pool: Sequence[str]) -> str:
    return rng.choice(list(pool))


def _vera_path(bold: bool) -> str:
    return os.path.join(os.path.dirname(reportlab.__file__), "fonts", "VeraBd.ttf" if bold else "Vera.ttf")


def text_image(text: str, size: float, bold: bool = True, dpi: int = 300,
               color: tuple[int, int, int] = (0, 0, 0)):
    """`text` rendered as an RGB image at `dpi`, and how many pixels of it lie below the baseline."""
    scale = dpi / 72.0
    font = ImageFont.truetype(_vera_path(bold), max(1, round(size * scale)))
    left, top, right, bottom = font.getbbox(text)
    ascent, descent = font.getmetrics()
    pad = 2
    w_px, h_px = right + pad * 2, ascent + descent + pad * 2
    img = Image.new("RGB", (w_px, h_px), (255, 255, 255))
    ImageDraw.Draw(img).text((pad, pad), text, font=font, fill=color)
    return img, descent + pad


def draw_text_pixels(
    c: Canvas, text: str, x: float, y: float, size: float, bold: bool = True,
    align: str = "left", dpi: int = 300, color: tuple[int, int, int] = (0, 0, 0),
) -> tuple[float, float, float, float]:
    """Draw `text` as an image (pixels only, no text layer) with its baseline at `y`.

    Returns the box drawn, (x0, y0, x1, y1) in PDF points.
    """
    scale = dpi / 72.0
    img, below = text_image(text, size, bold, dpi, color)
    w_pt, h_pt = img.width / scale, img.height / scale
    if align == "right":
        x = x - w_pt
    elif align == "center":
        x = x - w_pt / 2
    y0 = y - below / scale
    c.drawImage(ImageReader(img), x, y0, w_pt, h_pt)
    return (x, y0, x + w_pt, y0 + h_pt)
