"""The key bindings users can remap: every Binding with an id on the app, its screens and widgets.

`config.json` maps an id to keys, e.g. `{"keymap": {"toggle_evidence": "x"}}`.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from dataclasses import dataclass

from textual.binding import Binding

import workbench.tui as package


@dataclass(frozen=True)
class BindingInfo:
    """A remappable key: its id, keys, label and where it applies."""

    id: str
    keys: str
    description: str
    where: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "keys": self.keys, "description": self.description, "where": self.where}


def remappable_bindings() -> list[BindingInfo]:
    """Every binding id, in the order the modules and classes declare them (first one wins)."""
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


@dataclass(frozen=True)
class KeyHelp:
    """One line of the F1 help: the keys of one action, as the user has them bound."""
    keys: str          # as shown, e.g. "pgdn, n"
    description: str   # the binding's label (the footer's)
    tooltip: str       # what it does, in a sentence
    enabled: bool      # False: it does nothing here now (shown dimmed)


def keys_of(screen) -> list[tuple[str, list[KeyHelp]]]:
    """The keys that work on `screen` now, one line per action, by where they are bound: the
    focused pane's, the screen's own, then every screen's (the app's). Generated from the
    bindings (their description and tooltip), so it cannot say a key that is not there."""
    app = screen.app
    sections: dict[int, tuple[str, dict[str, list]]] = {}
    for _key, (node, binding, enabled, tooltip) in screen.active_bindings.items():
        if not binding.id and (binding.system or node is not screen and node is not app):
            continue  # a widget's own in Textual (a text box's cursor keys): the pane's help says
        if node is app:
            title = "Everywhere"
        elif node is screen:
            title = screen_name(screen)
        else:
            title = f"{pane_name(node)} (the pane with focus)"
        _, actions = sections.setdefault(id(node), (title, {}))
        actions.setdefault(binding.action, []).append((binding, enabled, tooltip, declared(node, binding)))
    # the screen's own first, then the focused pane's, then the app's
    ordered = sorted(sections.values(), key=lambda s: (s[0] == "Everywhere", s[0].endswith("focus)")))
    out = []
    for title, actions in ordered:
        lines = []
        # in the order the class declares them (Textual lists priority keys first)
        for found in sorted(actions.values(), key=lambda f: min(d for *_, d in f)):
            found.sort(key=lambda f: f[3])
            keys = ", ".join(dict.fromkeys(app.get_key_display(b) for b, *_ in found))
            description = next((b.description for b, *_ in found if b.description), "")
            tip = next((t for _, _, t, _ in found if t), "")
            lines.append(KeyHelp(keys, description, tip if tip != description else "",
                                 any(e for _, e, *_ in found)))
        out.append((title, lines))
    return out


def declared(node, binding) -> int:
    """Where `binding` comes in its node's class's BINDINGS (its bases' first); 10**6 if not there."""
    n = 0
    for cls in reversed(type(node).__mro__):
        for b in cls.__dict__.get("BINDINGS", ()):
            if isinstance(b, tuple | list) or getattr(b, "id", None) is None:
                n += 1
                continue
            if b.id == binding.id:
                return n
            n += 1
    return 10**6


def screen_name(screen) -> str:
    """A screen as the help names it: InspectScreen -> Inspect, RunCompareScreen -> Run compare."""
    return _words(type(screen).__name__.removesuffix("Screen")) or "This screen"


def pane_name(widget) -> str:
    title = getattr(widget, "border_title", None)
    return str(title) if title else _words(type(widget).__name__.removesuffix("View"))


def _words(name: str) -> str:
    words = re.findall(r"[A-Z][a-z0-9]*|[a-z0-9]+", name)
    return " ".join([words[0], *(w.lower() for w in words[1:])]) if words else ""


def key_of(screen, binding_id: str) -> str:
    """The key bound to `binding_id` on `screen` now, as the footer shows it (the user's, if remapped)."""
    return keys_by_id(screen).get(binding_id, binding_id)


def keys_by_id(screen) -> dict[str, str]:
    """`key_of` for every binding id on `screen` at once (Textual works out the screen's active
    bindings anew on each look, asking the screen about each one)."""
    found: dict[str, str] = {}
    for _node, binding, _enabled, _tip in screen.active_bindings.values():
        if binding.id and binding.id not in found:
            found[binding.id] = screen.app.get_key_display(binding)
    return found
