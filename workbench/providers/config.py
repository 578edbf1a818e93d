"""Where each provider lives and which key it uses.

Base URL, first found: the `--base-url` flag, the environment variable the official SDK reads,
`readers.toml` in the config folder (`[openai] base_url = "..."`), the public default. Keys come
from the environment only, are never written anywhere, and are redacted from any error text.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from typing import Any
from urllib.parse import unquote, urlsplit

from workbench.core import files
from workbench.core.config import readers_path
from workbench.core.errors import UserError

BASE_URL_ENV = {
    "openai": "OPENAI_BASE_URL",
    "anthropic": "ANTHROPIC_BASE_URL",
    "google": "GOOGLE_GEMINI_BASE_URL",
    "ollama": "OLLAMA_HOST",
    "openai-compatible": "OPENAI_COMPATIBLE_BASE_URL",
}
DEFAULT_BASE_URL = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "google": "https://generativelanguage.googleapis.com",
    "ollama": "http://127.0.0.1:11434",
    "openai-compatible": "http://127.0.0.1:8000",
}
# Every variable that may hold a key, per provider, in order of preference.
KEY_ENV = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "google": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
    "ollama": (),
    "openai-compatible": ("OPENAI_COMPATIBLE_API_KEY",),
}
KEY_REQUIRED = {"openai", "anthropic", "google"}
REDACTED = "[redacted]"
# Keys shorter than this are not redacted (they would blank ordinary words).
MIN_KEY = 6
# A long key leaks in pieces: providers echo it masked ("sk-proj-abc...wxyz"), split across
# fields or cut at a field's length. For a key of LONG_KEY characters or more, its first and
# last FRAGMENT characters and any run of FRAGMENT + STRIDE - 1 of its characters are redacted
# wherever they appear (12 characters of a key's random part are about 70 bits).
LONG_KEY = 24
FRAGMENT = 12
STRIDE = 5


# A base URL longer than this is no server's: it goes into every request and every record.
MAX_BASE_URL_CHARS = 2048


def reader_settings() -> dict:
    """readers.toml as a dict ({} when there is none); a file that cannot be read or is not TOML
    is a UserError (one line: where, what, how to fix). Its sections are checked where used."""
    path = readers_path()
    if not os.path.lexists(path):
        return {}
    fix = "fix it with `pdfworkbench config edit --readers`, or remove it"
    text = files.read_text(path, "reader settings file (TOML)", "json_file_bytes")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML ({exc}); {fix}") from None
    except RecursionError:
        raise UserError(f"{path}: not valid TOML (nested too deep); {fix}") from None


def base_url(provider: str, flag: str | None = None) -> str:
    return base_url_origin(provider, flag)[0]


def base_url_origin(provider: str, flag: str | None = None, flag_origin: str = "--base-url") -> tuple[str, str]:
    """The provider's base URL and where it came from: `--base-url` (or the `flag_origin` that
    gave `flag`), the variable's name, `readers.toml`, or `default`. A URL that is not a plain
    http(s) base URL is a UserError saying where it came from."""
    env = BASE_URL_ENV.get(provider, "")
    url, origin = (flag, flag_origin) if flag else (os.environ.get(env, ""), env)
    if not url:
        section = reader_settings().get(provider)
        if section is not None:
            where = f"{readers_path()}: [{provider}]"
            if not isinstance(section, dict):
                raise UserError(f"{where} must be a table (a line [{provider}], then base_url = "
                                "\"https://...\"); fix it with `pdfworkbench config edit --readers`")
            value = section.get("base_url")
            if value is not None and not isinstance(value, str):
                raise UserError(f"{where} base_url must be a quoted URL, not {type(value).__name__} "
                                f"{str(value)[:40]!r}; fix it with `pdfworkbench config edit --readers`")
            if value:
                url, origin = value, "readers.toml"
    if not url:
        origin = "default"
    url = check_base_url((url or DEFAULT_BASE_URL[provider]).strip(), provider, origin)
    if provider == "ollama" and url.startswith("http://0.0.0.0"):
        url = url.replace("0.0.0.0", "127.0.0.1", 1)
    return url, origin


def check_base_url(url: str, provider: str, origin: str) -> str:
    """`url` as a base URL (http:// added to a bare host:port, as OLLAMA_HOST is often written),
    or a UserError: where it came from, what is wrong, how to fix it. Never shown whole: it may
    hold credentials or a key."""
    if "://" not in url and not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:(?!\d)", url):
        url = "http://" + url
    parts = None
    if len(url) > MAX_BASE_URL_CHARS:
        why = f"is {len(url):,} characters long (a base URL has at most {MAX_BASE_URL_CHARS:,})"
    elif any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        why = "has spaces or control characters in it"
    else:
        try:
            parts = urlsplit(url)
            why = "" if parts.port is None or parts.port >= 0 else "has a bad port"  # a bad one raises
        except ValueError as exc:
            why = f"is not a URL ({exc})"
    if parts is not None and not why:
        if parts.scheme.lower() not in ("http", "https"):
            why = f"is not an http(s) URL ({parts.scheme}:)"
        elif "@" in parts.netloc:
            why = ("carries credentials (user:password@): they would be sent and recorded; the key "
                   "comes from the environment (" + (" or ".join(KEY_ENV.get(provider, ())) or "none needed") + ")")
        elif not parts.hostname:
            why = "names no host"
        elif parts.query or parts.fragment or url.endswith(("?", "#")):
            why = "has a ? or # part (a base URL ends with its path)"
    if not why:
        return (parts.scheme.lower() + url[len(parts.scheme):]).rstrip("/")
    shown = url if parts is None or "@" not in parts.netloc else url.replace(parts.netloc.rpartition("@")[0], "***", 1)
    shown = redact(shown[:60] + ("…" if len(shown) > 60 else ""))
    where = {"--base-url": "--base-url", "readers.toml": f"[{provider}] base_url in {readers_path()}",
             "default": "the default"}.get(origin, origin)
    fix = {"--base-url": "give http(s)://host[:port][/path]",
           "readers.toml": "fix it with `pdfworkbench config edit --readers`"}.get(
        origin, f"fix or unset {origin}" if origin in BASE_URL_ENV.values() else "give http(s)://host[:port][/path]")
    raise UserError(f"{provider} base URL {shown!r} from {where} {why}; {fix}")


def api_key(provider: str) -> str | None:
    """The provider's key from the environment; a UserError naming the variable when it is required."""
    for var in KEY_ENV.get(provider, ()):
        value = os.environ.get(var, "").strip()
        if value:
            return value
    if provider in KEY_REQUIRED:
        names = " or ".join(KEY_ENV[provider])
        raise UserError(f"{provider} needs an API key: set {names} in the environment")
    return None


def all_keys() -> list[str]:
    """Every key value present in the environment (to redact them from any text we show)."""
    out = []
    for names in KEY_ENV.values():
        for var in names:
            value = os.environ.get(var, "").strip()
            if len(value) >= MIN_KEY:
                out.append(value)
    return out


def process_keys(*extra: str | None) -> list[str]:
    """Every key in the process: the environment's and `extra` (the key a call carries)."""
    keys = {k.strip() for k in (*all_keys(), *extra) if k}
    return sorted((k for k in keys if len(k) >= MIN_KEY), key=len, reverse=True)


def redact(text: str | None, keys: list[str] | None = None) -> str | None:
    """`text` with every key, and every long piece of one, replaced by [redacted]; also when
    the text carries it URL-encoded (such a text comes back decoded, the key redacted)."""
    if not text:
        return text
    keys = process_keys() if keys is None else keys
    if not keys:
        return text
    clean = _redact_plain(text, keys)
    if "%" in clean:
        decoded = unquote(clean)
        if decoded != clean:
            again = _redact_plain(decoded, keys)
            if again != decoded:
                return again
    return clean


def _redact_plain(text: str, keys: list[str]) -> str:
    spans: list[tuple[int, int]] = []
    for key in keys:
        if len(key) < LONG_KEY:
            start = text.find(key)
            while start >= 0:
                spans.append((start, start + len(key)))
                start = text.find(key, start + len(key))
            continue
        if len(text) < FRAGMENT:
            continue
        for offset in (*range(0, len(key) - FRAGMENT + 1, STRIDE), len(key) - FRAGMENT):
            piece = key[offset:offset + FRAGMENT]
            start = text.find(piece)
            while start >= 0:
                spans.append(_grow(text, key, start, offset))
                start = text.find(piece, start + 1)
    if not spans:
        return text
    merged: list[list[int]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    out, last = [], 0
    for a, b in merged:
        out += [text[last:a], REDACTED]
        last = b
    out.append(text[last:])
    return "".join(out)


def _grow(text: str, key: str, start: int, offset: int) -> tuple[int, int]:
    """The span of `text` around a piece of `key` found at `start` (the piece at `offset` of the
    key), grown while text and key go on agreeing: the whole leaked run, not just the piece."""
    a, k = start, offset
    while a > 0 and k > 0 and text[a - 1] == key[k - 1]:
        a, k = a - 1, k - 1
    b, k = start + FRAGMENT, offset + FRAGMENT
    while b < len(text) and k < len(key) and text[b] == key[k]:
        b, k = b + 1, k + 1
    return a, b


def redact_all(value: Any, keys: list[str] | None = None) -> Any:
    """`value` (JSON-like data: dicts, lists, strings; or a dataclass of them) with every string
    in it, dict keys included, redacted by `redact`. Containers are rebuilt (tuples as lists, as
    JSON has them), never changed in place; nesting of any depth is walked without recursion (a
    hostile body may nest deeply)."""
    keys = process_keys() if keys is None else keys
    if not keys:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: redact_all(getattr(value, f.name), keys)
                                             for f in dataclasses.fields(value) if f.init})
    if isinstance(value, str):
        return redact(value, keys)
    if not isinstance(value, (dict, list, tuple)):
        return value
    root: Any = {} if isinstance(value, dict) else []
    stack = [(value, root)]   # (a container, its copy being filled)
    while stack:
        source, copy = stack.pop()
        for k, v in (source.items() if isinstance(source, dict) else enumerate(source)):
            if isinstance(v, (dict, list, tuple)):
                child: Any = {} if isinstance(v, dict) else []
                stack.append((v, child))
            elif isinstance(v, str) or (dataclasses.is_dataclass(v) and not isinstance(v, type)):
                child = redact_all(v, keys)
            else:
                child = v
            if isinstance(copy, dict):
                copy[redact(k, keys) if isinstance(k, str) else k] = child
            else:
                copy.append(child)
    return root


def float_env(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        raise UserError(f"{name}={os.environ[name]!r}: give a number of seconds") from None
