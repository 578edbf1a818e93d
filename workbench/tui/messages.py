"""App-wide messages. Widget-specific messages live on the widgets that post them."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from workbench.core.case import Case


@dataclass
class CaseLoaded(Message):
    """A case's PDF was read and its text layers extracted (in a worker)."""

    case: Case
    pdf: bytes
    page_count: int
    layers: dict[str, list[str]]


@dataclass
class LoadFailed(Message):
    case: Case
    error: str
