"""The authoring form: family, seed, one row per declared parameter, and the scan degradation.

Each parameter row is "auto" (drawn from the seed; the row shows the resolved value) or pinned
(the author's value). Editing a value pins it; unticking "pin" gives it back to the seed. Values
are set in code under `prevent(...)`, and a widget event that carries the value the row already
shows is not a change, so only the author's edits post `AuthorForm.Changed`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Checkbox, Collapsible, Input, Label, Select, Static, Switch

from workbench.build.authoring import Draft
from workbench.core.params import ParamValue
from workbench.core.scan import KNOBS, TEXT_LAYERS, TIER_NAMES, TIERS, DegradeSpec
from workbench.generators.base import Family, Param
from workbench.tui.tiers import tier_summary

TIER_OFF = "off"
TIER_CHOICES = (TIER_OFF, *TIER_NAMES)


def _fmt(value: Any) -> str:
    """A value as the author would type it: 12345.67, 100, 0.5 (never rounded)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def param_summary(p: Param) -> str:
    """`float 100–99999.99 · the printed TOTAL DUE`: type, range or choices, and help."""
    kind = p.type
    if p.type == "choice" and p.choices:
        kind = " | ".join(map(str, p.choices))
    elif p.type == "str" and p.max is not None:
        kind = f"text ≤{_fmt(p.max)} chars"
    elif p.min is not None and p.max is not None:
        kind = f"{p.type} {_fmt(p.min)}–{_fmt(p.max)}"
    seeded = "" if p.seeded else " · auto = default"
    return f"{kind}{seeded} · {p.help}"



