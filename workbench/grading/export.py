"""A suite as other harnesses run it: `pdfworkbench export SUITE --to inspect|jsonl --out DIR`.

- `inspect`: an Inspect AI task file (`task.py`) and its dataset (`dataset.jsonl`), the PDFs and
  case JSONs beside them under `cases/`. Each sample sends the PDF as a document and the prompt
  our own runs send; the task's scorer calls our grader, so Inspect's verdicts are ours.
- `olmocr-bench`: olmOCR-bench's layout (allenai/olmocr, `olmocr/bench`): single-page PDFs under
  `pdfs/FAMILY/` (a case of N pages is N PDFs, `CASE-pN.pdf`) and one test JSONL with the trap's
  meaning as its tests: the expected value `present` on the page that shows it (an extraction's
  values its page shows: `needles.expected_needles`), each decoy
  hidden from the eye `absent` from every page, the reading order a key knows as `order` (before, after) and a
  table cell it names with its headings as `table` (`olmocr_order`, `olmocr_table`). A test id
  is `CASE:present:1`, `CASE:absent:2:p1`, `CASE:order:1`, `CASE:table:1`, ... and the
  PDF path names the family, so every test keeps our case id and family (its loader takes no
  field it does not know). `python -m olmocr.bench.benchmark --dir DIR` runs it.
- `jsonl`: a folder the Hugging Face `datasets` library loads (`load_dataset(DIR)`): one JSON Lines
  file of answer keys (`cases.jsonl`), the PDFs under `pdfs/`, and a dataset card (`README.md`)
  naming the suite hash and the licence.

What the harnesses answer comes back with `pdfworkbench import-run` (`importers.py`, beside this). The
folder is written beside `--out` and renamed into place once whole, so a failed export leaves
nothing behind.
"""

from __future__ import annotations

import json
import keyword
import re
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pymupdf

from workbench.core import files
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.prompt import default_prompt
from workbench.core.schema import JSONObject
from workbench.core.suite import Suite, content_hash, load_suite
from workbench.grading.matchers import forbidden_needles, needle_finder
from workbench.grading.needles import expected_needles, printed_values
from workbench.pdf import textlayer

FORMATS = ("inspect", "jsonl", "olmocr-bench")
OLMOCR_TESTS = "pdfworkbench_traps.jsonl"
OLMOCR_CANDIDATE = "_pg1_repeat1.md"  # how olmOCR-bench's runners name a page's output
INSPECT_DATASET = "dataset.jsonl"
INSPECT_TASK = "task.py"
JSONL_KEYS = "cases.jsonl"
DEFAULT_LICENSE = "agpl-3.0"   # the generator's; the card says so, and --license chooses another


@dataclass
class Exported:
    out: Path
    format: str
    cases: int
    suite_hash: str


def export_suite(suite_dir: Path, to: str, out: Path, license_id: str = DEFAULT_LICENSE,
                 cases: list[Case] | None = None) -> Exported:
    """Write the suite for another harness into `out` (which must not exist yet, or be empty).
    `cases`: the suite's cases with the keys to export (a gold version); default as on disk."""
    if to not in FORMATS:
        raise UserError(f"--to {to!r}: choose one of {', '.join(FORMATS)}")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.+-]{0,63}", license_id or ""):
        raise UserError(f"--license {license_id!r}: give a licence identifier such as cc-by-4.0 or mit")
    suite = load_suite(suite_dir)
    if cases is not None:
        suite = replace(suite, cases=list(cases))
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UserError(f"--out {out}: exists and is not an empty folder; choose another")
    pdfs = [_checked_pdf(c) for c in suite.cases]
    digest = content_hash(suite)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    except OSError as exc:
        raise UserError(f"--out {out}: cannot be created ({exc.strerror or exc}); choose another") from None
    try:
        if to == "inspect":
            _write_inspect(suite, pdfs, digest, tmp)
        elif to == "olmocr-bench":
            _write_olmocr(suite, pdfs, tmp)
        else:
            _write_jsonl(suite, pdfs, digest, tmp, license_id)
        if out.exists():
            out.rmdir()  # empty, as checked above
        tmp.rename(out)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError) and not isinstance(exc, UserError):  # a full disk, a name too long
            raise files.write_failed(out, exc, " (nothing was written)") from None
        raise
    return Exported(out, to, len(suite.cases), digest)


