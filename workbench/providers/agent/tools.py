"""The restricted document reader: four read-only tools on one case's PDF, the same for every
provider (and for the MCP server). Nothing in the document is executed or followed: the tools only
hand its text layer and its rendered pages back, as data, within a per-case byte budget.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import time
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, NotRequired, TypedDict

import pymupdf

from workbench.core import limits
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.schema import MAX_DEPTH, JSONObject, depth_ok, nodes
from workbench.pdf.document import PdfError, open_fitz, read_pdf_bytes
from workbench.pdf.render import check_renderable, page_png
from workbench.providers import extractors
from workbench.providers.pagetexts import page_texts

# The tools' version: bump whenever what a tool returns changes (it is in the reader hash).
# 2: page_image's PNG is pdf.render.png_bytes' (gray when the page has no colour, zlib level 1).
TOOLS_VERSION = 2
DEFAULT_EXTRACTOR = "pypdf"
DEFAULT_TOOL_DPI = 150


class ToolSpec(TypedDict):
    """A tool as an agent is given it, in no provider's format (`wire` turns it into each one's)."""

    name: str
    description: str
    parameters: JSONObject   # a JSON Schema


TOOL_SPECS: list[ToolSpec] = [
    {"name": "document_info",
     "description": "The document's page count and page sizes, the question to answer and, for an "
                    "extraction, the JSON schema the answer must follow.",
     "parameters": {"type": "object", "properties": {}, "additionalProperties": False}},
    {"name": "page_text",
     "description": "The text layer of one page, as a PDF text extractor reads it.",
     "parameters": {"type": "object", "properties": {
         "page": {"type": "integer", "minimum": 1, "description": "page number, from 1"}},
         "required": ["page"], "additionalProperties": False}},
    {"name": "page_image",
     "description": "One page rendered as a PNG image.",
     "parameters": {"type": "object", "properties": {
         "page": {"type": "integer", "minimum": 1, "description": "page number, from 1"},
         "dpi": {"type": "integer", "minimum": 36, "description": "resolution (default 150; capped)"}},
         "required": ["page"], "additionalProperties": False}},
    {"name": "submit_extraction",
     "description": "Submit the final answer, once: a string, or for an extraction a JSON object "
                    "following the schema. Only the first submission counts.",
     "parameters": {"type": "object", "properties": {
         "answer": {"description": "the answer: a string, or the JSON object of the extraction"}},
         "required": ["answer"], "additionalProperties": False}},
]
TOOL_NAMES = tuple(t["name"] for t in TOOL_SPECS)

# A tool call's arguments as the model sent them (a JSON object; anything else is an error result).
Arguments = JSONObject


class ToolTrace(TypedDict):
    """One tool call as a record's trace holds it (`extra.agent.turns[].tools[]`)."""

    tool: str
    arguments: Arguments | None    # None: the model sent something other than a JSON object
    bytes: int                     # what the tool returned, text and image
    error: bool
    tool_ms: float
    id: NotRequired[str]           # the call's id in the provider's format (agent readers)
    at_ms: NotRequired[float]      # since the session's case began (MCP)


class DocumentInfo(TypedDict):
    """What document_info answers (as JSON)."""

    page_count: int
    page_sizes_pt: list[list[float]]
    question: str
    answer_schema: NotRequired[JSONObject]   # a JSON Schema


def check_extractor(name: str) -> str:
    """`name` if page_text can read with it here (a text-layer extractor that is installed), else
    a UserError saying why, before any case is read."""
    ex = extractors.get(name)
    if ex.modality != "text":
        raise UserError(f"agent extractor {name}: page_text takes a text-layer extractor, not OCR; "
                        f"choose one of {', '.join(n for n, e in extractors.EXTRACTORS.items() if e.modality == 'text')}")
    if extractors.version(name) is None:
        raise UserError(f"agent extractor {name}: {extractors.missing(name)}")
    return name


@dataclass
class ToolResult:
    """What one tool call gives back to the agent: text, and a PNG for page_image."""

    text: str
    image: bytes | None = None
    is_error: bool = False

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8")) + len(self.image or b"")


