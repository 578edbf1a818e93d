"""Budgets and caps on untrusted input, in one place, each with its reason.

Everything the workbench reads may be hostile (PDFs, suite folders, run files, provider
responses), so every read and every per-page analysis has a bound. A user with a truly huge
document raises one: `--limit NAME=VALUE` on any command, or `"limits": {"NAME": VALUE}` in
config.json (the flag wins). A limit that stops work says which one and how to raise it
(`exceeded`), in one line.

Add a limit with `_limit(...)` in the section it belongs to; read it with `get(NAME)` at the
moment it is needed (never copy its value into another module's constant at import time, or an
override would not reach it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from workbench.core.errors import UserError

LIMIT_ENV = "PDFWORKBENCH_LIMITS"  # "NAME=VALUE,NAME=VALUE": how a flag reaches worker processes


@dataclass(frozen=True)
class Limit:
    """A budget: its default, its unit and why (`pdfworkbench config limits` lists them)."""

    name: str
    default: int | float
    unit: str   # "bytes", "seconds", "count", ...
    why: str    # the reason for the default, shown by `pdfworkbench config limits`


LIMITS: dict[str, Limit] = {}
_overrides: dict[str, int | float] = {}


def _limit(name: str, default: int | float, unit: str, why: str) -> Limit:
    if name in LIMITS:
        raise RuntimeError(f"limit {name} defined twice")
    LIMITS[name] = lim = Limit(name, default, unit, why)
    return lim


# --- Files read from a suite folder, a run, a config (untrusted: any size, any type) ---------

# Every file is read only if regular (never a FIFO or a device) and never past its cap, whatever
# its size on disk says (core/files.py). Ours are far below each: a case JSON is a few KB, a
# 1,276-case suite.json 400 KB, a run of 10,000 calls about 20 MB.
_limit("json_file_bytes", 64 * 2**20, "bytes",
       "a case, suite.json, key, config or readers.toml; ours are a few KB")
_limit("run_file_bytes", 1 * 2**30, "bytes",
       "a run file, journal, predictions, pdfhell run or shard manifest (held whole while read)")
_limit("pdf_file_bytes", 512 * 2**20, "bytes",
       "a PDF read whole into memory; 512 MB is a 2,000-page scanned book")
_limit("eval_log_bytes", 512 * 2**20, "bytes",
       "an Inspect log: a .json one, or a .eval zip compressed and inflated (a zip bomb reached 4.2 GB)")
_limit("eval_log_members", 100_000, "count",
       "files in an Inspect .eval zip: one per sample, plus a header")
_limit("key_text_chars", 10_000, "count",
       "characters in one string of an answer key (question, expected or forbidden answer, gold "
       "value): grading makes a pattern of each; ours are under 500")

# --- Provider responses (live calls and batch services) -------------------------------------

# A provider may answer slowly, endlessly or hugely (a 2.9 GB batch result was once read whole).
# Every body is streamed and cut at its cap; every request ends by its deadline, however the
# server drips its bytes. PDFWORKBENCH_TIMEOUT and PDFWORKBENCH_RETRY_DEADLINE set the two
# live deadlines too (the retry policy's variables, older than these limits).
_limit("provider_answer_bytes", 8 * 2**20, "bytes",
       "one answer: a live call's body, or one line of a batch result file; a 1,024-token "
       "answer is a few KB, a structured extraction under 100 KB")
_limit("provider_attempt_seconds", 120.0, "seconds",
       "one HTTP request to a provider (live or batch), connecting to last byte")
_limit("provider_call_seconds", 300.0, "seconds",
       "one live call or batch-service step, every retry and wait included")
_limit("provider_batch_reply_bytes", 256 * 2**20, "bytes",
       "a batch service's JSON answer, parsed whole (Gemini's status carries its inlined "
       "results: at most about 20 MB of requests' worth)")
_limit("provider_batch_file_bytes", 1 * 2**30, "bytes",
       "one batch result or error file, streamed to disk: 50,000 answers of 20 KB")
_limit("provider_batch_download_seconds", 900.0, "seconds",
       "downloading one batch result or error file, start to last byte (1 GB at 1.2 MB/s)")

# An agent reader (`agent:PROVIDER:MODEL`) reads the document through its tools, turn after
# turn: what the tools hand back is sent again on every later turn, so it is bounded per case.
_limit("agent_tool_bytes", 32 * 2**20, "bytes",
       "text and page images the tools return to one agent for one case; a 10-page case read "
       "whole as text and as 150-dpi images is about 3 MB")
_limit("agent_image_dpi", 300, "count",
       "the highest DPI page_image renders at (an A4 page at 300 dpi is 8.7 Mpx); asked for more, "
       "the page comes at this DPI and the agent is told")

# --- Work per answer (a provider's: any length) ---------------------------------------------

# Each value an answer states is traced to its source on the pages (`grade --explain` and
# `--json`, `report --by source`): about a millisecond each. An answer of a few words states a
# handful; a probe answer that is a whole page's text, up to some 250.
_limit("traced_values", 1_000, "count",
       "values of one answer traced to where they came from; the values after these are not "
       "traced (an answer of 20,000 numbers took 40 s)")

# --- Work per PDF page (inspection, lint, rendering) ----------------------------------------

# Counted before the work, from the page's dictionary and content streams (pdf/budget.py): a
# page over one is "too complex: skipped (N ...)" in inspect, lint and the workbench, and the
# rest of the document goes on. pymupdf holds the GIL while MuPDF works on a page, so a page
# within these must cost seconds at most, or the workbench stops answering keys while it runs.
_limit("page_annotations", 2_000, "count",
       "annotations on one page; a heavily reviewed page has hundreds. Each costs about 2 ms "
       "(10,000 took 30 s); 100,000 took over 400 s and 1.1 GB before this limit")
_limit("page_operators", 100_000, "count",
       "content stream operators drawn on one page, forms counted each time they are drawn; a "
       "dense text page has a few thousand, a detailed drawing tens of thousands; pypdf reads "
       "about 15,000 a second (2 million took 1.5 GB)")
_limit("xobject_depth", 16, "count",
       "form XObjects drawn inside form XObjects; real documents nest a few deep")
_limit("xobject_visits", 2_000, "count",
       "XObjects drawn on one page, through every form; pypdf takes about 6 ms for each (3,616 "
       "took 22 s), and 10 levels of 10 references each is over a billion (2.9 GB, no end)")
_limit("image_pixels", 250_000_000, "count",
       "pixels of one image a page draws, from its /Width and /Height (an A0 scan at 400 DPI is "
       "250 million); MuPDF took 6 s on a 400-million-pixel image, docling-parse 29 s and 3.6 GB")
_limit("page_seconds", 20.0, "seconds",
       "one page's span analysis; past it the rest of the page is judged by its drawing "
       "operators, without its pixels")
_limit("page_pixels", 60_000_000, "count",
       "pixels of one page rendered for span analysis (a 200-inch page at 150 DPI is 900 "
       "million); a larger page is judged by its drawing operators (a lower --dpi checks them)")
_limit("render_pixels", 40_000_000, "count",
       "pixels of one rendered page: a larger render is made at a lower DPI (40 million is a "
       "Letter page at 700 DPI, above any reader's raster; a 200-inch page at 150 DPI is 2.7 GB)")
_limit("scan_ocr_pages", 20, "count",
       "pages of a document read by OCR to judge a scan's invisible text layer (the first ones; "
       "about 3 s a page): past them, a scan's layer is called hidden, as its drawing says")
_limit("forensic_pages", 500, "count",
       "pages analysed whole at once (every span's visibility, about 0.1 s a page)")
_limit("inspect_pages", 1000, "count",
       "pages `inspect` reads of a PDF or a case's, and `lint` of a bare PDF, unless --pages says otherwise")
_limit("page_tree_nodes", 1_000_000, "count",
       "nodes of a page tree counted from its kids when its /Count is wrong")

# --- The workbench served to a browser ------------------------------------------------------


def get(name: str) -> int | float:
    """The limit in force: an override (flag, config, environment), else the default."""
    if name not in _overrides:
        _load_env()
    lim = LIMITS[name]
    return _overrides.get(name, lim.default)


def flag(name: str) -> str:
    """How a user raises this limit, for an error message."""
    return f"--limit {name}=N"


def exceeded(name: str, what: str) -> str:
    """One line for a limit that stopped work: what, the limit, and how to raise it."""
    lim = LIMITS[name]
    return f"{what} (over the {name} limit of {show(get(name), lim.unit)}; raise it with {flag(name)})"


def show(value: int | float, unit: str) -> str:
    if unit == "bytes":
        for size, suffix in ((2**30, "GB"), (2**20, "MB"), (2**10, "KB")):
            if value >= size and value % size == 0:
                return f"{int(value // size)} {suffix}"
        return f"{int(value):,} bytes"
    if unit == "seconds":
        return f"{value:g} s"
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def parse_override(text: str) -> tuple[str, int | float]:
    """`NAME=VALUE` -> (name, value); an unknown name or a bad value is a UserError."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or name not in LIMITS:
        known = ", ".join(sorted(LIMITS)) or "(none)"
        raise UserError(f"unknown limit {name!r} in --limit {text!r}; the limits are: {known}")
    default = LIMITS[name].default
    try:
        number: int | float = int(value) if isinstance(default, int) else float(value)
    except ValueError:
        raise UserError(f"--limit {name} takes a number, not {value!r}") from None
    if number != number:   # NaN: no comparison with it holds, so a budget of NaN was no budget at all
        raise UserError(f"--limit {name} takes a number, not {value!r}")
    if number <= 0:
        raise UserError(f"--limit {name} must be above 0, not {value!r}")
    return name, number


