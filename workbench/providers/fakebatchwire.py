"""The fake provider's batch services, each in its own wire format: OpenAI Batch (an uploaded JSONL
file, output and error files), Anthropic Message Batches (a JSONL of results) and Gemini batch
mode (inlined requests; an Operation whose response holds the inlined responses). The life of a
batch they share is `fakebatch.BatchStore`'s; `BatchService` routes each request to its endpoint."""

from __future__ import annotations

import email.parser
import email.policy
import json
import re
import time
from typing import Any

from workbench.core.schema import JSONObject
from workbench.providers.fakebatch import BatchStore, FakeBatch, FakeFile, Reply, Tamper, iso, ok

_CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_GEMINI_CREATE = re.compile(r"^/v1beta/models/(?P<model>[^/:]+):batchGenerateContent$")


class FakeOpenAIBatches:
    """OpenAI Batch API: `/v1/files`, `/v1/batches[/{id}[/cancel]]`, `/v1/files/{id}/content`."""

    def __init__(self, service: BatchStore) -> None:
        self.s = service

    @staticmethod
    def _error(status: int, message: str, code: str | None = None) -> Reply:
        body = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}
        return status, json.dumps(body).encode(), {}, "application/json"

    def upload(self, raw: bytes, headers: dict[str, str]) -> Reply:
        ctype = headers.get("content-type", "")
        if not ctype.startswith("multipart/form-data"):
            return self._error(400, "Uploads are multipart/form-data with a purpose and a file.")
        msg = email.parser.BytesParser(policy=email.policy.default).parsebytes(
            b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + raw)
        fields: dict[str, bytes] = {}
        filename = None
        for part in msg.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if part.get_filename():
                filename = part.get_filename()
            fields[name] = part.get_payload(decode=True)
        if (fields.get("purpose") or b"").decode() != "batch" or "file" not in fields:
            return self._error(400, "A batch input file needs purpose=batch and a file part.")
        file_id = self.s.new_id("file-")
        data = fields["file"]
        self.s.files[file_id] = FakeFile(filename, "batch", data)
        return ok({"id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                   "filename": filename, "purpose": "batch", "status": "processed"})

    def create(self, raw: bytes, headers: dict[str, str]) -> Reply:
        try:
            req = json.loads(raw)
        except ValueError:
            return self._error(400, "We could not parse the JSON body of your request.")
        if req.get("endpoint") != "/v1/chat/completions":
            return self._error(400, f"Invalid endpoint {req.get('endpoint')!r}.")
        if req.get("completion_window") != "24h":
            return self._error(400, "completion_window: only 24h is supported.")
        meta = req.get("metadata") or {}
        if not isinstance(meta, dict) or len(meta) > 16 or any(
                not isinstance(v, str) or len(k) > 64 or len(v) > 512 for k, v in meta.items()):
            return self._error(400, "metadata: at most 16 string pairs (keys up to 64, values up to 512 chars).")
        file = self.s.files.get(str(req.get("input_file_id")))
        if file is None:
            return self._error(404, f"No such File object: {req.get('input_file_id')}")
        requests: list[tuple[str, JSONObject]] = []
        errors: list[JSONObject] = []
        seen: set[str] = set()
        model = ""
        for n, line in enumerate(file.data.decode("utf-8", "replace").splitlines(), 1):
            try:
                item = json.loads(line)
            except ValueError:
                errors.append({"code": "invalid_json_line", "message": "This line is not JSON.", "line": n})
                continue
            cid = item.get("custom_id")
            if not isinstance(cid, str) or cid in seen:
                errors.append({"code": "duplicate_custom_id", "message": "custom_id must be unique.", "line": n})
                continue
            if item.get("method") != "POST" or item.get("url") != "/v1/chat/completions":
                errors.append({"code": "invalid_url", "message": "url must be the batch's endpoint.", "line": n})
                continue
            body = item.get("body")
            if not isinstance(body, dict) or not body.get("model"):
                errors.append({"code": "missing_required_parameter", "message": "body.model is required.", "line": n})
                continue
            if model and body["model"] != model:
                errors.append({"code": "mismatched_model", "message": "Every line must use one model.", "line": n})
                continue
            model = body["model"]
            seen.add(cid)
            requests.append((cid, body))
        batch = FakeBatch(self.s.new_id("batch_"), "openai", model, requests, metadata=meta,
                          input_file_id=req.get("input_file_id"))
        if errors or not requests:
            batch.state, batch.errors, batch.results = "failed", errors or [
                {"code": "empty_file", "message": "The input file has no requests.", "line": None}], []
        self.s.created(batch)
        return ok(self._object(batch))

    def _files(self, batch: FakeBatch) -> None:
        if batch.results is None or batch.output_file_id or batch.state == "failed":
            return
        out, err = [], []
        echo = batch.key if self.s.fake.echo_key else None
        for r in batch.results:
            if r.ran:
                line = {"id": self.s.new_id("batch_req_"), "custom_id": r.id,
                        "response": {"status_code": r.status, "request_id": self.s.new_id("req_"),
                                     "body": r.body}, "error": None}
                if echo:
                    line["id"], line["response"]["request_id"] = f"batch_req_{echo}", f"req_{echo}"
                (out if r.status == 200 else err).append(line)
            else:
                code = "batch_expired" if r.end == "expired" else "batch_cancelled"
                message = f"This request was not run: the batch was {r.end}." + (f" ({echo})" if echo else "")
                err.append({"id": f"batch_req_{echo}" if echo else self.s.new_id("batch_req_"), "custom_id": r.id,
                            "response": None, "error": {"code": code, "message": message,
                                                        **({"param": echo} if echo else {})}})
        for rows, attr in ((out, "output_file_id"), (err, "error_file_id")):
            if rows:
                file_id = self.s.new_id("file-")
                data = "".join(json.dumps(row) + "\n" for row in rows).encode()
                self.s.files[file_id] = FakeFile(f"{batch.id}_{attr}.jsonl", "batch_output", data,
                                                 "output" if attr == "output_file_id" else "errors")
                setattr(batch, attr, file_id)

    def _object(self, batch: FakeBatch) -> JSONObject:
        self._files(batch)
        status = "validating" if batch.polls == 0 and batch.state == "in_progress" else batch.state
        return {"id": batch.id, "object": "batch", "endpoint": "/v1/chat/completions",
                "errors": {"object": "list", "data": batch.errors} if batch.errors else None,
                "input_file_id": batch.input_file_id, "completion_window": "24h", "status": status,
                "output_file_id": batch.output_file_id, "error_file_id": batch.error_file_id,
                "created_at": int(batch.created), "expires_at": int(batch.created) + 86400,
                "request_counts": self._counts(batch),
                "metadata": batch.metadata or None} | self._echo_object(batch)

    def _echo_object(self, batch: FakeBatch) -> JSONObject:
        """What a careless service adds to a batch object (`echo_key`): the key in its counts
        and in an error note (OpenAI), beside the real fields."""
        if not self.s.fake.echo_key:
            return {}
        key = batch.key
        return {"errors": {"object": "list", "data": [*batch.errors, {
            "code": f"{key}", "message": f"note: the key {key}", "param": f"{key}", "line": None}]},
                "request_counts": {**self._counts(batch), f"{key}": 1, "note": f"{key}"}}

    def _counts(self, batch: FakeBatch) -> dict[str, int]:
        c = self.s.counts(batch)
        return {"total": c["total"], "completed": c["ok"],
                "failed": c["total"] - c["ok"] if batch.results is not None else 0}

    def status(self, raw: bytes, headers: dict[str, str], id: str) -> Reply:
        batch = self.s.get(id, "openai")
        if batch is None:
            return self._error(404, f"No batch found with id '{id}'.")
        self.s.advance(batch)
        return ok(self._object(batch))

    def listing(self, raw: bytes, headers: dict[str, str]) -> Reply:
        data = [self._object(b) for b in sorted(self.s.batches.values(), key=lambda b: -b.created)
                if b.fmt == "openai"]
        return ok({"object": "list", "data": data, "first_id": data[0]["id"] if data else None,
                   "last_id": data[-1]["id"] if data else None, "has_more": False})

    def cancel(self, raw: bytes, headers: dict[str, str], id: str) -> Reply:
        batch = self.s.get(id, "openai")
        if batch is None:
            return self._error(404, f"No batch found with id '{id}'.")
        if batch.state == "in_progress":
            batch.state = "cancelling"
        return ok(self._object(batch))

    def content(self, raw: bytes, headers: dict[str, str], id: str) -> Reply:
        file = self.s.files.get(id)
        if file is None:
            return self._error(404, f"No such File object: {id}")
        return 200, file.data, {}, "application/octet-stream"


class FakeAnthropicBatches:
    """Anthropic Message Batches: `/v1/messages/batches[/{id}[/cancel|/results]]`."""

    def __init__(self, service: BatchStore) -> None:
        self.s = service

    @staticmethod
    def _error(status: int, etype: str, message: str) -> Reply:
        body = {"type": "error", "error": {"type": etype, "message": message}}
        return status, json.dumps(body).encode(), {}, "application/json"

    def create(self, raw: bytes, headers: dict[str, str]) -> Reply:
        if not headers.get("anthropic-version"):
            return self._error(400, "invalid_request_error", "anthropic-version: header is required")
        try:
            req = json.loads(raw)
        except ValueError:
            return self._error(400, "invalid_request_error", "The request body is not valid JSON.")
        items = req.get("requests")
        if not isinstance(items, list) or not items:
            return self._error(400, "invalid_request_error", "requests: at least one request is required")
        requests, seen = [], set()
        for i, item in enumerate(items):
            cid = item.get("custom_id") if isinstance(item, dict) else None
            if not isinstance(cid, str) or not _CUSTOM_ID.match(cid):
                return self._error(400, "invalid_request_error",
                                      f"requests.{i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'")
            if cid in seen:
                return self._error(400, "invalid_request_error", f"requests.{i}.custom_id: duplicate {cid!r}")
            params = item.get("params")
            if not isinstance(params, dict) or not all(k in params for k in ("model", "max_tokens", "messages")):
                return self._error(400, "invalid_request_error",
                                      f"requests.{i}.params: model, max_tokens and messages are required")
            seen.add(cid)
            requests.append((cid, params))
        batch = FakeBatch(self.s.new_id("msgbatch_"), "anthropic", str(requests[0][1]["model"]), requests)
        self.s.created(batch)
        return ok(self._object(batch))

    def _object(self, batch: FakeBatch) -> JSONObject:
        ended = batch.results is not None
        counts = {"processing": 0 if ended else len(batch.requests), "succeeded": 0, "errored": 0,
                  "canceled": 0, "expired": 0}
        for r in batch.results or []:
            if r.ran:
                counts["succeeded" if r.status == 200 else "errored"] += 1
            else:
                counts["canceled" if r.end == "cancelled" else "expired"] += 1
        status = "ended" if ended else ("canceling" if batch.state == "cancelling" else "in_progress")
        if self.s.fake.echo_key:
            counts = {**counts, f"{batch.key}": 0, "note": f"{batch.key}"}
        return {"id": batch.id, "type": "message_batch", "processing_status": status, "request_counts": counts,
                "ended_at": iso(time.time()) if ended else None, "created_at": iso(batch.created),
                "expires_at": iso(batch.created + 86400), "archived_at": None,
                "cancel_initiated_at": None if batch.state != "cancelled" else iso(batch.created),
                "results_url": f"{self.s.fake.url}/v1/messages/batches/{batch.id}/results" if ended else None}

    def status(self, raw: bytes, headers: dict[str, str], id: str) -> Reply:
        batch = self.s.get(id, "anthropic")
        if batch is None:
            return self._error(404, "not_found_error", f"No message batch with id {id!r}")
        self.s.advance(batch)
        return ok(self._object(batch))

    def listing(self, raw: bytes, headers: dict[str, str]) -> Reply:
        data = [self._object(b) for b in sorted(self.s.batches.values(), key=lambda b: -b.created)
                if b.fmt == "anthropic"]
        return ok({"data": data, "has_more": False, "first_id": data[0]["id"] if data else None,
                   "last_id": data[-1]["id"] if data else None})

    def cancel(self, raw: bytes, headers: dict[str, str], id: str) -> Reply:
        batch = self.s.get(id, "anthropic")
        if batch is None:
            return self._error(404, "not_found_error", f"No message batch with id {id!r}")
        if batch.state == "in_progress":
            batch.state = "cancelling"
        return ok(self._object(batch))

    def results(self, raw: bytes, headers: dict[str, str], id: str) -> Reply:
        batch = self.s.get(id, "anthropic")
        if batch is None:
            return self._error(404, "not_found_error", f"No message batch with id {id!r}")
        if batch.results is None:
            return self._error(400, "invalid_request_error", "The batch has not ended yet.")
        lines = []
        for r in batch.results:
            if not r.ran:
                result: JSONObject = {"type": "canceled" if r.end == "cancelled" else "expired"}
            elif r.status == 200:
                result = {"type": "succeeded", "message": r.body}
            else:
                result = {"type": "errored", "error": r.body}
            line = {"custom_id": r.id, "result": result}
            if self.s.fake.echo_key:
                line["note"] = f"{batch.key}"
            lines.append(json.dumps(line) + "\n")
        return 200, "".join(lines).encode(), {}, "application/binary"


class FakeGeminiBatches:
    """Gemini batch mode: `models/{m}:batchGenerateContent`, `/v1beta/batches[/{id}[:cancel]]`."""

    def __init__(self, service: BatchStore) -> None:
        self.s = service

    @staticmethod
    def _error(status: int, gstatus: str, message: str) -> Reply:
        body = {"error": {"code": status, "message": message, "status": gstatus}}
        return status, json.dumps(body).encode(), {}, "application/json"

    def create(self, raw: bytes, headers: dict[str, str], model: str) -> Reply:
        try:
            req = json.loads(raw)
        except ValueError:
            return self._error(400, "INVALID_ARGUMENT", "Invalid JSON payload received.")
        b = req.get("batch") if isinstance(req, dict) else None
        if not isinstance(b, dict):
            return self._error(400, "INVALID_ARGUMENT", "batch: required")
        name = b.get("display_name", b.get("displayName"))
        config = b.get("input_config", b.get("inputConfig"))
        if not isinstance(name, str) or not name:
            return self._error(400, "INVALID_ARGUMENT", "batch.display_name: required")
        inner = (config or {}).get("requests") if isinstance(config, dict) else None
        items = inner.get("requests") if isinstance(inner, dict) else None
        if not isinstance(items, list) or not items:
            return self._error(400, "INVALID_ARGUMENT", "batch.input_config.requests.requests: required")
        requests = []
        for i, item in enumerate(items):
            body = item.get("request") if isinstance(item, dict) else None
            if not isinstance(body, dict) or not body.get("contents"):
                return self._error(400, "INVALID_ARGUMENT", f"requests[{i}].request.contents: required")
            key = (item.get("metadata") or {}).get("key") or str(i)
            requests.append((str(key), body))
        batch = FakeBatch(self.s.new_id("batches/"), "google", model, requests, display_name=name)
        self.s.created(batch)
        return ok(self._object(batch))

    _G_STATE = {"in_progress": "BATCH_STATE_RUNNING", "cancelling": "BATCH_STATE_RUNNING",
                "completed": "BATCH_STATE_SUCCEEDED", "failed": "BATCH_STATE_FAILED",
                "expired": "BATCH_STATE_EXPIRED", "cancelled": "BATCH_STATE_CANCELLED"}

    def _object(self, batch: FakeBatch) -> JSONObject:
        state = self._G_STATE[batch.state]
        if batch.polls == 0 and batch.state == "in_progress":
            state = "BATCH_STATE_PENDING"
        c = self.s.counts(batch)
        meta = {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
                "model": f"models/{batch.model}", "displayName": batch.display_name, "name": batch.id,
                "createTime": iso(batch.created), "state": state,
                "batchStats": {"requestCount": str(c["total"]), "successfulRequestCount": str(c["ok"]),
                               "failedRequestCount": str(c["failed"]),
                               "pendingRequestCount": str(c["total"] - c["ok"] - c["failed"])}}
        if self.s.fake.echo_key:
            meta["batchStats"] |= {f"{batch.key}": "1", "note": f"{batch.key}"}
        op: JSONObject = {"name": batch.id, "metadata": meta, "done": batch.results is not None}
        if batch.results is not None and batch.state == "failed":
            op["error"] = {"code": 13, "message": "The batch failed." + (f" ({batch.key})" if self.s.fake.echo_key else "")}
        elif batch.results is not None:
            out = []
            for r in batch.results:
                if not r.ran:
                    continue  # an expired or cancelled request has no response
                if r.status == 200:
                    out.append({"response": r.body, "metadata": {"key": r.id}})
                else:  # a google.rpc.Status: the gRPC code, not the HTTP one
                    err = r.body.get("error", {})
                    grpc = {"INVALID_ARGUMENT": 3, "NOT_FOUND": 5, "PERMISSION_DENIED": 7, "RESOURCE_EXHAUSTED": 8,
                            "UNAUTHENTICATED": 16, "UNAVAILABLE": 14}.get(err.get("status"), 13)
                    out.append({"error": {"code": grpc, "message": err.get("message", "")},
                                "metadata": {"key": r.id}})
                if self.s.fake.echo_key:
                    out[-1]["metadata"]["note"] = f"{batch.key}"
            op["response"] = {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main."
                                       "GenerateContentBatchOutput",
                              "inlinedResponses": {"inlinedResponses": out}}
        return op

    def status(self, raw: bytes, headers: dict[str, str], id: str) -> Reply:
        batch = self.s.get(f"batches/{id}", "google")
        if batch is None:
            return self._error(404, "NOT_FOUND", f"Batch batches/{id} not found.")
        self.s.advance(batch)
        return ok(self._object(batch))

    def listing(self, raw: bytes, headers: dict[str, str]) -> Reply:
        ops = [self._object(b) for b in sorted(self.s.batches.values(), key=lambda b: -b.created)
               if b.fmt == "google"]
        return ok({"operations": ops})

    def cancel(self, raw: bytes, headers: dict[str, str], id: str) -> Reply:
        batch = self.s.get(f"batches/{id}", "google")
        if batch is None:
            return self._error(404, "NOT_FOUND", f"Batch batches/{id} not found.")
        if batch.state == "in_progress":
            batch.state = "cancelling"
        return ok({})


class BatchService(BatchStore):
    """The three fake batch services on one server: each request routed to its provider's endpoint."""

    def __init__(self, fake: Any, polls: int = 1, seconds: float | None = None,
                 end: str = "completed", faults: dict[str, str] | None = None,
                 create_delay_s: float = 0.0, tamper: Tamper | None = None) -> None:
        super().__init__(fake, polls, seconds, end, faults, create_delay_s, tamper)
        self.openai = FakeOpenAIBatches(self)
        self.anthropic = FakeAnthropicBatches(self)
        self.google = FakeGeminiBatches(self)

    def route(self, method: str, target: str, raw: bytes, headers: dict[str, str]) -> Reply | None:
        """The reply to a batch-service request, or None when `target` is not one."""
        p, _, _query = target.partition("?")
        oa, an, ge = self.openai, self.anthropic, self.google
        handlers = [
            ("POST", r"^/v1/files$", oa.upload, "upload"),
            ("GET", r"^/v1/files/(?P<id>[^/]+)/content$", oa.content, "file"),
            ("POST", r"^/v1/batches$", oa.create, "create"),
            ("GET", r"^/v1/batches$", oa.listing, "list"),
            ("GET", r"^/v1/batches/(?P<id>[^/]+)$", oa.status, "status"),
            ("POST", r"^/v1/batches/(?P<id>[^/]+)/cancel$", oa.cancel, "cancel"),
            ("POST", r"^/v1/messages/batches$", an.create, "create"),
            ("GET", r"^/v1/messages/batches$", an.listing, "list"),
            ("GET", r"^/v1/messages/batches/(?P<id>[^/]+)$", an.status, "status"),
            ("POST", r"^/v1/messages/batches/(?P<id>[^/]+)/cancel$", an.cancel, "cancel"),
            ("GET", r"^/v1/messages/batches/(?P<id>[^/]+)/results$", an.results, "results"),
            ("POST", _GEMINI_CREATE.pattern, ge.create, "create"),
            ("GET", r"^/v1beta/batches$", ge.listing, "list"),
            ("GET", r"^/v1beta/batches/(?P<id>[^/:]+)$", ge.status, "status"),
            ("POST", r"^/v1beta/batches/(?P<id>[^/:]+):cancel$", ge.cancel, "cancel"),
        ]
        for verb, pattern, handler, step in handlers:
            m = re.match(pattern, p)
            if verb == method and m:
                self.key = (headers.get("authorization", "").removeprefix("Bearer ")
                            or headers.get("x-api-key") or headers.get("x-goog-api-key"))
                with self.fake._lock:
                    self.calls.append((method, p))
                    reply = handler(raw=raw, headers=headers, **m.groupdict())
                    if step == "file":   # OpenAI's output and error files are steps of their own
                        file = self.files.get(m.group("id"))
                        step = file.step if file else "file"
                if self.tamper is not None:
                    reply = self.tamper(step, reply) or reply
                return reply
        return None