def read_texts(extractor: str, pdf: bytes) -> list[str] | UserError:
    """Every page's text as `extractor` reads it, or the UserError saying why it cannot (a
    module-level function: it runs in a worker process too)."""
    try:
        return page_texts(extractor, pdf)
    except UserError as exc:
        return exc


def page_sizes(doc: pymupdf.Document) -> list[list[float]]:
    """Every page's width and height in points, as document_info gives them."""
    return [[round(p.rect.width, 1), round(p.rect.height, 1)] for p in doc]


@dataclass(frozen=True)
class DocumentFacts:
    """A case's PDF as the tools need it before any call: its bytes (decrypted) and page sizes,
    and its texts where they are being read elsewhere (a run's worker process, `read_texts`)."""

    pdf: bytes
    page_sizes_pt: list[list[float]]
    texts: Awaitable[list[str] | UserError] | None = None


def read_document(path: Path, password: str | None = None) -> DocumentFacts:
    """The case's PDF at `path` (`read_pdf_bytes`: a PdfError when it cannot be read) and its page
    sizes, read in one go: document_info then answers without opening the document again."""
    pdf = read_pdf_bytes(path, password)
    doc = open_fitz(pdf, "the case's PDF")
    try:
        return DocumentFacts(pdf, page_sizes(doc))
    finally:
        doc.close()


