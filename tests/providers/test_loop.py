"""Agent readers (`agent:PROVIDER:MODEL`) through the real CLI on the sample suite, against the fake
server's scripted tool-calling agents in every wire format; and the restricted reader's tools."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from workbench.core.suite import load_suite
from workbench.providers.fakeserver import FakeServer

SAMPLE = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"
TRAP = "white_text_injection-0001"          # the total's decoy lives in a white text layer
EXTRACTION = "invoice_extraction-0001"      # a `fields` case with a JSON schema
KEYS = {"OPENAI_API_KEY": "sk-test-agent-0123456789abcdef", "ANTHROPIC_API_KEY": "sk-ant-agent-0123456789",
        "GOOGLE_API_KEY": "AIza-agent-0123456789"}
WIRES = ("openai", "anthropic", "google", "ollama", "openai-compatible")


@pytest.fixture
def suite(tmp_path) -> Path:
    dest = tmp_path / "mini"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns("runs"))
    return dest


@pytest.fixture
def server(sample_cases, monkeypatch):
    """The fake provider; its scripted agents submit the text layer's decoy (the case's forbidden
    answer) after reading page_text, and the visible value (the expected answer) after page_image."""
    for k, v in KEYS.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("PDFWORKBENCH_RETRY_BASE", "0.005")
    script = {c.question: {"text": (c.forbidden_answers or ["(none)"])[0], "image": c.expected_answer}
              for c in sample_cases if c.question}
    with FakeServer(agent_script=script, agent_loop_s=0.05) as fake:
        yield fake


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def tools_used(rec: dict) -> list[tuple[str, bool]]:
    return [(t["tool"], t["error"]) for turn in rec["extra"]["agent"]["turns"] for t in turn["tools"]]


def ask(cli, server, suite, provider, kind, case=TRAP, *extra):
    out = suite / "runs" / f"{provider}-{kind}.jsonl"
    code, stdout, err = cli("ask", suite / f"{case}.json", "--reader", f"agent:{provider}:agent-{kind}",
                            "--base-url", server.base_url(provider), "--out", out, "--no-cache", *extra)
    return code, stdout, err, records(out)[-1]


@pytest.mark.parametrize("provider", WIRES)
def test_text_agent_falls_for_the_hidden_layer_image_agent_reads_the_page(cli, server, suite, provider):
    code, stdout, err, rec = ask(cli, server, suite, provider, "text")
    assert code == 0 and rec["status"] == "ok" and rec["answer"] == "$19,128.67"
    assert "trap" in err and "fell for the trap" in err
    assert "3 turn(s), 3 call(s)" in err
    assert {t for t, _ in tools_used(rec)} == {"document_info", "page_text", "submit_extraction"}
    code, stdout, err, rec = ask(cli, server, suite, provider, "image")
    assert code == 0 and rec["answer"] == "$19,679.70" and "pass" in err
    assert {t for t, _ in tools_used(rec)} == {"document_info", "page_image", "submit_extraction"}
    assert rec["modality"] == "tools" and rec["reader"] == f"agent:{provider}:agent-image"
    # every turn's request went out in the provider's own wire format
    fmt = {"anthropic": "anthropic", "google": "google"}.get(provider, "openai")
    assert server.requests and {r["format"] for r in server.requests} == {fmt}
    body = server.requests[-1]["body"]
    assert ("tools" in body) and (fmt != "google" or "functionDeclarations" in body["tools"][0])


def test_record_carries_trace_usage_and_hashes_and_no_key(cli, server, suite):
    code, _, _, rec = ask(cli, server, suite, "anthropic", "image")
    turns = rec["extra"]["agent"]["turns"]
    assert [t["turn"] for t in turns] == [1, 2, 3]
    assert turns[1]["tools"][0]["arguments"] == {"page": 1, "dpi": 150}
    assert turns[1]["tools"][0]["bytes"] > 1000     # a PNG went back
    assert all(t["text"] for t in turns)            # what the model wrote between calls
    assert rec["usage"]["input_tokens"] == sum(t["usage"]["input_tokens"] for t in turns)
    assert rec["attempts"] == 3
    for name in ("contract_hash", "reader_hash", "controller_hash"):
        assert len(rec["extra"][name]) == 16
    text = (suite / "runs" / "anthropic-image.jsonl").read_text()
    assert all(v not in text for v in KEYS.values())


GRAY_CASE = "hidden_ocr_mismatch-0001"     # black text on white: no colour on the page


@pytest.mark.parametrize("provider, case, mode", [("openai", TRAP, "RGB"), ("anthropic", GRAY_CASE, "L"),
                                                  ("google", GRAY_CASE, "L")])
def test_page_image_reaches_the_provider_as_a_lossless_png(cli, server, suite, provider, case, mode):
    """The PNG the provider got decodes to the page's pixels as rendered, every one of them: gray
    (one channel) for a page without colour, RGB for one with it."""
    import io

    import pymupdf
    from PIL import Image

    code, _, _, rec = ask(cli, server, suite, provider, "image", case)
    assert code in (0, 1) and ("page_image", False) in tools_used(rec)
    img = Image.open(io.BytesIO(_png_in(json.dumps(server.requests[-1]["body"]))))
    img.load()
    pix = pymupdf.open(suite / f"{case}.pdf")[0].get_pixmap(dpi=150, alpha=False)
    assert img.format == "PNG" and img.mode == mode and img.size == (pix.width, pix.height)
    assert img.convert("RGB").tobytes() == pix.samples


def _png_in(body: str) -> bytes:
    """The first base64 PNG in a request body (a PNG's base64 starts iVBORw0KGgo)."""
    import base64
    import re

    return base64.b64decode(re.search(r"iVBORw0KGgo[A-Za-z0-9+/=]*", body).group(0))


def test_deadline_is_a_timeout_scored_zero(cli, server, suite):
    code, _, err, rec = ask(cli, server, suite, "google", "loop", TRAP, "--deadline", "1")
    assert code == 1 and rec["status"] == "timeout" and rec["answer"] is None
    assert rec["error"]["type"] == "deadline" and "deadline of 1 s" in err
    turns = rec["extra"]["agent"]["turns"]
    assert turns and f"in turn {len(turns)}" in err   # the loop went on, turn after turn, until cut
    code, out, _ = cli("report", suite / "runs" / "google-loop.jsonl", "--suite", suite)
    assert "1 deadline" in out and "pass 0/1" in out and "scored as zero" in out


def test_turn_limit_and_no_submission(cli, server, suite):
    code, _, err, rec = ask(cli, server, suite, "openai", "loop", TRAP, "--max-turns", "3")
    assert code == 1 and rec["status"] == "turn_limit" and len(rec["extra"]["agent"]["turns"]) == 3
    assert "3 turns" in err
    code, _, err, rec = ask(cli, server, suite, "anthropic", "badjson", EXTRACTION)
    assert rec["status"] == "no_submission" and rec["answer"] is None
    assert ("submit_extraction", True) in tools_used(rec)   # the invalid JSON was an error result
    assert "without calling submit_extraction" in err


@pytest.mark.parametrize("provider", WIRES)
def test_an_answer_nested_900_deep_is_an_error_result_not_the_end_of_the_run(cli, server, suite, provider):
    """A model whose submission nests lists 900 deep (under the JSON decoder's limit) ended `ask`
    and `run` in a RecursionError traceback: the schema check, then the record of the call,
    recursed through it. The tools answer it with an error (no raise, over MCP too), and the
    trace keeps no arguments for it."""
    code, _, err, rec = ask(cli, server, suite, provider, "deep", EXTRACTION)
    assert "Traceback" not in err and code == 1, err[-800:]
    assert rec["status"] == "no_submission" and rec["answer"] is None
    (call,) = [t for turn in rec["extra"]["agent"]["turns"] for t in turn["tools"] if t["tool"] == "submit_extraction"]
    assert call["error"] and call["arguments"] is None
    from workbench.providers.agent.tools import DocumentTools
    from workbench.providers.fakeagents import DEEP

    case = next(c for c in load_suite(suite).cases if c.id.startswith(EXTRACTION))
    deep: list = []
    for _ in range(DEEP):
        deep = [deep]
    for tools in (DocumentTools(case, case.pdf_file.read_bytes()),):
        got = tools.call("submit_extraction", {"answer": deep})
        assert got.is_error and "nest deeper than 64 levels" in got.text and tools.answer is None


def test_second_submission_is_an_error_and_the_first_stands(cli, server, suite):
    code, _, err, rec = ask(cli, server, suite, "openai-compatible", "twice")
    assert rec["answer"] == "$19,679.70" and "pass" in err
    assert [u for u in tools_used(rec) if u[0] == "submit_extraction"] == [("submit_extraction", False),
                                                                          ("submit_extraction", True)]


@pytest.mark.slow
def test_run_on_the_sample_suite_and_report_by_tool_use(cli, run_cli_subprocess, server, suite):
    runs = suite / "runs"
    for kind in ("text", "image"):   # the console script in a new interpreter, 8 cases at once
        done = run_cli_subprocess("run", suite, "--reader", f"agent:openai:agent-{kind}", "--base-url",
                                  server.base_url("openai"), "--out", runs / f"{kind}.jsonl", "--no-cache",
                                  "--workers", "8")
        assert "34 new calls" in done.stderr, done.stderr[-500:]
    text, image = records(runs / "text.jsonl"), records(runs / "image.jsonl")
    assert len(text) == len(image) == 34
    code, out, err = cli("report", runs / "text.jsonl", "--suite", suite, "--json")
    assert out, err
    verdicts = {c["case_id"]: c["outcome"] for c in json.loads(out)["runs"][0]["cases"]}
    assert verdicts[TRAP] == "trap" and sum(v == "trap" for v in verdicts.values()) >= 25
    code, out, _ = cli("report", runs / "image.jsonl", "--suite", suite, "--json")
    verdicts = {c["case_id"]: c["outcome"] for c in json.loads(out)["runs"][0]["cases"]}
    assert verdicts[TRAP] == "pass" and verdicts[EXTRACTION] == "pass"
    assert sum(v == "pass" for v in verdicts.values()) >= 30
    code, out, _ = cli("report", runs / "text.jsonl", runs / "image.jsonl", "--suite", suite, "--by", "tool-use")
    assert code in (0, 1) and "text only" in out and "image only" in out and "hashes      contract" in out


def test_report_refuses_mixed_hashes_unless_allowed(cli, server, suite):
    ask(cli, server, suite, "openai", "image")
    a = suite / "runs" / "openai-image.jsonl"
    b = suite / "runs" / "other.jsonl"
    cli("ask", suite / f"{TRAP}.json", "--reader", "agent:openai:agent-image", "--base-url",
        server.base_url("openai"), "--out", b, "--no-cache", "--max-turns", "5")
    code, out, err = cli("report", a, b, "--suite", suite)
    assert code == 2 and "not comparable" in err and "--allow-mixed" in err and out == ""
    code, out, err = cli("report", a, b, "--suite", suite, "--allow-mixed")
    assert code == 0 and out.count("hashes      contract") == 2


def test_batch_and_modality_are_refused_for_agents(cli, server, suite):
    code, _, err = cli("run", suite, "--reader", "agent:openai:agent-text", "--batch",
                       "--base-url", server.base_url("openai"))
    assert code == 2 and "cannot be batched" in err and len(err.strip().splitlines()) == 1
    code, _, err = cli("ask", suite / f"{TRAP}.json", "--reader", "agent:openai:x", "--modality", "pdf")
    assert code == 2 and "leave out --modality" in err
    code, _, err = cli("ask", suite / f"{TRAP}.json", "--reader", "agent:nobody:x")
    assert code == 2 and "agent:PROVIDER:MODEL" in err


def test_tool_bytes_cap_and_dpi_cap(sample_cases, cli, server, suite):
    from workbench.core import limits
    from workbench.providers.agent.tools import DocumentTools

    case = next(c for c in sample_cases if c.id == TRAP)
    tools = DocumentTools(case, case.pdf_file.read_bytes())
    big = tools.call("page_image", {"page": 1, "dpi": 5000})
    assert not big.is_error and "capped" in big.text
    import pymupdf

    px = pymupdf.Pixmap(big.image)
    assert px.width <= 8.5 * limits.get("agent_image_dpi") + 2
    assert tools.call("page_text", {"page": 99}).is_error
    assert tools.call("open_file", {"path": "/etc/passwd"}).is_error
    code, _, err, rec = ask(cli, server, suite, "openai", "image", TRAP, "--limit", "agent_tool_bytes=2000")
    assert ("page_image", True) in tools_used(rec)
    assert rec["extra"]["agent"]["tool_bytes"] <= 2000 + 2000


def test_a_submission_without_its_answer_is_an_error_and_leaves_the_one_attempt(sample_cases):
    """A call to submit_extraction that leaves out `answer` (or sends null) was recorded as the
    answer "null", the case's one attempt spent on it; it is an error to the agent, and the next
    submission with an answer is the one that counts. A number is taken as its text."""
    from workbench.providers.agent.tools import DocumentTools

    case = next(c for c in sample_cases if c.id == TRAP)
    tools = DocumentTools(case, case.pdf_file.read_bytes())
    for args in ({}, {"answer": None}):
        said = tools.call("submit_extraction", args)
        assert said.is_error and "needs its answer" in said.text and tools.answer is None
    assert not tools.call("submit_extraction", {"answer": 13144.73}).is_error
    assert tools.answer == "13144.73"
    assert tools.call("submit_extraction", {"answer": "€13,144.73"}).is_error   # the first stands
    assert tools.answer == "13144.73"


BOOK = "book_scan_passage-0001-4e6dcd"    # a scan without a text layer: page_text is empty


def test_every_wire_hands_an_empty_page_text_back_empty(cli, server, suite):
    """An empty text layer reaches the agent as nothing in every format (Anthropic refuses an
    empty text block: no placeholder the agent could take for the page's text)."""
    server.agent_script.clear()   # the text agent submits the text it was given
    answers = {p: ask(cli, server, suite, p, "text", BOOK)[3]["answer"] for p in WIRES}
    assert set(answers.values()) == {""}, answers
    body = server.requests[-1]["body"]   # openai-compatible's: a tool message with empty content
    assert {"role": "tool", "tool_call_id": body["messages"][-1]["tool_call_id"], "content": ""} in body["messages"]


def test_run_takes_the_base_url_from_the_environment_and_the_plain_script_scripts_the_image_agent(
        run_cli_subprocess, sample_cases, tmp_path, monkeypatch):
    """`run` with an agent reader and no --base-url (the provider's variable, as a user sets it);
    a plain fake-server script (question -> expected answer) is what the image agent submits."""
    two = tmp_path / "two"
    two.mkdir()
    for case in (TRAP, GRAY_CASE):
        for ext in (".json", ".pdf"):
            shutil.copy(SAMPLE / f"{case}{ext}", two)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEYS["ANTHROPIC_API_KEY"])
    script = {c.question: c.expected_answer for c in sample_cases if c.id in (TRAP, GRAY_CASE)}
    with FakeServer(script=script) as fake:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url("anthropic"))
        done = run_cli_subprocess("run", two, "--reader", "agent:anthropic:agent-image", "--out",
                                  tmp_path / "env.jsonl", "--no-cache")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-800:]
    recs = records(tmp_path / "env.jsonl")
    assert {r["answer"] for r in recs} == set(script.values()) and {r["status"] for r in recs} == {"ok"}


