"""Who a server of ours answers (`serve`'s workbench, `mcp --http`'s tools): one home for the
per-launch token, its comparison and the Host and Origin checks.

Any web page the user visits can reach 127.0.0.1, so loopback is guarded as the network is:
- a secret per launch that every request carries (how it is carried is each server's: a cookie
  set from the printed URL, an `Authorization: Bearer` header);
- a Host that is not this server's address is refused: DNS rebinding (evil.example made to
  resolve to 127.0.0.1) would have the browser treat the server as that site;
- another site's Origin is refused (a page opening a websocket or posting with fetch), and so are
  other sites' requests for parts of a page (`Sec-Fetch-Site`: an <img> or <script> probing).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

# Below this a token could be guessed; ours are 32 characters (24 random bytes).
MIN_TOKEN_CHARS = 16
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "[::]", "")
# What a refusal is about: a request without the token is 401 where the server speaks HTTP auth.
REFUSAL_REASONS = ("host", "origin", "site", "token")


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


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "replace")).digest()


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: `reason` (one of REFUSAL_REASONS) and one line for the client."""

    reason: str
    line: str


class Guard:
    """Which requests a server bound to `host` answers: its Host, its Origin, its token.
    `command` names what printed the address; `token_hint` says how to present the token."""

    def __init__(self, host: str, token: str, command: str = "pdfworkbench serve",
                 token_hint: str = "open the URL printed by `pdfworkbench serve` (cookies on)") -> None:
        self.host = host
        self.token = token
        self._token_digest = _digest(token)
        self.command = command
        self.token_hint = token_hint
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
        # Digests have one length, so the comparison takes the same time whatever was given.
        return hmac.compare_digest(_digest(given), self._token_digest)

    def refusal(self, headers: Mapping[str, str], given: str) -> Refusal | None:
        """Why a request with `headers` (read case-insensitively) that presents the token `given`
        is refused, or None."""
        host = headers.get("Host")
        if not self.host_ok(host):
            return Refusal("host", f"Host {host!r} is not this server's address (a DNS rebinding page?); "
                                   f"use the URL printed by `{self.command}`")
        assert host is not None
        origin = headers.get("Origin")
        if not self.origin_ok(origin, host):
            return Refusal("origin", f"a page from {origin} may not drive this server; use the URL printed "
                                     f"by `{self.command}`")
        site = (headers.get("Sec-Fetch-Site") or "").lower()
        if site in ("cross-site", "same-site") and headers.get("Sec-Fetch-Mode") != "navigate":
            return Refusal("site", "another site's page may not load this server's parts")
        if not self.token_ok(given):
            return Refusal("token", f"a token is needed: {self.token_hint}")
        return None
