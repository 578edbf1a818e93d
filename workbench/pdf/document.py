"""Opening PDFs: the one place that turns a file or bytes into an open document, with one clear line
for anything that is not a readable PDF (empty, not a PDF, truncated past repair, a cyclic page
tree, encrypted without the password). Every caller, CLI or TUI, opens PDFs through here.

Encrypted input, one rule for every command (adopt, mutate, inspect, lint, run, ask, the workbench):
- a PDF that needs a password to view (a user password) is refused with one line asking for
  `--password`; with it, it is read as its decrypted bytes, so every extractor downstream (pymupdf,
  pypdf) sees an ordinary PDF, and `adopt` keeps that decrypted copy (no reader could open the case
  otherwise, and no password is ever written down);
- an owner-password-only PDF (no password needed to view it) opens as every viewer opens it, and
  `adopt` keeps its bytes as they are;
- what the tool writes from an encrypted PDF (a mutated case) is written without the encryption
  (`unencrypted_pdf_bytes`): its bytes must replay identically, and encrypting draws random keys.
`encryption_of` says which case a PDF is; the case records it (`source.encryption`).
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pymupdf

from workbench.core import files, limits
from workbench.core.errors import UserError
from workbench.core.schema import JSONObject

if TYPE_CHECKING:  # (an adopted PDF's record: `grade --explain` reads a case's PDF without it)
    from workbench.core.adoption import Encryption
    from workbench.core.case import Case


class PdfError(UserError):
    """A PDF that cannot be read: the message is one line naming the file and what to do."""


class PdfEncrypted(PdfError):
    """A PDF that needs a password to be opened."""


def read_pdf_bytes(path: Path, password: str | None = None) -> bytes:
    """The bytes of the PDF at `path`, checked to open (decrypted when `password` opens it)."""
    return readable_pdf_bytes(_file_bytes(Path(path)), str(path), password)


def read_pdf(path: Path, password: str | None = None) -> tuple[bytes, Encryption]:
    """`read_pdf_bytes`, and how the file is encrypted (`encryption_of`)."""
    data = _file_bytes(Path(path))
    return readable_pdf_bytes(data, str(path), password), encryption_of(data, str(path), password)


def _file_bytes(path: Path) -> bytes:
    return files.read_bytes(path, "PDF", "pdf_file_bytes")  # a regular file, capped: never a FIFO


def read_case_pdf(case: Case, password: str | None = None) -> bytes:
    """The PDF a reader is asked about for `case`: the file the case records (`Case.recorded_pdf_bytes`:
    refused when swapped or edited since), checked to open as `read_pdf_bytes` does."""
    return readable_pdf_bytes(case.recorded_pdf_bytes(), str(case.pdf_file), password)


def readable_pdf_bytes(data: bytes, name: str = "PDF", password: str | None = None) -> bytes:
    """`data` if it opens as it is; its decrypted bytes if it needs `password`; else a PdfError."""
    doc, decrypted = _open(data, name, password)
    try:
        return _decrypted(doc) if decrypted else data
    finally:
        doc.close()


def unencrypted_pdf_bytes(data: bytes, name: str = "PDF", password: str | None = None) -> bytes:
    """`data` without its encryption, an owner-password-only one too (`data` itself when it has
    none): what the tool writes from an encrypted PDF. The same bytes for the same input."""
    doc, _ = _open(data, name, password)
    try:
        return _decrypted(doc) if _method(doc) else data
    finally:
        doc.close()


def encryption_of(data: bytes, name: str = "PDF", password: str | None = None) -> Encryption:
    """Which case of the rule `data` is (see the module docstring); a PdfError if it needs a
    password that `password` does not give."""
    from workbench.core.adoption import Encryption

    doc, decrypted = _open(data, name, password)
    try:
        return Encryption(_method(doc) or ("encrypted" if decrypted else ""), decrypted)
    finally:
        doc.close()


def _method(doc: Any) -> str:
    return str((doc.metadata or {}).get("encryption") or "")


def _decrypted(doc: Any) -> bytes:
    # no_new_id: the decrypted copy keeps the file's /ID, so the same input gives the same bytes.
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_NONE, no_new_id=True)


def check_page_budget(count: int, name: str = "PDF") -> None:
    """A PdfError when a document is too long to analyse whole (the `forensic_pages` limit: one
    line saying how to go on)."""
    if count > limits.get("forensic_pages"):
        raise PdfError(f"{name}: " + limits.exceeded("forensic_pages", f"{count:,} pages, too many to "
                                                     "analyse at once"))


def render_dpi(page: Any, dpi: float) -> int:
    """`dpi`, lowered so `page` renders to at most the `render_pixels` limit (never below 1)."""
    w_in, h_in = page.rect.width / 72, page.rect.height / 72
    if w_in <= 0 or h_in <= 0:
        return max(1, int(dpi))
    most = (limits.get("render_pixels") / (w_in * h_in)) ** 0.5
    return max(1, int(min(dpi, most)))


def check_pdf_bytes(data: bytes, name: str = "PDF") -> None:
    if not data:
        raise PdfError(f"{name}: empty file (0 bytes); give a PDF")
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise PdfError(f"{name}: not a PDF (no %PDF- header); give a .pdf file or a case JSON")


def open_fitz(data: bytes, name: str = "PDF", password: str | None = None, checked: bool = False) -> Any:
    """A pymupdf Document for `data`, or a PdfError that says what is wrong with the PDF.
    `checked`: `data` came from `read_pdf_bytes`/`readable_pdf_bytes` (or opened here before), so
    its page tree is not walked again."""
    return _open(data, name, password, checked)[0]


def why_failed(exc: BaseException, *plain: type[BaseException]) -> str:
    """An exception a library raised on a hostile file, as one short line: its message, after its
    type's name unless it is one of the `plain` kinds (whose messages say what went wrong)."""
    text = _short(exc)
    return text if isinstance(exc, plain) else f"{type(exc).__name__}: {text}"


