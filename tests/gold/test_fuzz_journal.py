"""Fuzz: the dispute journal of the wrong shape, through the real CLI commands that read it.

Every variant of a valid three-event journal (a wrong type for each field of each event, a
missing field, an extra one, truncated lines, non-UTF-8 and NUL bytes, huge strings, deep
nesting, duplicate ids, decisions for unknown disputes, a byte-order mark, ...) is written to a
real suite with a saved run, then read by `dispute list`, `dispute show`, `gold versions`,
`gold export`, `regrade`, `report` and written to by `dispute decide` (twice). Each command
either works (exit 0, or 1 for report's gate) or prints one line naming the journal and the line
number and exits 2; no traceback; read-only commands leave the journal's bytes as they were; a
refused decision writes nothing and a repeated one writes nothing more.
"""

from __future__ import annotations

import json
import os
import traceback
from pathlib import Path

import pytest

from tests.support.fixtures import INVOICE, TOTAL, invoice_json, load, record, suite_copy, write_run
from workbench.core.layout import journal_path

OPENED = {"format": "pdfworkbench-disputes/1", "event": "opened", "id": "d0001", "case_id": TOTAL,
          "field": "expected_answer", "original": "€13,144.73", "proposed": "€1.00", "based_on": "v1",
          "evidence": None, "rationale": "typo", "who": "ann", "at": "2025-01-02T03:04:05Z"}
DECIDED = {"format": "pdfworkbench-disputes/1", "event": "decided", "id": "d0001", "decision": "accepted",
           "rationale": "the page prints it", "who": "bob", "at": "2025-01-03T00:00:00Z"}
OPENED_2 = {"format": "pdfworkbench-disputes/1", "event": "opened", "id": "d0002", "case_id": INVOICE,
            "field": "invoice.total", "original": 10816.86, "proposed": 1.5, "based_on": "v2",
            "evidence": {"page": 1, "box": [10.0, 10.0, 50.0, 20.0], "quote": "TOTAL"},
            "rationale": "typo", "who": "ann", "at": "2025-01-04T00:00:00Z"}
BASE = [OPENED, DECIDED, OPENED_2]

DEEP = json.loads("[" * 200 + "]" * 200)
WRONG_VALUES = [None, 0, -1, 1.5, 10**30, True, "", "x", "\u0000", "../../etc/passwd", [], [1, 2], {},
                {"a": {"b": 1}}, "é" * 100_000, DEEP]


def _line(event: dict) -> bytes:
    return json.dumps(event, ensure_ascii=False).encode() + b"\n"


def _journal(events: list[dict]) -> bytes:
    return b"".join(_line(e) for e in events)


def _with(index: int, change) -> bytes:
    events = [dict(e) for e in BASE]
    change(events[index])
    return _journal(events)