@dataclass
class DocumentTools:
    """The four tools over one case's PDF. `answer` is the first valid submission (None until one).
    `of` makes them from the `DocumentFacts` already read: document_info then answers without
    opening the document, and page_text too once it has the texts (`take_texts`)."""

    case: Case
    pdf: bytes
    extractor: str = DEFAULT_EXTRACTOR
    answer: str | None = None
    returned_bytes: int = 0
    calls: list[ToolTrace] = field(default_factory=list)
    _texts: list[str] | UserError | None = None   # every page's, once read (or why they cannot be)
    _doc: pymupdf.Document | None = None
    _sizes: list[list[float]] | None = None   # every page's, once known
    _info: str | None = None
    _images: dict[tuple[int, int], bytes] = field(default_factory=dict)   # (page, dpi) -> its PNG

    @classmethod
    def of(cls, case: Case, facts: DocumentFacts, extractor: str = DEFAULT_EXTRACTOR) -> DocumentTools:
        return cls(case, facts.pdf, extractor, _sizes=facts.page_sizes_pt)

    @property
    def question(self) -> str:
        return self.case.question

    def _fitz(self) -> pymupdf.Document:
        if self._doc is None:
            self._doc = open_fitz(self.pdf, "the case's PDF")
        return self._doc

    def close(self) -> None:
        if self._doc is not None:
            self._doc.close()
            self._doc = None

    def at_hand(self, name: str, args: Any) -> bool:
        """Whether the call needs no work on the document (nothing to open, extract or render) and
        no schema validation: the loop runs such a call at once rather than in a thread."""
        if name not in TOOL_NAMES or not isinstance(args, dict):
            return True   # an error result
        if name == "submit_extraction":
            return self.case.answer_schema is None
        if name == "document_info":
            return self._info is not None or self._sizes is not None
        if self._doc is None and self._sizes is None:
            return False
        if name == "page_text":
            return self._texts is not None
        dpi = args.get("dpi", DEFAULT_TOOL_DPI)
        if not isinstance(dpi, int) or isinstance(dpi, bool):
            return True   # an error result
        return (args.get("page"), min(dpi, int(limits.get("agent_image_dpi")))) in self._images

    def call(self, name: str, args: Any) -> ToolResult:
        """Run one tool; anything wrong with the call is an error result for the agent, never a raise."""
        t0 = time.monotonic()
        if not isinstance(args, dict):
            result = ToolResult("arguments must be a JSON object", is_error=True)
        elif not depth_ok(args):   # (the checks, the trace and the record recurse through them)
            result = ToolResult(f"arguments nest deeper than {MAX_DEPTH} levels; send a plain JSON object",
                                is_error=True)
            args = None
        elif name not in TOOL_NAMES:
            result = ToolResult(f"unknown tool {name!r}; the tools are {', '.join(TOOL_NAMES)}", is_error=True)
        else:
            result = getattr(self, "_" + name)(args)
        budget = int(limits.get("agent_tool_bytes"))
        if not result.is_error and self.returned_bytes + result.size > budget:
            result = ToolResult(limits.exceeded("agent_tool_bytes", "the tools have returned all they may for "
                                                "this case"), is_error=True)
        self.returned_bytes += result.size
        self.calls.append({"tool": name, "arguments": args if isinstance(args, dict) else None,
                           "bytes": result.size, "error": result.is_error,
                           "tool_ms": round((time.monotonic() - t0) * 1000, 2)})
        return result

    def _page_sizes(self) -> list[list[float]]:
        if self._sizes is None:
            self._sizes = page_sizes(self._fitz())
        return self._sizes

    def _page(self, args: Arguments) -> int | str:
        page = args.get("page")
        count = len(self._sizes) if self._sizes is not None else self._fitz().page_count
        if not isinstance(page, int) or isinstance(page, bool) or not 1 <= page <= count:
            return f"page must be a whole number from 1 to {count}"
        return page

    def _document_info(self, args: Arguments) -> ToolResult:
        if self._info is None:
            sizes = self._page_sizes()
            info: DocumentInfo = {"page_count": len(sizes), "page_sizes_pt": sizes, "question": self.question}
            if self.case.answer_schema is not None:
                info["answer_schema"] = self.case.answer_schema
            self._info = json.dumps(info, ensure_ascii=False)
        return ToolResult(self._info)

    def _page_text(self, args: Arguments) -> ToolResult:
        page = self._page(args)
        if isinstance(page, str):
            return ToolResult(page, is_error=True)
        if self._texts is None:   # the one extractor registry the probes use (pypdf by default)
            self._texts = read_texts(self.extractor, self.pdf)
        if isinstance(self._texts, UserError):   # the extractor cannot read this (hostile) PDF: the agent is told
            return ToolResult(str(self._texts), is_error=True)
        texts = self._texts or []
        return ToolResult(texts[page - 1] if page <= len(texts) else "")

    def take_texts(self, texts: list[str] | UserError) -> None:
        """Every page's text (or why they cannot be read), from `read_texts` run elsewhere."""
        self._texts = texts

    def _page_image(self, args: Arguments) -> ToolResult:
        page = self._page(args)
        if isinstance(page, str):
            return ToolResult(page, is_error=True)
        dpi = args.get("dpi", DEFAULT_TOOL_DPI)
        if not isinstance(dpi, int) or isinstance(dpi, bool) or dpi < 36:
            return ToolResult("dpi must be a whole number of at least 36", is_error=True)
        asked, dpi = dpi, min(dpi, int(limits.get("agent_image_dpi")))
        png = self._images.get((page, dpi))
        if png is None:   # each page is rendered once per dpi asked for, and the PNG handed back again
            try:   # (a page MuPDF would draw for minutes is refused, as for every reader)
                check_renderable(self._fitz(), page - 1)
            except PdfError as exc:
                return ToolResult(str(exc), is_error=True)
            png = self._images[(page, dpi)] = page_png(self._fitz()[page - 1], dpi)
        note = f" (asked {asked}, capped)" if asked != dpi else ""
        return ToolResult(f"page {page} rendered at {dpi} dpi{note}", image=png)

    def _submit_extraction(self, args: Arguments) -> ToolResult:
        if self.answer is not None:
            return ToolResult("an answer was already submitted; only the first submission counts", is_error=True)
        answer = args.get("answer")
        if answer is None:   # (a call without its one argument: not this case's answer, and no attempt)
            return ToolResult("submit_extraction needs its answer: {\"answer\": ...}; submit again", is_error=True)
        schema = self.case.answer_schema
        if schema is None:
            if not isinstance(answer, str):
                answer = json.dumps(answer, ensure_ascii=False)
            self.answer = answer
            return ToolResult("answer recorded")
        problem = schema_problem(answer, schema)
        if problem:
            return ToolResult(f"the answer does not follow the schema: {problem}; submit again", is_error=True)
        self.answer = json.dumps(answer if not isinstance(answer, str) else json.loads(answer),
                                 ensure_ascii=False, sort_keys=True)
        return ToolResult("answer recorded")


# The first jsonschema that resolves a schema's $ref through `referencing`, which fetches nothing:
# before it, a `$ref` to an http(s) URL was fetched over the network as the answer was checked (a
# suite's schema could make the workbench call any address).
JSONSCHEMA_LEAST = (4, 18)


