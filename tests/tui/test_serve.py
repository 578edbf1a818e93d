"""`pdfworkbench serve`: a real server on a free port, asked by real sockets as a hostile web page
would (another site's Origin, a rebinding Host, no token) and as the user's browser does."""

from __future__ import annotations

import asyncio
import base64
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import needs

pytestmark = needs("aiohttp", "textual_serve")

CONFIG = b'{"theme": "workbench-dark", "reader": "probe:pymupdf"}\n'


class Served:
    def __init__(self, proc: subprocess.Popen, url: str, config: Path) -> None:
        self.proc, self.url, self.config = proc, url, config
        match = re.match(r"http://[^/]+:(\d+)/\?token=(\S+)$", url)
        assert match, url
        self.port, self.token = int(match[1]), match[2]
        self.base = f"http://127.0.0.1:{self.port}"


def _serve(tmp: Path, *args: str) -> Served:
    """Start `pdfworkbench serve --port 0` and read the URL it prints once it listens."""
    config = tmp / "config"
    config.mkdir(exist_ok=True)
    (config / "config.json").write_bytes(CONFIG)
    env = {**os.environ, "PDFWORKBENCH_CONFIG_DIR": str(config), "PDFWORKBENCH_DATA_DIR": str(tmp / "data")}
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()  # printed once the socket listens
    if "serving the workbench on" not in line:
        proc.kill()
        pytest.fail(f"serve printed {line!r}; stderr: {proc.stderr.read()[-2000:]}")
    try:
        return Served(proc, line.split(" on ", 1)[1].split()[0], config / "config.json")
    except AssertionError:   # not the URL expected: the server must not outlive the test
        proc.kill()
        raise


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = _serve(tmp_path_factory.mktemp("serve"))
    yield server
    server.proc.terminate()
    server.proc.wait(timeout=20)


def _exchange(port: int, lines: list[str]) -> tuple[int, dict[str, str], bytes]:
    """One request over a raw socket, headers exactly as given: (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        reply = b""
        while b"\r\n\r\n" not in reply and (chunk := sock.recv(65536)):
            reply += chunk
        head, _, body = reply.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        fields = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
        status = int(status_line.split()[1])
        length = int(fields.get("content-length", 0)) if status != 101 else 0
        while len(body) < length and (chunk := sock.recv(65536)):
            body += chunk
    return status, fields, body


def upgrade(port: int, *, host: str | None = None, origin: str | None = None, path: str = "/ws",
            cookie: str | None = None) -> tuple[int, bytes]:
    """A WebSocket upgrade as a page would ask it: (HTTP status, body)."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Upgrade: websocket",
             "Connection: Upgrade", "Sec-WebSocket-Version: 13",
             f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}"]
    lines += [f"Origin: {origin}"] if origin else []
    lines += [f"Cookie: {cookie}"] if cookie else []
    status, _, body = _exchange(port, lines)
    return status, body


