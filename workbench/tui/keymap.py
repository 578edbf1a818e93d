"""The key bindings users can remap: every Binding with an id on the app, its screens and widgets.

`config.json` maps an id to keys, e.g. `{"keymap": {"toggle_evidence": "x"}}`.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass


@dataclass(frozen=True)
class BindingInfo:
    id: str
    keys: str
    description: str
    where: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "keys": self.keys, "description": self.description, "where": self.where}


def remappable_bindings() -> list[BindingInfo]:
    """Every binding id, in the order the modules and classes declare them (first one wins)."""
    from textual.binding import Binding

    import workbench.tui as package

    found: dict[str, BindingInfo] = {}
    names = sorted(m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + "."))
    for name in names:
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name:
                continue
            for b in cls.__dict__.get("BINDINGS", ()):
                if isinstance(b, Binding) and b.id and b.id not in found:
                    found[b.id] = BindingInfo(b.id, b.key, b.description or b.action, cls.__name__)
    return list(found.values())
