"""The case commands' options (workbench/cli/parsers/cases.py; named for the subpackage): make
writes to a folder or into a suite, not both; pins and scan knobs repeat; adopt needs its suite;
a suite spec's help names every field a spec may hold."""

from __future__ import annotations

from workbench.cli import build_parser
from workbench.cli.parsers.cases import BUILD_SPEC_HELP
from workbench.core.schema import SPEC, SPEC_GROUP


def test_make_takes_repeated_pins_and_knobs_and_one_place_to_write(command, work):
    args = build_parser().parse_args(["make", "white_text_injection", "--param", "a=1", "--param", "b=2",
                                      "--degrade", "blur=1", "--seed", "7"])
    assert (args.param, args.degrade, args.seed, args.out, args.into) == (["a=1", "b=2"], ["blur=1"], 7, None, None)
    code, _out, err = command("make", "white_text_injection", "--out", "a", "--into", "b")
    assert code == 2 and "argument --into: not allowed with argument --out" in err
    code, _out, err = command("adopt", "x.pdf")
    assert code == 2 and "the following arguments are required: --into" in err


def test_the_spec_help_names_every_field_of_a_spec():
    fields = set(SPEC) | set(SPEC_GROUP)
    named = {line.split("=")[0].strip().strip("[]") for line in BUILD_SPEC_HELP.splitlines() if "=" in line}
    assert fields <= named | {"families", "family"}, fields - named
