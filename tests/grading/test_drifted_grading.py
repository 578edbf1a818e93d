"""A case scanned with a drifted text layer: answering the drifted value is falling for the trap."""

from workbench.build.make import generate_case
from workbench.grading import grade


def test_answering_the_drifted_value_is_the_trap():
    case, pdf = generate_case("footnote_override", 3, {"ask_carve_outs": "false"},
                              {"tier": "mild", "text_layer": "drifted", "overrides": {}})
    drifted = case.degrade.drifted_answer
    assert drifted != case.expected_answer
    verdict = grade(case, drifted)
    assert not verdict.correct and verdict.fell_for_trap
    assert grade(case, case.expected_answer).correct
