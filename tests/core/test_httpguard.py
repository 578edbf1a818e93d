"""Who a server of ours answers (workbench/core/httpguard.py): loopback told apart from the network.
A whole server's token, Host and Origin checks are tests/tui/test_serve.py's and
tests/providers/test_mcp_http.py's."""

from __future__ import annotations


def test_loopback_is_told_apart_from_the_network():
    from workbench.core.httpguard import is_loopback

    assert all(map(is_loopback, ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]))
    assert not any(map(is_loopback, ["0.0.0.0", "::", "192.168.1.4", "10.0.0.1", "example.org"]))
