"""Commands for the user's settings: config show|path|edit|keys|limits."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import tomllib

from workbench.cli.output import print_json
from workbench.core import atomic, limits
from workbench.core.config import (
    Settings,
    cache_dir,
    config_dir,
    config_path,
    load_settings,
    readers_path,
)
from workbench.core.errors import UserError
from workbench.providers.config import BASE_URL_ENV, KEY_ENV, reader_settings
from workbench.tui.keymap import remappable_bindings

READERS_TEMPLATE = """\
# Base URLs of model providers (keys never go here: they come from the environment).
# [openai]
# base_url = "https://api.openai.com/v1"
# [ollama]
# base_url = "http://127.0.0.1:11434"
"""


def _state() -> dict:
    settings = load_settings()
    readers: dict = {}
    readers_problem = None
    try:
        readers = reader_settings()
    except UserError as exc:
        readers_problem = str(exc)
    env_names = sorted({n for names in KEY_ENV.values() for n in names} | set(BASE_URL_ENV.values()))
    return {
        "folder": str(config_dir()),
        "folder_from": "PDFWORKBENCH_CONFIG_DIR" if os.environ.get("PDFWORKBENCH_CONFIG_DIR") else "platform default",
        "config_json": {"path": str(config_path()), "exists": config_path().exists(),
                        "problem": settings.problem},
        "readers_toml": {"path": str(readers_path()), "exists": readers_path().exists(),
                         "problem": readers_problem},
        "families": str(config_dir() / "families"),
        "answer_cache": str(cache_dir()),
        "settings": settings.to_json(),
        "readers": readers,
        # Whether each variable is set, never its value.
        "environment": {name: bool(os.environ.get(name)) for name in env_names},
    }


def cmd_show(args: argparse.Namespace) -> int:
    state = _state()
    if args.json:
        print_json(state)
        return 0
    print(f"config folder  {state['folder']}  ({state['folder_from']}; PDFWORKBENCH_CONFIG_DIR moves it)")
    for label, key, missing in (("config.json ", "config_json", "not written yet: defaults"),
                                ("readers.toml", "readers_toml", "none: default base URLs")):
        f = state[key]
        shown = f["problem"] or ("" if f["exists"] else missing)
        print(f"{label}   {f['path']}" + (f"  ({shown})" if shown else ""))
    print(f"families/      {state['families']}")
    print(f"cache folder   {state['answer_cache']}  (what it holds: pdfworkbench config cache)")
    print("\nsettings (config.json):")
    for key, value in state["settings"].items():
        print(f"  {key:<12} {value!r}")
    if state["readers"]:
        print("\nreaders (readers.toml):")
        for provider, section in state["readers"].items():
            print(f"  [{provider}] {section}")
    print("\nenvironment (values never shown):")
    for name, is_set in state["environment"].items():
        print(f"  {name:<28} {'set' if is_set else '-'}")
    return 0


def cmd_path(args: argparse.Namespace) -> int:
    paths = {None: config_dir(), "config": config_path(), "readers": readers_path(),
             "families": config_dir() / "families"}
    print(paths[args.file])
    return 0


def _editor() -> list[str]:
    for var in ("VISUAL", "EDITOR"):
        if os.environ.get(var, "").strip():
            return shlex.split(os.environ[var])
    for name in ("nano", "vi"):
        if shutil.which(name):
            return [name]
    raise UserError("no editor found: set EDITOR (e.g. EDITOR=nano), or edit the file named by "
                    "`pdfworkbench config path --file config`")


def cmd_edit(args: argparse.Namespace) -> int:
    path = readers_path() if args.readers else config_path()
    if not path.exists():
        if args.readers:
            atomic.write_bytes(path, READERS_TEMPLATE.encode("utf-8"))
        else:
            atomic.write_json(path, Settings().to_json())
    editor = _editor()
    try:
        code = subprocess.call([*editor, str(path)])
    except OSError as exc:
        raise UserError(f"cannot run the editor {editor[0]!r} ({exc.strerror}); set EDITOR to one that exists") from None
    if code != 0:
        raise UserError(f"the editor {editor[0]!r} exited with code {code}; {path} is as it left it")
    if args.readers:
        try:
            tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise UserError(f"{path}: not valid TOML ({exc}); readers will refuse it until it is "
                            "fixed: run `pdfworkbench config edit --readers` again") from None
    else:
        problem = load_settings().problem
        if problem:
            raise UserError(f"{problem}: run `pdfworkbench config edit` again to fix it")
    print(f"{path}: ok")
    return 0


def cmd_keys(args: argparse.Namespace) -> int:
    rows = remappable_bindings()
    if args.json:
        print_json([b.to_json() for b in rows])
        return 0
    width = max(len(b.id) for b in rows)
    for b in rows:
        print(f"{b.id:<{width}}  {b.keys:<20} {b.description} ({b.where})")
    print('\nremap in config.json, e.g. {"keymap": {"toggle_evidence": "x", "next_page": "ctrl+n"}}')
    return 0


def cmd_limits(args: argparse.Namespace) -> int:
    rows = [(lim, limits.get(lim.name)) for lim in sorted(limits.LIMITS.values(), key=lambda x: x.name)]
    if args.json:
        print_json([{"name": lim.name, "value": value, "default": lim.default, "unit": lim.unit,
                     "why": lim.why} for lim, value in rows])
        return 0
    width = max((len(lim.name) for lim, _ in rows), default=0)
    for lim, value in rows:
        shown = limits.show(value, lim.unit)
        print(f"{lim.name:<{width}}  {shown:>12}  {lim.why}")
    print('\nraise one with --limit NAME=N on any command, or {"limits": {"NAME": N}} in config.json')
    return 0


def cmd_cache(args: argparse.Namespace) -> int:
    """What the cache folder holds, part by part; with --clear, the named parts' entries removed
    (none named: all but the answers)."""
    from workbench.core import cache

    if args.clear is None:
        rows = [cache.usage(name) for name in cache.PARTS]
    else:
        rows = [cache.clear(name) for name in dict.fromkeys(args.clear or cache.REMADE)]
    if args.json:
        print_json({"folder": str(cache_dir()), "cleared": args.clear is not None, "parts": rows})
        return 0
    print(f"cache folder  {cache_dir()}  (PDFWORKBENCH_CACHE_DIR moves it)")
    print(f"  {'part':<10} {'removed' if args.clear is not None else 'entries':>9} {'MB':>8}  what")
    for row in rows:
        line = f"  {row['part']:<10} {row['entries']:>9,} {row['bytes'] / 1e6:>8.1f}  {row['what']}"
        extra = [row["note"]] if row["note"] else []
        if row["others"]:
            extra.append(f"{row['others']:,} other files or folders left alone")
        print(line + (f"  ({'; '.join(extra)})" if extra else ""))
    if args.clear is None:
        print("\nclear with: pdfworkbench config cache --clear [PART ...] (no PART: all but the answers)")
    return 0
