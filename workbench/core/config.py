"""The user's settings, all in one folder: the platform's config folder, or `PDFWORKBENCH_CONFIG_DIR`.

`config.json` holds the workbench's settings (theme, reader, modality, DPI, key map, family
folders, an opt-in .env file, the first-run hint, the text-layer tabs); `readers.toml` the providers' base URLs; `families/` the user's
trap families. `pdfworkbench config show|path|edit|keys` shows and edits them. A broken config
file never stops the app: its problem is reported and the defaults are used.
"""

from __future__ import annotations

import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import files
from workbench.core.errors import UserError
from workbench.core.schema import JSONObject

CONFIG_ENV = "PDFWORKBENCH_CONFIG_DIR"


def config_dir() -> Path:
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    if sys.platform == "linux":
        # The XDG rule platformdirs follows on Linux, without its import (tempfile, random and its
        # own modules: about a tenth of a one-shot command's start, which reads the settings): an
        # absolute $XDG_CONFIG_HOME, else ~/.config (a relative or empty one is ignored).
        home = os.environ.get("XDG_CONFIG_HOME", "")
        return Path(home if os.path.isabs(home) else os.path.expanduser("~/.config"), "pdfworkbench")
    from platformdirs import user_config_dir

    return Path(user_config_dir("pdfworkbench"))


def cache_dir() -> Path:
    """The answer cache: `PDFWORKBENCH_CACHE_DIR`, else the user cache folder (the extracted texts,
    the HTML report's page crops, the case list's lint findings and what OCR read are kept inside it). Here, not with the providers, so that a
    report finds its crops without loading the readers."""
    env = os.environ.get("PDFWORKBENCH_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("pdfworkbench")) / "answers"


# The DPIs a page may be sent at, as the Ask dialog accepts them.
DPI_RANGE = (36, 600)
GRAPHICS = ("halfblock", "hires")


@dataclass
class Settings:
    """config.json's settings, each with its default (`problem`: why the file was not used)."""

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
    # Inspect's first-run hint (where to start); dismissing it turns this off for good.
    first_run_hint: bool = True
    # The text-layer tabs Inspect adds after pypdf and pymupdf, by extractor name; None: every
    # extractor installed here (one not installed says what to install).
    layer_tabs: list[str] | None = None
    # Why the file was not (wholly) used, one line; a file with a problem is never written over.
    problem: str | None = field(default=None, compare=False)
    # Keys of config.json this version does not know: kept as they are when the file is saved.
    unknown: JSONObject = field(default_factory=dict, compare=False)

    def to_json(self) -> JSONObject:
        data = asdict(self)
        data.pop("problem")
        unknown = data.pop("unknown")
        return {**unknown, **data}


def _is_str_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


def _is_path(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and "\0" not in value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# What each field of config.json must be; a field that is not keeps its default (and the file
# is reported, and never written over).
_VALID: dict[str, tuple[Any, str]] = {
    "theme": (lambda v: isinstance(v, str), "a theme name"),
    "reader": (lambda v: isinstance(v, str) and bool(v.strip()), "a reader, e.g. \"probe:pymupdf\""),
    "modality": (lambda v: v in ("pdf", "pixels", "text"), "pdf, pixels or text"),
    "dpi": (lambda v: isinstance(v, int) and not isinstance(v, bool) and DPI_RANGE[0] <= v <= DPI_RANGE[1],
            f"a whole number from {DPI_RANGE[0]} to {DPI_RANGE[1]}"),
    "graphics": (lambda v: v in GRAPHICS, " or ".join(GRAPHICS)),
    "keymap": (_is_str_map, "an object of binding id -> keys"),
    "family_dirs": (lambda v: isinstance(v, list) and all(map(_is_path, v)), "a list of folders"),
    "user": (lambda v: v is None or (isinstance(v, str) and "\0" not in v), "a name"),
    "base_urls": (_is_str_map, "an object of provider -> URL"),
    "questions": (_is_str_map, "an object of PDF -> question"),
    "env_file": (lambda v: v is None or _is_path(v), "a file name"),
    "limits": (lambda v: isinstance(v, dict) and all(map(_is_number, v.values())), "an object of limit name -> number"),
    "first_run_hint": (lambda v: isinstance(v, bool), "true or false"),
    "layer_tabs": (lambda v: v is None or isinstance(v, list) and all(isinstance(n, str) for n in v),
                   "a list of extractor names"),
}
FIX = "fix it with `pdfworkbench config edit` (it is not written over meanwhile)"


def config_path() -> Path:
    return config_dir() / "config.json"


def readers_path() -> Path:
    """Providers' base URLs: `[openai] base_url = "..."` (keys never go here: environment only)."""
    return config_dir() / "readers.toml"


def load_settings() -> Settings:
    """config.json's settings; a file that cannot be used, wholly or in part, gives the defaults
    there and a `problem` line (never an exception: no command and no screen stops on it)."""
    path = config_path()
    try:
        raw = files.read_json(path, "settings file", "json_file_bytes")
    except UserError as exc:
        if not os.path.lexists(path):
            return Settings()
        why = str(exc).removeprefix(f"{path}: ").removeprefix(f"{path} ")
        return Settings(problem=f"{path}: ignored ({why}); using the default settings; {FIX}")
    return _settings_from(raw, path)


def _settings_from(raw: Any, path: Path) -> Settings:
    if not isinstance(raw, dict):
        return Settings(problem=f"{path}: ignored (not a JSON object); using the default settings; {FIX}")
    known, unknown, bad = {}, {}, []
    for key, value in raw.items():
        if key not in _VALID:
            unknown[key] = value
        elif _VALID[key][0](value):
            known[key] = value
        else:
            bad.append(f"{key} (not {_VALID[key][1]})")
    settings = Settings(**known, unknown=unknown)
    if bad:
        shown = ", ".join(bad[:3]) + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")
        settings.problem = f"{path}: ignored {shown}; using the defaults for them; {FIX}"
    return settings


class SettingsNotSaved(Exception):
    """config.json is not written: the file there could not be used as it is (its one line)."""


def save_settings(settings: Settings) -> None:
    """Write config.json, unless the file there now has a problem (it was broken when loaded, or
    since): the user's file is never replaced by defaults; `SettingsNotSaved` says so."""
    current = load_settings()
    problem = settings.problem or current.problem
    if problem:
        raise SettingsNotSaved(f"settings not saved: {problem}")
    settings.unknown = {**current.unknown, **settings.unknown}
    from workbench.core import atomic  # (a command that only reads the settings writes nothing)

    # The user's own file: where it is a link (dotfiles kept by GNU Stow), the file it points to
    # is written, and the link stays.
    atomic.write_json(files.typed_path(config_path()), settings.to_json())


def family_dirs(settings: Settings | None = None) -> list[Path]:
    """Folders searched for user families: `<config dir>/families`, then the settings' `family_dirs`."""
    settings = settings or load_settings()
    return [config_dir() / "families", *(user_path(d) for d in settings.family_dirs)]


def user_path(text: str) -> Path:
    """A path the user wrote in a setting, `~` expanded where it can be (`~nosuchuser` stays)."""
    try:
        return Path(text).expanduser()
    except RuntimeError:  # no such user, or no home directory
        return Path(text)


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
