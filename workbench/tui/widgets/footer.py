"""The key footer every screen shows: Textual's Footer, rebuilt only when what it shows changes.

Textual's Footer rebuilds all of its keys (a widget each, styled one by one) whenever the screen's
bindings may have changed, which is every focus change: opening the workbench moved focus four
times before the first page was on screen, and the rebuilds took a fifth of the time to it. This
one compares what it would show (each key, its label, whether it is enabled) with what it shows,
and rebuilds once per refresh, only if they differ. What it draws is Textual's own keys, the
app's (F1 help, F2 page) first: a narrow terminal cuts the footer at its right end, and F1 lists
whatever was cut: a key that would be cut part-way ("t T" of "t Triage") is left out whole. Below
`NARROW` columns the keys are drawn compact (a column less each). The keys are the ones Textual's
`Footer.compose` makes, put in that order.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from workbench.tui.widgets.layout import NARROW


class KeyFooter(Footer):
    """A Footer that recomposes only when its keys change (see the module docstring)."""

    def __init__(self, *args, hold: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple | None = None    # what the keys show now (None: nothing yet)
        self._queued = False                # a check is due after the next refresh
        # With `hold`, no keys until `release`: the Inspect screen shows them once the first page
        # is on screen (mounting and styling the keys, one widget each, took ~30 ms before it).
        self._held = hold
        try:  # compact from the start where the terminal is narrow (not restyled at the first resize)
            self.set_reactive(Footer.compact, self.app.size.width < NARROW)
            self.set_class(self.compact, "-compact", update=False)
        except RuntimeError:  # no app running (Textual's NoActiveAppError)
            pass

    def release(self) -> None:
        """Show the keys (a footer made with `hold`)."""
        if self._held:
            self._held = False
            if self.is_attached and not self._queued:
                # On this widget's own queue (call_after_refresh would run it as whoever called
                # this, and the keys' data binding needs the footer as their parent).
                self._queued = True
                self.call_later(self._recompose_if_changed)

    def _shown_bindings(self) -> list:
        """The screen's shown bindings, one per action, the app's first (then Textual's order)."""
        app = self.app
        found: dict[str, tuple] = {}
        for node, b, enabled, tooltip in self.screen.active_bindings.values():
            if b.show and b.action not in found:
                found[b.action] = (node is not app, b, enabled, tooltip)
        return [entry[1:] for entry in sorted(found.values(), key=lambda e: e[0])]

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        # Textual's keys, one per action (no binding here has a group), the app's actions first;
        # the command palette's key, docked at the right, stays last.
        keys = list(super().compose())
        order = {b.action: i for i, (b, _enabled, _tooltip) in enumerate(self._shown_bindings())}
        yield from sorted(keys, key=lambda k: order.get(getattr(k, "action", None), len(order)))

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < NARROW
        self._fit_keys()

    def _fit_keys(self) -> None:
        """Every key shown, then (once they are laid out) those past the footer's right end left
        out: a key is shown whole or not at all."""
        for key in self.query(FooterKey):
            key.display = True
        self.call_after_refresh(self._leave_out_cut_keys)

    def _leave_out_cut_keys(self) -> None:
        if not self.is_attached:
            return
        keys = list(self.query(FooterKey))
        palette = next((k for k in keys if k.has_class("-command-palette")), None)
        right = palette.region.x if palette is not None else self.region.right
        cut = False
        for key in keys:
            if key is not palette:
                cut = cut or key.region.right > right
                key.display = not cut

    def _showing(self) -> tuple:
        """What `compose` would show: every shown binding's key, label and state, in order."""
        app = self.app
        keys = tuple((b.key, app.get_key_display(b), b.description, b.action, enabled, tooltip)
                     for (b, enabled, tooltip) in self._shown_bindings())
        palette = self.show_command_palette and app.ENABLE_COMMAND_PALETTE
        entry = self.screen.active_bindings.get(app.COMMAND_PALETTE_BINDING) if palette else None
        return keys, None if entry is None else (entry[1].key, entry[2], entry[3])

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._queued:
            self._queued = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._queued = False
        if not self.is_attached or self._held:
            return
        showing = self._showing()
        if showing != self._shown:
            self._shown = showing
            await self.recompose()
            self._fit_keys()
