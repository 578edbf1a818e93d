"""Finding trap families: the package's own modules, plus any folder of user modules."""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import os
import pkgutil
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from workbench import generators
from workbench.generators.base import Family

# Modules in this package that are machinery, not families.
_NOT_FAMILIES = {"base", "registry", "kit", "degrade", "aging", "passages", "template"}

FAMILY_PATH_ENV = "PDFWORKBENCH_FAMILY_PATH"


class UnknownFamily(LookupError):
    pass


class NotAFamily(ValueError):
    """A module that lacks what a family defines: said in one line after the file's name."""


@dataclass(frozen=True)
class LoadProblem:
    """A family module that could not be loaded, and why (with the line where Python says)."""

    origin: str
    message: str


def family_from_module(module: ModuleType, origin: str) -> Family:
    missing = [a for a in ("NAME", "VERSION", "DESCRIPTION", "PARAMS", "generate") if not hasattr(module, a)]
    if missing:
        raise NotAFamily(f"a family module must define {', '.join(missing)}")  # (the caller names the file)
    return Family(
        name=module.NAME,
        version=int(module.VERSION),
        description=module.DESCRIPTION,
        params=tuple(module.PARAMS),
        contract=tuple(getattr(module, "CONTRACT", ())),
        generate=module.generate,
        origin=origin,
        contract_for=getattr(module, "contract_for", None),
        disarmed=tuple(getattr(module, "DISARMED", ())),
    )


def _describe_exception(exc: BaseException, path: str) -> str:
    if isinstance(exc, SyntaxError):
        return f"{Path(path).name}:{exc.lineno}: SyntaxError: {exc.msg}"
    line = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename == path:
            line = f":{frame.lineno}"
            break
    hint = ""
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] == "generators":
        # Families written by `new-family` before the package moved under workbench/.
        hint = "; the family kit is now `workbench.generators`: change `generators` to `workbench.generators` in its imports"
    return f"{Path(path).name}{line}: {type(exc).__name__}: {exc}{hint}"


def load_user_module(path: Path) -> ModuleType:
    """Import (or re-import) a user family from its file, under a private module name.

    Compiled from the source each time, never from a cached .pyc: Python's cache is keyed by the
    file's mtime in whole seconds and its size, so an edit that kept the size (VERSION = 1 -> 2)
    within the second of the last load ran the old code; nor is a __pycache__ written into the
    user's folder."""
    mod_name = f"pdfworkbench_user_families.{path.stem}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        exec(compile(path.read_bytes(), str(path), "exec", dont_inherit=True), module.__dict__)
    except BaseException:
        sys.modules.pop(mod_name, None)
        raise
    return module


def user_family_dirs(extra: list[Path] | None = None) -> list[Path]:
    dirs: list[Path] = []
    env = os.environ.get(FAMILY_PATH_ENV, "")
    dirs.extend(Path(p) for p in env.split(os.pathsep) if p)
    dirs.extend(extra or [])
    return dirs


class Registry:
    """All families found, in name order, and the modules that failed to load.

    The caller holds it: it never looks at the disk again by itself. `reloaded()` looks (one stat
    per user family file) and loads the families again only when a user file was added, removed
    or edited since.
    """

    def __init__(self, families: dict[str, Family], problems: list[LoadProblem],
                 dirs: tuple[Path, ...] = (), stamp: tuple = ()) -> None:
        self.families = dict(sorted(families.items()))
        self.problems = problems
        self.dirs = dirs          # the extra folders it was made from
        self.stamp = stamp        # each user family file with its mtime and size, when loaded

    def stale(self) -> bool:
        return _user_files(list(self.dirs)) != self.stamp

    def reloaded(self, force: bool = False) -> Registry:
        """This registry, or a new one when a user family file changed (or `force`)."""
        return discover(list(self.dirs)) if force or self.stale() else self

    def get(self, name: str) -> Family:
        try:
            return self.families[name]
        except KeyError:
            close = difflib.get_close_matches(str(name), self.families, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise UnknownFamily(
                f"unknown family {name!r}; {hint}run 'pdfworkbench families' to list them"
            ) from None

    def names(self) -> list[str]:
        return list(self.families)


def discover(extra_dirs: list[Path] | None = None) -> Registry:
    """Look for the families now: the package's own, then the user folders' modules."""
    dirs = tuple(Path(d) for d in extra_dirs or ())
    stamp = _user_files(list(dirs))   # before loading: an edit made while loading shows as stale
    families: dict[str, Family] = {}
    problems: list[LoadProblem] = []
    for info in pkgutil.iter_modules(generators.__path__):
        if info.name in _NOT_FAMILIES or info.name.startswith("_") or info.ispkg:
            continue
        module = importlib.import_module(f"workbench.generators.{info.name}")
        fam = family_from_module(module, "builtin")
        families[fam.name] = fam
    for folder in user_family_dirs(extra_dirs):
        if not _is_folder(folder):
            continue
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith("_"):
                continue
            try:
                fam = family_from_module(load_user_module(path), str(path))
            except NotAFamily as exc:
                problems.append(LoadProblem(str(path), f"{path.name}: {exc}"))
                continue
            except Exception as exc:  # a user's module may raise anything; report it, load the rest
                problems.append(LoadProblem(str(path), _describe_exception(exc, str(path))))
                continue
            if fam.name in families and families[fam.name].origin == "builtin":
                problems.append(LoadProblem(str(path), f"{path.name}: family {fam.name!r} is built in; rename it"))
                continue
            families[fam.name] = fam
    return Registry(families, problems, dirs, stamp)


def _is_folder(folder: Path) -> bool:
    """Whether a configured family folder is one to look in (a name too long, or a folder we may
    not enter, is none: a setting never stops a command)."""
    try:
        return folder.is_dir()
    except OSError:
        return False


def _user_files(dirs: list[Path]) -> tuple:
    """Each user family file with its mtime and size: a change means the modules load again."""
    out = []
    for folder in user_family_dirs(dirs):
        if _is_folder(folder):
            for path in sorted(folder.glob("*.py")):
                try:
                    st = path.stat()
                except OSError:
                    continue
                out.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(out)


registry = discover   # the name the tests and benchmarks know
