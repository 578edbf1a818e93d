"""One HTTP request (providers/exchange.py), against the fake provider over loopback: a deadline
from connecting to the last byte, a body cut at its cap, a 2xx body written to a file."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest

from workbench.providers.exchange import MAX_ERROR_TEXT, BodyTooLarge, body_value, exchange

CHAT = {"messages": [{"role": "user", "content": "<<<\nTOTAL DUE €13,144.73\n>>>"}]}


def post(server, model: str, budget_s: float = 5.0, cap: int = 1 << 20, **kw):
    async def go():
        async with httpx.AsyncClient() as client:
            return await exchange(client, "POST", f"{server.url}/v1/chat/completions", budget_s, cap,
                                  content=json.dumps({**CHAT, "model": model}), **kw)
    return asyncio.run(go())


def test_a_reply_comes_back_whole_with_its_headers_in_lower_case(fake_server):
    reply = post(fake_server, "gpt-4o")
    assert reply.status == 200 and reply.reason == "OK" and reply.headers["x-request-id"].startswith("req_fake")
    assert json.loads(reply.body)["choices"][0]["message"]["content"] == "TOTAL DUE €13,144.73"


def test_a_body_past_its_cap_is_refused_by_its_length_or_as_it_streams(fake_server, monkeypatch):
    monkeypatch.setattr(fake_server, "huge_mb", 2.0)
    with pytest.raises(BodyTooLarge) as declared:
        post(fake_server, "gpt-4o+huge", cap=1 << 20)
    assert declared.value.size > 2 << 20   # what its content-length said: refused before a byte was read
    with pytest.raises(BodyTooLarge) as streamed:
        post(fake_server, "gpt-4o+endless", cap=200_000)   # no length, a body that never ends
    assert 200_000 < streamed.value.size <= 200_000 + 65_536 + 100


def test_a_server_dripping_bytes_ends_at_the_budget(fake_server):
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        post(fake_server, "gpt-4o+drip", budget_s=0.3)
    assert time.monotonic() - started < 0.9   # not the drip's second of bytes


def test_a_2xx_body_goes_to_the_sink_up_to_its_own_cap_and_an_error_body_does_not(fake_server, tmp_path):
    with (tmp_path / "out.json").open("wb") as sink:
        reply = post(fake_server, "gpt-4o", cap=10, sink=sink, sink_cap=1 << 20)
    assert reply.body == b"" and json.loads((tmp_path / "out.json").read_bytes())["object"] == "chat.completion"
    with (tmp_path / "err.json").open("wb") as sink:
        reply = post(fake_server, "gpt-4o+429", sink=sink)
    assert reply.status == 429 and b"Rate limit" in reply.body and (tmp_path / "err.json").read_bytes() == b""


def test_an_error_body_is_its_json_else_its_first_text():
    assert body_value(b'{"error": {"message": "no"}}') == {"error": {"message": "no"}}
    assert body_value(b"<html>502 Bad gateway</html>") == "<html>502 Bad gateway</html>"
    assert body_value(b"\xff\xfe" + b"x" * 5000) == "\ufffd\ufffd" + "x" * (MAX_ERROR_TEXT - 2)
    assert body_value(b"[" * 100_000) == "[" * MAX_ERROR_TEXT   # too deep to parse: text
