"""Anthropic Message Batches: the live calls' request bodies (`anthropic.py`) as
{custom_id, params} requests of one message batch; its results as JSONL."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from workbench.core.errors import UserError
from workbench.core.schema import JSONObject
from workbench.providers.base import HttpCall, ReadResult
from workbench.providers.batch.replies import (
    Poll,
    counts,
    error_result,
    file_results,
    ident,
    maybe_obj,
    not_run,
    obj,
    parsed,
    shaped,
    short,
    word,
)
from workbench.providers.batch.service import Service
from workbench.providers.batch.state import Entry

# How far back (seconds) a restart looks for an Anthropic batch it may have created: clocks differ.
CLOCK_SKEW_S = 300


class AnthropicBatches:
    """Anthropic Message Batches: {custom_id, params} requests; results as JSONL."""

    def __init__(self, service: Service) -> None:
        self.s = service

    @staticmethod
    def line(custom_id: str, call: HttpCall) -> JSONObject:
        return {"custom_id": custom_id, "params": call.body}

    def upload(self, entry: Entry, lines: list[bytes]) -> None:
        self._lines = lines   # sent with the create call

    def create(self, entry: Entry) -> str:
        body = b'{"requests": [' + b",".join(line.rstrip(b"\n") for line in self._lines) + b"]}"
        what = "creating the message batch"
        answer = self.s.call("POST", "/v1/messages/batches", what, content=body, once=True)
        return shaped(self.s, what, lambda: ident(obj(answer, "the answer").get("id"), "the batch's id"))

    def find(self, entry: Entry) -> str | None:
        since = dt.datetime.fromisoformat(str(entry.create_started_at).replace("Z", "+00:00"))
        what = "listing message batches"
        listing = self.s.call("GET", "/v1/messages/batches?limit=100", what)

        def read() -> list[str]:
            found = []
            for b in obj(listing, "the listing").get("data") or []:
                b = maybe_obj(b)
                try:
                    created = dt.datetime.fromisoformat(str(b.get("created_at")).replace("Z", "+00:00"))
                    late = (created - since).total_seconds() >= -CLOCK_SKEW_S
                except (ValueError, TypeError):   # no date, or one without a time zone
                    continue
                total = sum(v for v in counts(b.get("request_counts")).values() if isinstance(v, int))
                if late and total == len(entry.requests):
                    found.append(ident(b.get("id"), "the batch's id"))
            return found

        found = shaped(self.s, what, read)
        if len(found) > 1:
            raise UserError(f"cannot tell which of the message batches {', '.join(found)} this run created "
                            "(Anthropic batches carry no metadata); cancel the ones that are not, then run again")
        return found[0] if found else None

    def poll(self, batch_id: str) -> Poll:
        what = f"checking batch {batch_id}"
        answer = self.s.call("GET", f"/v1/messages/batches/{batch_id}", what)

        def read() -> Poll:
            b = obj(answer, "the batch")
            raw_status = word(b.get("processing_status"))
            n = counts(b.get("request_counts"))
            status = "in_progress"
            if raw_status == "ended":
                status = "cancelled" if b.get("cancel_initiated_at") else (
                    "expired" if n.get("expired") else "completed")
            return Poll(status, raw_status, n, b)

        return shaped(self.s, what, read, "nothing was changed")

    def results(self, poll: Poll, entry: Entry) -> Iterator[tuple[str | None, ReadResult]]:
        # Built from the id we polled, never from `results_url`: the key goes only where it is meant to.
        yield from file_results(self.s, f"/v1/messages/batches/{entry.batch_id}/results", "results",
                                self._result)

    def _result(self, item: JSONObject) -> ReadResult:
        result = obj(item.get("result"), "result")
        kind = result.get("type")
        if kind == "succeeded":
            return parsed(self.s.mod, result.get("message"), {})
        if kind == "errored":
            err = maybe_obj(result.get("error"))
            return error_result(self.s.mod, 0, err if "error" in err else {"error": err})
        if kind == "canceled":
            return not_run("cancelled")
        if kind == "expired":
            return not_run("expired")
        raise ValueError(f"result.type {short(kind)} is none of succeeded, errored, canceled, expired")

    def cancel(self, batch_id: str) -> None:
        self.s.call("POST", f"/v1/messages/batches/{batch_id}/cancel", f"cancelling batch {batch_id}")
