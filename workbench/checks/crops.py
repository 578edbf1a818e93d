"""Page crops for the HTML report, one per case, from a cache where it holds them, the others made
on every core (`page_crop.evidence_crop`: the region of the page around the evidence, its boxes).

A crop depends only on its PDF's bytes and its key's needles, so `evidence_crops` keeps each one
in a cache folder (the caller's, e.g. the user's cache) and takes it from there next time. The
entry's name is a hash of everything that could change a crop's bytes: the PDF, the needles, the
source of the code that makes it, the versions of pymupdf, Pillow and zlib, and the limits in
force; so a crop from the cache is the one that would be made again, byte for byte. Reading the
cache loads no PDF library: a report whose crops all come from it does not pay for them.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, TypeVar

from workbench.checks.evidence import evidence_needles
from workbench.core import files
from workbench.core.cache import code_fingerprint, key_of, read_entry, write_entry
from workbench.core.case import Case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.pool import _run_chunk as run_chunk  # (map_ordered's: results and log lines)
from workbench.core.pool import process_pool, resolve_jobs
from workbench.core.schema import JSONObject
from workbench.grading.html.crop import CropBox, PageCrop

T = TypeVar("T")
R = TypeVar("R")


def _pdf_bytes(case: Case) -> bytes:
    # Read as it is: evidence_crop's open checks it (pdf.document.read_pdf_bytes would open it a
    # second time to check; a crop asks no password, so the bytes are the same).
    return files.read_bytes(case.pdf_file, "PDF", "pdf_file_bytes")


# ---- the cache (`core.cache`) ----------------------------------------------------------------

# The entry's layout; bump it when the JSON below changes shape.
CACHE_FORMAT = 1
# The source a crop runs through (this module, evidence, the needles, spans, structure, the text
# search, the limits, the crop's own type; the packages whole): any edit there is a new cache key,
# so a crop in the cache is never one that the code of today would draw differently. (The report's
# template and charts are not in it: a crop does not depend on them.) With the renderer's and the
# encoder's versions, and zlib's, which writes the PNG.
_CODE = ("checks", "core", "pdf", "text", "grading/html/crop.py")
_LIBRARIES = ("pymupdf", "pillow")


def _fingerprint() -> list[Any]:
    """What every crop's key shares (see the module docstring): read each time, as the limits
    can change in this process (a command's --limit)."""
    import zlib

    return [CACHE_FORMAT, *code_fingerprint(_CODE, _LIBRARIES), zlib.ZLIB_RUNTIME_VERSION]


def crop_key(case: Case, pdf_sha256: str, fingerprint: list[Any]) -> str:
    """The cache key of `case`'s crop made from the PDF of that hash."""
    return key_of(fingerprint, pdf_sha256, evidence_needles(case))


def _to_entry(crop: PageCrop) -> JSONObject:
    return {"page": crop.page, "clip": list(crop.clip), "width": crop.width, "height": crop.height,
            "boxes": [[b.kind, list(b.rect)] for b in crop.boxes], "note": crop.note,
            "png": base64.b64encode(crop.png).decode("ascii"), "png_sha256": sha256_hex(crop.png)}


def _from_entry(case_id: str, entry: Any) -> PageCrop | None:
    """The crop an entry holds, or None when it is not one (damaged, cut short)."""
    try:
        png = base64.b64decode(entry["png"], validate=True)
        if sha256_hex(png) != entry["png_sha256"]:
            return None
        clip = tuple(float(v) for v in entry["clip"])
        boxes = tuple(CropBox(str(kind), tuple(float(v) for v in rect)) for kind, rect in entry["boxes"])
        if len(clip) != 4 or any(len(b.rect) != 4 for b in boxes):
            return None
        return PageCrop(case_id, int(entry["page"]), clip, int(entry["width"]), int(entry["height"]), png,
                        boxes, str(entry["note"]))
    except (KeyError, TypeError, ValueError):
        return None


def _cached(folder: Path, case_id: str, key: str) -> PageCrop | None:
    entry = read_entry(folder, key, "page crop")
    return None if entry is None else _from_entry(case_id, entry)


def _store(folder: Path, key: str, crop: PageCrop) -> None:
    """Keep the crop under its key. Not synced to disk (a sync a file was 7 ms here, longer than
    making the crop): an entry cut short by a crash fails its checks and is a miss."""
    write_entry(folder, key, _to_entry(crop), sync=False)


# A crop to make: the case; and, where it is to be kept, the PDF's bytes the key was made from
# (read once, here: the worker crops those very bytes, so what it keeps is what the key names),
# the cache folder and the key; else None (the worker reads the PDF).
_Job = tuple[Case, tuple[bytes, Path, str] | None]
# Crops a worker makes at a time (a chunk is one trip to the process and back); and items of
# `CropMaker.map`'s (a case's tracing is some ten crops' work).
CHUNK = 8
MAP_CHUNK = 2


def _make(job: _Job) -> PageCrop | None:
    """A pool worker's crop (None when the PDF cannot be read: the card says so), kept in the
    cache when the PDF read is still the one its key was made from."""
    # The one import of the PDF stack (pymupdf, Pillow, the text trace): here, where a crop must be
    # made, so a report whose crops all come from the cache loads none of it.
    from workbench.checks import page_crop

    case, keep = job
    try:
        crop = page_crop.evidence_crop(case, _pdf_bytes(case) if keep is None else keep[0])
    except UserError:
        return None
    if keep is not None:
        _store(keep[1], keep[2], crop)
    return crop


def _started() -> None:
    return None


class CropMaker:
    """Page crops made while the caller goes on with its own work (`report --html` grades the
    runs meanwhile): `add(case)` as each case is known to need one, then `crops()`.

    A crop the cache holds is taken at once; the others go to `jobs` worker processes in chunks
    as they come. The workers start with the maker, so make it before this process starts a
    thread: they are then forked from one thread with nothing of the PDF stack loaded (a process
    with threads must spawn them, and each would import everything again). With `jobs` 1 the
    crops are made in this process, in `crops()`. Use it as a context manager, or `close()` it."""

    def __init__(self, jobs: int | None = None, cache: Path | None = None) -> None:
        self._cache = Path(cache) if cache is not None else None
        self._fingerprint = _fingerprint() if cache is not None else []
        self._found: dict[str, PageCrop | None] = {}
        self._chunk: list[_Job] = []
        self._sent: list[tuple[list[str], Future]] = []
        self._pool: Executor | None = None
        jobs = resolve_jobs(jobs)
        if jobs > 1:
            if self._cache is None or not self._cache.is_dir():
                # No cache to take a crop from: every one is made, so the PDF stack loads once,
                # here, for the workers forked next, rather than in each of them.
                from workbench.checks import page_crop  # noqa: F401
            self._pool = process_pool(jobs)
            self._pool.submit(_started)   # (a forking pool starts all its processes at the first)

    def __enter__(self) -> CropMaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, case: Case) -> None:
        """Want `case`'s crop (a case asked for again is not made again)."""
        if case.id in self._found:
            return
        self._found[case.id] = None
        keep = None
        if self._cache is not None:
            try:
                data = _pdf_bytes(case)
            except UserError:
                return   # not readable: nothing to crop
            key = crop_key(case, sha256_hex(data), self._fingerprint)
            hit = _cached(self._cache, case.id, key)
            if hit is not None:
                self._found[case.id] = hit
                return
            keep = (data, self._cache, key)
        self._chunk.append((case, keep))
        if self._pool is not None and len(self._chunk) >= CHUNK:
            self._send()

    def _send(self) -> None:
        if self._chunk and self._pool is not None:
            chunk, self._chunk = self._chunk, []
            self._sent.append(([case.id for case, _ in chunk], self._pool.submit(run_chunk, _make, chunk)))

    def crops(self) -> dict[str, PageCrop | None]:
        """Every case added -> its crop (None where its PDF cannot be read), in the order added;
        waits for the workers."""
        self._send()
        for ids, future in self._sent:
            made, records = future.result()
            for record in records:   # a worker's log lines, logged here (as map_ordered does)
                logging.getLogger(record.name).handle(record)
            self._found.update(zip(ids, made, strict=True))
        self._sent = []
        for job in self._chunk:   # no pool: made here
            self._found[job[0].id] = _make(job)
        self._chunk = []
        return dict(self._found)

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """`fn(item)` for each item, in order, on the maker's workers after the crops sent so far
        (here without a pool): other work of the report's (`--by source`'s tracing) on processes
        forked before any thread, where a pool started now would have to spawn. `fn` is a
        module-level function; a worker's log lines are logged here."""
        items = list(items)
        if self._pool is None:
            yield from map(fn, items)
            return
        sent = [self._pool.submit(run_chunk, fn, items[i:i + MAP_CHUNK]) for i in range(0, len(items), MAP_CHUNK)]
        for future in sent:
            made, records = future.result()
            for record in records:
                logging.getLogger(record.name).handle(record)
            yield from made

    def close(self) -> None:
        """End the workers (crops not yet made are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def evidence_crops(cases: Iterable[Case], jobs: int | None = None,
                   cache: Path | None = None) -> Iterator[tuple[str, PageCrop | None]]:
    """(case id, crop or None) for each case, in order: from the `cache` folder where it holds
    the crop, the others made on `jobs` processes (and kept there)."""
    cases = list(cases)
    with CropMaker(jobs if len(cases) > 1 else 1, cache) as maker:
        for case in cases:
            maker.add(case)
        found = maker.crops()
    for case in cases:
        yield case.id, found[case.id]