def encrypted_error(name: str, password: str | None) -> PdfEncrypted:
    if password:
        return PdfEncrypted(f"{name}: encrypted PDF and the password given does not open it; "
                            "check --password")
    return PdfEncrypted(f"{name}: encrypted PDF (a password is needed to open it); give --password")


def _short(exc: BaseException, n: int = 160) -> str:
    text = " ".join(str(exc).split()) or exc.__class__.__name__
    return text if len(text) <= n else text[: n - 1] + "…"


_MESSAGES_ROUTED = False


def _printable_message(record: Any) -> bool:
    """pymupdf decodes MuPDF's bytes with surrogateescape: a broken stream's byte comes through as a
    lone surrogate ("bad data in a85d: '\\udce4'"), which no UTF-8 file, pipe or log handler can
    write. It is shown as an escape ("\\xe4") instead."""
    msg = record.msg
    if isinstance(msg, str):
        try:
            msg.encode("utf-8")
        except UnicodeEncodeError:
            record.msg = msg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return True


# Held while MuPDF's message switches are saved, changed and restored: by `mupdf_switches_kept`
# and around every `pymupdf.Document(...)`, whose constructor does the same with its own global
# (errors off while it opens, then the value it saved): two threads opening at once left errors
# off for the process. Re-entrant: a quiet open holds it and opens.
_SWITCH_LOCK = threading.RLock()


@contextlib.contextmanager
def mupdf_switches_kept() -> Iterator[Any]:
    """MuPDF's process-wide switches (display errors, display warnings, and the ascender/descender
    corrections of text boxes) as they were, after the block.

    The switches are one per process: two threads each saving, turning off and restoring them
    could leave them off for good (the second saved the first one's "off"), and every later
    "MuPDF error: ..." line was lost. The lock makes save-and-restore whole; a message another
    thread's MuPDF says inside the block is still not shown."""
    tools = mupdf().TOOLS
    with _SWITCH_LOCK:
        errors, warnings = tools.mupdf_display_errors(), tools.mupdf_display_warnings()
        skip_quad_corrections = tools.unset_quad_corrections()
        try:
            yield tools
        finally:
            tools.mupdf_display_errors(errors)
            tools.mupdf_display_warnings(warnings)
            tools.unset_quad_corrections(skip_quad_corrections)


