"""Gemini batch mode: the live calls' request bodies (`google.py`) inlined in one batch, each
with a metadata key; the batch is an Operation whose response holds the inlined responses."""

from __future__ import annotations

import json
from collections.abc import Iterator

from workbench.core.schema import JSONObject
from workbench.providers.base import HttpCall, ReadResult
from workbench.providers.batch.replies import (
    Poll,
    counts,
    error_result,
    ident,
    maybe_obj,
    obj,
    parsed,
    per_call,
    shaped,
    word,
)
from workbench.providers.batch.service import Service
from workbench.providers.batch.state import Entry

INTENT_PREFIX = "pdfworkbench-"


class GeminiBatches:
    """Gemini batch mode: inlined GenerateContentRequests, each with a metadata key; an Operation."""

    STATUS = {"BATCH_STATE_PENDING": "in_progress", "BATCH_STATE_RUNNING": "in_progress",
              "BATCH_STATE_SUCCEEDED": "completed", "BATCH_STATE_FAILED": "failed",
              "BATCH_STATE_CANCELLED": "cancelled", "BATCH_STATE_EXPIRED": "expired"}

    def __init__(self, service: Service) -> None:
        self.s = service

    @staticmethod
    def line(custom_id: str, call: HttpCall) -> JSONObject:
        return {"request": call.body, "metadata": {"key": custom_id}}

    def upload(self, entry: Entry, lines: list[bytes]) -> None:
        self._lines = lines   # inlined in the create call

    def create(self, entry: Entry) -> str:
        model = self.s.spec.model.removeprefix("models/")
        requests = b",".join(line.rstrip(b"\n") for line in self._lines)
        body = (b'{"batch": {"display_name": ' + json.dumps(INTENT_PREFIX + entry.intent).encode()
                + b', "input_config": {"requests": {"requests": [' + requests + b"]}}}}")
        what = "creating the batch"
        op = self.s.call("POST", f"/v1beta/models/{model}:batchGenerateContent", what, content=body, once=True)

        def read() -> str:
            answer = obj(op, "the answer")
            return ident(answer.get("name") or maybe_obj(answer.get("metadata")).get("name"), "the batch's name")

        return shaped(self.s, what, read)

    def find(self, entry: Entry) -> str | None:
        what = "listing batches"
        listing = self.s.call("GET", "/v1beta/batches?pageSize=100", what)

        def read() -> str | None:
            answer = obj(listing, "the listing")
            for op in answer.get("operations") or answer.get("batches") or []:
                op = maybe_obj(op)
                meta = maybe_obj(op.get("metadata")) or op
                if meta.get("displayName", meta.get("display_name")) == INTENT_PREFIX + entry.intent:
                    return ident(op.get("name") or meta.get("name"), "the batch's name")
            return None

        return shaped(self.s, what, read)

    def poll(self, batch_id: str) -> Poll:
        what = f"checking batch {batch_id}"
        answer = self.s.call("GET", f"/v1beta/{batch_id}", what)

        def read() -> Poll:
            op = obj(answer, "the operation")
            meta = maybe_obj(op.get("metadata"))
            done = op.get("done") is True
            raw_status = word(meta.get("state") or ("BATCH_STATE_SUCCEEDED" if done else "BATCH_STATE_PENDING"))
            status = self.STATUS.get(raw_status, "in_progress")
            if done and status == "in_progress":
                status = "failed" if op.get("error") else "completed"
            message = word(maybe_obj(op.get("error")).get("message") or "", 300)
            return Poll(status, raw_status, counts(meta.get("batchStats")), op, message)

        return shaped(self.s, what, read, "nothing was changed")

    def results(self, poll: Poll, entry: Entry) -> Iterator[tuple[str | None, ReadResult]]:
        raw = poll.raw
        inlined = (maybe_obj(raw.get("response")).get("inlinedResponses")
                   or maybe_obj(maybe_obj(raw.get("metadata")).get("output")).get("inlinedResponses") or {})
        items = (inlined.get("inlinedResponses") if isinstance(inlined, dict) else inlined) or []
        if not isinstance(items, list) or (poll.status == "completed" and not items and entry.requests):
            raise self.s.refuse(f"reading batch {entry.batch_id}", "it ended without a list of inlined "
                                "responses; nothing of it was collected: try again later")
        keys = list(entry.requests)
        for i, item in enumerate(items):
            # Responses come in request order; the metadata key, when it is echoed, names it.
            item = maybe_obj(item)
            cid = maybe_obj(item.get("metadata")).get("key") or (keys[i] if i < len(keys) else None)
            yield per_call(cid, lambda item=item: self._result(item), f"inlined response {i + 1}")

    def _result(self, item: JSONObject) -> ReadResult:
        if "response" in item:
            return parsed(self.s.mod, item["response"], {})
        if "error" in item:   # a google.rpc.Status: its code is gRPC's, not HTTP's
            return error_result(self.s.mod, 0, {"error": maybe_obj(item["error"])})
        raise ValueError("the item has neither a response nor an error")

    def cancel(self, batch_id: str) -> None:
        self.s.call("POST", f"/v1beta/{batch_id}:cancel", f"cancelling batch {batch_id}")