def test_page_text_reads_with_the_extractor_asked_for(cli, server, suite):
    """`--extractor` names page_text's extractor: it is in the record and the reader hash (not the
    contract's); an OCR engine or an unknown name is refused with one line before any call."""
    _, _, _, default = ask(cli, server, suite, "openai", "text")
    _, _, _, other = ask(cli, server, suite, "openai", "text", TRAP, "--extractor", "pymupdf")
    assert default["extra"]["agent"]["extractor"] == "pypdf" and other["extra"]["agent"]["extractor"] == "pymupdf"
    assert other["extra"]["reader_hash"] != default["extra"]["reader_hash"]
    assert other["extra"]["contract_hash"] == default["extra"]["contract_hash"]
    calls = len(server.requests)
    for bad, says in (("ocr", "text-layer extractor, not OCR"), ("nope", "unknown extractor 'nope'")):
        code, _, err = cli("run", suite, "--reader", "agent:openai:agent-text", "--extractor", bad,
                           "--base-url", server.base_url("openai"))
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    code, _, err = cli("run", suite, "--reader", "probe:pypdf", "--extractor", "pymupdf")
    assert code == 2 and "for agent readers" in err
    assert len(server.requests) == calls


def test_without_jsonschema_an_agent_on_an_extraction_says_what_to_install(cli, server, suite, monkeypatch):
    """jsonschema is not in the base install: an agent's first submission on an extraction case
    ended the run with a traceback. `run` refuses before any call, `ask` with one line."""
    import sys

    monkeypatch.setitem(sys.modules, "jsonschema", None)   # as on a machine without it
    out = suite / "runs" / "no-jsonschema.jsonl"
    code, _, err = cli("run", suite, "--reader", "agent:openai:agent-text", "--base-url", server.base_url("openai"),
                       "--out", out, "--no-cache")
    assert code == 2 and "pip install 'pdfworkbench[agents]'" in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and server.requests == []
    code, _, err = cli("ask", suite / f"{EXTRACTION}.json", "--reader", "agent:openai:agent-text",
                       "--base-url", server.base_url("openai"), "--no-cache")
    assert code == 2 and "pip install 'pdfworkbench[agents]'" in err and "Traceback" not in err
    assert server.requests == []


