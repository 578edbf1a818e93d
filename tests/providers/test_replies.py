"""Fuzz: malformed answers from the three batch services, served by the fake server (its
`batch_tamper`) in place of each step's own: upload, create, status and the result and error
files (OpenAI), create, status and results (Anthropic), create and status with its inlined
results (Gemini). Whole bodies truncated, empty, not JSON, HTML pages (200 and 502), wrong types,
null, nested 50,000 deep, non-UTF-8, lying content-lengths, past their cap, dripped past their
deadline; JSON objects with every field of the wrong type, null, missing, huge or deeply nested;
result lines cut, doubled, of unknown ids, past the line cap, not UTF-8, mixed with good ones;
plus seeded byte-level faults. Through the CLI in-process (`run --batch`, then `batch status`),
each step must end with exit 0, 1 or 2 (2 with one `pdfworkbench: error:` line), never an
exception; then, the service healed, `batch status` must finish the run with exactly one record
per case (none lost, none doubled) and one batch created. PDFWORKBENCH_FUZZ_N sets the number of
byte-level faults per step (default 6)."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from tests.support.fixtures import suite_copy
from workbench.core import limits
from workbench.providers.fakeserver import FakeServer

pytestmark = pytest.mark.slow   # two fuzzers, 164 s alone at load 10 (`make test-fast` leaves them out)

N = int(os.environ.get("PDFWORKBENCH_FUZZ_N", "6"))
SEED = 20261203
MODELS = {"openai": "openai:gpt-4o", "anthropic": "anthropic:claude-sonnet-4-5", "google": "google:gemini-2.5-flash"}
STEPS = {"openai": ("upload", "create", "status", "output", "errors"),
         "anthropic": ("create", "status", "results"),
         "google": ("create", "status")}
FILES = {"output", "errors", "results"}       # JSON Lines, one call per line
# Small caps, so "past the cap" is quick to serve; the deadlines short, so a drip is quick to time out.
CAPS = {"provider_batch_reply_bytes": 256 * 2**10, "provider_batch_file_bytes": 256 * 2**10,
        "provider_answer_bytes": 64 * 2**10, "provider_batch_download_seconds": 1.0}
HTML = b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"
DEEP = b"[" * 50_000 + b"]" * 50_000


# ---- the variants -----------------------------------------------------------------------------

def _body(reply) -> bytes:
    return reply[1] if isinstance(reply[1], bytes) else b"".join(reply[1])


def whole(body: bytes, status: int | None = None, **headers: str):
    """A variant that serves `body` (with `status`, and `headers`) instead of the step's answer."""
    def serve(reply):
        return (status or reply[0], body, {**reply[2], **headers}, reply[3])
    return serve


def edit(fn):
    """A variant that serves fn(the step's own body) instead of it."""
    def serve(reply):
        return reply[0], fn(_body(reply)), reply[2], reply[3]
    return serve


def per_value(fn):
    """fn applied to the step's JSON: to each line of a JSON Lines file, else to the whole body;
    for Gemini's status, to each inlined result as well as to the operation."""
    def change(body: bytes) -> bytes:
        lines = body.splitlines()
        if len(lines) > 1 or (lines and body.endswith(b"\n")):
            return b"".join(fn(json.loads(line)) + b"\n" if line.strip() else b"\n" for line in lines)
        return fn(json.loads(body)) if body.strip() else body
    return edit(change)


def _dump(value) -> bytes:
    return json.dumps(value).encode()


def _wrong(value):
    """A value of another JSON type."""
    return {dict: [], list: {}, str: 12345, int: "12", float: "1.5", bool: "true", type(None): {}}[type(value)]