def variants() -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = [("valid", _journal(BASE))]
    for i, event in enumerate(BASE, 1):
        for name in event:
            for n, value in enumerate(WRONG_VALUES):
                out.append((f"line {i} {name}={n}", _with(i - 1, lambda e, k=name, v=value: e.__setitem__(k, v))))
            out.append((f"line {i} without {name}", _with(i - 1, lambda e, k=name: e.pop(k))))
        out.append((f"line {i} extra field", _with(i - 1, lambda e: e.__setitem__("extra", {"x": [1]}))))
    for n, value in enumerate(WRONG_VALUES):
        for part in ("page", "box", "quote"):
            out.append((f"evidence {part}={n}", _with(2, lambda e, p=part, v=value: e.__setitem__(
                "evidence", {**OPENED_2["evidence"], p: v}))))
    for n, box in enumerate([[1, 2, 3], [50, 10, 10, 20], ["a", 1, 2, 3], [1e308, 0, 1e309, 1], [0, 0, 0, 0]]):
        out.append((f"evidence box shape {n}", _with(2, lambda e, b=box: e.__setitem__(
            "evidence", {**OPENED_2["evidence"], "box": b}))))
    whole = _journal(BASE)
    lines = whole.split(b"\n")
    for i in range(3):
        line = lines[i]
        for cut in (1, len(line) // 3, len(line) // 2, len(line) - 1):
            torn = b"\n".join([*lines[:i], line[:cut], *lines[i + 1:]])
            out.append((f"line {i + 1} truncated at {cut}", torn))
    for cut in (1, 17, len(whole) // 2, len(whole) - 2):
        out.append((f"file truncated at {cut}", whole[:cut]))
    for i in range(3):
        for bad, label in ((b"\xff\xfe", "non-UTF-8"), (b"\x00", "NUL"), (b"\xc3", "half a character"),
                           (b"\r", "CR")):
            line = lines[i]
            out.append((f"line {i + 1} {label} inside", b"\n".join([*lines[:i], line[:20] + bad + line[20:],
                                                                   *lines[i + 1:]])))
    rest = lines[1:]
    out += [
        ("BOM", b"\xef\xbb\xbf" + whole),
        ("BOM on line 2", b"\n".join([lines[0], b"\xef\xbb\xbf" + lines[1], *lines[2:]])),
        ("CRLF", whole.replace(b"\n", b"\r\n")),
        ("blank lines", b"\n\n" + whole.replace(b"\n", b"\n\n  \n")),
        ("no final newline", whole.rstrip(b"\n")),
        ("empty", b""),
        ("only newlines", b"\n\n\n"),
        ("NUL file", b"\x00" * 4096),
        ("binary", bytes(range(256)) * 8),
        ("a JSON array line", b"[1, 2, 3]\n" + whole),
        ("a JSON string line", b'"opened"\n' + whole),
        ("a number line", b"42\n" + whole),
        ("a null line", b"null\n" + whole),
        ("the events as one array", json.dumps(BASE).encode() + b"\n"),
        ("pretty-printed", b"".join(json.dumps(e, indent=2).encode() + b"\n" for e in BASE)),
        ("NaN", whole.replace(b"10816.86", b"NaN")),
        ("Infinity", whole.replace(b"1.5", b"Infinity")),
        ("huge number", whole.replace(b"1.5", b"1" + b"0" * 5000)),
        ("duplicate opened id", _journal([OPENED, DECIDED, {**OPENED_2, "id": "d0001"}])),
        ("duplicate decided", _journal([OPENED, DECIDED, DECIDED, OPENED_2])),
        ("decided for an unknown dispute", _journal([*BASE, {**DECIDED, "id": "d0099"}])),
        ("decided before opened", _journal([DECIDED, OPENED, OPENED_2])),
        ("unknown event kind", _journal([*BASE, {**DECIDED, "event": "deleted"}])),
        ("newer journal format", _journal([*BASE, {**DECIDED, "format": "pdfworkbench-disputes/9"}])),
        ("unknown case", _journal([{**OPENED, "case_id": "no-such-case"}, DECIDED, OPENED_2])),
        ("case id with a slash", _journal([{**OPENED, "case_id": "../x"}, DECIDED, OPENED_2])),
        ("field path malformed", _journal([{**OPENED, "field": "a..b[[x"}, DECIDED, OPENED_2])),
        ("field path the matcher", _journal([{**OPENED, "field": "matcher.type"}, DECIDED, OPENED_2])),
        ("field path into gold schema", _journal([{**OPENED, "field": "gold.schema"}, DECIDED, OPENED_2])),
        ("field path whole gold", _journal([{**OPENED, "field": "gold"}, DECIDED, OPENED_2])),
        ("field path a huge index", _journal([{**OPENED, "field": "expected_tokens[99999999999]"}, DECIDED])),
        ("field path the token list", _journal([{**OPENED, "field": "expected_tokens", "proposed": [{"a": 1}]},
                                                DECIDED])),
        ("structured field a list", _journal([OPENED, DECIDED, {**OPENED_2, "proposed": [[1]]},
                                              {**DECIDED, "id": "d0002"}])),
        ("structured field an object", _journal([OPENED, DECIDED, {**OPENED_2, "proposed": {"x": {"y": 1}}},
                                                 {**DECIDED, "id": "d0002"}])),
        ("structured path replaces invoice", _journal([OPENED, DECIDED, {**OPENED_2, "field": "invoice",
                                                                          "proposed": 5}, {**DECIDED, "id": "d0002"}])),
        ("decided twice differently", _journal([OPENED, DECIDED, {**DECIDED, "decision": "rejected"}, OPENED_2])),
        ("10 MB rationale", _journal([{**OPENED, "rationale": "r" * 10_000_000}, DECIDED, OPENED_2])),
        ("10 MB proposed", _journal([{**OPENED, "proposed": "7" * 10_000_000}, DECIDED, OPENED_2])),
        ("100k events", _journal([OPENED, *[{**DECIDED, "decision": ("accepted", "rejected")[k % 2]}
                                           for k in range(2000)], OPENED_2])),
        ("only a decision", _journal([DECIDED])),
        ("tail garbage", whole + b"garbage"),
        ("middle garbage", _line(OPENED) + b"garbage\n" + b"\n".join(rest)),
    ]
    return out


def _suite(tmp_path: Path) -> tuple[Path, Path]:
    suite = suite_copy(tmp_path)
    total, invoice = load(suite, TOTAL), load(suite, INVOICE)
    run = write_run(suite / "runs" / "probe.jsonl", [
        record(total, "€1.00"), record(total, total.expected_answer), record(invoice, invoice_json(invoice)),
        record(invoice, invoice_json(invoice, total=1.5)),
    ])
    return suite, run


READS = [
    ("dispute", "list", "{suite}"), ("dispute", "show", "{suite}", "d0001"),
    ("dispute", "show", "{suite}", "d0002", "--json"), ("gold", "versions", "{suite}"), ("gold", "export", "{suite}"),
    ("regrade", "{run}"), ("report", "{run}", "--json"),
]
DECIDE = ("dispute", "decide", "{suite}", "d0002", "--accept", "--rationale", "fuzz", "--who", "fuzzer")


class Fuzz:
    def __init__(self, suite: Path, run: Path, capsys) -> None:
        from workbench.cli import main

        self.main, self.suite, self.run, self.capsys = main, suite, run, capsys
        self.journal = journal_path(suite)
        self.failures: list[str] = []
        self.calls = 0

    def call(self, name: str, argv: tuple[str, ...], ok_codes=(0,)) -> tuple[int | None, str]:
        args = [a.format(suite=self.suite, run=self.run) for a in argv]
        self.calls += 1
        try:
            code = self.main(args)
        except BaseException as exc:  # noqa: BLE001 - a traceback is what we hunt for
            self.capsys.readouterr()
            last = traceback.format_exception_only(type(exc), exc)[-1].strip()[:200]
            self.failures.append(f"{name}: {' '.join(argv[:2])}: traceback {last}")
            return None, ""
        _, err = self.capsys.readouterr()
        if code in ok_codes:
            return code, err
        lines = err.strip().splitlines()
        if code != 2:
            self.failures.append(f"{name}: {' '.join(argv[:2])}: exit {code}")
        elif len(lines) != 1 or not lines[0].startswith("pdfworkbench: error: "):
            self.failures.append(f"{name}: {' '.join(argv[:2])}: not one error line: {err[:200]!r}")
        elif "disputes.jsonl:" in lines[0] and not any(f"disputes.jsonl:{n}:" in lines[0] for n in range(1, 5000)):
            self.failures.append(f"{name}: {' '.join(argv[:2])}: names the journal without a line: {lines[0][:200]}")
        return code, err

    def variant(self, name: str, data: bytes) -> None:
        self.journal.write_bytes(data)
        for argv in READS:
            self.call(name, argv, ok_codes=(0, 1) if argv[0] == "report" else (0,))
            if self.journal.read_bytes() != data:
                self.failures.append(f"{name}: {' '.join(argv[:2])} changed the journal")
                self.journal.write_bytes(data)
        code, _ = self.call(name, DECIDE)
        after = self.journal.read_bytes()
        if code != 0:
            if after != data:
                self.failures.append(f"{name}: a refused decision changed the journal")
            return
        if after.count(b"\n") != data.rstrip(b"\n").count(b"\n") + 2 - (not data.strip()):
            pass  # a torn tail may be cut first; the check below is what matters
        if not after.endswith(b"\n") or b'"id": "d0002"' not in after.rsplit(b"\n", 2)[-2]:
            self.failures.append(f"{name}: the decision is not the journal's last line")
        code, out = self.call(name + " (again)", DECIDE)
        if self.journal.read_bytes() != after:
            self.failures.append(f"{name}: deciding the same way again wrote to the journal")


@pytest.mark.slow   # a fuzzer: 74 s at load 15
def test_fuzzed_journals_give_one_line_or_work_never_a_traceback(tmp_path, capsys, monkeypatch):
    import functools

    import workbench.cli

    # The parser is the same for every call; building it 8,000 times would be most of the time.
    monkeypatch.setattr(workbench.cli, "build_parser", functools.cache(workbench.cli.build_parser))
    suite, run = _suite(tmp_path)
    fuzz = Fuzz(suite, run, capsys)
    cases = variants()
    for name, data in cases:
        fuzz.variant(name, data)
    failed = len({f.split(":")[0].removesuffix(" (again)") for f in fuzz.failures})
    print(f"\nfuzz journal: {len(cases)} variants, {fuzz.calls} CLI calls, {failed} variants failed")
    if os.environ.get("PDFWORKBENCH_FUZZ_LOG"):
        Path(os.environ["PDFWORKBENCH_FUZZ_LOG"]).write_text("\n".join(fuzz.failures))
    assert not fuzz.failures, f"{failed} of {len(cases)} variants failed:\n" + "\n".join(fuzz.failures[:80])


def test_a_fifo_journal_is_one_line_not_a_hang(tmp_path, cli):
    suite, run = _suite(tmp_path)
    os.mkfifo(journal_path(suite))
    for argv in (("dispute", "list", suite), ("gold", "versions", suite), ("regrade", run),
                 ("dispute", "decide", suite, "d0001", "--accept", "--rationale", "x")):
        code, out, err = cli(*argv)
        assert code == 2 and err.count("\n") == 1 and "is a FIFO (named pipe)" in err, (argv, err)