def test_workers_count_calls_in_flight_and_waiting_for_one_is_not_the_agents_time(server, suite):
    """`--workers` is held for each model call, not for a whole case: two agent cases on one worker
    take turns call by call (a case running its tools leaves the place to the other); and the time
    a case waits for a worker counts neither against its deadline nor in its latency."""
    import asyncio

    import httpx

    from workbench.core.case import load_case
    from workbench.providers.agent.loop import run_agent
    from workbench.providers.base import parse_reader
    from workbench.providers.reading import call_http
    from workbench.providers.retry import RetryPolicy

    cases = [load_case(suite / f"{name}.json") for name in (TRAP, "hidden_ocr_mismatch-0001")]
    spec, url, policy = parse_reader("agent:openai:agent-text"), server.base_url("openai"), RetryPolicy.from_env()

    async def both() -> list:
        gate = asyncio.Semaphore(1)
        async with httpx.AsyncClient() as client:
            return await asyncio.gather(*(run_agent(c, c.pdf_file.read_bytes(), spec, None, {}, client, url, policy,
                                                    call_http, gate) for c in cases))

    assert [r.status for r in asyncio.run(both())] == ["ok", "ok"]
    questions = [json.dumps(r["body"]) for r in server.requests]
    order = [next(i for i, c in enumerate(cases) if json.dumps(c.question)[1:-1] in q) for q in questions]
    # case 1 called before case 0 was done (held for the case, the place would give [0, 0, 0, 1, 1, 1]);
    # which calls next each time depends on whose tools end first (pypdf, under load)
    assert order[:2] == [0, 1] and sorted(order) == [0, 0, 0, 1, 1, 1], order

    async def queued() -> object:
        gate = asyncio.Semaphore(1)
        await gate.acquire()   # another case's call holds the only worker for 1.5 s
        asyncio.get_running_loop().call_later(1.5, gate.release)
        async with httpx.AsyncClient() as client:
            return await run_agent(cases[0], cases[0].pdf_file.read_bytes(), spec, None, {"deadline_s": 1.0}, client,
                                   url, policy, call_http, gate)

    rec = asyncio.run(queued())
    assert rec.status == "ok" and rec.latency_ms < 1000, (rec.status, rec.latency_ms)


