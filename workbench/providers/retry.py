"""When to try a call again, and how long to wait first.

Retried: network errors and timeouts, HTTP 408, 409, 429, 5xx and 529. A server's hint wins
(`retry-after-ms`, then `retry-after` in seconds or as an HTTP date, then Gemini's RetryInfo);
otherwise exponential backoff with full jitter, capped. Never retried: other 4xx, an exhausted quota
or spend limit, an invalid key, or a server asking to wait longer than `max_wait_s`.
"""

from __future__ import annotations

import email.utils
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from workbench.core import limits
from workbench.providers.config import float_env

RETRY_STATUSES = frozenset({408, 409, 429, 529})
# Error codes that mean "you are out of money or quota": waiting will not help.
NO_RETRY_CODES = frozenset({
    "insufficient_quota", "billing_hard_limit_reached", "billing_not_active", "invalid_api_key",
    "authentication_error", "permission_error", "quota_exceeded",
})


def _limit(name: str) -> Any:
    return field(default_factory=lambda: limits.get(name))


@dataclass(frozen=True)
class RetryPolicy:
    base_s: float = 1.0          # first backoff ceiling
    cap_s: float = 30.0          # largest backoff
    max_attempts: int = 6
    max_wait_s: float = 120.0    # a server asking for longer than this is not waited for
    # The deadlines and the body cap are limits (workbench/core/limits.py): read when made.
    deadline_s: float = _limit("provider_call_seconds")     # every attempt and wait included
    timeout_s: float = _limit("provider_attempt_seconds")   # one attempt, start to last byte
    max_body_bytes: int = _limit("provider_answer_bytes")   # an answer body larger is an error

    @classmethod
    def from_env(cls) -> RetryPolicy:
        """The limits in force, overridable with PDFWORKBENCH_RETRY_BASE/_CAP/_DEADLINE/_ATTEMPTS
        and PDFWORKBENCH_TIMEOUT."""
        return cls(
            base_s=float_env("PDFWORKBENCH_RETRY_BASE", cls.base_s),
            cap_s=float_env("PDFWORKBENCH_RETRY_CAP", cls.cap_s),
            deadline_s=float_env("PDFWORKBENCH_RETRY_DEADLINE", limits.get("provider_call_seconds")),
            max_attempts=int(float_env("PDFWORKBENCH_RETRY_ATTEMPTS", cls.max_attempts)),
            timeout_s=float_env("PDFWORKBENCH_TIMEOUT", limits.get("provider_attempt_seconds")),
        )

    def backoff(self, attempt: int, rng: random.Random | None = None) -> float:
        """Full jitter: uniform in [0, min(cap, base * 2**(attempt-1))]."""
        ceiling = min(self.cap_s, self.base_s * (2 ** max(0, attempt - 1)))
        return (rng or random).uniform(0, ceiling)


def retryable_status(status: int) -> bool:
    return status in RETRY_STATUSES or 500 <= status <= 599


def hint_from_headers(headers: dict[str, str], now: float | None = None) -> float | None:
    """Seconds the server asks us to wait, from `retry-after-ms` or `retry-after`, or None."""
    h = {k.lower(): v for k, v in headers.items()}
    raw = h.get("retry-after-ms")
    if raw:
        try:
            return max(0.0, float(raw) / 1000.0)
        except ValueError:
            pass
    raw = h.get("retry-after")
    if raw:
        try:
            return max(0.0, float(raw))
        except ValueError:
            pass
        try:
            parsed = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            parsed = None
        if parsed is not None:
            return max(0.0, parsed.timestamp() - (time.time() if now is None else now))
    return None


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


def parse_duration(raw: object) -> float | None:
    """A protobuf Duration in JSON form ("3s", "0.5s") as seconds."""
    if isinstance(raw, str):
        m = _DURATION.match(raw)
        if m:
            return float(m.group(1))
    return None


def decide(status: int | None, headers: dict[str, str], body_hint_s: float | None, no_retry: bool,
           attempt: int, policy: RetryPolicy, elapsed_s: float,
           rng: random.Random | None = None) -> float | None:
    """Seconds to wait before the next attempt, or None to stop. `status` None is a network error."""
    if attempt >= policy.max_attempts or no_retry:
        return None
    if status is not None and not retryable_status(status):
        return None
    hint = hint_from_headers(headers) if status is not None else None
    if hint is None:
        hint = body_hint_s
    if hint is not None and hint > policy.max_wait_s:
        return None
    wait = hint if hint is not None else policy.backoff(attempt, rng)
    if elapsed_s + wait >= policy.deadline_s:
        return None
    return wait
