"""What a family declares (workbench/generators/base.py): a parameter's value coerced from what an
author types, or one line saying why not; values drawn from the seed, one stream per parameter
and per item, so pinning one moves no other; a family's parameters resolved and described."""

from __future__ import annotations

import random

import pytest

from workbench.core.contract import Arming
from workbench.generators.base import Family, Param, ParamError, Streams, rng_for

TOTAL = Param("total", "float", 100.0, "the printed total", 100, 99999.99)
ITEMS = Param("items", "int", 3, "line items", 1, 8)
MODE = Param("mode", "choice", "invisible", "how it hides", choices=("invisible", "white", 3))
VENDOR = Param("vendor", "str", "Initech", "who", max=10, pool=("Acme", "Globex"))
BOLD = Param("bold", "bool", False, "bold total")
SIZE = Param("size", "float", 10.0, "font size", 8, 13, seeded=False)


def family(**kw) -> Family:
    return Family("handmade", 2, "a family for the tests", (TOTAL, ITEMS, MODE, VENDOR, BOLD, SIZE),
                  (Arming("expected", "visible"),), lambda params, seed: None, **kw)


@pytest.mark.parametrize("param, raw, value", [
    (TOTAL, "1234.5", 1234.5), (TOTAL, 100, 100.0), (ITEMS, " 8 ", 8), (ITEMS, 2.0, 2),
    (MODE, "white", "white"), (MODE, "3", 3), (MODE, " invisible ", "invisible"),
    (VENDOR, "Wayne & Co", "Wayne & Co"), (BOLD, "Yes", True), (BOLD, "off", False), (BOLD, True, True),
])
def test_what_an_author_types_becomes_the_parameters_type(param, raw, value):
    got = param.coerce(raw)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("param, raw, says", [
    (TOTAL, "lots", "parameter 'total' is a float; got 'lots'"),
    (TOTAL, "nan", "parameter 'total' is a float; got 'nan'"),
    (TOTAL, True, "parameter 'total' is a float; got True"),
    (TOTAL, "5", "parameter 'total' must be between 100 and 99999.99; got 5.0"),
    (ITEMS, "2.5", "parameter 'items' is an int; got '2.5'"),
    (ITEMS, 2.5, "parameter 'items' is an int; got 2.5"),
    (ITEMS, "9", "parameter 'items' must be between 1 and 8; got 9"),
    (Param("pct", "float", 5.0, "a share", min=0.5), "0.25", "parameter 'pct' must be at least 0.5; got 0.25"),
    (Param("n", "int", 5, "a count", max=10), 11, "parameter 'n' must be at most 10; got 11"),
    (MODE, "bold", "parameter 'mode' must be one of invisible, white, 3; got 'bold'"),
    (VENDOR, "  ", "parameter 'vendor' must not be empty"),
    (VENDOR, "Umbrella Corporation", "parameter 'vendor' is at most 10 characters"),
    (BOLD, "maybe", "parameter 'bold' is a bool: use true or false, not 'maybe'"),
])
def test_a_value_of_the_wrong_kind_is_one_line_naming_the_parameter(param, raw, says):
    with pytest.raises(ParamError) as caught:
        param.coerce(raw)
    assert str(caught.value) == says


def test_drawn_values_stay_in_range_and_an_unseeded_one_is_its_default():
    for seed in range(50):
        rng = random.Random(seed)
        assert 100 <= TOTAL.draw(rng) <= 99999.99
        assert 1 <= ITEMS.draw(rng) <= 8 and MODE.draw(rng) in MODE.choices
        assert VENDOR.draw(rng) in ("Acme", "Globex") and isinstance(BOLD.draw(rng), bool)
        assert SIZE.draw(rng) == 10.0
    drawn = TOTAL.draw(random.Random(1))
    assert drawn == round(drawn, 2)                                     # cents, as declared


def test_pinning_one_parameter_moves_no_other():
    f = family()
    free = f.resolve({}, 7)
    pinned = f.resolve({"items": "5", "mode": "white"}, 7)
    assert (pinned["items"], pinned["mode"]) == (5, "white")
    assert {k: v for k, v in pinned.items() if k not in ("items", "mode")} == {
        k: v for k, v in free.items() if k not in ("items", "mode")}
    assert f.resolve({}, 7) == free and f.resolve({}, 8) != free
    with pytest.raises(ParamError, match=r"family 'handmade' has no parameter 'colour' \(it has: total, items, mode"):
        f.resolve({"colour": "red"}, 7)


def test_each_item_draws_from_its_own_stream_that_goes_on_where_it_left_off():
    one, other = Streams(3, "handmade"), Streams(3, "handmade")
    first = [one.of("items").random() for _ in range(3)]
    assert len(set(first)) == 3                     # one stream going on, not started again
    other.of("vendor").random()                     # another item drawing more changes nothing here
    assert [other.of("items").random() for _ in range(3)] == first
    assert one.of("items").random() == other.of("items").random()
    assert rng_for(3, "a", "b").random() != rng_for(3, "a", "c").random() != rng_for(4, "a", "b").random()
    assert rng_for(3, "a", "b").random() == rng_for(3, "a", "b").random()


def test_a_family_describes_itself_and_its_contract_may_depend_on_its_values():
    hidden = (Arming("expected", "pixels_only"),)
    f = family(contract_for=lambda params: hidden if params["mode"] == "white" else ())
    described = f.describe()
    assert (described["name"], described["version"], described["origin"]) == ("handmade", 2, "builtin")
    assert described["params"][0] == {"name": "total", "type": "float", "default": 100.0,
                                      "help": "the printed total", "range": [100, 99999.99], "seeded": True}
    assert described["params"][2]["choices"] == ["invisible", "white", 3]
    assert described["params"][3]["examples"] == ["Acme", "Globex"]
    assert described["contract"] == [{"target": "expected", "where": "visible", "why": ""}]
    assert f.contract_of({"mode": "white"}) == hidden and f.contract_of({"mode": "invisible"}) == ()
    assert family().contract_of({"mode": "white"}) == (Arming("expected", "visible"),)
