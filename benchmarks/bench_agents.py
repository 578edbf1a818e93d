"""Agent readers: the tool loop's own time per turn over the provider call (median of 100 turns of
a scripted agent on the fake server, aim <= 5 ms), and page_image of an A4 page at 150 dpi (aim
< 100 ms). Run: python -m benchmarks.bench_agents
"""

from __future__ import annotations

import asyncio
import io
import os
import statistics
import time

AIM_TURN_MS = 5.0
AIM_IMAGE_MS = 100.0


def _a4_pdf() -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=True)
    for i in range(60):
        c.drawString(60, 800 - i * 12, f"Line {i}: TOTAL AMOUNT DUE $19,679.70 and some more words on it")
    c.showPage()
    c.save()
    return buf.getvalue()


def main(turns: int = 100) -> None:
    import httpx

    from workbench.core.case import Case
    from workbench.providers.agent.loop import run_agent
    from workbench.providers.agent.tools import DocumentTools
    from workbench.providers.base import parse_reader
    from workbench.providers.fakeserver import FakeServer
    from workbench.providers.reading import call_http
    from workbench.providers.retry import RetryPolicy

    pdf = _a4_pdf()
    case = Case(id="bench", trap_family="bench", seed=1, question="What is the total?",
                expected_answer="$19,679.70")
    tools = DocumentTools(case, pdf)
    tools.call("page_image", {"page": 1, "dpi": 150})   # warm up
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        tools.call("page_image", {"page": 1, "dpi": 150})
        times.append((time.perf_counter() - t0) * 1000)
    img = statistics.median(times)
    print(f"page_image A4 @150 dpi   median {img:6.1f} ms   aim {AIM_IMAGE_MS:g} ms   ratio {img / AIM_IMAGE_MS:.2f}")

    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    with FakeServer(agent_loop_s=0.0) as srv:
        async def go():
            async with httpx.AsyncClient() as client:
                return await run_agent(case, pdf, parse_reader("agent:openai:agent-loop"),
                                       None, {"max_turns": turns}, client, srv.base_url("openai"),
                                       RetryPolicy.from_env(), call_http)
        rec = asyncio.run(go())
    per_turn = [t["ms"] - t["provider_ms"] for t in rec.extra["agent"]["turns"] if "ms" in t]
    between = (rec.latency_ms - sum(t["provider_ms"] for t in rec.extra["agent"]["turns"])) / len(per_turn)
    med = statistics.median(per_turn)
    print(f"loop per turn (tools, results) median {med:6.2f} ms; all loop time / turn {between:6.2f} ms "
          f"over {len(per_turn)} turns   aim {AIM_TURN_MS:g} ms   ratio {between / AIM_TURN_MS:.2f}")


if __name__ == "__main__":
    main()
