"""Reading what a provider batch service says: its objects, ids, counts and result lines, each
checked before it goes into a state file, a URL path or a record (the protocols beside the
adapters use these: `providers/openai_batch.py`, `anthropic_batch.py`, `google_batch.py`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from workbench.core.runs import CallError
from workbench.core.schema import JSONObject
from workbench.providers.base import Adapter, ReadResult
from workbench.providers.batch.service import BadLine, Service

ENDED = ("completed", "expired", "cancelled", "failed")
# What a provider's data may hold where it goes into a file or a URL path of ours: an id (OpenAI
# "batch_abc", Anthropic "msgbatch_abc", Gemini "batches/abc"), a status word, a count's name.
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,255}$")
# A batch answer of a shape we do not know: these are what reading it may raise.
MALFORMED = (ValueError, TypeError, AttributeError, KeyError, IndexError, RecursionError)


@dataclass
class Poll:
    status: str                       # ours: in_progress | completed | expired | cancelled | failed
    provider_status: str
    counts: dict[str, int | str]
    raw: JSONObject                   # the service's own object, as it sent it (redacted)
    message: str = ""                 # why a batch failed, when it says

    @property
    def ended(self) -> bool:
        return self.status in ENDED


def obj(value: Any, what: str) -> JSONObject:
    """`value` as a JSON object, or ValueError naming `what`."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def maybe_obj(value: Any) -> JSONObject:
    return value if isinstance(value, dict) else {}


def ident(value: Any, what: str) -> str:
    """An id the service gave, checked before it goes into a state file or a URL path."""
    if isinstance(value, str) and _ID.match(value) and ".." not in value:
        return value
    raise ValueError(f"{what} is not an id ({short(value)})")


def word(value: Any, n: int = 64) -> str:
    """A status word or short text from the service, cut to `n` characters."""
    return " ".join(str(value).split())[:n] if value is not None else ""


def counts(value: Any) -> dict[str, int | str]:
    """Request counts (numbers, or numbers as strings as Gemini gives them), nothing else."""
    out: dict[str, int | str] = {}
    for k, v in maybe_obj(value).items():
        if isinstance(v, bool) or not isinstance(k, str) or len(k) > 40:
            continue
        if isinstance(v, int) or (isinstance(v, str) and v.isdigit() and len(v) < 12):
            out[k] = v
    return out


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def shaped(service: Service, what: str, read: Callable[[], Any], after: str = "") -> Any:
    """`read()`, with an answer of the wrong shape turned into one line."""
    try:
        return read()
    except MALFORMED as exc:
        raise service.refuse(what, f"the answer is not what the service sends ({exc})"
                             + (f"; {after}" if after else "")) from None


def error_result(mod: Adapter, status: int, body: Any, request_id: str | None = None) -> ReadResult:
    perr = mod.parse_error(status, body)
    return ReadResult("error", request_id=request_id, error=CallError(
        perr.type or (f"http_{status}" if status else "request_failed"), perr.message or f"HTTP {status}",
        status or None, perr.code))


def malformed(problem: str) -> ReadResult:
    return ReadResult("error", error=CallError("malformed_response", f"the provider's answer could not be read: "
                                                                     f"{problem}"))


def parsed(mod: Adapter, body: Any, headers: dict[str, str]) -> ReadResult:
    try:
        return mod.parse(body, headers)
    except MALFORMED as exc:
        return malformed(str(exc))


def not_run(end: str) -> ReadResult:
    """A request the batch ended before running: expired (a timeout, asked again by
    --retry-errors), cancelled, or lost with a failed batch."""
    if end == "expired":
        return ReadResult("timeout", error=CallError("batch_expired", "the batch expired before this request ran"))
    if end == "cancelled":
        return ReadResult("cancelled", error=CallError("batch_cancelled", "the batch was cancelled before this request ran"))
    return ReadResult("error", error=CallError("batch_failed", f"the batch {end} without a result for this request"))


def per_call(cid: Any, parse: Callable[[], ReadResult], where: str) -> tuple[str | None, ReadResult]:
    """(the call's custom id, its result): a result of the wrong shape is that call's error."""
    cid = cid if isinstance(cid, str) else None
    try:
        return cid, parse()
    except MALFORMED as exc:
        return cid, malformed(f"{where}: {exc}")


def file_results(service: Service, path: str, what: str,
                 parse: Callable[[JSONObject], ReadResult]) -> Iterator[tuple[str | None, ReadResult]]:
    """The results of a downloaded JSON Lines file, one per line; a line no call can be told
    from comes with custom id None (the caller counts it)."""
    with service.download(path, f"downloading the {what}") as file:
        for n, item in service.lines(file, what):
            if isinstance(item, BadLine):
                yield item.custom_id, malformed(item.problem)
            else:
                yield per_call(item.get("custom_id"), lambda item=item: parse(item), f"line {n} of the {what}")