def set_overrides(values: dict[str, int | float], *, export: bool = True) -> None:
    """Apply overrides (already parsed); `export` passes them on to child processes."""
    _overrides.update(values)
    if export and _overrides:
        os.environ[LIMIT_ENV] = ",".join(f"{k}={v}" for k, v in sorted(_overrides.items()))


_env_loaded = False
# (what the last command exported, the environment's value it was made over)
_last: tuple[str | None, str | None] = (None, None)


def for_command(values: dict[str, int | float]) -> None:
    """The overrides of one command (`main()`): the environment's (what a parent process or
    the user set), then `values`, exported for child processes. Replaces the previous command's,
    so a --limit never outlives the command that gave it."""
    global _env_loaded, _last
    current = os.environ.get(LIMIT_ENV)
    exported, base_then = _last
    base = base_then if exported is not None and current == exported else current
    _overrides.clear()
    _env_loaded = True
    _read_env(base)
    _overrides.update(values)
    if values:
        text = ",".join(f"{k}={v}" for k, v in sorted(_overrides.items()))
        os.environ[LIMIT_ENV] = text
        _last = (text, base)
    else:
        if base is None:
            os.environ.pop(LIMIT_ENV, None)
        else:
            os.environ[LIMIT_ENV] = base
        _last = (None, None)


def _load_env() -> None:
    global _env_loaded
    if _env_loaded:
        return
    _env_loaded = True
    _read_env(os.environ.get(LIMIT_ENV))


def _read_env(text: str | None) -> None:
    """The variable's limits (a name given twice: the last), under those already set."""
    found: dict[str, int | float] = {}
    for part in filter(None, (text or "").split(",")):
        try:
            name, value = parse_override(part)
        except UserError:
            continue  # a stale or foreign variable never stops a worker
        found[name] = value
    for name, value in found.items():
        _overrides.setdefault(name, value)
