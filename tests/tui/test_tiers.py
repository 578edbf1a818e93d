"""The scan tiers in the screens' words (workbench/tui/tiers.py): the knobs each tier turns beyond
an undegraded scan, in full for the Author form, short for the case list's border, every tier for
F1; nothing for a tier not known."""

from __future__ import annotations

from workbench.core.scan import TIER_NAMES
from workbench.tui.tiers import tier_summary, tiers_help


def test_each_tier_says_the_knobs_it_turns_beyond_a_clean_scan():
    assert tier_summary("clean") == "page rendered as an image, nothing aged"
    assert tier_summary("clean", short=True) == "an image, nothing aged"
    assert tier_summary("mild") == "rotation 0.8° · sepia 0.35 · noise 4 · JPEG quality 85"
    assert tier_summary("mild", short=True) == "skew, sepia, noise, JPEG"
    assert tier_summary("heavy", short=True) == "skew, sepia, texture, dirt, blur, noise, JPEG"   # no dirt size
    assert "dirt size 5 · " in tier_summary("heavy")
    assert tier_summary("unknown") == "" and tier_summary("unknown", short=True) == ""


def test_f1_lists_every_tier_mildest_first():
    lines = tiers_help().splitlines()
    assert [line.split("**")[1] for line in lines] == list(TIER_NAMES)
    assert lines[0] == f"- **{TIER_NAMES[0]}**: {tier_summary(TIER_NAMES[0])}"