def _checked_pdf(case: Case) -> Path:
    """The case's PDF, refused when it is missing or is not the PDF its JSON records."""
    case.recorded_pdf_bytes()
    return case.pdf_file


def _key_fields(case: Case) -> JSONObject:
    """A case's answer key with one type per column (nested values as JSON text), so every row of
    a dataset has the same schema."""
    def as_json(value: Any) -> str | None:
        return None if value is None else json.dumps(value, sort_keys=True, ensure_ascii=False)

    return {
        "id": case.id,
        "trap_family": case.trap_family,
        "seed": case.seed,
        "question": str(case.question),
        "prompt": default_prompt(case),
        "expected_answer": "" if case.expected_answer is None else str(case.expected_answer),
        "forbidden_answers": [str(a) for a in case.forbidden_answers or []],
        "expected_tokens": [str(t) for t in case.expected_tokens or []],
        "matcher": as_json(case.matcher_spec.to_json()),
        "gold": as_json(case.gold.to_json() if case.gold else None),
        "params": as_json(case.params),
        "degrade": as_json(case.degrade.to_json() if case.degrade else None),
        "pdf_sha256": case.sha256 or "",
        "key_sha256": case.key_sha256(),
    }


def _lines(rows: list[JSONObject]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows).encode("utf-8")


def _write_inspect(suite: Suite, pdfs: list[Path], digest: str, out: Path) -> None:
    cases_dir = out / "cases"
    cases_dir.mkdir()
    rows = []
    for case, pdf in zip(suite.cases, pdfs, strict=True):
        shutil.copyfile(pdf, cases_dir / f"{case.id}.pdf")
        record = case.to_json() | {"pdf_path": f"{case.id}.pdf"}
        (cases_dir / f"{case.id}.json").write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n",
                                                   encoding="utf-8")
        key = _key_fields(case)
        rows.append({"id": case.id, "input": key["prompt"], "target": key["expected_answer"],
                     "metadata": {"case_id": case.id, "trap_family": case.trap_family,
                                  "pdf": f"cases/{case.id}.pdf", "case_json": f"cases/{case.id}.json",
                                  "pdf_sha256": key["pdf_sha256"], "key_sha256": key["key_sha256"],
                                  "suite": suite.name, "suite_hash": digest}})
    (out / INSPECT_DATASET).write_bytes(_lines(rows))
    (out / INSPECT_TASK).write_text(_inspect_task(suite.name, digest, len(rows)), encoding="utf-8")


def _task_name(name: str) -> str:
    """The task function's name: the suite's name in ASCII letters, digits and '_' (a Python
    name, never a keyword)."""
    ident = re.sub(r"[^0-9a-z_]+", "_", name.lower()).strip("_")[:60] or "suite"
    return ident if ident[0].isalpha() and not keyword.iskeyword(ident) else f"suite_{ident}"


def _inspect_task(name: str, digest: str, count: int) -> str:
    """The task's Python source. The suite's name comes from its folder, which may be anyone's: it
    is written only as a literal (`repr`), never inside the docstring, where a name holding three
    quotes ended it and the rest ran as code when the task was loaded."""
    return f'''"""Inspect AI task: the pdfworkbench suite SUITE_NAME ({count} cases, suite hash {digest[:12]}).

Written by `pdfworkbench export --to inspect`. Each sample sends the case's PDF as a document with
the prompt pdfworkbench's own runs send; the scorer is pdfworkbench's grader (so pdfworkbench must
be installed where this runs), so a verdict here is the verdict `pdfworkbench report` gives.

    inspect eval task.py --model openai/gpt-4o --log-format json
    pdfworkbench import-run logs/LOG.json --suite SUITE      # the answers as pdfworkbench run records
"""

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample, json_dataset
from inspect_ai.model import ChatMessageUser, ContentDocument, ContentText
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState, generate

HERE = Path(__file__).resolve().parent
SUITE_NAME = {name!r}
SUITE_HASH = {digest!r}


def record_to_sample(record: dict) -> Sample:
    meta = record["metadata"]
    document = ContentDocument(document=str(HERE / meta["pdf"]), mime_type="application/pdf")
    return Sample(id=record["id"], target=record["target"], metadata=meta,
                  input=[ChatMessageUser(content=[document, ContentText(text=record["input"])])])


@scorer(metrics=[accuracy(), stderr()])
def pdfworkbench_grader():
    from workbench.core.case import load_case
    from workbench.grading import grade

    async def score(state: TaskState, target: Target) -> Score:
        case = load_case(HERE / state.metadata["case_json"])
        answer = state.output.completion
        verdict = grade(case, answer)
        return Score(value=CORRECT if verdict.correct else INCORRECT, answer=answer,
                     explanation=verdict.reason,
                     metadata={{"outcome": verdict.outcome, "fell_for_trap": verdict.fell_for_trap,
                               "refused": verdict.refused}})

    return score


@task
def {_task_name(name)}() -> Task:
    return Task(dataset=json_dataset(str(HERE / "{INSPECT_DATASET}"), record_to_sample),
                solver=generate(), scorer=pdfworkbench_grader())
'''


