"""OpenAI Batch API: the live calls' request bodies (`openai.py`) as lines of a JSONL file
(purpose batch), a batch of /v1/chat/completions, its output and error files."""

from __future__ import annotations

from collections.abc import Iterator

from workbench.core.runs import CallError
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


class OpenAIBatches:
    """OpenAI Batch API: a JSONL file (purpose batch) of /v1/chat/completions calls."""

    ENDPOINT = "/v1/chat/completions"
    STATUS = {"validating": "in_progress", "in_progress": "in_progress", "finalizing": "in_progress",
              "cancelling": "in_progress", "completed": "completed", "expired": "expired",
              "cancelled": "cancelled", "failed": "failed"}

    def __init__(self, service: Service) -> None:
        self.s = service

    @staticmethod
    def line(custom_id: str, call: HttpCall) -> JSONObject:
        return {"custom_id": custom_id, "method": "POST", "url": OpenAIBatches.ENDPOINT, "body": call.body}

    def upload(self, entry: Entry, lines: list[bytes]) -> str:
        files = {"file": (f"{entry.intent}.jsonl", b"".join(lines), "application/jsonl")}
        what = "uploading the input file"
        answer = self.s.call("POST", "/files", what, files=files, data={"purpose": "batch"})
        return shaped(self.s, what, lambda: ident(obj(answer, "the answer").get("id"), "the file's id"))

    def create(self, entry: Entry) -> str:
        body = {"input_file_id": entry.file_id, "endpoint": self.ENDPOINT, "completion_window": "24h",
                "metadata": {"pdfworkbench_intent": entry.intent}}
        what = "creating the batch"
        answer = self.s.call("POST", "/batches", what, body=body, once=True)
        return shaped(self.s, what, lambda: ident(obj(answer, "the answer").get("id"), "the batch's id"))

    def find(self, entry: Entry) -> str | None:
        what = "listing batches"
        listing = self.s.call("GET", "/batches?limit=100", what)

        def read() -> str | None:
            for b in obj(listing, "the listing").get("data") or []:
                b = maybe_obj(b)
                if maybe_obj(b.get("metadata")).get("pdfworkbench_intent") == entry.intent:
                    return ident(b.get("id"), "the batch's id")
            return None

        return shaped(self.s, what, read)

    def poll(self, batch_id: str) -> Poll:
        what = f"checking batch {batch_id}"
        answer = self.s.call("GET", f"/batches/{batch_id}", what)

        def read() -> Poll:
            b = obj(answer, "the batch")
            raw_status = word(b.get("status"))
            errors = maybe_obj(b.get("errors")).get("data") or []
            message = "; ".join(word(maybe_obj(e).get("message"), 300) for e in list(errors)[:3])
            return Poll(self.STATUS.get(raw_status, "in_progress"), raw_status, counts(b.get("request_counts")),
                        b, message)

        return shaped(self.s, what, read, "nothing was changed")

    def results(self, poll: Poll, entry: Entry) -> Iterator[tuple[str | None, ReadResult]]:
        if poll.status == "completed" and not (poll.raw.get("output_file_id") or poll.raw.get("error_file_id")):
            raise self.s.refuse(f"reading batch {entry.batch_id}", "it is completed but names no output or "
                                "error file; nothing of it was collected: try again later")
        for key, what in (("output_file_id", "output file"), ("error_file_id", "error file")):
            file_id = poll.raw.get(key)
            if not file_id:
                continue
            file_id = shaped(self.s, f"downloading the {what}", lambda f=file_id, k=key: ident(f, k))
            yield from file_results(self.s, f"/files/{file_id}/content", what, self._result)

    def _result(self, item: JSONObject) -> ReadResult:
        resp, err = item.get("response"), item.get("error")
        if isinstance(resp, dict) and resp.get("status_code") is not None:
            status = resp["status_code"]
            if isinstance(status, bool) or not isinstance(status, int):
                raise ValueError(f"response.status_code is not a number ({short(status)})")
            rid = resp.get("request_id") if isinstance(resp.get("request_id"), str) else None
            if status == 200:
                return parsed(self.s.mod, resp.get("body"), {"x-request-id": rid} if rid else {})
            return error_result(self.s.mod, status, resp.get("body"), rid)
        if isinstance(err, dict):
            code = word(err.get("code") or "")
            return {"batch_expired": not_run("expired"), "batch_cancelled": not_run("cancelled")}.get(
                code, ReadResult("error", error=CallError(code or "batch_error", word(err.get("message") or "", 1000))))
        raise ValueError("the line has neither a response nor an error")

    def cancel(self, batch_id: str) -> None:
        self.s.call("POST", f"/batches/{batch_id}/cancel", f"cancelling batch {batch_id}")
