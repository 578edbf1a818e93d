"""The restricted document reader's tools (workbench/providers/agent/tools.py) on one case's PDF:
a page asked for again comes back the same, another DPI is rendered anew, and every reply counts
against the case's byte budget. The tools in an agent's loop are tests/providers/test_loop.py's."""

from __future__ import annotations

TRAP = "white_text_injection-0001"          # the total's decoy lives in a white text layer


def test_a_page_asked_again_comes_back_the_same_and_another_dpi_is_rendered(sample_cases):
    from workbench.providers.agent.tools import DocumentTools

    case = next(c for c in sample_cases if c.id == TRAP)
    tools = DocumentTools(case, case.pdf_file.read_bytes())
    first, again = (tools.call("page_image", {"page": 1, "dpi": 100}) for _ in range(2))
    assert again.image is first.image and again.text == first.text == "page 1 rendered at 100 dpi"
    other = tools.call("page_image", {"page": 1, "dpi": 72})
    assert other.image != first.image and len(other.image) < len(first.image)
    assert tools.returned_bytes == sum(r.size for r in (first, again, other))   # each counts