def _write_jsonl(suite: Suite, pdfs: list[Path], digest: str, out: Path, license_id: str) -> None:
    (out / "pdfs").mkdir()
    rows = []
    for case, pdf in zip(suite.cases, pdfs, strict=True):
        shutil.copyfile(pdf, out / "pdfs" / f"{case.id}.pdf")
        rows.append(_key_fields(case) | {"pdf": f"pdfs/{case.id}.pdf"})
    (out / JSONL_KEYS).write_bytes(_lines(rows))
    families = sorted({c.trap_family for c in suite.cases})
    (out / "README.md").write_text(_card(suite.name, suite.version, digest, len(rows), families, license_id),
                                   encoding="utf-8")


def _card(name: str, version: str, digest: str, count: int, families: list[str], license_id: str) -> str:
    size = ("n<1K" if count < 1000 else "1K<n<10K" if count < 10_000 else "10K<n<100K"
            if count < 100_000 else "100K<n<1M")
    return f"""---
license: {license_id}
pretty_name: {json.dumps(name)}
size_categories:
- {size}
tags:
- pdf
- document-understanding
- adversarial
configs:
- config_name: default
  data_files:
  - split: test
    path: {JSONL_KEYS}
---

# {name}

Adversarial PDF test cases made by pdfworkbench: each case is a generated PDF whose right answer
is known exactly, built so that some way of reading it (a text layer, a glance at the page, OCR)
gives a wrong answer.

- suite: `{name}` version {version}, {count} cases
- suite hash: `{digest}` (over every PDF and answer key; pdfworkbench verify checks it)
- licence: `{license_id}`
- families: {', '.join(families)}

`{JSONL_KEYS}` holds one answer key per line: `id`, `question`, `prompt` (as pdfworkbench sends it),
`expected_answer`, `forbidden_answers` (the trap's answers), `expected_tokens`, `matcher` (how it is
graded, JSON), `gold` (structured gold, JSON), `params`, `degrade`, `pdf` (the file under `pdfs/`),
`pdf_sha256` and `key_sha256`.

```python
from datasets import load_dataset
cases = load_dataset("path/to/this/folder", split="test")
```

Grade answers with pdfworkbench (the matcher is more than string equality: money, tokens, fields):
write one JSON line per case, `{{"id": ..., "prediction": ...}}`, then
`pdfworkbench import-run predictions.jsonl --suite SUITE --reader PROVIDER:MODEL` and
`pdfworkbench report`.
"""


def olmocr_pdf_name(case: Case, page: int) -> str:
    """The single-page PDF of `case`'s page (1-based) in an olmOCR-bench export, under `pdfs/`."""
    return f"{case.trap_family}/{case.id}-p{page}.pdf"