class SeedInput(Input):
    """The seed box: it lets [ and ] through to the screen, which steps the seed with them."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character in ("[", "]"):
            return False
        return super().check_consume_key(key, character)

class ParamRow(Vertical):
    """One parameter: a pin box, its name, its value widget and a help line."""

    BINDINGS = [Binding("ctrl+o", "toggle_pin", "Pin/unpin", id="author_pin",
                        tooltip="Pin this value, or draw it from the seed")]

    @dataclass
    class Changed(Message):
        row: ParamRow

        @property
        def control(self) -> ParamRow:
            return self.row

    def __init__(self, param: Param, pinned: bool, value: Any) -> None:
        super().__init__(id=f"param-{param.name}", classes="param-row")
        self.param = param
        self.pinned = pinned
        # The value shown, as its widget holds it: text for inputs, the choice, or a bool.
        if param.type in ("int", "float", "str"):
            value = _fmt(value)
        elif param.type == "bool":
            value = bool(value)
        self.value = value
        self.error = False
        self._state_shown = ""
        self._widget = None     # the value widget, found once (the form reads it on every edit)

    def compose(self) -> ComposeResult:
        p = self.param
        with Horizontal(classes="param-head"):
            pin = Checkbox("pin", self.pinned, compact=True, id=f"pin-{p.name}",
                           tooltip="Pinned: this value. Unpinned: drawn from the seed (ctrl+o, or click).")
            pin.can_focus = False   # one tab stop per parameter: its value (ctrl+o pins/unpins it)
            yield pin
            yield Label(p.name, classes="param-name")
            yield Label("", classes="param-state")
        tip = param_summary(p)
        if p.type == "choice":
            assert p.choices is not None
            options = [(str(c), c) for c in p.choices]
            value = self.value if self.value in p.choices else p.choices[0]
            yield Select(options, value=value, allow_blank=False, compact=True,
                         id=f"value-{p.name}", tooltip=tip)
        elif p.type == "bool":
            yield Switch(bool(self.value), animate=False, id=f"value-{p.name}", tooltip=tip)
        else:
            kind = {"int": "integer", "float": "number"}.get(p.type, "text")
            yield Input(self.value, type=kind, compact=True, id=f"value-{p.name}", tooltip=tip,
                        select_on_focus=False)
        yield Static(tip, classes="param-help", markup=False)

    def on_mount(self) -> None:
        self._show_state()

    @property
    def widget(self):
        if self._widget is None:
            self._widget = self.query_one(f"#value-{self.param.name}")
        return self._widget

    def _show_state(self) -> None:
        state = "pinned" if self.pinned else "auto"
        if state != self._state_shown:   # an update re-lays the form out; most calls change nothing
            self._state_shown = state
            self.query_one(".param-state", Label).update(state)
        self.set_class(not self.pinned, "-auto")
        self.set_class(self.error, "-error")

    def show_resolved(self, value: Any) -> None:
        """After a regeneration: an auto row shows the value drawn from the seed."""
        self.error = False
        if not self.pinned:
            self._set_widget(value)
        self._show_state()

    def mark_error(self, on: bool) -> None:
        self.error = on
        self._show_state()

    def set_pinned(self, pinned: bool, value: Any = None) -> None:
        with self.prevent(Checkbox.Changed):
            self.pinned = pinned
            self.query_one(Checkbox).value = pinned
        if pinned and value is not None:
            self._set_widget(value)
        self._show_state()

    def _set_widget(self, value: Any) -> None:
        w = self.widget
        with self.prevent(Input.Changed, Select.Changed, Switch.Changed):
            if isinstance(w, Input):
                text = _fmt(value)
                self.value = text
                if w.value != text:
                    w.value = text
            elif isinstance(w, Select):
                self.value = value
                if w.value != value:
                    w.value = value
            else:
                self.value = bool(value)
                w.value = bool(value)

    def pinned_value(self) -> Any:
        return self.value

    def action_toggle_pin(self) -> None:
        self.query_one(Checkbox).toggle()

    @on(Checkbox.Changed)
    def _pin_toggled(self, event: Checkbox.Changed) -> None:
        event.stop()
        if event.value == self.pinned:
            return
        self.pinned = event.value
        self._show_state()
        self.post_message(self.Changed(self))

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Switch.Changed)
    def _value_changed(self, event) -> None:
        event.stop()
        value = event.value
        if value != event.control.value:
            return  # a stale event: the widget has been set again since (e.g. on mount)
        if value == self.value or (isinstance(event, Select.Changed) and value == Select.NULL):
            return
        self.value = value
        if not self.pinned:
            self.set_pinned(True)
        self.post_message(self.Changed(self))


class DegradeForm(Vertical):
    """Scan degradation: the tier (or none), the text layer of the scan, and knob overrides."""

    @dataclass
    class Changed(Message):
        form: DegradeForm

    def __init__(self, spec: DegradeSpec | None) -> None:
        super().__init__(id="degrade-form")
        self.spec_in = spec
        self._last: tuple[Any, ...] | None = None
        self._boxes: tuple[Select, Select, dict[str, Input]] | None = None   # found once

    def compose(self) -> ComposeResult:
        spec = self.spec_in
        tier = spec.tier if spec else TIER_OFF
        overrides = spec.override_map() if spec else {}
        if spec and spec.dpi is not None:
            overrides["dpi"] = spec.dpi
        yield Static("Scan degradation (F4 comes here)", classes="form-section", id="scan-section")
        with Horizontal(classes="degrade-head"):
            yield Label("tier", classes="param-name")
            yield Select([("off (no scan)" if t == TIER_OFF else t, t) for t in TIER_CHOICES], value=tier,
                         allow_blank=False, compact=True, id="tier",
                         tooltip="A preset of scan operations; off keeps the generated PDF\n"
                                 + "\n".join(f"{t}: {tier_summary(t)}" for t in TIER_CHOICES[1:]))
        # What the tier chosen does (hidden when off).
        yield Static("", id="tier-help", classes="param-help", markup=False)
        with Horizontal(classes="degrade-head"):
            yield Label("text layer", classes="param-name")
            yield Select([(t, t) for t in TEXT_LAYERS], value=spec.text_layer if spec else "none",
                         allow_blank=False, compact=True, id="text-layer",
                         tooltip="none: image only; faithful: the words behind the image; drifted: "
                                 "chosen values changed")
        with Collapsible(title="knobs (override the tier)", collapsed=not overrides, id="knobs"):
            for name, (kind, (lo, hi), help_) in KNOBS.items():
                with Horizontal(classes="knob-row"):
                    yield Label(name, classes="param-name")
                    yield Input(_fmt(overrides[name]) if name in overrides else "",
                                type="integer" if kind == "int" else "number", compact=True,
                                id=f"knob-{name}", tooltip=f"{kind} {_fmt(lo)}–{_fmt(hi)}: {help_}")

    def on_mount(self) -> None:
        self._show_tier_values()
        self._last = self._fields()

    def _show_tier_values(self) -> None:
        tier = self.query_one("#tier", Select).value
        line = self.query_one("#tier-help", Static)
        line.update(f"{tier}: {tier_summary(str(tier))}" if tier != TIER_OFF else "")
        line.display = tier != TIER_OFF
        preset = TIERS.get(tier if tier != TIER_OFF else "clean", {})
        for name, value in preset.items():
            self.query_one(f"#knob-{name}", Input).placeholder = f"tier: {_fmt(value)}"

    def _fields(self) -> tuple[Any, ...]:
        """The form as typed: tier, text layer, and the knobs filled in."""
        if self._boxes is None:
            self._boxes = (self.query_one("#tier", Select), self.query_one("#text-layer", Select),
                           {name: self.query_one(f"#knob-{name}", Input) for name in KNOBS})
        tier, text_layer, boxes = self._boxes
        knobs = tuple((name, box.value.strip()) for name, box in boxes.items())
        return (tier.value, text_layer.value, tuple((k, v) for k, v in knobs if v))

    def spec(self) -> DegradeSpec | None:
        """The scan the form describes (None: off); a UserError names a knob typed wrong."""
        tier, text_layer, knobs = self._fields()
        if tier == TIER_OFF:
            return None
        return DegradeSpec.parse({"tier": tier, "overrides": dict(knobs), "text_layer": text_layer})

    def set_tier(self, tier: str) -> None:
        self.query_one("#tier", Select).value = tier

    @on(Select.Changed)
    @on(Input.Changed)
    def _changed(self, event) -> None:
        event.stop()
        if isinstance(event, Select.Changed) and event.select.id == "tier":
            self._show_tier_values()
        fields = self._fields()
        if fields != self._last:  # widgets also report the values they were built with
            self._last = fields
            self.post_message(self.Changed(self))


class AuthorForm(VerticalScroll):
    """Family, seed, parameters and degradation; posts Changed on every edit by the author."""

    HELP = """
