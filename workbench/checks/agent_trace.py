"""An agent's trace beside attribution: which pages an agent opened as text and as image, and, for
a value of its answer, whether it read the page that value came from ("the value came from
page_text of page 2, which carries the hidden layer; page 2's image was never requested").

The calls are read from the record by `grading.report.agent_calls`, and grouped as `report --by
tool-use` groups them (`tool_use_of`): one reading of `extra.agent.turns` for both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.checks.sources import Attribution, wrong_answer_source
from workbench.core.runs import RunRecord
from workbench.grading.report import Report, agent_calls, tool_use_of

PAGE_TOOLS = ("page_text", "page_image")
# How a source says the value is printed on its page (`checks.sources.SOURCES`).
PRINTED = {
    "visible": "printed", "small_print": "printed in small print", "rotated": "printed turned",
    "low_contrast": "printed in a faint colour", "other_page": "printed",
}


@dataclass(frozen=True)
class TraceStep:
    """One tool call of an agent, as its record holds it."""

    turn: int
    tool: str
    page: int | None       # 1-based, as the agent asked (None: the tool takes no page)
    dpi: int | None
    size: int              # bytes the tool returned
    ms: float | None       # the tool's own time
    error: bool
    answer: str | None = None   # what submit_extraction was given

    @property
    def opened(self) -> bool:
        """The call read a page (an error result opened nothing)."""
        return self.tool in PAGE_TOOLS and self.page is not None and not self.error


@dataclass(frozen=True)
class AgentTrace:
    """An agent's tool calls in order, and what it opened."""

    steps: tuple[TraceStep, ...]
    turns: int
    tool_use: str          # one of grading.report.TOOL_USE_GROUPS
    extractor: str | None = None   # whose text page_text gave (an MCP server's too)

    def pages(self, tool: str) -> list[int]:
        """The pages (1-based) the agent opened with `tool`, each once, in order."""
        return sorted({s.page for s in self.steps if s.opened and s.tool == tool})  # type: ignore[misc]

    @property
    def text_pages(self) -> list[int]:
        return self.pages("page_text")

    @property
    def image_pages(self) -> list[int]:
        return self.pages("page_image")


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def agent_trace(record: RunRecord) -> AgentTrace | None:
    """The trace of an agent's record (`agent:` and `mcp:` readers); None for any other reader."""
    agent = (record.extra or {}).get("agent")
    if not isinstance(agent, dict):
        return None
    steps = []
    for turn, call in agent_calls(record):
        args = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
        tool = str(call.get("tool") or "?")
        answer = args.get("answer") if tool == "submit_extraction" else None
        ms = call.get("tool_ms")
        steps.append(TraceStep(
            turn=turn, tool=tool, page=_int(args.get("page")),
            dpi=_int(args.get("dpi")) or (150 if tool == "page_image" else None),
            size=_int(call.get("bytes")) or 0, ms=float(ms) if isinstance(ms, int | float) else None,
            error=bool(call.get("error")),
            answer=None if answer is None else answer if isinstance(answer, str) else str(answer)))
    turns = [t for t in agent.get("turns") or [] if isinstance(t, dict)]
    extractor = agent.get("extractor")
    return AgentTrace(tuple(steps), len(turns), tool_use_of(record),
                      extractor if isinstance(extractor, str) and extractor else None)


def pages_said(pages: Sequence[int]) -> str:
    """`[1, 2, 3, 5]` as "1-3, 5"; none as "none"."""
    if not pages:
        return "none"
    runs: list[list[int]] = []
    for p in sorted(pages):
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def reader_said(record: RunRecord) -> str:
    """The reader as a list of answers names it: an agent's with the extractor its page_text
    read by (two runs of one agent, pypdf's text and pymupdf's, looked like one reader twice)."""
    trace = agent_trace(record)
    return f"{record.reader} · text by {trace.extractor}" if trace and trace.extractor else record.reader


def trace_summary(trace: AgentTrace) -> str:
    """"pages opened as text: 2; as image: none"."""
    return f"pages opened as text: {pages_said(trace.text_pages)}; as image: {pages_said(trace.image_pages)}"


def _size(n: int) -> str:
    return f"{n} B" if n < 1000 else f"{n / 1000:.1f} kB" if n < 10_000 else (
        f"{n / 1000:.0f} kB" if n < 1_000_000 else f"{n / 1e6:.1f} MB")


def _ms(ms: float | None) -> str:
    return "" if ms is None else f"{ms:.1f} ms" if ms < 10 else f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def step_call(step: TraceStep) -> str:
    """The call as the agent made it, without what it submitted: `page_image(2, 150)`, `page_text(2)`."""
    if step.tool == "page_image":
        return f"page_image({step.page if step.page is not None else '?'}, {step.dpi})"
    if step.tool == "page_text":
        return f"page_text({step.page if step.page is not None else '?'})"
    return f"{step.tool}()"


