"""Author's families: another one chosen (its draft from earlier kept, if any); a family module
written while the workbench runs (`new-family`) joins the dropdown; the user family shown is
reloaded when its file changes (or on F5), in a worker that posts the family it loaded or why it
could not. The mixin's state lives on the screen."""

from __future__ import annotations

import os
from pathlib import Path

from textual import work

from workbench.build.authoring import Draft, family_file_stamp, reload_user_family
from workbench.build.make import family_registry
from workbench.core.config import family_dirs
from workbench.core.errors import UserError
from workbench.tui.widgets.author_form import AuthorForm, DegradeForm


def family_options(families) -> list[tuple[str, str]]:
    """The dropdown's entries: each family's name, a user family's marked."""
    return [(f.name if f.origin == "builtin" else f"{f.name} (user)", f.name) for f in families]


class FamilyFiles:
    """Choosing, watching and reloading families, on the Author screen (see the module docstring)."""

    def action_regenerate(self) -> None:
        if self.family is not None and self.family.origin != "builtin":
            self._reload(Path(self.family.origin))
        elif self.base is not None:
            self.regenerate_now()
        else:
            self.form.set_families(family_options(family_registry(refresh=True).families.values()))
            self.regenerate_now()

    def _watch_family_list(self) -> None:
        """A family module written while the workbench runs (`new-family`) joins the list."""
        if self.base is not None:
            return
        folders = [*family_dirs(self.workbench.settings),
                   *(Path(p) for p in os.environ.get("PDFWORKBENCH_FAMILY_PATH", "").split(os.pathsep) if p)]
        listing = tuple(sorted(str(f) for d in folders if d.is_dir() for f in d.glob("*.py")))
        if self._family_listing is None or listing == self._family_listing:
            self._family_listing = listing
            return
        self._family_listing = listing
        self.form.set_families(family_options(family_registry(refresh=True).families.values()))

    def _watch_family_file(self) -> None:
        self._watch_family_list()
        if self.family is None or self.family.origin == "builtin":
            return
        stamp = family_file_stamp(self.family)
        if stamp is not None and stamp != self._stamp:
            self._stamp = stamp
            self._reload(Path(self.family.origin))

    @work(thread=True, exclusive=True, group="author-reload", exit_on_error=False)
    def _reload(self, path: Path) -> None:
        try:
            family = reload_user_family(path)
        except UserError as exc:
            self.post_message(self.FamilyBroken(path, str(exc)))
            return
        self.post_message(self.FamilyReloaded(family))

    async def on_author_screen_family_reloaded(self, message) -> None:
        old, family = self.family, message.family
        self.load_error = None
        self._show_errors()
        self.form.set_families(family_options(family_registry().families.values()))
        if old is not None and [p.describe() for p in old.params] == [p.describe() for p in family.params] \
                and old.name == family.name:
            self.family = family
            self.form.family = family
            self._stamp = family_file_stamp(family)
            self.regenerate_now()
        else:
            try:
                draft = self.form.draft()
            except UserError:
                draft = Draft(family.name, self.form.seed())
            names = {p.name for p in family.params}
            pinned = {k: v for k, v in draft.pinned.items() if k in names}
            resolved = self.preview.params if self.preview else None
            await self._load_family(family, Draft(family.name, draft.seed, pinned, draft.degrade), resolved)
        self.notify(f"reloaded {Path(family.origin).name}", timeout=2)

    def on_author_screen_family_broken(self, message) -> None:
        self.load_error = message.error
        self._show_errors()
        self.form.set_families(family_options(family_registry().families.values()))
        self.notify(f"{message.error} (the last good version stays)", severity="error", timeout=6)

    # (Textual's @on is not seen on a mixin: its handlers go by their names)
    async def on_author_form_family_chosen(self, event: AuthorForm.FamilyChosen) -> None:
        family = self._choices().get(event.name)
        if family is None:
            self.notify(f"family {event.name!r} did not load", severity="error")
            return
        try:
            degrade = self.form.query_one(DegradeForm).spec()
        except UserError:
            degrade = None   # a knob typed wrong: the new family starts without a scan
        self.load_error = None
        self._keep_draft()
        kept = self.drafts.get(family.name) if self.base is None else None
        await self._load_family(family, kept or Draft(family.name, self.form.seed(), {}, degrade))
        if kept is not None:
            self.notify(f"{family.name}: your draft from earlier (seed {kept.seed}, "
                        f"{len(kept.pinned)} pinned)", timeout=3)