def _single_pages(pdf: bytes) -> list[bytes]:
    """A PDF per page; a one-page PDF is kept as its own bytes (its trap intact)."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    try:
        if doc.page_count == 1:
            return [pdf]
        out = []
        for i in range(doc.page_count):
            one = pymupdf.open()
            one.insert_pdf(doc, from_page=i, to_page=i)
            out.append(one.tobytes(garbage=0))
            one.close()
        return out
    finally:
        doc.close()


def olmocr_order(case: Case) -> list[tuple[int, str, str]]:
    """(page, before, after): texts of the key a reader in natural reading order reads in that order
    on that page. multi_column_reading_order: the asked amount opens a line of the left column and
    the decoy a line of the right one, level with the broken sentence, so down the columns the asked
    amount comes first and across the page the decoy does. split_table_across_pages: the asked
    column's header before the asked row, where the header is on the row's page (repeated)."""
    meta = case.metadata or {}
    if case.trap_family == "multi_column_reading_order":
        return [(1, case.expected_answer, str(f)) for f in case.forbidden_answers]
    if case.trap_family == "split_table_across_pages" and _header_on_row_page(meta):
        return [(int(meta["row_page"]), str(meta["column_label"]), str(meta["row_label"]))]
    return []


def _header_on_row_page(meta: JSONObject) -> bool:
    """A split table whose asked row's page shows the column headers too (the metadata says so:
    a label found by searching the page may be a word of the text around the table)."""
    if not (meta.get("row_page") and meta.get("column_label") and meta.get("row_label")):
        return False
    return bool(meta.get("repeat_header")) or meta.get("header_page") == meta["row_page"]


def olmocr_table(case: Case) -> list[tuple[int, dict[str, str]]]:
    """(page, fields of a `table` test): a cell the key names with its headings. merged_table_cells:
    the asked fee with its region (printed once, in the cell spanning the region's rows) as its
    left heading; split_table_across_pages: the asked value with its branch as its left heading and
    its month as its top heading where the header is on the row's page."""
    meta = case.metadata or {}
    if case.trap_family == "merged_table_cells" and meta.get("region"):
        return [(1, {"cell": case.expected_answer, "left_heading": str(meta["region"])})]
    if case.trap_family == "split_table_across_pages" and meta.get("row_page") and meta.get("row_label"):
        top = str(meta["column_label"]) if _header_on_row_page(meta) else ""
        return [(int(meta["row_page"]), {"cell": case.expected_answer, "left_heading": str(meta["row_label"]),
                                         "top_heading": top})]
    return []


def olmocr_tests(case: Case, page_texts: list[str]) -> list[JSONObject]:
    """The case's key as olmOCR-bench tests (fields as its `olmocr.bench.tests` classes take them),
    each on one page: an order across a page break has no test (olmOCR-bench reads one page at a
    time), a table heading on another page is left out of its test. A decoy the family's contract
    says is printed on the page (a neighbouring cell, the other column's amount) has no `absent`
    test: a faithful reading shows it; the hidden ones (white text, a layer switched off) do."""
    find = needle_finder(case)
    forbidden = [s for s in forbidden_needles(case) if str(s).strip()]
    printed = printed_values(case)[0]
    needles = expected_needles(case)
    tests: list[JSONObject] = []

    def test(kind: str, n: int, page: int, suffix: str = "", **fields: Any) -> None:
        tests.append({"pdf": olmocr_pdf_name(case, page), "page": 1, "id": f"{case.id}:{kind}:{n}{suffix}",
                      "type": kind, **fields, "max_diffs": 0, "checked": "verified", "url": None})

    def text_test(kind: str, n: int, page: int, text: str, suffix: str = "") -> None:
        test(kind, n, page, suffix, text=text, case_sensitive=False, first_n=None, last_n=None)

    pages = range(1, len(page_texts) + 1)
    for n, needle in enumerate(needles, 1):
        on = next((p for p in pages if find(page_texts[p - 1], str(needle))), 1)
        text_test("present", n, on, str(needle))
    for n, needle in enumerate(forbidden, 1):
        for page in pages if needle not in printed else ():
            text_test("absent", n, page, str(needle), f":p{page}")
    for n, (page, before, after) in enumerate(olmocr_order(case), 1):
        if page in pages and before.strip() and after.strip():
            test("order", n, page, before=before, after=after)
    for n, (page, cell) in enumerate(olmocr_table(case), 1):
        if page in pages and cell["cell"].strip():
            test("table", n, page, cell=cell["cell"], up="", down="", left="", right="",
                 top_heading=cell.get("top_heading", ""), left_heading=cell.get("left_heading", ""))
    return tests


def _write_olmocr(suite: Suite, pdfs: list[Path], out: Path) -> None:
    rows: list[JSONObject] = []
    for case, path in zip(suite.cases, pdfs, strict=True):
        data = path.read_bytes()
        for page, one in enumerate(_single_pages(data), 1):
            target = out / "pdfs" / olmocr_pdf_name(case, page)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(one)
        if case.question:
            rows += olmocr_tests(case, textlayer.text_pymupdf(data, case.id))
    (out / OLMOCR_TESTS).write_bytes(_lines(rows))
