"""Work per page is bounded (issue 33 item 5): a page over a count of work (annotations, operators,
XObject depth and visits) is "too complex: skipped (N ...)" in inspect, lint and rendering, is never
loaded in MuPDF, and the rest of the document is read; `--limit NAME=N` raises the count. The
hostile PDFs are made here (tests/support/hostile_corpus.py): page 1 hostile, page 2 a plain total."""

from __future__ import annotations

import json

import pytest

from tests.support.hostile_corpus import (
    annotations_pdf,
    image_bomb_pdf,
    many_operators_pdf,
    xobject_fan_out_pdf,
)
from workbench.core.errors import UserError

HOSTILE = {
    "annotations": (annotations_pdf, "100,000 annotations", "page_annotations"),
    "fan-out": (xobject_fan_out_pdf, "1,111,111,111 XObject visits", "xobject_visits"),
    # (counted to 20 times the limit: "over 2,000,004" when the count stops one piece short)
    "operators": (many_operators_pdf, "2,000,00", "page_operators"),
    # its size read from its dictionary, nothing decoded (MuPDF took 6 s on it, docling-parse 3.6 GB)
    "image": (image_bomb_pdf, "400,000,000 pixels in one image", "image_pixels"),
    "image, its width by reference": (lambda: image_bomb_pdf(width="ref"), "400,000,000 pixels in one image",
                                      "image_pixels"),
    "image, its width a real number": (lambda: image_bomb_pdf(width="real"), "400,000,000 pixels in one image",
                                       "image_pixels"),
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("budgets")
    out = {}
    for name, (make, _said, _limit) in HOSTILE.items():
        out[name] = folder / f"{name}.pdf"
        out[name].write_bytes(make())
    return out


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_page_over_a_count_of_work_is_skipped_and_the_next_page_is_read(name, hostile, cli):
    _make, said, limit = HOSTILE[name]
    code, out, err = cli("inspect", hostile[name], "--json", "--jobs", "1")
    assert code == 0, err
    first, second = json.loads(out)["pages"]
    assert first["skipped"].startswith("too complex: skipped (") and said in first["skipped"]
    assert f"--limit {limit}=N" in first["skipped"]
    assert first["spans"] == [] and first["text"] == {"pypdf": "", "pymupdf": ""}
    assert "skipped" not in second and [s["text"] for s in second["spans"]] == ["Total: $1.00"]
    assert second["text"]["pypdf"].strip() == "Total: $1.00"

    code, out, err = cli("inspect", hostile[name], "--jobs", "1")
    assert code == 0, err
    assert f"(too complex: skipped ({said}" in out or said in out.split("=== page 2")[0]
    assert "Total: $1.00" in out.split("=== page 2")[1]

    code, out, err = cli("lint", hostile[name], "--jobs", "1")
    assert code == 0, err
    assert "page-skipped" in out and "page 1: too complex: skipped (" in out and said in out


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_case_on_a_hostile_page_lints_with_a_warning(name, hostile, cli, tmp_path):
    """A case (its key's answer printed on page 2): the lint of the case finishes, says page 1
    was skipped, and finds the answer visible on page 2."""
    pdf = tmp_path / "c.pdf"
    pdf.write_bytes(hostile[name].read_bytes())
    (tmp_path / "c.json").write_text(json.dumps({
        "id": "c", "trap_family": "hostile", "seed": 1, "question": "What is the total?",
        "expected_answer": "$1.00", "forbidden_answers": [], "expected_tokens": [],
        "pdf_path": "c.pdf", "metadata": {}}))
    code, out, err = cli("lint", tmp_path / "c.json", "--json")
    findings = json.loads(out)
    skipped = [f for f in findings if f["code"] == "page-skipped"]
    assert len(skipped) == 1 and skipped[0]["severity"] == "warning"
    assert skipped[0]["message"].startswith("page 1: too complex: skipped (")
    assert not [f for f in findings if f["severity"] == "error"], findings


def test_rendering_a_hostile_page_is_refused_in_one_line(hostile):
    from workbench.pdf.render import render_page

    with pytest.raises(UserError, match=r"page 1: too complex: skipped \(.*XObject visits"):
        render_page(hostile["fan-out"].read_bytes(), 0, 36)
    assert render_page(hostile["fan-out"].read_bytes(), 1, 36).width == 306


def test_an_agents_page_image_of_a_hostile_page_is_an_error_result(hostile):
    from workbench.core.case import Case
    from workbench.providers.agent.tools import DocumentTools

    case = Case(id="c", trap_family="hostile", seed=1, question="What is the total?", expected_answer="$1.00")
    tools = DocumentTools(case, hostile["fan-out"].read_bytes())
    refused = tools.call("page_image", {"page": 1, "dpi": 36})
    assert refused.is_error and refused.image is None
    assert "page 1: too complex: skipped (" in refused.text and "XObject visits" in refused.text
    drawn = tools.call("page_image", {"page": 2, "dpi": 36})
    assert not drawn.is_error and drawn.image.startswith(b"\x89PNG")


@pytest.mark.parametrize("make, limit, under, over", [
    (lambda: annotations_pdf(30), "page_annotations", 20, 40),
    (lambda: many_operators_pdf(500), "page_operators", 400, 600),
    (lambda: xobject_fan_out_pdf(3, 4), "xobject_visits", 15, 30),     # 1 + 4 + 16 = 21 forms drawn
    (lambda: xobject_fan_out_pdf(6, 1), "xobject_depth", 4, 8),
    (lambda: image_bomb_pdf(20), "image_pixels", 300, 500),     # 20 x 20 = 400 pixels
])
def test_the_limit_flag_moves_the_line(make, limit, under, over, cli, tmp_path):
    """The same page over a limit it is given, and within one raised above it: then analysed."""
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(make())
    code, out, err = cli("inspect", pdf, "--json", "--jobs", "1", "--limit", f"{limit}={under}")
    first = json.loads(out)["pages"][0]
    assert code == 0 and "too complex: skipped" in first["skipped"] and f"limit of {under}" in first["skipped"]
    code, out, err = cli("inspect", pdf, "--json", "--jobs", "1", "--limit", f"{limit}={over}")
    first = json.loads(out)["pages"][0]
    assert code == 0 and "skipped" not in first, first.get("skipped")
    assert [s["text"] for s in first["spans"] if s["text"] == "Total: $1.00"] == ["Total: $1.00"]


def test_a_document_over_the_page_limit_is_refused_before_its_pages_are_analysed(cli, tmp_path):
    """`forensic_pages` (pages analysed whole at once, every span's visibility): a longer case is
    refused in one line that says how to raise it, by `grade --explain` as by `lint` (which used
    to analyse all 10,000 pages of the hostile corpus's document, 12 s, before saying so), and is
    analysed once the limit is raised."""
    from tests.support.hostile_corpus import ANSWER, case_dict, many_pages_pdf

    (tmp_path / "long.pdf").write_bytes(many_pages_pdf(12))
    case = tmp_path / "long.json"
    case.write_text(json.dumps(case_dict("long", "long.pdf")))
    said = "12 pages, too many to analyse at once (over the forensic_pages limit of 10"
    code, out, err = cli("grade", case, "--answer", ANSWER, "--explain", "--limit", "forensic_pages=10")
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    code, out, err = cli("lint", case, "--limit", "forensic_pages=10")
    assert code == 1 and f"pdf-unreadable: long: {said}" in out, out
    # `report --by source` writes the report, the answer to that case said not traced
    from tests.support.fixtures import graded_record, write_run
    from workbench.core.case import load_case

    run = write_run(tmp_path / "runs" / "model.jsonl", [graded_record(load_case(case), answer="$2.00")])
    code, out, err = cli("report", run, "--suite", tmp_path, "--by", "source", "--jobs", "1",
                         "--limit", "forensic_pages=10")
    assert code == 0 and "where from  none traced" in out and "not traced 1 wrong answer: the PDF" in out, out + err
    # ... and so do its JSON (`sources` given, though none was traced) and its HTML page
    code, out, err = cli("report", run, "--suite", tmp_path, "--by", "source", "--jobs", "1", "--json",
                         "--limit", "forensic_pages=10")
    assert code == 0 and json.loads(out)["runs"][0]["sources"]["untraced"] == 1, out + err
    code, out, err = cli("report", run, "--suite", tmp_path, "--by", "source", "--jobs", "1", "--html",
                         tmp_path / "r.html", "--limit", "forensic_pages=10")
    page = (tmp_path / "r.html").read_text()
    assert code == 0 and "Not traced: 1 wrong answer of model:" in page and "Give <code>--by source" not in page, err
    code, out, err = cli("grade", case, "--answer", ANSWER, "--explain", "--limit", "forensic_pages=12")
    assert code == 0 and "printed on page 1" in out, out + err
    code, out, err = cli("lint", case, "--limit", "forensic_pages=12")
    assert "pdf-unreadable" not in out, out
    code, out, err = cli("report", run, "--suite", tmp_path, "--by", "source", "--jobs", "1",
                         "--limit", "forensic_pages=12")
    assert code == 0 and "where from  of 1 wrong answer, 1 from" in out and "not traced" not in out, out
