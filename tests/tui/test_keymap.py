"""The key bindings users can remap (workbench/tui/keymap.py): every binding with an id, once, with
its key, its label and the class that declares it; a screen as the F1 help names it. What the
help shows on a screen is tests/tui/test_help.py's; a remapped key in use, tests/tui/test_app.py's."""

from __future__ import annotations


def test_every_remappable_binding_is_listed_once_with_its_key_label_and_class():
    from workbench.tui.keymap import remappable_bindings

    found = remappable_bindings()
    ids = [b.id for b in found]
    assert len(ids) == len(set(ids)) and len(ids) > 40
    by_id = {b.id: b.to_json() for b in found}
    assert by_id["toggle_evidence"] == {"id": "toggle_evidence", "keys": "e", "description": "Evidence",
                                        "where": "InspectScreen"}
    assert by_id["quit"]["where"] == "WorkbenchApp" and by_id["author"]["keys"] == "w"


def test_a_screen_is_named_by_its_class_in_words():
    from workbench.tui.keymap import screen_name

    class RunCompareScreen:
        pass

    class Screen:
        pass

    assert screen_name(RunCompareScreen()) == "Run compare"
    assert screen_name(Screen()) == "This screen"
