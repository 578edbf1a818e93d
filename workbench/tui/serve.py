"""Serving the workbench to a browser (textual-serve): to this machine, or, said explicitly, others.

The workbench reads and writes files and holds the user's keys, and any web page the user visits
can reach 127.0.0.1, so loopback is guarded as the network is, in one way:
- a secret per launch (or `--token`) that the printed URL carries: `/?token=T` sets a cookie, and
  every other request (the websocket, static files, downloads) carries the cookie or the token;
- a Host that is not this server's address is refused: DNS rebinding (evil.example made to
  resolve to 127.0.0.1) would have the browser treat the server as that site;
- another site's Origin is refused (a page opening the websocket), and so are other sites'
  requests for parts of a page (`Sec-Fetch-Site`: an <img> or <script> probing for the token).
Each refusal is a 403 with one line. The page tells the browser the address it used to get there
(`ws://` that Host), never the bound one: `ws://0.0.0.0` reaches nothing.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import secrets
import signal
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlsplit

from workbench.core.errors import UserError

COOKIE = "pdfworkbench_token"
# Below this a token could be guessed; ours are 32 characters (24 random bytes).
MIN_TOKEN_CHARS = 16
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "[::]", "")


def is_loopback(host: str) -> bool:
    if host.strip().lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host.strip().lower() in WILDCARDS


def new_token() -> str:
    return secrets.token_urlsafe(24)


def url_host(host: str) -> str:
    """`host` as it goes into a URL: an IPv6 address in brackets."""
    host = host.strip().lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def reachable_host(host: str) -> str:
    """The address other machines use for a server bound to `host`: itself, or for a wildcard
    (0.0.0.0, ::) this machine's address on its default route (a UDP connect sends nothing)."""
    if not is_wildcard(host):
        return url_host(host)
    v6 = ":" in host
    with socket.socket(socket.AF_INET6 if v6 else socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("2001:db8::1" if v6 else "192.0.2.1", 9))  # documentation addresses
            return url_host(probe.getsockname()[0])
        except OSError:  # no route at all
            return url_host(socket.gethostname())


def cookie_name(port: int) -> str:
    # Cookies ignore ports: two servers on 127.0.0.1 would overwrite one name's cookie.
    return f"{COOKIE}_{port}"


def served_url(host: str, port: int, token: str) -> str:
    return f"http://{reachable_host(host)}:{port}/?token={quote(token, safe='')}"


class Guard:
    """Which requests a server bound to `host` answers: its Host, its Origin, its token."""

    def __init__(self, host: str, token: str) -> None:
        self.host = host
        self.token = token
        self.port = 0   # known once the socket is bound
        wildcard = is_wildcard(host)
        names = {url_host(host), reachable_host(host)}
        if is_loopback(host) or wildcard:
            names.update(LOOPBACK_NAMES)
        if wildcard:
            names.update({socket.gethostname().lower(), socket.getfqdn().lower()})
        self.names = frozenset(names)
        # An address (not a name) cannot be rebound: the browser connected to it, so the page is ours.
        self.any_address = wildcard

    def host_ok(self, header: str | None) -> bool:
        if not header:
            return False
        name, port = split_host(header)
        if port != self.port:
            return False
        return name in self.names or (self.any_address and is_address(name))

    def origin_ok(self, origin: str | None, host_header: str) -> bool:
        """No Origin (a navigation, a non-browser client) is fine; else it must be this page's."""
        if origin is None:
            return True
        try:
            parts = urlsplit(origin)
        except ValueError:
            return False
        return parts.scheme == "http" and parts.netloc.lower() == host_header.strip().lower()

    def token_ok(self, given: str) -> bool:
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode("utf-8"))

    def refusal(self, request: Any) -> str | None:
        """Why `request` is refused (one line), or None."""
        host = request.headers.get("Host")
        if not self.host_ok(host):
            return (f"Host {host!r} is not this server's address (a DNS rebinding page?); open the "
                    "URL printed by `pdfworkbench serve`")
        origin = request.headers.get("Origin")
        if not self.origin_ok(origin, host):
            return f"a page from {origin} may not drive the workbench; open the URL printed by `pdfworkbench serve`"
        site = request.headers.get("Sec-Fetch-Site", "").lower()
        if site in ("cross-site", "same-site") and request.headers.get("Sec-Fetch-Mode") != "navigate":
            return "another site's page may not load the workbench's parts"
        given = request.query.get("token") or request.cookies.get(cookie_name(self.port)) or ""
        if not self.token_ok(given):
            return "a token is needed: open the URL printed by `pdfworkbench serve` (cookies on)"
        return None


def split_host(header: str) -> tuple[str, int]:
    """A Host header -> (name, port); port 80 when it has none, -1 when it is not a number."""
    header = header.strip().lower()
    if header.startswith("["):
        name, _, rest = header.partition("]")
        name, port = name + "]", rest[1:] if rest.startswith(":") else ""
    elif header.count(":") == 1:
        name, port = header.split(":")
    else:
        name, port = header, ""
    if not port:
        return name, 80
    return name, int(port) if port.isascii() and port.isdigit() else -1


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        return False


def token_server(command: str, host: str, token: str, title: str = "pdfworkbench"):
    """A textual-serve Server for `command` behind a `Guard`; `run(port, announce)` serves it."""
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.server import Server

    guard = Guard(host, token)

    class GuardedServer(Server):
        async def _make_app(self) -> web.Application:
            app = await super()._make_app()

            @web.middleware
            async def check(request: web.Request, handler):
                refused = guard.refusal(request)
                if refused:
                    return web.Response(status=403, text=f"pdfworkbench: refused: {refused}\n")
                response = await handler(request)
                if isinstance(response, web.StreamResponse) and not response.prepared:
                    response.headers["Referrer-Policy"] = "no-referrer"  # the token stays here
                    if "token" in request.query:
                        response.set_cookie(cookie_name(guard.port), token, httponly=True, samesite="Strict")
                return response

            app.middlewares.append(check)
            return app

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request: web.Request) -> dict[str, Any]:
            # The address the browser used (checked by the guard), not the bound one.
            here = request.headers["Host"]
            try:
                font_size = int(request.query.get("fontsize", "16"))
            except ValueError:
                font_size = 16
            return {"font_size": font_size, "app_websocket_url": f"ws://{here}/ws",
                    "config": {"static": {"url": f"http://{here}/static/"}},
                    "application": {"name": self.title}}

        async def on_startup(self, app: web.Application) -> None:
            pass  # textual-serve's banner names the bound address and no token: ours is printed

        def run(self, port: int, announce: Callable[[int], None]) -> None:
            """Serve on `port` (0: a free one) until SIGINT or SIGTERM; `announce(port)` once
            the socket listens. A port in use is a UserError."""
            self.initialize_logging()
            asyncio.run(self._run(port, announce))

        async def _run(self, port: int, announce: Callable[[int], None]) -> None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.add_signal_handler(sig, stop.set)
                except (NotImplementedError, RuntimeError):
                    pass
            # No access log: its request lines would carry the token.
            runner = web.AppRunner(await self._make_app(), access_log=None, handle_signals=False)
            await runner.setup()
            try:
                try:
                    await web.TCPSite(runner, host, port).start()
                except OSError as exc:
                    raise UserError(f"cannot serve on {host} port {port} ({exc.strerror or exc}); "
                                    "choose another with --port N (0: a free one)") from None
                guard.port = self.port = runner.addresses[0][1]
                announce(guard.port)
                await stop.wait()
            finally:
                await runner.cleanup()

    return GuardedServer(command, host=host, port=0, title=title)