def mupdf() -> Any:
    """The pymupdf module, with MuPDF's messages ("MuPDF error: zlib error ...") sent to the
    `pymupdf` logger. pymupdf writes them to the stdout it found at import, which put them in the
    middle of `inspect --json` and, in tests, into a stream already closed; logged, the CLI shows
    each once with a count on stderr."""
    global _MESSAGES_ROUTED
    if not _MESSAGES_ROUTED:
        with _SWITCH_LOCK:
            if not _MESSAGES_ROUTED:
                pymupdf.set_messages(pylogging_name="pymupdf", pylogging_level=logging.WARNING)
                logging.getLogger("pymupdf").addFilter(_printable_message)
                _open_one_at_a_time(pymupdf.Document)
                _MESSAGES_ROUTED = True
    return pymupdf


def _open_one_at_a_time(document: Any) -> None:
    """pymupdf's Document constructor turns MuPDF's error display off while it opens and puts
    back the value it found, in a global: run it under the switches' lock (see _SWITCH_LOCK)."""
    opening = document.__init__

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with _SWITCH_LOCK:
            opening(self, *args, **kwargs)

    __init__.__doc__ = opening.__doc__
    document.__init__ = __init__


def _open(data: bytes, name: str, password: str | None, checked: bool = False) -> tuple[Any, bool]:
    """The open document, and whether a password had to decrypt it. `checked`: these bytes opened
    through here before (their page tree is known to be sound), so it is not walked again."""
    pymupdf = mupdf()
    check_pdf_bytes(data, name)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # pymupdf raises FileDataError, RuntimeError and friends
        raise PdfError(f"{name}: broken PDF ({_short(exc)}); regenerate it or check the file") from None
    decrypted = False
    if doc.needs_pass:
        if not password or not doc.authenticate(password):
            doc.close()
            raise encrypted_error(name, password)
        decrypted = True
    try:
        if checked and _RECOUNTED:
            _recount(doc, _RECOUNTED.get(_identity(data), {}))
        count = doc.page_count
        if count == 0:
            raise PdfError(f"{name}: broken PDF (no pages)")
        try:
            # Looking every page up walks the whole page tree: a cycle or a dangling kid shows
            # here, not in the middle of a render (about 35 µs a page: 0.35 s for 10,000 pages).
            for i in range(0 if checked else count):
                doc.page_xref(i)
        except Exception:
            if not _recount_from_kids(doc, data, name, count):
                raise
    except PdfError:
        doc.close()
        raise
    except Exception as exc:
        doc.close()
        raise PdfError(f"{name}: broken PDF ({_short(exc)}); regenerate it or check the file") from None
    return doc, decrypted


# A page tree whose /Count says more pages than its /Kids hold (a writer that merged or cut pages
# without counting again): MuPDF trusts /Count and cannot look the missing pages up, where pypdf and
# viewers count the kids. Such a tree is counted from its kids, in the open document only (the
# file's bytes are never changed), and the counts are kept here by the bytes' identity, so a later
# opening of the same bytes (`checked`, not walked again; a forked worker too) counts the same.
_RECOUNTED: dict[tuple[int, int], dict[int, int]] = {}


def _identity(data: bytes) -> tuple[int, int]:
    return len(data), zlib.crc32(data)


def _recount(doc: Any, counts: dict[int, int]) -> None:
    for xref, n in counts.items():
        doc.xref_set_key(xref, "Count", str(n))


