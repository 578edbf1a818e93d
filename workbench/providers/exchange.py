"""One HTTP request, the only place the readers touch the network: live calls (`reading`) and
the batch services (`batch.service`) alike. It has a deadline from connecting to the last byte and
a cap on the body it reads, whatever the server does."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import IO, Any

import httpx

# An error body is kept (in a record's error message, in a refusal) up to this many characters.
MAX_ERROR_TEXT = 1000


def body_value(raw: bytes) -> Any:
    """An error body as the adapter's `parse_error` reads it: its JSON, else its first text."""
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return raw[:MAX_ERROR_TEXT].decode("utf-8", "replace")


class BodyTooLarge(Exception):
    """A body past its cap: `size` is how far it got (or what its content-length said)."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


@dataclass
class Reply:
    status: int
    headers: dict[str, str]   # names in lower case
    reason: str
    body: bytes               # empty when it went to a sink


async def _read_capped(resp: httpx.Response, cap: int, sink: IO[bytes] | None = None) -> bytes:
    """The response body, or BodyTooLarge as soon as it passes `cap` bytes (so an endless or
    gigabyte body costs at most `cap` of memory, or of disk with a `sink` file)."""
    declared = resp.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > cap:
        raise BodyTooLarge(int(declared))
    chunks: list[bytes] = []
    size = 0
    async for chunk in resp.aiter_bytes():
        size += len(chunk)
        if size > cap:
            raise BodyTooLarge(size)
        if sink is None:
            chunks.append(chunk)
        else:
            sink.write(chunk)
    return b"".join(chunks)


async def exchange(client: httpx.AsyncClient, method: str, url: str, budget_s: float, cap: int, *,
                   sink: IO[bytes] | None = None, sink_cap: int | None = None, **request: Any) -> Reply:
    """One HTTP request, the only place the readers touch the network (live calls and batch
    services alike). It ends within `budget_s` from connecting to the last byte, however the
    server drips them (TimeoutError), and its body is streamed and cut at `cap` bytes
    (BodyTooLarge). With `sink` (a binary file), a 2xx body is written there, up to `sink_cap`."""
    async with asyncio.timeout(budget_s):
        async with client.stream(method, url, timeout=budget_s, **request) as resp:
            to_sink = sink if sink is not None and 200 <= resp.status_code < 300 else None
            body = await _read_capped(resp, (sink_cap or cap) if to_sink else cap, to_sink)
            return Reply(resp.status_code, {k.lower(): v for k, v in resp.headers.items()},
                         getattr(resp, "reason_phrase", "") or "", body)