def _everywhere(value, fn):
    if isinstance(value, dict):
        return {k: _everywhere(fn(v), fn) if isinstance(v, (dict, list)) else fn(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_everywhere(fn(v), fn) if isinstance(v, (dict, list)) else fn(v) for v in value]
    return value


def _top(fn):
    return lambda v: _dump({k: fn(x) for k, x in v.items()} if isinstance(v, dict) else fn(v))


def _items(fn):
    """fn on each of Gemini's inlined results (when the status carries them)."""
    def change(op):
        box = ((op.get("response") or {}).get("inlinedResponses") or {}) if isinstance(op, dict) else {}
        if isinstance(box, dict) and isinstance(box.get("inlinedResponses"), list):
            box["inlinedResponses"] = [fn(item) for item in box["inlinedResponses"]]
        return _dump(op)
    return change


def _cut(line: bytes) -> bytes:
    return line[: len(line) // 2]


def _lines(fn):
    """fn(lines) -> lines, on a JSON Lines file."""
    return edit(lambda body: b"".join(x + b"\n" for x in fn(body.splitlines())))


def variants(provider: str, step: str) -> list[tuple[str, object, str | None]]:
    """(name, tamper, what the records must show: None, or "malformed" for per-call errors)."""
    out: list[tuple[str, object, str | None]] = [
        ("truncated", edit(_cut), None),
        ("empty", whole(b""), None),
        ("not-json", whole(b"this is not JSON at all"), None),
        ("html-200", whole(HTML, 200, **{"content-type": "text/html"}), None),
        ("html-502", whole(HTML, 502), None),
        ("a-list", whole(b"[1, 2, 3]"), None),
        ("a-string", whole(b'"ok"'), None),
        ("null", whole(b"null"), None),
        ("deep", whole(DEEP), None),
        ("not-utf8", edit(lambda b: b.replace(b'"', b'"\xff\xfe', 3)), None),
        ("length-says-more", edit(lambda b: b), None),
        ("length-says-less", edit(lambda b: b), None),
        ("declared-past-cap", edit(lambda b: b), None),
        ("streamed-past-cap", whole(iter([b'{"a": "', b"x" * (2 * 2**20), b'"}']), 200), None),
        ("drip", edit(lambda b: b), None),
        ("fields-wrong-type", per_value(_top(_wrong)), None),
        ("every-value-wrong-type", per_value(lambda v: _dump(_everywhere(v, _wrong))), None),
        ("every-value-null", per_value(lambda v: _dump(_everywhere(v, lambda x: None))), None),
        ("no-fields", per_value(lambda v: b"{}"), None),
        ("huge-strings", per_value(lambda v: _dump(_everywhere(v, lambda x: "y" * 40_000 if isinstance(x, str) else x))), None),
        ("deep-field", per_value(lambda v: _dump({**v, "extra": json.loads("[" * 900 + "]" * 900)})
                                 if isinstance(v, dict) else _dump(v)), None),
        ("numbers-as-strings", per_value(lambda v: _dump(_everywhere(v, lambda x: str(x) if isinstance(x, int) else x))), None),
    ]
    lying = {"length-says-more": lambda b: str(len(b) + 100), "length-says-less": lambda b: str(max(0, len(b) - 10)),
             "declared-past-cap": lambda b: str(10 * 2**30)}
    out = [(name, _with_headers(fn, name, lying), expect) for name, fn, expect in out]
    if step in FILES:
        out += [
            ("lines-cut", _lines(lambda ls: [_cut(x) for x in ls]), "malformed"),
            ("lines-not-objects", _lines(lambda ls: [b"[1, 2]" for _ in ls]), None),
            ("lines-doubled", _lines(lambda ls: [x for x in ls for _ in (0, 1)]), None),
            ("lines-unknown-ids", _lines(lambda ls: [x.replace(b'"custom_id": "', b'"custom_id": "zz') for x in ls]), None),
            ("lines-crlf-blank-bom", _lines(lambda ls: [b"\xef\xbb\xbf" + ls[0], b"", *(x + b"\r" for x in ls[1:]), b""]), None),
            ("lines-mixed-garbage", _lines(lambda ls: [y for x in ls for y in (x, b"garbage", b"{\"half\": ")]), None),
            ("line-past-cap", _lines(lambda ls: [x[:-1] + b', "pad": "' + b"z" * (100 * 2**10) + b'"}' for x in ls]),
             "malformed"),
            ("line-not-utf8", _lines(lambda ls: [x.replace(b'"', b'"\xc3\x28', 5) for x in ls]), None),
            ("line-deep", _lines(lambda ls: [x[:-1] + b', "deep": ' + DEEP + b"}" for x in ls]), "malformed"),
            ("lines-result-wrong-type", _lines(lambda ls: [_dump({**json.loads(x), "response": "x", "result": 5,
                                                                  "error": [1]}) for x in ls]), "malformed"),
        ]
    if provider == "google" and step == "status":
        out += [
            ("items-wrong-type", per_value(_items(lambda item: _everywhere(item, _wrong))), None),
            ("items-no-fields", per_value(_items(lambda item: {"metadata": item.get("metadata")})), "malformed"),
            ("items-response-wrong", per_value(_items(lambda item: {**item, "response": [1, 2]})), "malformed"),
            ("items-not-objects", per_value(_items(lambda item: "x")), None),
        ]
    out += [(f"bytes-{i}", _byte_faults(f"{SEED}-{provider}-{step}-{i}"), None) for i in range(N)]
    return out


def _byte_faults(seed: str):
    """The same seeded byte-level faults each time the step is served."""
    return edit(lambda body: _mutate(body, random.Random(seed)))


def _with_headers(fn, name, lying):
    if name in lying:
        def serve(reply):
            status, body, headers, ctype = fn(reply)
            return status, body, {**headers, "content-length": lying[name](body)}, ctype
        return serve
    if name == "drip":
        def drip(reply):
            status, body, headers, ctype = fn(reply)
            return status, body, {**headers, "x-fake-drip": "1"}, ctype
        return drip
    return fn


def _mutate(data: bytes, rng: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not buf:
            break
        i = rng.randrange(len(buf))
        op = rng.randrange(5)
        if op == 0:
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf[i] = rng.choice(b'{}[]",:0-9eE.\\/<>%\x00\xff\n')
        elif op == 2:
            buf[i:i] = rng.choice([b"[", b"{", b"null", b"1e400", b"\xff\xfe", b"\n", b'"custom_id": 7,'])
        elif op == 3:
            del buf[i:i + rng.randint(1, 64)]
        else:
            del buf[i:]
    return bytes(buf)


CASES = [(p, s, *v) for p, steps in STEPS.items() for s in steps for v in variants(p, s)]


# ---- the run ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    return suite_copy(tmp_path_factory.mktemp("fuzzbatch"))


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for k, v in {"OPENAI_API_KEY": "sk-test-fuzz-0123456789abcdef", "ANTHROPIC_API_KEY": "sk-ant-fuzz-0123456789",
                 "GOOGLE_API_KEY": "AIzaFuzz0123456789"}.items():
        monkeypatch.setenv(k, v)
    for k, v in {"PDFWORKBENCH_RETRY_BASE": "0.001", "PDFWORKBENCH_RETRY_CAP": "0.005", "PDFWORKBENCH_TIMEOUT": "0.5",
                 "PDFWORKBENCH_RETRY_DEADLINE": "1.5", "PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache")}.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv(limits.LIMIT_ENV, ",".join(f"{name}={value}" for name, value in CAPS.items()))
    return tmp_path


TALLY: Counter = Counter()


def _step(cli, argv) -> tuple[int, str]:
    """Run one command in-process; a problem with how it ended, or ''."""
    try:
        code, _, err = cli(*argv)
    except BaseException as exc:   # what the CLI lets escape is a traceback for the user
        return -1, f"{argv[0]} {argv[1]}: {type(exc).__name__}: {exc}"[:300]
    if code not in (0, 1, 2) or "Traceback" in err:
        return code, f"{argv[0]} {argv[1]}: exit {code}: {err[-300:]}"
    if code == 2:
        last = [line for line in err.splitlines() if line.strip()][-1:]
        if not last or not last[0].startswith("pdfworkbench: error: "):
            return code, f"{argv[0]} {argv[1]}: exit 2 without its one line: {err[-300:]}"
    return code, ""


def _records(out: Path) -> list[dict]:
    if not out.exists():
        return []
    return [json.loads(line) for line in out.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("provider,step,name,tamper,expect", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_a_malformed_batch_answer_is_one_line_or_one_call_s_error(env, cli, suite, provider, step, name, tamper,
                                                                   expect):
    from workbench.core.suite import load_suite

    cases = {c.id for c in load_suite(suite).cases}
    out = env / "run.jsonl"
    on = {"tamper": True}
    served = Counter()

    def serve(at, reply):
        if on["tamper"] and at == step:
            served[at] += 1
            return tamper(reply)
        return None

    problems = []
    # One call fails (a 400), so every kind of answer is there to spoil: OpenAI's error file,
    # Anthropic's errored line, Gemini's inlined error.
    failing = {min(c.sha256 for c in load_suite(suite).cases): "400"}
    with FakeServer(batch_polls=1, batch_tamper=serve, hang_s=3, batch_faults=failing) as server:
        url = server.base_url(provider)
        submit = ("run", suite, "--reader", MODELS[provider], "--batch", "--no-cache", "--base-url", url, "--out", out)
        poll = ("batch", "status", out)
        for argv in (submit, poll, poll):
            code, problem = _step(cli, argv)
            problems += [problem] if problem else []
            counts = Counter(r["case_id"] for r in _records(out))
            if any(n > 1 for n in counts.values()):
                problems.append(f"a case recorded twice: {counts}")
        assert served[step], f"the {step} step was never served"
        if expect == "malformed":
            bad = [r for r in _records(out) if (r.get("error") or {}).get("type") == "malformed_response"]
            if not bad:
                problems.append(f"no call's malformed_response error: {[r['status'] for r in _records(out)]}")
        on["tamper"] = False   # the service heals: the run must finish, nothing lost or doubled
        for _ in range(4):
            state = json.loads(out.with_name("run.batch.json").read_text())
            if all(e["collected"] for e in state["entries"]):
                break
            code, problem = _step(cli, poll)
            problems += [problem] if problem else []
        creates = server.batch.creates
    counts = Counter(r["case_id"] for r in _records(out))
    if set(counts) != cases or any(n != 1 for n in counts.values()):
        problems.append(f"records per case at the end: {dict(counts)}")
    if creates != 1:
        problems.append(f"{creates} batches created")
    TALLY["variants"] += 1
    TALLY["failed"] += bool(problems)
    assert not problems, "\n".join(problems)


def test_zz_how_many_variants_ran(capsys):
    """The fuzzer's count (shown with -s; the report quotes it)."""
    with capsys.disabled():
        print(f"\nbatch fuzzer: {TALLY['variants']} variants ran, {TALLY['failed']} failed "
              f"(of {len(CASES)} defined)")
    assert TALLY["failed"] == 0


def test_a_result_file_of_junk_lines_is_read_no_further_than_it_can_answer(env, cli, suite, monkeypatch):
    """Real results first, then 200,000 lines that answer no request: the real ones are
    recorded, and the rest of the file is not read (a real file has none such)."""
    junk = b'{"custom_id": "zz-0", "response": null}\n' * 200_000

    def serve(step, reply):
        return (reply[0], _body(reply) + junk, reply[2], reply[3]) if step == "output" else None

    monkeypatch.setenv(limits.LIMIT_ENV, f"{os.environ[limits.LIMIT_ENV]},provider_batch_file_bytes={64 * 2**20}")
    out = env / "run.jsonl"
    with FakeServer(batch_polls=1, batch_tamper=serve) as server:
        assert cli("run", suite, "--reader", MODELS["openai"], "--batch", "--no-cache", "--base-url",
                   server.base_url("openai"), "--out", out)[0] == 0
        code, _, err = cli("batch", "status", out)
    assert code == 0, err
    assert "answer no request of it; the rest of them was not read" in err
    records = _records(out)
    assert len(records) == 2 and {r["status"] for r in records} == {"ok"}
