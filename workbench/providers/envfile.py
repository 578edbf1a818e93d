"""Opt-in `.env` loading for provider keys and base URLs (`--env-file FILE` or config `env_file`).

Only the variables the readers use are taken (the keys and base URLs in `providers.config`);
a variable already set in the environment wins; the file is only ever read, never written, and
no value is logged or printed.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from workbench.core import files
from workbench.core.config import user_path
from workbench.core.errors import UserError
from workbench.providers.config import BASE_URL_ENV, KEY_ENV

log = logging.getLogger(__name__)
_LINE = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$")


def reader_variables() -> set[str]:
    return {name for names in KEY_ENV.values() for name in names} | set(BASE_URL_ENV.values())


def parse_env_text(text: str, source: str = ".env") -> dict[str, str]:
    """`NAME=value` lines (optionally `export NAME=...`, quoted values, # comments) -> a dict."""
    out: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise UserError(f"{source}:{number}: not a NAME=value line; fix it or remove it")
        name, value = m.group(1), m.group(2).strip()
        if value[:1] in ("'", '"'):
            quote = value[0]
            end = value.find(quote, 1)
            if end < 0:
                raise UserError(f"{source}:{number}: {name}: the quote is never closed")
            value = value[1:end]
        else:
            value = re.split(r"\s+#", value, maxsplit=1)[0].strip()
        out[name] = value
    return out


def load_env_file(path: Path) -> list[str]:
    """Put the file's reader variables into os.environ (unset ones only). Returns the names set."""
    path = user_path(str(path))
    text = files.read_text(path, ".env file", "json_file_bytes")  # regular files only, capped
    values = parse_env_text(text, str(path))
    wanted = reader_variables()
    loaded = []
    for name, value in values.items():
        if name not in wanted:
            log.debug("%s: %s is not a reader variable; left alone", path, name)
        elif os.environ.get(name):
            log.debug("%s: %s is already set in the environment; kept", path, name)
        elif value:
            os.environ[name] = value
            loaded.append(name)
    log.debug("loaded %s from %s", ", ".join(loaded) or "nothing", path)
    return loaded
