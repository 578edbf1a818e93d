"""Rates with honest error bars (workbench/grading/stats.py): Wilson intervals, the gate every run
and report applies, and the paired tests `compare` prints."""

from __future__ import annotations

import pytest

from workbench.grading.stats import (
    gate_failure,
    holm,
    mcnemar_exact,
    paired_difference_ci,
    rate,
    wilson,
)


@pytest.mark.parametrize("k, n, lo, hi", [
    (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (1, 1, 0.2065, 1.0),
])
def test_wilson_interval_matches_the_published_values(k, n, lo, hi):
    got = wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_with_no_trials_is_vacuous_and_an_impossible_count_is_a_bug():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_a_rate_of_nothing_is_none_never_zero():
    assert rate(0, 0) is None and rate(0, 4) == 0.0 and rate(3, 4) == 0.75


@pytest.mark.parametrize("passed, scored, calls, threshold, why", [
    (0, 0, 6, None, "nothing could be scored"),
    (5, 6, 6, None, None),
    (4, 6, 6, 0.8, "pass rate 0.667"),
    (2, 2, 6, 0.9, "only 2 of 6 calls were scored"),     # errors cannot pass a gate
    (9, 10, 10, 0.9, None),
])
def test_the_gate(passed, scored, calls, threshold, why):
    got = gate_failure(passed, scored, calls, threshold)
    assert (got is None) if why is None else (why in got)


@pytest.mark.parametrize("b, c, p", [(0, 5, 0.0625), (3, 3, 1.0), (0, 0, 1.0), (1, 9, 0.021484375)])
def test_mcnemar_exact(b, c, p):
    assert mcnemar_exact(b, c) == pytest.approx(p)


def test_paired_difference_interval_holds_the_difference_and_turns_with_the_runs():
    both, a_only, b_only, neither = 53, 16, 8, 9
    lo, hi = paired_difference_ci(both, a_only, b_only, neither)
    d = (a_only - b_only) / (both + a_only + b_only + neither)
    assert -1 <= lo < d < hi <= 1
    assert paired_difference_ci(both, b_only, a_only, neither) == pytest.approx((-hi, -lo))
    # runs that agree on every case: a narrow interval around 0, not one of zero width
    lo, hi = paired_difference_ci(20, 0, 0, 20)
    assert lo < 0 < hi and hi - lo < 0.2
    assert paired_difference_ci(0, 0, 0, 0) == (-1.0, 1.0)


def test_holm_adjusts_in_the_order_given():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([]) == []
