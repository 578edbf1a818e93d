"""A corpus of hostile inputs, made here (never downloaded): broken and enormous PDFs, encrypted
ones, PDFs with actions, and case/suite/spec/run files that are malformed or climb out of their
folder. `build_corpus(folder)` writes it once; tests/conftest.py builds it once per test run."""

from __future__ import annotations

import base64
import io
import json
import zlib
from dataclasses import dataclass
from pathlib import Path

# Each hostile PDF is wrapped in a case (same key) so every command can be pointed at it.
QUESTION = "What is the total?"
ANSWER = "$1.00"
USER_PASSWORD = "open-sesame"


@dataclass
class Entry:
    name: str
    case_json: Path      # a case whose pdf_path names the hostile PDF (or a hostile case file)
    kind: str            # "pdf" (hostile PDF) | "case" (hostile case JSON) | "suite" (hostile suite folder)
    suite: Path          # a suite folder holding just this entry


def _pymupdf_page(text: str = "Total: $1.00", width: float = 612, height: float = 792) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_text((72, 72), text, fontsize=12)
    data = doc.tobytes()
    doc.close()
    return data


def plain_pdf() -> bytes:
    return _pymupdf_page()


def truncated_pdf() -> bytes:
    data = plain_pdf()
    return data[: len(data) // 2]


def cut_after_first_page_pdf() -> bytes:
    """A two-page table written by reportlab's platypus, cut in half: MuPDF repairs the file and
    reads page 1, but page 2's content stream is gone ("object is not a stream")."""
    import io

    from reportlab.lib.pagesizes import letter
    from reportlab.platypus import SimpleDocTemplate, Table

    rows = [["Item", "Qty", "Amount"]] + [[f"Widget {i}", str(i), f"${i * 10}.00"] for i in range(1, 70)]
    buf = io.BytesIO()
    SimpleDocTemplate(buf, pagesize=letter, invariant=1).build([Table(rows, repeatRows=1)])
    data = buf.getvalue()
    return data[: len(data) // 2]


def broken_xref_pdf() -> bytes:
    data = plain_pdf()
    i = data.rfind(b"startxref")
    return data[:i] + b"startxref\n999999\n%%EOF\n"


def garbage_xref_pdf() -> bytes:
    """xref table offsets all wrong (every entry points at byte 7)."""
    import re

    data = bytearray(plain_pdf())
    return re.sub(rb"\d{10} 00000 n", b"0000000007 00000 n", bytes(data))


def encrypted_pdf(user: str, owner: str = "owner-secret") -> bytes:
    import pymupdf

    doc = pymupdf.open(stream=plain_pdf(), filetype="pdf")
    data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=user, owner_pw=owner,
                       permissions=pymupdf.PDF_PERM_ACCESSIBILITY)
    doc.close()
    return data


def cyclic_pages_pdf() -> bytes:
    """A page tree whose Kids point back at the root (written by hand, as a broken writer would)."""
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>",
        b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 4 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] >>",
    ]
    return hand_written(objs)


def miscounted_pages_pdf() -> bytes:
    """Three pages whose page tree counts wrong: the root's /Count says 10 and its inner node's 7
    (a writer that cut pages without counting again). MuPDF trusts /Count; pypdf counts the kids."""
    def page(n: int, parent: int) -> bytes:
        return (b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
                b" /Contents %d 0 R >>" % (parent, n))

    def text(line: bytes) -> bytes:
        body = b"BT /F1 12 Tf 72 720 Td (" + line + b") Tj ET"
        return b"<< /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"

    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R 7 0 R] /Count 10 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 7 >>",
        page(8, 4), page(9, 4), page(10, 2),
        text(b"Page one"), text(b"Page two"), text(b"Total: $1.00"),
    ]
    return hand_written(objs)


