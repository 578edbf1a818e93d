"""Rates with honest error bars: the Wilson score interval for a binomial proportion."""

from __future__ import annotations

import math


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for `k` successes in `n` trials (95% with the default `z`).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 and n. With no
    trials it is the vacuous (0, 1).
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= k <= n:
        raise ValueError(f"wilson: need 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(k: int, n: int) -> float | None:
    """k/n, or None when there is nothing to divide by (never 0, which would read as a score)."""
    return k / n if n else None


def gate_failure(passed: int, scored: int, calls: int, threshold: float | None) -> str | None:
    """THE rule of every gate (`run` and `report`): why the run fails it, or None when it passes.

    A run that scored nothing fails, threshold or not. With a threshold X it fails when the pass
    rate over scored calls is below X, or when fewer than X of all calls were scored (4 errors in
    6 calls cannot pass a 0.9 gate on the strength of the 2 that finished)."""
    if scored == 0:
        return f"nothing could be scored ({calls} call(s), none finished and gradable)"
    if threshold is None:
        return None
    if passed / scored < threshold:
        return (f"pass rate {passed / scored:.3f} ({passed} of {scored} scored calls) is below "
                f"--fail-threshold {threshold:.3f}")
    if scored / calls < threshold:
        return (f"only {scored} of {calls} calls were scored ({scored / calls:.3f}; the rest did not "
                f"finish or could not be graded), below --fail-threshold {threshold:.3f}")
    return None


def mcnemar_exact(b: int, c: int) -> float:
    """The exact two-sided McNemar p-value for `b` and `c` discordant pairs: under no difference
    each discordant pair goes either way with probability 1/2, so the smaller count is binomial
    (b + c, 1/2); the p-value doubles its tail (capped at 1). No discordant pair: p = 1."""
    if b < 0 or c < 0:
        raise ValueError(f"mcnemar_exact: need b, c >= 0, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2 ** n)


def paired_difference_ci(both: int, a_only: int, b_only: int, neither: int,
                         z: float = 1.96) -> tuple[float, float]:
    """95% interval for the difference of two pass rates measured on the same cases (A's minus
    B's): Newcombe's hybrid score interval for paired proportions (1998, method 10), built from
    the Wilson interval of each rate and the correlation of the pairs. Stays inside [-1, 1]."""
    n = both + a_only + b_only + neither
    if n == 0:
        return (-1.0, 1.0)
    p1, p2 = (both + a_only) / n, (both + b_only) / n
    l1, u1 = wilson(both + a_only, n, z)
    l2, u2 = wilson(both + b_only, n, z)
    margins = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    # The correlation of the pairs, with the continuity correction Newcombe gives for a positive
    # one: without it, runs that agree on every case get an interval of zero width.
    num = both * neither - a_only * b_only
    if num > 0:
        num = max(num - n / 2, 0.0)
    phi = num / math.sqrt(margins) if margins else 0.0
    d = p1 - p2
    lo = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    hi = d + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return (max(-1.0, lo), min(1.0, hi))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of p-values for testing several hypotheses at once (each
    family of a comparison): the adjusted values, in the order given."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    out = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        out[i] = running
    return out