## Authoring form

- **family**: the trap family (user families are marked *user*).
- **seed**: every *auto* parameter is drawn from it; **[** and **]** step it.
- Each parameter is **auto** (drawn from the seed, its value shown) or **pinned** (tick *pin*, or
  just edit the value). Its type, range and help are under it.
- **Scan degradation**: a tier preset, the scan's text layer, and per-knob overrides.
"""

    @dataclass
    class Changed(Message):
        form: AuthorForm

    @dataclass
    class FamilyChosen(Message):
        name: str

    def __init__(self, families: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(**kwargs)
        self.families = families       # (label, name)
        self.family: Family | None = None
        self._seed_shown = "1"            # what the seed field is composed with
        self._family_shown = ""
        # The parameter rows and the degradation form as `load` mounted them (the form reads
        # them on every edit; a query walks the whole form).
        self._rows: list[ParamRow] = []
        self._degrade: DegradeForm | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(classes="degrade-head"):
            yield Label("family", classes="param-name")
            yield Select(self.families, allow_blank=True, prompt="choose a family", compact=True,
                         id="family", tooltip="The trap family to author a case of")
        with Horizontal(classes="degrade-head"):
            yield Label("seed", classes="param-name")
            yield SeedInput("1", type="integer", compact=True, id="seed", select_on_focus=False,
                        tooltip="Auto parameters are drawn from the seed ([ and ] step it)")
        yield Static("", id="family-origin", classes="param-help", markup=False)
        yield Vertical(id="param-rows")
        yield Vertical(id="degrade-slot")

    async def load(self, family: Family, draft: Draft, resolved: dict[str, ParamValue] | None = None) -> None:
        """Show a family's rows for a draft (pins, seed, degradation)."""
        self.family = family
        resolved = resolved or {}
        select = self.query_one("#family", Select)
        self._family_shown = family.name
        with self.prevent(Select.Changed):
            if family.name not in [n for _, n in self.families]:
                self.set_families([*self.families, (f"{family.name} (user)", family.name)])
            select.value = family.name
        self.set_seed(draft.seed)
        origin = "built-in family" if family.origin == "builtin" else f"user family · {family.origin}"
        self.query_one("#family-origin", Static).update(f"v{family.version} · {origin}\n{family.description}")
        rows = self.query_one("#param-rows", Vertical)
        self._rows = []
        await rows.remove_children()
        new = []
        for p in family.params:
            pinned = p.name in draft.pinned
            value = draft.pinned[p.name] if pinned else resolved.get(p.name, p.default)
            new.append(ParamRow(p, pinned, value))
        await rows.mount_all(new)
        self._rows = new
        slot = self.query_one("#degrade-slot", Vertical)
        if not slot.children:
            await slot.mount(DegradeForm(draft.degrade))
        self._degrade = self.query_one(DegradeForm)

    def set_families(self, families: list[tuple[str, str]]) -> None:
        self.families = families
        select = self.query_one("#family", Select)
        with self.prevent(Select.Changed):
            current = select.value
            select.set_options(families)
            if current in [n for _, n in families]:
                select.value = current

    def set_seed(self, seed: int) -> None:
        box = self.query_one("#seed", Input)
        self._seed_shown = str(seed)
        with self.prevent(Input.Changed):
            box.value = str(seed)

    def seed(self) -> int:
        try:
            return int(self.query_one("#seed", Input).value.strip())
        except ValueError:
            return 0

    def rows(self) -> list[ParamRow]:
        return list(self._rows)

    def row(self, name: str) -> ParamRow:
        return self.query_one(f"#param-{name}", ParamRow)

    def draft(self) -> Draft:
        assert self.family is not None
        pinned = {r.param.name: r.pinned_value() for r in self._rows if r.pinned}
        degrade = self._degrade.spec() if self._degrade is not None else None
        return Draft(self.family.name, self.seed(), pinned, degrade)

    def show_resolved(self, params: dict[str, ParamValue]) -> None:
        for r in self.rows():
            if r.param.name in params:
                r.show_resolved(params[r.param.name])

    def mark_errors(self, message: str) -> None:
        """Mark the rows a generator error names (`parameter 'x' ...`)."""
        for r in self.rows():
            r.mark_error(f"'{r.param.name}'" in message or f" {r.param.name} " in f" {message} ")

    @on(Select.Changed, "#family")
    def _family_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.value != Select.NULL and event.value != self._family_shown:
            self._family_shown = str(event.value)
            self.post_message(self.FamilyChosen(str(event.value)))

    @on(Input.Changed, "#seed")
    def _seed_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value != event.input.value:
            return  # stale: set again since
        if event.value.strip() != self._seed_shown:
            self._seed_shown = event.value.strip()
            self.post_message(self.Changed(self))

    @on(ParamRow.Changed)
    @on(DegradeForm.Changed)
    def _part_changed(self, event: Message) -> None:
        event.stop()
        self.post_message(self.Changed(self))
