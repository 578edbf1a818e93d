"""Where each provider lives and which key it uses.

Base URL, first found: the `--base-url` flag, the environment variable the official SDK reads,
`readers.toml` in the config folder (`[openai] base_url = "..."`), the public default. Keys come
from the environment only, are never written anywhere, and are redacted from any error text.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any

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


def cache_dir() -> Path:
    """The answer cache: `PDFWORKBENCH_CACHE_DIR`, else the user cache folder."""
    env = os.environ.get("PDFWORKBENCH_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("pdfworkbench")) / "answers"


def reader_settings() -> dict:
    """readers.toml as a dict ({} when there is none); a broken file is a UserError."""
    from workbench.core.config import readers_path

    path = readers_path()
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"{path}: cannot read reader settings ({exc}); fix or remove the file") from None


def base_url(provider: str, flag: str | None = None) -> str:
    return base_url_origin(provider, flag)[0]


def base_url_origin(provider: str, flag: str | None = None) -> tuple[str, str]:
    """The provider's base URL and where it came from: `--base-url`, the variable's name,
    `readers.toml`, or `default`."""
    env = BASE_URL_ENV.get(provider, "")
    url, origin = (flag, "--base-url") if flag else (os.environ.get(env, ""), env)
    if not url:
        section = reader_settings().get(provider)
        if isinstance(section, dict) and isinstance(section.get("base_url"), str):
            url, origin = section["base_url"], "readers.toml"
    if not url:
        origin = "default"
    url = (url or DEFAULT_BASE_URL[provider]).strip()
    if "://" not in url:  # OLLAMA_HOST is often host:port
        url = "http://" + url
    if provider == "ollama" and url.startswith("http://0.0.0.0"):
        url = url.replace("0.0.0.0", "127.0.0.1", 1)
    return url.rstrip("/"), origin


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
        from urllib.parse import unquote

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
