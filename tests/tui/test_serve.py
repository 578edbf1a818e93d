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