def get(port: int, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """A plain GET with a Host of our choosing (`sec_fetch_site=` is the header Sec-Fetch-Site)."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {headers.pop('host', f'127.0.0.1:{port}')}"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return _exchange(port, lines)


@pytest.mark.slow   # a real server and the app it starts
def test_a_page_from_another_site_cannot_open_the_websocket(served):
    cookie = f"pdfworkbench_token_{served.port}={served.token}"
    # Even with the cookie (a browser sends it along only if it were same-site), another Origin is refused.
    for origin in ("https://evil.example", "http://evil.example", "null", f"http://127.0.0.1:{served.port + 1}"):
        status, body = upgrade(served.port, origin=origin, cookie=cookie)
        assert status == 403, origin
        assert body.startswith(b"pdfworkbench: refused: a page from")


@pytest.mark.slow   # a real server and the app it starts
def test_the_websocket_needs_the_token(served):
    same = f"http://127.0.0.1:{served.port}"
    assert upgrade(served.port, origin=same)[0] == 403
    assert upgrade(served.port, origin=same, cookie=f"pdfworkbench_token_{served.port}=wrong")[0] == 403
    wrong = served.token[:-1] + ("y" if served.token.endswith("x") else "x")   # (1 in 64 ended in "x")
    assert upgrade(served.port, origin=same, path="/ws?token=" + wrong)[0] == 403
    status, _, body = get(served.port, "/")
    assert status == 403 and b"a token is needed" in body


@pytest.mark.slow   # a real server and the app it starts
def test_a_rebinding_host_is_refused_even_with_the_token(served):
    """DNS rebinding: evil.example resolves to 127.0.0.1, so its page reaches us with its own Host."""
    for host in (f"evil.example:{served.port}", "evil.example", f"127.0.0.1.evil.example:{served.port}",
                 f"localhost:{served.port + 1}"):
        status, _, body = get(served.port, f"/?token={served.token}", host=host)
        assert status == 403 and b"is not this server's address" in body, host
        assert upgrade(served.port, host=host, origin=f"http://{host}", path=f"/ws?token={served.token}")[0] == 403
    status, _, body = get(served.port, "/static/js/textual.js", host=f"evil.example:{served.port}")
    assert status == 403


@pytest.mark.slow   # a real server and the app it starts
def test_other_sites_cannot_load_the_page_parts(served):
    """An <img> or <script> on another site's page (no Origin sent) probing the routes."""
    status, _, _ = get(served.port, f"/static/js/textual.js?token={served.token}",
                       sec_fetch_site="cross-site", sec_fetch_mode="no-cors")
    assert status == 403


@pytest.mark.slow   # a real server and the app it starts
def test_the_printed_url_opens_the_app(served):
    """As the browser does: the page (its cookie, its websocket URL), then the app's first frame."""
    import aiohttp

    async def browse() -> tuple[str, bytes]:
        jar = aiohttp.CookieJar(unsafe=True)  # cookies for an IP address, as browsers keep them
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            async with session.get(served.url) as page:
                assert page.status == 200
                html = await page.text()
                assert page.headers["Referrer-Policy"] == "no-referrer"
            ws_url = re.search(r'data-session-websocket-url="([^"]+)"', html)[1]
            async with session.ws_connect(ws_url + "?width=100&height=30", origin=served.base) as ws:
                screen = b""
                while b"pdfworkbench" not in screen:
                    message = await ws.receive(timeout=60)
                    assert message.type == aiohttp.WSMsgType.BINARY, message
                    screen += message.data
            return ws_url, screen

    ws_url, screen = asyncio.run(browse())
    assert ws_url == f"ws://127.0.0.1:{served.port}/ws"
    assert b"Cases (" in screen   # the Inspect screen of the sample suite, drawn in the browser


@pytest.mark.slow   # a real server and the app it starts
def test_no_refused_request_touches_the_config(served):
    port = served.port
    attempts = [
        upgrade(port, origin="https://evil.example")[0],
        upgrade(port, host=f"evil.example:{port}", origin=f"http://evil.example:{port}")[0],
        upgrade(port)[0],
        get(port, "/?token=guess", origin="https://evil.example")[0],
        get(port, f"/?token={served.token}", host=f"evil.example:{port}")[0],
    ]
    assert attempts == [403] * len(attempts)
    assert served.config.read_bytes() == CONFIG
    assert served.proc.poll() is None   # and the server is still serving


@pytest.mark.slow   # a real server and the app it starts
def test_the_page_names_the_address_the_browser_used(tmp_path):
    """Bound to 0.0.0.0 the page says the Host it was asked by, never ws://0.0.0.0."""
    server = _serve(tmp_path, "--host", "0.0.0.0", "--allow-remote")
    try:
        assert "0.0.0.0" not in server.url.split("?")[0]
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
            status, _, body = get(server.port, f"/?token={server.token}", host=host)
            assert status == 200
            assert f'data-session-websocket-url="ws://{host}/ws"'.encode() in body
            assert b"0.0.0.0" not in body
        assert get(server.port, f"/?token={server.token}", host=f"evil.example:{server.port}")[0] == 403
        assert "serving to the network" in server.proc.stderr.readline()
    finally:
        server.proc.terminate()
        server.proc.wait(timeout=20)


def test_serving_beyond_loopback_needs_an_explicit_flag(cli):
    code, out, err = cli("serve", "--host", "0.0.0.0", "--port", "1")
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "--allow-remote" in err and "token" in err


def test_a_short_token_is_refused(cli):
    code, _, err = cli("serve", "--token", "abc")
    assert code == 2 and "at least 16 characters" in err and "Traceback" not in err


def test_a_port_in_use_is_one_line(run_cli_subprocess):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = run_cli_subprocess("serve", "--port", str(taken.getsockname()[1]))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "choose another with --port N" in result.stderr.strip().splitlines()[-1]


@pytest.mark.slow   # a real server and the app it starts
def test_a_given_token_is_the_one_required(tmp_path):
    server = _serve(tmp_path, "--token", "s3cret-token-of-mine")
    try:
        assert server.token == "s3cret-token-of-mine"
        status, fields, body = get(server.port, "/?token=s3cret-token-of-mine")
        assert status == 200 and b"pdfworkbench" in body
        assert fields["set-cookie"].startswith(f"pdfworkbench_token_{server.port}=s3cret-token-of-mine;")
        assert "SameSite=Strict" in fields["set-cookie"] and "HttpOnly" in fields["set-cookie"]
        cookie = f"pdfworkbench_token_{server.port}=s3cret-token-of-mine"
        assert get(server.port, "/static/js/textual.js", cookie=cookie)[0] == 200
        assert get(server.port, "/static/js/textual.js")[0] == 403
    finally:
        server.proc.terminate()
        server.proc.wait(timeout=20)
