"""A lint finding, and how findings word what they found (the lint: `workbench.checks.lint`)."""

from __future__ import annotations

from dataclasses import dataclass

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    case_id: str
    severity: str   # error | warning | info
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"case_id": self.case_id, "severity": self.severity, "code": self.code,
                "message": self.message}


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


def short(text: str, n: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def page_list(nums) -> str:
    nums = sorted({n + 1 for n in nums})
    return ("page " if len(nums) == 1 else "pages ") + ", ".join(map(str, nums))


def reasons_of(hits) -> str:
    rs: list[str] = []
    for h in hits:
        rs.extend(r for r in h.reasons if r not in rs)
    return ", ".join(rs) or "hidden"
