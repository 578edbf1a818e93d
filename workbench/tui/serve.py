"""Serving the workbench to a browser (textual-serve): to this machine, or, said explicitly, others.

The workbench reads and writes files and holds the user's keys, and any web page the user visits
can reach 127.0.0.1, so loopback is guarded as the network is, by `core.httpguard.Guard`:
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
import signal
from collections.abc import Callable
from urllib.parse import quote

from workbench.core.errors import UserError
from workbench.core.httpguard import Guard, reachable_host
from workbench.core.schema import JSONObject

COOKIE = "pdfworkbench_token"


def cookie_name(port: int) -> str:
    # Cookies ignore ports: two servers on 127.0.0.1 would overwrite one name's cookie.
    return f"{COOKIE}_{port}"


def served_url(host: str, port: int, token: str) -> str:
    return f"http://{reachable_host(host)}:{port}/?token={quote(token, safe='')}"


def token_server(command: str, host: str, token: str, title: str = "pdfworkbench"):
    """A textual-serve Server for `command` behind a `Guard`; `run(port, announce)` serves it."""
    # The optional extra `serve` (`pip install 'pdfworkbench[serve]'`): only `serve` loads it.
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.server import Server

    guard = Guard(host, token)

    class GuardedServer(Server):
        async def _make_app(self) -> web.Application:
            app = await super()._make_app()

            @web.middleware
            async def check(request: web.Request, handler):
                given = request.query.get("token") or request.cookies.get(cookie_name(guard.port)) or ""
                refused = guard.refusal(request.headers, given)
                if refused:
                    return web.Response(status=403, text=f"pdfworkbench: refused: {refused.line}\n")
                response = await handler(request)
                if isinstance(response, web.StreamResponse) and not response.prepared:
                    response.headers["Referrer-Policy"] = "no-referrer"  # the token stays here
                    if "token" in request.query:
                        response.set_cookie(cookie_name(guard.port), token, httponly=True, samesite="Strict")
                return response

            app.middlewares.append(check)
            return app

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request: web.Request) -> JSONObject:
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
