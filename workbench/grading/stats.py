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