def json_schema_checker() -> ModuleType:
    """jsonschema, which checks an extraction's submitted answer against the case's schema; a
    UserError saying what to install where it is absent (the base install lacks it: the agents
    extra brings it, with the MCP SDK) or older than JSONSCHEMA_LEAST. An agent reader asks for it
    before an extraction case."""
    try:
        import jsonschema
        from referencing.exceptions import Unresolvable  # noqa: F401 - (4.18 and later depend on it)
        least = tuple(int(p) for p in importlib.metadata.version("jsonschema").split(".")[:2])
    except (ImportError, ValueError):
        least = None
    if least is None or least < JSONSCHEMA_LEAST:
        raise UserError("an agent reader checks an extraction's answer against the case's schema with "
                        f"jsonschema {'.'.join(map(str, JSONSCHEMA_LEAST))} or later, which is not installed: "
                        "pip install 'pdfworkbench[agents]'")
    return jsonschema


def schema_fault(schema: JSONObject) -> str | None:
    """Why a case's answer schema cannot check a submission (None: it can): it is not a JSON
    Schema, or a `$ref` in it points at what the schema does not hold. Nothing is fetched to find
    out: a reference to another document (a URL, a file) is a fault, as a checker that never
    fetches would meet it with each submission."""
    json_schema_checker()
    return _checked_fault(schema)


def _checked_fault(schema: JSONObject) -> str | None:
    """`schema_fault`, jsonschema known to be there: by the schema's canonical JSON."""
    return _fault_of(json.dumps(schema, sort_keys=True, ensure_ascii=False))


@functools.lru_cache(maxsize=64)
def _fault_of(text: str) -> str | None:
    """`schema_fault` of the schema whose canonical JSON is `text`, once per process: a suite's
    cases share a few schemas, each about 3 ms to check, and a run checks every case's before any
    call and again as each case starts."""
    import jsonschema
    from referencing import Registry
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import DRAFT202012, specification_with

    schema = json.loads(text)
    try:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return f"not a valid JSON Schema: {exc.message[:200]}"
    dialect = schema.get("$schema") if isinstance(schema, dict) else None
    spec = specification_with(dialect, default=DRAFT202012) if isinstance(dialect, str) else DRAFT202012
    root = spec.create_resource(schema)
    base = root.id() or ""
    registry = Registry().with_resource(base, root).crawl()   # (with the schemas it embeds by $id)
    resolver = registry.resolver(base)
    for ref in _refs(schema):
        try:
            resolver.lookup(ref)
        except Unresolvable:
            return (f"its $ref {ref[:80]!r} points at nothing in the schema (the workbench never fetches a "
                    "schema from elsewhere)")
    return None


def _refs(value: Any) -> list[str]:
    """Every `$ref` string in a schema, depth first."""
    return [node["$ref"] for node in nodes(value) if isinstance(node, dict) and isinstance(node.get("$ref"), str)]


def check_schemas(cases: Iterable[Case]) -> None:
    """A UserError naming the first case whose answer schema cannot check a submission
    (`schema_fault`), before an agent is given any of them."""
    schemas = [(case, case.answer_schema) for case in cases if case.answer_schema is not None]
    if schemas:
        json_schema_checker()
    for case, schema in schemas:
        if fault := _checked_fault(schema):
            where = case.json_path or case.id
            raise UserError(f"{where}: the answer schema (gold.schema) cannot check an agent's answer: {fault}; "
                            "fix it in the case file")


def schema_problem(answer: Any, schema: JSONObject) -> str | None:
    """Why `answer` (a JSON value, or JSON text) does not follow `schema`; None when it does, or
    when the schema itself is broken (`check_schemas` refuses such a case before a run)."""
    jsonschema = json_schema_checker()
    from referencing.exceptions import Unresolvable

    if isinstance(answer, str):
        try:
            answer = json.loads(answer)
        except ValueError as exc:
            return f"not JSON ({exc})"
    try:
        jsonschema.validate(answer, schema)
    except jsonschema.ValidationError as exc:
        return exc.message[:300]
    except (jsonschema.SchemaError, Unresolvable):
        return None   # the case's own schema is broken: the grader, not the agent, will say so
    return None
