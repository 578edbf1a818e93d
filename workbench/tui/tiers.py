"""What each scan degradation tier is, in words the screens show: the knobs a tier turns from an
undegraded scan (`core.scan.TIERS`, read against `core.scan.KNOBS`). The Author form shows the
tier chosen; the case list, the tier of the scanned case highlighted; F1, all of them."""

from __future__ import annotations

from workbench.core.scan import TIER_NAMES, TIERS

# Short names of the knobs a tier turns (the case list's border has about 35 columns).
_SHORT = {"rotation": "skew", "jpeg_quality": "JPEG", "show_through": "show-through"}


def _fmt(value: float | int) -> str:
    return f"{value:g}"


def tier_summary(tier: str, short: bool = False) -> str:
    """`mild: sepia 0.35 · noise 4 · rotation 0.8° · JPEG quality 85` (short: `sepia, noise,
    skew, JPEG`): the knobs `tier` sets beyond an undegraded scan; '' for a tier not known."""
    if tier not in TIERS:
        return ""
    base = TIERS[TIER_NAMES[0]]
    turned = {k: v for k, v in TIERS[tier].items() if v != base.get(k)}
    if not turned:
        return "page rendered as an image, nothing aged" if not short else "an image, nothing aged"
    if short:
        return ", ".join(_SHORT.get(k, k) for k in turned if k != "dirt_size")
    parts = []
    for name, value in turned.items():
        unit = "°" if name == "rotation" else ""
        parts.append(f"{name.replace('_', ' ').replace('jpeg', 'JPEG')} {_fmt(value)}{unit}")
    return " · ".join(parts)


def tiers_help() -> str:
    """Every tier, a Markdown line each (for F1)."""
    return "\n".join(f"- **{t}**: {tier_summary(t)}" for t in TIER_NAMES)