@pytest.mark.slow
def test_a_runs_cases_are_read_in_its_documents_process_and_the_agent_gets_the_same(
        server, suite, tmp_path, monkeypatch):
    """A run reads each agent case's PDF and page sizes, then its texts, in a process of its own
    (`agent.documents`: pypdf held this process's GIL while the other cases' answers waited, and
    each trip to a thread or a process pool woke threads that waited for it): the agent gets the
    same as from tools that read the document themselves, and for a PDF pypdf cannot read
    (truncated: MuPDF repairs it) the same one-line error; a run whose process is gone reads in
    threads, with the same records."""
    import asyncio
    import contextlib

    import httpx

    from tests.support.hostile_corpus import truncated_pdf
    from workbench.core.case import load_case
    from workbench.providers import running
    from workbench.providers.agent.documents import DocumentProcess
    from workbench.providers.agent.loop import run_agent
    from workbench.providers.agent.tools import DocumentFacts, read_document
    from workbench.providers.base import parse_reader
    from workbench.providers.reading import call_http
    from workbench.providers.retry import RetryPolicy

    case = load_case(suite / f"{TRAP}.json")
    spec, url, policy = parse_reader("agent:openai:agent-text"), server.base_url("openai"), RetryPolicy.from_env()
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(truncated_pdf())

    def seen(rec) -> list:
        return [(t["tool"], t["bytes"], t["error"]) for turn in rec["extra"]["agent"]["turns"]
                for t in turn["tools"]]

    async def both(documents: DocumentProcess) -> list:
        got = []
        async with httpx.AsyncClient() as client:
            for path in (case.pdf_file, truncated):
                facts, texts = documents.read(path, None, "pypdf")
                facts = await facts
                assert facts.pdf == path.read_bytes() == read_document(path).pdf
                there = await run_agent(case, facts.pdf, spec, None, {}, client, url, policy, call_http, None,
                                        DocumentFacts(facts.pdf, facts.page_sizes_pt, texts))
                here = await run_agent(case, facts.pdf, spec, None, {}, client, url, policy, call_http)
                got.append((there.to_json(), here.to_json()))
        return got

    documents = DocumentProcess()
    try:
        for there, here in asyncio.run(both(documents)):
            assert (there["answer"], there["status"], seen(there)) == (here["answer"], here["status"], seen(here))
    finally:
        documents.close()
    assert ("page_text", True) in [(t, e) for t, _, e in seen(there)]   # the truncated PDF: said, not raised
    texts = [json.dumps(r["body"]) for r in server.requests if "pypdf cannot read" in json.dumps(r["body"])]
    assert len(texts) >= 2    # the agent was told why, from the process and from here

    # a run: each case read once in its documents process; the same records as a run that reads
    # in threads, and as one whose process is gone
    class Counted(DocumentProcess):
        reads: list = []

        def read(self, *args):
            self.reads.append(args[0])
            return super().read(*args)

    class Gone(DocumentProcess):
        def __init__(self) -> None:
            super().__init__()
            self._process.kill()
            self._process.join()

    plan = running.RunPlan(spec, "tools", None, 2, cache=False, base_url=url)
    monkeypatch.setattr(running, "DocumentProcess", Counted)
    outcome = running.run_suite(suite, plan, tmp_path / "run.jsonl")
    assert outcome.ran == len(outcome.records) == len(Counted.reads) > 1
    monkeypatch.setattr(running, "DocumentProcess", Gone)
    gone = running.run_suite(suite, plan, tmp_path / "gone.jsonl")
    monkeypatch.setattr(running, "_documents", lambda plan, todo: contextlib.nullcontext())
    threads = running.run_suite(suite, plan, tmp_path / "threads.jsonl")

    def same(recs) -> list:
        return sorted((r.case_id, r.answer, r.status, seen(r.to_json())) for r in recs)
    assert same(outcome.records) == same(threads.records) == same(gone.records)


