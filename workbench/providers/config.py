"""Where each provider lives and which key it uses.

Base URL, first found: the `--base-url` flag, the environment variable the official SDK reads,
`readers.toml` in the config folder (`[openai] base_url = "..."`), the public default. Keys come
from the environment only, are never written anywhere, and are redacted from any error text.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

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
            if len(value) >= 6:
                out.append(value)
    return out


def redact(text: str | None, keys: list[str] | None = None) -> str | None:
    """`text` with every key (and every long fragment of one) replaced by [redacted]."""
    if not text:
        return text
    for key in keys if keys is not None else all_keys():
        text = text.replace(key, REDACTED)
        # Providers often echo a key partly masked ("sk-abc...wxyz"); hide the visible ends too.
        if len(key) >= 24:
            for fragment in (key[:16], key[-12:]):
                text = text.replace(fragment, REDACTED)
    return text


def float_env(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        raise UserError(f"{name}={os.environ[name]!r}: give a number of seconds") from None
