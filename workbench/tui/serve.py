"""Serving the workbench to a browser (textual-serve), with a token when it leaves this machine.

The workbench reads and writes files, so anything but loopback needs the user's explicit say-so
and a token: the first page is opened as `/?token=T`, which sets a cookie; every other request
(the websocket, static files, downloads) must carry the cookie or the token, else 403.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets

COOKIE = "pdfworkbench_token"


def is_loopback(host: str) -> bool:
    if host.strip().lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_server(command: str, host: str, port: int, token: str | None, title: str = "pdfworkbench"):
    """A textual-serve Server for `command`; with `token`, every request must prove it."""
    from aiohttp import web
    from textual_serve.server import Server

    class TokenServer(Server):
        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            if token is None:
                return app

            @web.middleware
            async def check_token(request: web.Request, handler):
                given = request.query.get("token") or request.cookies.get(COOKIE) or ""
                if not hmac.compare_digest(given.encode(), token.encode()):
                    return web.Response(status=403, text="pdfworkbench: a token is needed: open the "
                                                         "URL printed by `pdfworkbench serve`\n")
                response = await handler(request)
                if "token" in request.query and isinstance(response, web.StreamResponse) \
                        and not response.prepared:
                    response.set_cookie(COOKIE, token, httponly=True, samesite="Strict")
                return response

            app.middlewares.append(check_token)
            return app

    return TokenServer(command, host=host, port=port, title=title)
