"""`pdfworkbench serve` answers on 127.0.0.1 with the app's page."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_answers_with_the_app_page_on_loopback():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        body = ""
        while time.monotonic() < deadline:
            try:
                resp = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                body = resp.text
                break
            except httpx.TransportError:
                time.sleep(0.2)
        assert "pdfworkbench" in body
        assert "ws://127.0.0.1" in body or "websocket" in body.lower() or "textual" in body.lower()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _wait_for(url: str, deadline_s: float = 30) -> httpx.Response:
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            return httpx.get(url, timeout=2)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_serving_beyond_loopback_needs_an_explicit_flag(cli):
    code, out, err = cli("serve", "--host", "0.0.0.0", "--port", "1")
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "--allow-remote" in err and "token" in err


def test_loopback_is_told_apart_from_the_network():
    from workbench.tui.serve import is_loopback

    assert all(map(is_loopback, ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]))
    assert not any(map(is_loopback, ["0.0.0.0", "::", "192.168.1.4", "10.0.0.1", "example.org"]))


def test_with_a_token_every_request_must_carry_it():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "serve", "--port", str(port),
                             "--token", "s3cret-token"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert _wait_for(base + "/").status_code == 403
        assert httpx.get(base + "/?token=wrong", timeout=5).status_code == 403
        assert httpx.get(base + "/ws", timeout=5).status_code == 403
        ok = httpx.get(base + "/?token=s3cret-token", timeout=5)
        assert ok.status_code == 200 and "pdfworkbench" in ok.text
        cookie = ok.cookies.get("pdfworkbench_token")
        assert cookie == "s3cret-token"
        static = httpx.get(base + "/static/", cookies={"pdfworkbench_token": cookie}, timeout=5)
        assert static.status_code != 403
    finally:
        proc.terminate()
        proc.wait(timeout=10)