def test_a_schema_whose_ref_points_at_nothing_is_refused_before_any_call_and_never_fetched(
        cli, server, suite):
    """An extraction case's schema with a `$ref` the schema does not hold (a typo of its own
    definitions, or another site's URL) made the agent's first JSON submission end `run` with a
    jsonschema traceback, the other cases unasked. Now `run`, `ask` and `mcp` refuse it with one
    line naming the case before any call; a URL in it is never fetched (a server here counts)."""
    import http.server
    import threading

    hits: list[str] = []

    class Count(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the stdlib's name
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"type": "object"}')

        def log_message(self, *args):
            pass

    beacon = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Count)
    threading.Thread(target=beacon.serve_forever, daemon=True).start()
    case_file = suite / f"{EXTRACTION}.json"
    case = json.loads(case_file.read_text())
    try:
        for ref in ("#/definitions/invoice", f"http://127.0.0.1:{beacon.server_port}/invoice.json"):
            case["gold"]["schema"]["properties"]["invoice"] = {"$ref": ref}
            case_file.write_text(json.dumps(case))
            out = suite / "runs" / "broken-schema.jsonl"
            for argv in (("run", suite, "--out", out), ("ask", case_file, "--out", out)):
                code, _, err = cli(*argv, "--reader", "agent:openai:agent-text", "--base-url",
                                   server.base_url("openai"), "--no-cache")
                assert code == 2 and len(err.strip().splitlines()) == 1, err
                assert EXTRACTION in err and "gold.schema" in err and repr(ref) in err
            code, _, err = cli("mcp", suite, "--case", case_file.stem)
            assert code == 2 and repr(ref) in err and "Traceback" not in err
            assert not out.exists() and server.requests == [] and hits == []
    finally:
        beacon.shutdown()
    # The checker itself: what a valid schema refers to within itself is found; a broken schema
    # met as an answer is checked (over MCP, say) is no raise, the answer is taken.
    from workbench.providers.agent.tools import schema_fault, schema_problem

    defs = {"$defs": {"money": {"type": "number"}}, "properties": {"total": {"$ref": "#/$defs/money"}}}
    assert schema_fault(defs) is None
    assert schema_problem({"total": "12"}, defs) == "'12' is not of type 'number'"
    assert schema_fault({"type": "nonsense"}).startswith("not a valid JSON Schema")
    assert schema_problem({"total": 12}, {"$ref": "#/definitions/nowhere"}) is None


def test_a_jsonschema_that_would_fetch_a_ref_is_refused(monkeypatch):
    """jsonschema before 4.18 fetched an http(s) `$ref` over the network as it checked an answer:
    with it installed, an agent on an extraction case is told what to install instead."""
    import importlib.metadata

    from workbench.core.errors import UserError
    from workbench.providers.agent import tools

    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda d: "4.17.3" if d == "jsonschema" else real(d))
    with pytest.raises(UserError, match=r"jsonschema 4\.18 or later"):
        tools.schema_fault({"type": "object"})