def step_line(step: TraceStep) -> str:
    """One call in 35 columns: turn, the call (page, dpi), bytes returned, the tool's time."""
    return (f"{step.turn:>2} {step_call(step):<18} {_size(step.size):>6} {_ms(step.ms):>6}"
            + (" error" if step.error else ""))


def headline(attributions: Sequence[Attribution]) -> Attribution | None:
    """The value that says where the answer came from: the one a wrong answer counts under
    (`wrong_answer_source`: the first not printed where a person reads it), else the first."""
    if not attributions:
        return None
    source = wrong_answer_source(list(attributions))
    return next((a for a in attributions if a.source == source), attributions[0])


def _read(trace: AgentTrace, page: int) -> tuple[bool, bool]:
    return page in trace.text_pages, page in trace.image_pages


def value_and_trace(a: Attribution, trace: AgentTrace) -> str:
    """Where the value `a` came from and whether the agent read that page as text and/or image,
    in one sentence."""
    if a.page is None:
        origin = {"absent": "the value is nowhere in the document (made up)",
                  "question": "the value is echoed from the question",
                  "computed": f"the value is computed ({a.detail})" if a.detail else "the value is computed",
                  "misread": "the value is printed nowhere, one or two characters from a printed one"}.get(
            a.source, f"the value is {a.source.replace('_', ' ')}, on no page")
        text, image = trace.text_pages, trace.image_pages
        opened = (f"the agent read page{'s' if len(text) > 1 else ''} {pages_said(text)} as text" if text
                  else "the agent read no page's text")
        return (f"{origin}; {opened} and " + (f"page{'s' if len(image) > 1 else ''} {pages_said(image)} as image"
                                              if image else "requested no page's image"))
    p = a.page + 1
    text, image = _read(trace, p)
    pixels = a.source == "visible" and "image" in a.detail   # a scan, or a picture OCR reads: no text layer
    if a.source == "hidden":
        if text:
            head = f"the value came from page_text of page {p}, which carries the hidden layer"
        else:
            head = f"the value is in page {p}'s hidden layer, but the agent never read page {p}'s text"
        tail = (f"page {p}'s image, which the agent also requested, does not show it" if image
                else f"page {p}'s image was never requested")
        return f"{head}; {tail}"
    if a.source == "injected":
        where = f"the instruction the document plants on page {p}"
        if text or image:
            how = " and ".join(n for n, on in (("page_text", text), ("page_image", image)) if on)
            return f"the value came from {where}, which the agent read by {how} of page {p}"
        return f"the value is in {where}, a page the agent never opened"
    if a.source == "misread":
        return (f"the value is printed nowhere, but one or two characters from a value on page {p}; "
                + _opened(p, text, image))
    printed = PRINTED.get(a.source, a.source.replace("_", " "))
    if a.source == "other_page":
        printed += " (on a page other than the one the question is about)"
    if pixels:
        if image:
            return f"the value came from page_image of page {p}, where it is {printed} in the image (no text layer holds it)"
        return (f"the value is {printed} only in page {p}'s image (no text layer holds it), which the agent "
                f"never requested" + (": it read only the page's text" if text else ""))
    if text and image:
        return f"the value is {printed} on page {p}, which the agent read as text and as image"
    if text:
        return f"the value came from page_text of page {p}, where it is {printed}; page {p}'s image was never requested"
    if image:
        return f"the value came from page_image of page {p}, where it is {printed}; page {p}'s text was never requested"
    return f"the value is {printed} on page {p}, which the agent never opened"


def _opened(p: int, text: bool, image: bool) -> str:
    if text and image:
        return f"the agent read page {p} as text and as image"
    if text or image:
        return f"the agent read page {p} as {'text' if text else 'image'} only"
    return f"the agent never opened page {p}"


def answer_and_trace(attributions: Sequence[Attribution], trace: AgentTrace | None) -> str | None:
    """The answer's headline value and where it came from, joined with the agent's trace:
    `$19,128.67: the value came from page_text of page 1, which ...`; None when there is no trace
    or no value."""
    a = headline(attributions)
    if trace is None or a is None:
        return None
    return f"{a.value}: {value_and_trace(a, trace)}"


def read_rows(report: Report) -> int:
    """Give each agent's answer in `report` that `attribute_rows` traced the sentence joining its
    value's source with the pages it read (`Row.agent_read`); the count given."""
    given = 0
    for run in report.runs:
        for row in run.rows:
            if row.attribution:
                said = answer_and_trace([Attribution.from_json(a) for a in row.attribution], agent_trace(row.record))
                if said:
                    row.agent_read = said
                    given += 1
    return given