def hand_written(objs: list[bytes], extra_trailer: bytes = b"") -> bytes:
    """A PDF of `objs` (object 1 the catalog) with its cross-reference table, byte by byte, as a
    writer of one's own would make it."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets = []
    for n, body in enumerate(objs, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % n + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n"
              % (len(objs) + 1, extra_trailer, xref))
    return out.getvalue()


def _pages_drawing(streams: list[tuple[bytes, bytes]]) -> bytes:
    """A PDF of one page a content stream, each (its /Filter entry or b"", its bytes), in
    Helvetica as /F1, written by hand: page k is object 4 + 2k and its stream the next one."""
    kids = b" ".join(b"%d 0 R" % (4 + 2 * k) for k in range(len(streams)))
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(streams)),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for k, (filter_, data) in enumerate(streams):
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
                    b" /Contents %d 0 R >>" % (5 + 2 * k))
        entry = b" /Filter " + filter_ if filter_ else b""
        objs.append(b"<< /Length %d%s >>\nstream\n" % (len(data), entry) + data + b"\nendstream")
    return hand_written(objs)


TOTAL_LINE = b"BT /F1 12 Tf 72 720 Td (Total: $1.00) Tj ET"
# TOTAL_LINE in ASCII85 with a byte outside ASCII85's range (0xE4) before its end: MuPDF draws
# the line and names the byte in its complaint; pypdf refuses the stream ("Non-Ascii85 digit").
BAD_ASCII85 = base64.a85encode(TOTAL_LINE) + b"\xe4~>"


def damaged_stream_pdf() -> bytes:
    """Two pages; the first one's content stream says FlateDecode but was cut and patched, so zlib
    fails part-way (as after a broken upload). Readers show what they can and MuPDF complains."""
    import zlib

    packed = zlib.compress(TOTAL_LINE)
    bad = packed[:12] + bytes((i * 37) % 256 for i in range(24))
    return _pages_drawing([(b"/FlateDecode", bad), (b"/FlateDecode", packed)])


def bad_ascii85_pdf() -> bytes:
    """One page whose content stream is `BAD_ASCII85`: MuPDF names the byte in its complaint,
    which pymupdf hands over as a lone surrogate."""
    return _pages_drawing([(b"/ASCII85Decode", BAD_ASCII85)])


def second_page_pypdf_refuses_pdf() -> bytes:
    """Two pages: the first plain, the second's stream `BAD_ASCII85`, which pypdf refuses and
    MuPDF draws and reads."""
    return _pages_drawing([(b"", b"BT /F1 12 Tf 72 720 Td (Invoice 42 for ACME) Tj ET"),
                           (b"/ASCII85Decode", BAD_ASCII85)])


def many_pages_pdf(pages: int = 10_000) -> bytes:
    """`pages` pages of one short line each, written by hand so building it costs little."""
    font = 3
    kids_start = 4
    objs: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for i in range(pages):
        page_no = kids_start + 2 * i
        content = b"BT /F1 12 Tf 72 720 Td (Page %d total $1.00) Tj ET" % (i + 1)
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
                    % (font, page_no + 1))
        objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        kids.append(b"%d 0 R" % page_no)
    objs[1] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % pages
    return hand_written(objs)


def huge_page_pdf() -> bytes:
    """A 200 x 200 inch page (the PDF limit is 200 inches)."""
    return _pymupdf_page(width=200 * 72, height=200 * 72)


def image_bomb_pdf(side: int = 20_000, width: str = "int") -> bytes:
    """A page whose one image is side x side RGB pixels of zeros (1.2 GB decompressed at 20,000)
    in about 1.2 MB of Flate, drawn over the page's "Total: $1.00", then a plain page. The stream
    is one full-flushed deflate block repeated, so making it costs milliseconds; Adler-32 of n
    zero bytes is (n mod 65521) << 16 | 1. `width`: the image's /Width as an integer ("int"), an
    indirect object ("ref", as some writers give it) or a real number ("real", which MuPDF reads
    whole)."""
    rows = min(100, side)   # (side a multiple of it)
    chunk = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = chunk.compress(b"\x00" * (side * 3 * rows)) + chunk.flush(zlib.Z_FULL_FLUSH)
    total = side * 3 * side
    stream = (b"\x78\xda" + block * (side // rows) + zlib.compressobj(9, zlib.DEFLATED, -15).flush()
              + (((total % 65521) << 16) | 1).to_bytes(4, "big"))
    size = {"int": b"/Width %d" % side, "ref": b"/Width 9 0 R", "real": b"/Width %d.0" % side}[width]
    image = (b"<< /Type /XObject /Subtype /Image " + size + b" /Height %d /ColorSpace /DeviceRGB "
             b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % (side, len(stream))
             + stream + b"\nendstream")
    content = b"q 612 0 0 792 0 0 cm /Im1 Do Q " + TOTAL_LINE
    return _heavy_then_plain(b"", content, [image, *([b"%d" % side] if width == "ref" else [])],
                             b"/XObject << /Im1 8 0 R >> ")


def actions_pdf() -> bytes:
    """JavaScript on open and a Launch action on a link."""
    content = b"BT /F1 12 Tf 72 720 Td (Total: $1.00) Tj ET"
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R /OpenAction 7 0 R /Names << /JavaScript << /Names [(x) 7 0 R] >> >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>"
        b" /Contents 4 0 R /Annots [6 0 R] >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Annot /Subtype /Link /Rect [72 700 300 740] /A << /S /Launch /F (/bin/sh) >> >>",
        b"<< /S /JavaScript /JS (app.alert('pwned');) >>",
    ]
    return hand_written(objs)


# What a hostile text layer says with its glyphs: ESC ] 0 ; ... BEL retitles a terminal, ESC [ 2 J
# clears it. Drawn as "Total A]0;PWNEDBA[2JA[31m 42.00" in Helvetica; a ToUnicode map makes A read
# as ESC and B as BEL (pypdf honours it; pymupdf, reading the base font's codes, does not).
ESCAPES = "Total \x1b]0;PWNED\x07\x1b[2J\x1b[31m 42.00"


def escape_layer_pdf() -> bytes:
    """A one-page PDF whose pypdf text layer is `ESCAPES`: escape sequences in a text layer."""
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Escapes def "
            b"1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <41> <001B> <42> <0007> "
            b"endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
    content = b"BT /F1 14 Tf 72 720 Td (Total A]0;PWNEDBA[2JA[31m 42.00) Tj ET"
    return hand_written([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font "
        b"<< /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream",
    ])


def _heavy_then_plain(first: bytes, first_content: bytes, extra: list[bytes], first_resources: bytes = b"") -> bytes:
    """Two pages: the first one hostile (its dictionary's extra entries `first`, its content, its
    extra resources; `extra` objects are numbered from 8), the second one plain "Total: $1.00"."""
    def stream(body: bytes) -> bytes:
        packed = zlib.compress(body)
        return b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream"

    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> "
            + first_resources + b">> /Contents 5 0 R " + first + b">>",
            stream(first_content),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            b" /Contents 7 0 R >>",
            stream(TOTAL_LINE)]
    return hand_written(objs + extra)


def annotations_pdf(n: int = 100_000) -> bytes:
    """A page of `n` note annotations (their array one object), then a plain page."""
    notes = [b"<< /Type /Annot /Subtype /Text /Rect [%d %d %d %d] /Contents (note %d) >>"
             % (20 + i % 50 * 11, 20 + i // 50 % 70 * 11, 30 + i % 50 * 11, 30 + i // 50 % 70 * 11, i)
             for i in range(n)]
    array = b"[" + b" ".join(b"%d 0 R" % (9 + i) for i in range(n)) + b"]"
    return _heavy_then_plain(b"/Annots 8 0 R", TOTAL_LINE, [array, *notes])


def xobject_fan_out_pdf(depth: int = 10, breadth: int = 10) -> bytes:
    """A page drawing a form XObject that draws the next one `breadth` times, `depth` levels
    deep (10 x 10: over a billion forms drawn from 10 objects), then a plain page."""
    forms = []
    for level in range(depth):
        if level < depth - 1:
            names = b" ".join(b"/X%d %d 0 R" % (j, 9 + level) for j in range(breadth))
            body = b" ".join(b"q 1 0 0 1 0.1 0.1 cm /X%d Do Q" % j for j in range(breadth))
            resources = b"/Resources << /XObject << " + names + b" >> /Font << /F1 3 0 R >> >>"
        else:
            body, resources = b"0 0 1 1 re f BT /F1 1 Tf 0 0 Td (x) Tj ET", b"/Resources << /Font << /F1 3 0 R >> >>"
        packed = zlib.compress(body)
        forms.append(b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] " + resources
                     + b" /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream")
    return _heavy_then_plain(b"", b"/X0 Do " + TOTAL_LINE, forms, b"/XObject << /X0 8 0 R >> ")


def many_operators_pdf(n: int = 2_000_000) -> bytes:
    """A page of `n` `0 0 m` operators (12 MB of content in 18 KB of Flate), then a plain page."""
    return _heavy_then_plain(b"", b"0 0 m\n" * n + TOTAL_LINE, [])


HOSTILE_PDFS = {
    "zero-byte": lambda: b"",
    "not-a-pdf": lambda: b"<html><body>this is not a PDF</body></html>\n",
    "truncated": truncated_pdf,
    "cut-after-first-page": cut_after_first_page_pdf,
    "broken-xref": broken_xref_pdf,
    "garbage-xref": garbage_xref_pdf,
    "user-password": lambda: encrypted_pdf(USER_PASSWORD),
    "owner-only": lambda: encrypted_pdf(""),
    "cyclic-pages": cyclic_pages_pdf,
    "miscounted-pages": miscounted_pages_pdf,
    "ten-thousand-pages": many_pages_pdf,
    "huge-page": huge_page_pdf,
    "image-bomb": image_bomb_pdf,
    "actions": actions_pdf,
    "hundred-thousand-annotations": annotations_pdf,
    "xobject-fan-out": xobject_fan_out_pdf,
    "two-million-operators": many_operators_pdf,
    "escape-sequences": escape_layer_pdf,
}


def case_dict(case_id: str, pdf_path: str) -> dict:
    return {"id": case_id, "trap_family": "hostile", "seed": 1, "question": QUESTION,
            "expected_answer": ANSWER, "forbidden_answers": [], "expected_tokens": [],
            "pdf_path": pdf_path, "metadata": {}}


# Case JSON texts that are malformed or escape their folder; each must give one line and exit 2.
def hostile_case_texts(outside: Path) -> dict[str, bytes]:
    base = case_dict("c", "c.pdf")

    def with_(**kw) -> bytes:
        return json.dumps({**base, **kw}).encode()

    return {
        "case-absolute-path": with_(pdf_path=str(outside)),
        "case-climbing-path": with_(pdf_path="../../" + outside.name),
        "case-id-climbs": with_(id="../../../x"),
        "case-id-dotted": with_(id=".hidden"),
        "case-id-slash": with_(id="a/b"),
        "case-id-bidi": with_(id="case-1\u202e9-ecnaive"),   # shown as "case-1evidence-9"
        "case-seed-huge": with_(seed=1e400).replace(b"Infinity", b"1e400"),
        "case-seed-string": with_(seed="one"),
        "case-matcher-string": with_(matcher="contains"),
        "case-degrade-string": with_(degrade="heavy"),
        "case-params-list": with_(params=[1, 2]),
        "case-version-string": with_(generator={"name": "x", "version": "two"}),
        "case-forbidden-string": with_(forbidden_answers="abc"),
        "case-metadata-list": with_(metadata=[1]),
        "case-question-object": with_(question={"a": 1}),
        "case-array": b"[1, 2, 3]",
        "case-null": b"null",
        "case-deep": b"[" * 200_000 + b"]" * 200_000,
        "case-non-utf8": b'{"id": "c", "question": "\xff\xfe", "expected_answer": "x"}',
        "case-empty": b"",
        "case-bom": b"\xef\xbb\xbf" + json.dumps(base).encode(),
    }


def hostile_suite_manifests(outside: Path) -> dict[str, bytes | None]:
    entry = {"id": "c", "json": "c.json", "pdf": "c.pdf"}

    def suite(cases) -> bytes:
        return json.dumps({"format": "pdfworkbench-suite/1", "name": "s", "version": "1", "cases": cases}).encode()

    return {
        "suite-cases-string": suite("c"),
        "suite-cases-number": suite(3),
        "suite-cases-null": suite(None),
        "suite-cases-object": suite({"id": "c"}),
        "suite-entry-no-id": suite([{"json": "c.json"}]),
        "suite-entry-string": suite(["c"]),
        "suite-entry-json-escapes": suite([{**entry, "json": "../" + outside.name}]),
        "suite-entry-json-absolute": suite([{**entry, "json": str(outside)}]),
        "suite-entry-id-climbs": suite([{**entry, "id": "../x"}]),
        "suite-deep": b'{"cases": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
        "suite-non-utf8": b'{"name": "\xff", "cases": []}',
        "suite-top-array": b"[]",
        "suite-is-folder": None,   # suite.json is a directory
    }


def hostile_specs() -> dict[str, str]:
    fam = 'name = "footnote_override"\n'
    return {
        "spec-params-string": f'[[families]]\n{fam}seeds = 1\nparams = "x"\n',
        "spec-degrade-list": f'[[families]]\n{fam}seeds = 1\ndegrade = [1]\n',
        "spec-tiers-int": f'[[families]]\n{fam}seeds = 1\ntiers = 5\n',
        "spec-seeds-huge-range": f'[[families]]\n{fam}seeds = "1..1000000000"\n',
        "spec-seeds-empty": f'[[families]]\n{fam}seeds = []\n',
        "spec-seeds-negative": f'[[families]]\n{fam}seeds = -3\n',
        "spec-unknown-key": f'[[families]]\n{fam}seeds = 1\nseedz = 4\n',
        "spec-unknown-top-key": f'nmae = "x"\n[[families]]\n{fam}seeds = 1\n',
        "spec-families-string": 'families = "x"\n',
        "spec-name-int": '[[families]]\nname = 3\nseeds = 1\n',
        "spec-dpi-zero": f'[[families]]\n{fam}seeds = 1\ntier = "mild"\ndpi = 0\n',
        "spec-non-utf8": '[[families]]\nname = "\udcff"\n',
    }


def hostile_run_lines() -> dict[str, bytes]:
    good = {"case_id": "c", "reader": "probe:pypdf", "modality": "text", "dpi": None, "prompt": "p",
            "answer": "x", "status": "ok", "case_sha256": None, "key_sha256": None}
    return {
        "run-array-line": b"[1]\n" + json.dumps(good).encode() + b"\n",
        "run-missing-fields": b'{"case_id": "c"}\n{"case_id": "d"}\n',
        "run-wrong-types": json.dumps({**good, "attempts": "many", "extra": [1]}).encode() + b"\n" * 2,
        "run-answer-object": json.dumps({**good, "answer": {"a": 1}}).encode() + b"\n",
        "run-non-utf8": b'{"case_id": "\xff"}\n',
        "run-deep": b"[" * 200_000 + b"]" * 200_000 + b"\n" + json.dumps(good).encode() + b"\n",
    }


def build_corpus(folder: Path) -> dict[str, Entry]:
    """Write every hostile input under `folder`; return them by name."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "outside-secret.pdf"
    secret.write_bytes(plain_pdf().replace(b"Total", b"SECRET"))
    entries: dict[str, Entry] = {}
    for name, make in HOSTILE_PDFS.items():
        suite = folder / name
        suite.mkdir(exist_ok=True)
        (suite / f"{name}.pdf").write_bytes(make())
        cj = suite / f"{name}.json"
        cj.write_text(json.dumps(case_dict(name, f"{name}.pdf")))
        entries[name] = Entry(name, cj, "pdf", suite)
    for name, text in hostile_case_texts(secret).items():
        suite = folder / name
        suite.mkdir(exist_ok=True)
        (suite / "c.pdf").write_bytes(plain_pdf())
        cj = suite / "c.json"
        cj.write_bytes(text)
        entries[name] = Entry(name, cj, "case", suite)
    for name, text in hostile_suite_manifests(secret).items():
        suite = folder / name
        suite.mkdir(exist_ok=True)
        (suite / "c.pdf").write_bytes(plain_pdf())
        (suite / "c.json").write_text(json.dumps(case_dict("c", "c.pdf")))
        if text is None:
            (suite / "suite.json").mkdir(exist_ok=True)
        else:
            (suite / "suite.json").write_bytes(text)
        entries[name] = Entry(name, suite / "c.json", "suite", suite)
    specs = folder / "specs"
    specs.mkdir(exist_ok=True)
    for name, text in hostile_specs().items():
        (specs / f"{name}.toml").write_bytes(text.encode("utf-8", "surrogateescape"))
    runs = folder / "runs"
    runs.mkdir(exist_ok=True)
    for name, text in hostile_run_lines().items():
        (runs / f"{name}.jsonl").write_bytes(text)
    return entries
