"""What an adopted case records (workbench/core/adoption.py: its source, its mutation steps), read
where the case is read: a bad field is refused in one line naming the file and the field."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import SAMPLES
from workbench.core.case import Case
from workbench.core.errors import UserError


@pytest.mark.parametrize(("change", "needle"), [
    (lambda r: r["mutations"][0].update(seed="one"), "mutations: step 1: seed must be an integer"),
    (lambda r: r["mutations"][0]["target"].update(box=[1, 2]), "mutations: step 1: target box must be four numbers"),
    (lambda r: r["mutations"][0].update(params={"size": [7]}), "mutations: step 1: params: 'size' must be a number"),
    (lambda r: r["source"].update(pages="two"), "source: pages must be an integer"),
    (lambda r: r["source"]["key"].update(matcher={"type": "nearly"}), "source: key: matcher: unknown matcher 'nearly'"),
    (lambda r: r["source"].update(encryption={"method": "AES", "password": "none"}), "source: encryption password"),
    (lambda r: r["source"].update(signed=True), "source: unknown key 'signed' in source"),
])
def test_a_bad_adopted_field_is_refused_where_the_case_is_read(change, needle):
    raw = json.loads((SAMPLES / "adopted" / "statement-tiny-print.json").read_text(encoding="utf-8"))
    change(raw)
    with pytest.raises(UserError) as err:
        Case.from_json(raw, "suite/c.json")
    assert str(err.value).startswith("suite/c.json: ") and needle in str(err.value)
