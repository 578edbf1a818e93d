"""Options of the commands around the workbench itself: open, serve, config, completion."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.parsers import port_number

# The shells `completion` writes a script for.
SHELLS = ("bash", "zsh", "fish")


def open_(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", type=Path, help="default: the shipped sample suite")
    p.add_argument("--graphics", choices=["halfblock", "hires"], default=None,
                   help="page images: half-block characters (any terminal; the default) or hires "
                        "(Sixel or Kitty graphics through textual-image, where the terminal has them)")
    p.add_argument("--who", help="your name on dispute decisions (default: $PDFWORKBENCH_USER, the "
                                 "config's user, or your login)")
    p.add_argument("--password", help="password of encrypted PDFs (without it, the workbench asks)")


def serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", type=Path, help="default: the shipped sample suite")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port to bind (default 8000; 0: a free one, printed)")
    p.add_argument("--allow-remote", action="store_true",
                   help="let --host be an address other machines reach (the workbench reads and "
                        "writes files as you)")
    p.add_argument("--token", help="the secret browsers must present, at least 16 characters "
                                   "(default: a new one each launch, in the printed URL)")


def config(p: argparse.ArgumentParser) -> None:
    p.description = ("Every setting lives in one folder: config.json (theme, reader, "
                     "modality, DPI, key map, family folders, env_file), readers.toml "
                     "(providers' base URLs) and families/ (your trap families). "
                     "PDFWORKBENCH_CONFIG_DIR moves the folder.")
    csub = p.add_subparsers(dest="config_command", metavar="ACTION", required=True, parser_class=type(p))

    q = csub.add_parser("show", help="the settings in effect, where each file is, which keys are set")
    q.add_argument("--json", action="store_true")

    q = csub.add_parser("path", help="print the config folder (or one file's path)")
    q.add_argument("--file", choices=["config", "readers", "families"],
                   help="print this file's path instead: config.json, readers.toml or families/")

    q = csub.add_parser("edit", help="open config.json (or readers.toml) in $VISUAL or $EDITOR, then check it")
    q.add_argument("--readers", action="store_true", help="edit readers.toml instead of config.json")

    q = csub.add_parser("keys", help="the key-binding ids that config.json's keymap can remap")
    q.add_argument("--json", action="store_true")

    q = csub.add_parser("limits", help="the budgets and size caps on untrusted input, and how to raise one")
    q.add_argument("--json", action="store_true")

    from workbench.core.cache import PARTS as CACHE_PARTS  # (here: only `config` reads them)

    q = csub.add_parser("cache", help="what the cache folder holds, part by part; --clear removes a part's entries")
    q.add_argument("--clear", nargs="*", metavar="PART", choices=list(CACHE_PARTS),
                   help="remove these parts' entries (" + ", ".join(CACHE_PARTS) + "); with no PART, every "
                        "part but the answers, which are cleared only when named (asking again costs money)")
    q.add_argument("--json", action="store_true")


def completion(p: argparse.ArgumentParser) -> None:
    p.description = ("Completes commands, options, family names, readers and suite "
                     "folders. Needs the argcomplete package (installed with pdfworkbench).")
    p.add_argument("shell", choices=SHELLS)
