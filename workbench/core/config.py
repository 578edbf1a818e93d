"""The user's settings, all in one folder: the platform's config folder, or `PDFWORKBENCH_CONFIG_DIR`.

`config.json` holds the workbench's settings (theme, reader, modality, DPI, key map, family
folders, an opt-in .env file); `readers.toml` the providers' base URLs; `families/` the user's
trap families. `pdfworkbench config show|path|edit|keys` shows and edits them. A broken config
file never stops the app: its problem is reported and the defaults are used.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import atomic

CONFIG_ENV = "PDFWORKBENCH_CONFIG_DIR"


def config_dir() -> Path:
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    from platformdirs import user_config_dir

    return Path(user_config_dir("pdfworkbench"))


@dataclass
class Settings:
    theme: str = "workbench-dark"
    reader: str = "probe:pymupdf"
    modality: str = "text"
    dpi: int = 150
    graphics: str = "halfblock"                            # halfblock | hires (textual-image)
    keymap: dict[str, str] = field(default_factory=dict)   # binding id -> keys, e.g. {"next_page": "ctrl+n"}
    family_dirs: list[str] = field(default_factory=list)   # extra folders searched for user families
    user: str | None = None                                # your name on dispute decisions
    base_urls: dict[str, str] = field(default_factory=dict)  # provider -> base URL (the Ask dialog's)
    questions: dict[str, str] = field(default_factory=dict)  # PDF path -> the question last asked of it
    env_file: str | None = None                            # opt-in .env read for keys (never written)
    limits: dict[str, float] = field(default_factory=dict)  # budget name -> value (core/limits.py)
    problem: str | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("problem")
        return data


def config_path() -> Path:
    return config_dir() / "config.json"


def readers_path() -> Path:
    """Providers' base URLs: `[openai] base_url = "..."` (keys never go here: environment only)."""
    return config_dir() / "readers.toml"


def load_settings() -> Settings:
    path = config_path()
    if not path.exists():
        return Settings()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("not a JSON object")
        known = {k: v for k, v in raw.items() if k in Settings.__dataclass_fields__ and k != "problem"}
        settings = Settings(**known)
        settings.dpi = int(settings.dpi)
        if not isinstance(settings.keymap, dict) or not isinstance(settings.family_dirs, list):
            raise ValueError("keymap must be an object and family_dirs a list")
        if not isinstance(settings.base_urls, dict) or not isinstance(settings.questions, dict):
            raise ValueError("base_urls and questions must be objects")
        return settings
    except (OSError, ValueError, TypeError) as exc:
        return Settings(problem=f"{path}: ignored ({exc}); using defaults")


def save_settings(settings: Settings) -> None:
    atomic.write_json(config_path(), settings.to_json())


def family_dirs(settings: Settings | None = None) -> list[Path]:
    """Folders searched for user families: `<config dir>/families`, then the settings' `family_dirs`."""
    settings = settings or load_settings()
    return [config_dir() / "families", *(Path(d).expanduser() for d in settings.family_dirs)]


USER_ENV = "PDFWORKBENCH_USER"


def user_name(flag: str | None = None, settings: Settings | None = None) -> str:
    """Who is deciding: `--who`, else `$PDFWORKBENCH_USER`, else the config's `user`, else the login."""
    if flag and flag.strip():
        return flag.strip()
    env = os.environ.get(USER_ENV, "").strip()
    if env:
        return env
    configured = (settings or load_settings()).user
    if isinstance(configured, str) and configured.strip():
        return configured.strip()
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (a container without a passwd entry)
        return "unknown"