def _counted_from_kids(doc: Any) -> tuple[int, dict[int, int]] | None:
    """The page tree's root and the pages under each of its /Pages nodes, counted from the kids
    (each node visited once), or None when the tree cannot be counted that way: a cycle, a node
    reached twice, more than the `page_tree_nodes` limit, or an entry MuPDF cannot read."""
    most = limits.get("page_tree_nodes")
    try:
        kind, value = doc.xref_get_key(doc.pdf_catalog(), "Pages")
        if kind != "xref":
            return None
        top = int(value.split()[0])
        kids: dict[int, list[int]] = {}
        counts: dict[int, int] = {}
        stack: list[tuple[int, bool]] = [(top, False)]
        while stack:
            xref, counted = stack.pop()
            if counted:
                counts[xref] = sum(counts[k] for k in kids[xref])
                continue
            if xref in kids or xref in counts or len(kids) + len(counts) >= most:
                return None  # a cycle, or a node that is its own cousin: not a tree to count
            kind, value = doc.xref_get_key(xref, "Kids")
            if kind == "array":
                kids[xref] = [int(n) for n in re.findall(r"(\d+)\s+\d+\s+R", value)]
                stack.append((xref, True))
                stack.extend((k, False) for k in reversed(kids[xref]))
            else:
                counts[xref] = 1 if doc.xref_get_key(xref, "Type")[1] == "/Page" else 0
    except Exception:  # a hostile tree MuPDF cannot read: it stays broken, with MuPDF's first word
        return None
    return top, {xref: counts[xref] for xref in kids}


def _recount_from_kids(doc: Any, data: bytes, name: str, said: int) -> bool:
    """If the page tree counted from its kids holds pages that can all be looked up, set each
    node's /Count to that (in `doc` only), say so once and return True; else False (it stays
    broken, and the caller raises what MuPDF said)."""
    counted = _counted_from_kids(doc)
    if counted is None or not counted[1].get(counted[0]):
        return False
    top, found = counted
    _recount(doc, found)
    try:
        for i in range(doc.page_count):
            doc.page_xref(i)
    except Exception:
        return False
    key = _identity(data)
    if key not in _RECOUNTED:
        _RECOUNTED[key] = found
        held = found[top]
        why = (f"its page tree says {said} pages but holds {held}" if held != said
               else "its page tree's inner counts are wrong")
        logging.getLogger(__name__).warning(f"pdfworkbench: warning: {name}: {why}; reading the {held} "
                                            "pages it holds, as pypdf and viewers do")
    return True


def is_pdf_error(exc: BaseException) -> bool:
    """Whether `exc` comes from a PDF library complaining about a file (the CLI's safety net turns
    it into one line; anything else is a bug and keeps its traceback). A worker process's error
    that came back as its text (`core.pool.WorkerError`) is judged by the type it had there."""
    mod = getattr(exc, "origin", None) or type(exc).__module__ or ""
    return mod.startswith(("pymupdf", "fitz", "pypdf")) or "code=7:" in str(exc)[:20]


@contextlib.contextmanager
def broken_pdf_errors(name: str, page: int | None = None) -> Iterator[None]:
    """A PDF library's complaint about the file inside the block (MuPDF finding an object that is
    not a stream in a file cut short, past the opening's checks) as a `PdfError` naming the file,
    and the page (0-based) where one is given: one line for the user, and an error a worker
    process can send back (MuPDF's own cannot be pickled). Anything else passes unchanged."""
    try:
        yield
    except PdfError:
        raise
    except Exception as exc:
        if not is_pdf_error(exc):
            raise
        where = name if page is None else f"{name}, page {page + 1}"
        raise PdfError(f"{where}: broken PDF ({_short(exc)}); regenerate it or check the file") from None


_FACTS: list[tuple[bytes, JSONObject]] = []


def file_facts(data: bytes) -> JSONObject:
    """What is known of a whole file, looked up once per bytes object rather than per page (the
    structure checks keep here whether it has optional content, and its revisions)."""
    for known, facts in _FACTS:
        if known is data:
            return facts
    facts: JSONObject = {}
    _FACTS.insert(0, (data, facts))
    del _FACTS[4:]
    return facts
