"""Attribution: answers written by hand per built-in family, each with the source a person would
name after looking at the page, and documents the tests draw themselves (no forbidden list)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.checks.attribution import attribute
from workbench.checks.search import find_evidence
from workbench.checks.sources import SOURCES, wrong_answer_source
from workbench.core.case import Case, load_case
from workbench.text.values import answer_values

MINI = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"

# (case id, answer, [(value, source), ...] in the answer's order)
CORPUS = [
    # the decoy of a hidden OCR layer over a printed image
    ("hidden_ocr_mismatch-0001", "The total due is €53,919.68.", [("€53,919.68", "hidden")]),
    ("hidden_ocr_mismatch-0003", "€80,242.32", [("€80,242.32", "hidden")]),
    # the printed total, read off the image: right, and where a person reads it
    ("hidden_ocr_mismatch-0001", "€13,144.73", [("€13,144.73", "visible")]),
    # one digit off the printed total, 3 read as 8: a typical OCR misreading
    ("hidden_ocr_mismatch-0001", "€13,144.78", [("€13,144.78", "misread")]),
    # an echo of the question's invoice number, then the hidden decoy
    ("hidden_ocr_mismatch-0001", "Invoice INV-734711: €53,919.68",
     [("INV-734711", "question"), ("€53,919.68", "hidden")]),
    # the body figure instead of the footnote's; the footnote's is small print
    ("footnote_override-0001", "$384,018.00", [("$384,018.00", "visible")]),
    ("footnote_override-0001", "$366,343.00", [("$366,343.00", "small_print")]),
    ("tiny_print_override-0001", "€40,092.28", [("€40,092.28", "visible")]),
    ("tiny_print_override-0001", "€35,922.68", [("€35,922.68", "small_print")]),
    # the fee from page 4 instead of the definition on page 1
    ("cross_page_citation-0001", "$43,234.12", [("$43,234.12", "other_page")]),
    # the injected instruction's amount (drawn invisibly)
    ("prompt_injection_in_body-0001", "Pay £7,012.13", [("£7,012.13", "injected")]),
    # a bare competing total line in white instructs no one: hidden text
    ("white_text_injection-0001", "$19,128.67", [("$19,128.67", "hidden")]),
    # a stamp turned around or mirrored
    ("mirrored_text-0001", "€41,262.98", [("€41,262.98", "rotated")]),
    ("mirrored_text-0001", "€44,273.58", [("€44,273.58", "visible")]),
    ("upside_down_amount-0001", "€42,571.32", [("€42,571.32", "rotated")]),
    ("upside_down_amount-0001", "€68,005.30", [("€68,005.30", "visible")]),
    # the converted amount is computed, never printed; the unconverted one is printed
    ("currency_conversion_clause-0001", "€10,827.80", [("€10,827.80", "computed")]),
    ("currency_conversion_clause-0001", "$11,724.34", [("$11,724.34", "visible")]),
    # a net that ignores the credit signs is printed nowhere: the sum of the printed lines
    ("dash_sign_semantics-0001", "$18,193.64", [("$18,193.64", "computed")]),
    # an invented amount
    ("merged_table_cells-0001", "$12,345.67", [("$12,345.67", "absent")]),
    # the neighbouring row, column or entity: printed where a person reads it
    ("merged_table_cells-0001", "$5,980.71", [("$5,980.71", "visible")]),
    ("near_duplicate_entities-0001", "$16,400.19", [("$16,400.19", "visible")]),
    ("multi_column_reading_order-0001", "$175.70", [("$175.70", "visible")]),
    ("checksum_rule-0001", "$7,409.55", [("$7,409.55", "visible")]),
    ("chart_axis_inversion-0001", "Q2", [("Q2", "visible")]),
    ("checkbox_ambiguity-0001", "Telephone", [("Telephone", "visible")]),
    ("unicode_confusable_label-0001", "€16,613.98", [("€16,613.98", "visible")]),
    ("visual_emphasis_rule-0001", "$25,755.88", [("$25,755.88", "visible")]),
    ("rotated_scan-0001", "$8,728.13", [("$8,728.13", "visible")]),
    ("split_glyph_runs-0001", "€45,371.28", [("€45,371.28", "visible")]),
    ("split_table_across_pages-0001", "$123,203.26", [("$123,203.26", "visible")]),
    # a scan with a drifted OCR layer: the layer's changed value is hidden text
    ("footnote_override-0003", "$208,597.03", [("$208,597.03", "hidden")]),
    # a quoted transcription of a scanned book page: the key's sentence, printed as pixels
    ("book_scan_passage-0001", 'It reads "{first_words}"', [("{first_words}", "visible")]),
    # an extraction answer: the direct line taken for the main number is printed in the letterhead
    ("invoice_extraction-0001", '{"vendor_phone": "+44 20 7946 6155"}', [("+44 20 7946 6155", "visible")]),
    # traps in the file's structure: the other value is in it, but drawn nowhere
    ("actualtext_override-0001", "€12,643.57", [("€12,643.57", "hidden")]),
    ("annotation_only_text-0001", "$21,452.57", [("$21,452.57", "hidden")]),
    ("form_field_appearance-0001", "€56,558.50", [("€56,558.50", "hidden")]),
    ("form_field_appearance-0001", "€43,980.17", [("€43,980.17", "visible")]),
    ("incremental_update_shadow-0001", "$7,236.87", [("$7,236.87", "hidden")]),
    ("optional_content_layer-0001", "£44,187.25", [("£44,187.25", "hidden")]),
    ("tounicode_remap-0001", "£08,421.58", [("£08,421.58", "hidden")]),
    ("tounicode_remap-0001", "£40,613.80", [("£40,613.80", "visible")]),
]

# The reason each structural trap's value is hidden, as the forensics name it.
HIDDEN_BECAUSE = {
    "actualtext_override-0001": "ActualText",
    "annotation_only_text-0001": "annotation",
    "form_field_appearance-0001": "form field",
    "incremental_update_shadow-0001": "superseded",
    "optional_content_layer-0001": "optional content",
    "tounicode_remap-0001": "ToUnicode",
}


def _case(case_id: str) -> tuple[Case, bytes]:
    """The sample case with this id (or id prefix: some ids end in a hash of their params)."""
    path = min(MINI.glob(f"{case_id}*.json"))
    case = load_case(path)
    return case, case.pdf_file.read_bytes()


# The entries whose attribution reads the page by OCR (a value printed as pixels only, or a scan's
# layer drifted from its pixels): 6.4 and 3.9 s of CPU, so `make test-fast` leaves them out.
OCR_READ = {("hidden_ocr_mismatch-0001", "€13,144.78"), ("footnote_override-0003", "$208,597.03")}


@pytest.mark.parametrize(("case_id", "answer", "want"), [
    pytest.param(c, a, w, id=f"{c}:{a[:24]}", marks=[pytest.mark.slow] if (c, a) in OCR_READ else [])
    for c, a, w in CORPUS])
def test_attribution_agrees_with_the_hand_written_corpus(case_id, answer, want):
    case, data = _case(case_id)
    # A transcription quotes the passage's opening words, whichever passage the seed drew.
    first_words = " ".join(case.expected_answer.split()[:6]).rstrip(",;:")
    answer = answer.replace("{first_words}", first_words)
    want = [(v.replace("{first_words}", first_words), s) for v, s in want]
    got = attribute(case, data, answer)
    assert [(a.value, a.source) for a in got] == want, [a.detail for a in got]
    for a in got:
        assert a.source in SOURCES
        assert answer[a.start:a.end] == a.value
    if case_id in HIDDEN_BECAUSE and got[0].source == "hidden":
        assert HIDDEN_BECAUSE[case_id] in got[0].detail


def test_every_built_in_family_in_the_sample_has_a_corpus_answer():
    families = {json.loads(p.read_text())["trap_family"] for p in MINI.glob("*.json")
                if p.name != "suite.json"}
    covered = {_case(c)[0].trap_family for c, _, _ in CORPUS}
    assert families <= covered, sorted(families - covered)


def test_a_visible_value_carries_its_page_and_box_and_the_json_shape():
    case, data = _case("cross_page_citation-0001")
    (a,) = attribute(case, data, "$43,234.12")
    assert a.page == 3 and a.box is not None and a.box[2] > a.box[0]
    out = a.to_json()
    assert out["page"] == 4 and out["source"] == "other_page" and len(out["box"]) == 4
    assert "page 1" in out["detail"]


def test_a_text_probes_answer_names_the_page_each_value_is_stated_for():
    # "2025" is printed on both pages of the table; a text probe's answer gives each page's text
    # after a form feed, so its first "2025" is page 1's and its second page 2's (both were page
    # 2's, the question's page, and the Answers tab listed two rows that said the same).
    case, data = _case("split_table_across_pages-0001")
    paged = attribute(case, data, "FY 2025\fFY 2025")
    assert [(a.value, a.page, a.detail) for a in paged] == [
        ("2025", 0, "printed on page 1"), ("2025", 1, "printed on page 2")]
    # without page breaks the answer says no page: the value is the question's page's
    assert [a.page for a in attribute(case, data, "FY 2025\nFY 2025")] == [1, 1]


def test_misread_names_the_nearest_printed_value_and_the_edit():
    case, data = _case("merged_table_cells-0001")
    (a,) = attribute(case, data, "$5,930.71")
    assert a.source == "misread"
    assert "5,980.71" in a.detail and "8→3" in a.detail and "typical OCR confusion" in a.detail


def test_values_found_in_the_answer_in_its_order():
    text = "Invoice INV-734711 from 2024-03-15: pay €13,144.73 under clause 16.2, call +44 20 7946 6541"
    assert [v for _, _, v in answer_values(text)] == [
        "INV-734711", "2024-03-15", "€13,144.73", "clause 16.2", "+44 20 7946 6541"]
    assert [v for _, _, v in answer_values("Email")] == ["Email"]
    assert answer_values("I cannot read this document clearly enough to say what the total is.") == []
    # a number joined to what it counts is the number; a labelled answer gives each field
    assert [v for _, _, v in answer_values("not during the initial 12-month term")] == ["12"]
    assert [v for _, _, v in answer_values("a=$47,820.40 | b=uncapped | c=$340,844.60")] == [
        "$47,820.40", "uncapped", "$340,844.60"]


def test_a_wrong_answer_counts_under_its_first_value_that_is_not_visible():
    case, data = _case("hidden_ocr_mismatch-0001")
    got = attribute(case, data, "Invoice INV-734711 total €53,919.68")
    assert wrong_answer_source(got) == "hidden"
    assert wrong_answer_source(attribute(case, data, "INV-734711")) == "question"
    assert wrong_answer_source([]) == "no-value"


# ---- documents the tests draw themselves: an adopted statement with no forbidden list --------

def _statement(path: Path) -> bytes:
    """A two-page bank statement drawn with reportlab platypus flowables (not our kit)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table

    styles = getSampleStyleSheet()
    story = [
        Paragraph("Harbour Mutual Bank: statement of account 4471-0093", styles["Title"]),
        Paragraph("Statement period 1 March 2026 to 31 March 2026", styles["Normal"]),
        Spacer(1, 12),
        Table([["Date", "Description", "Amount"],
               ["03 Mar", "Card payment, Fenwick Stores", "$212.40"],
               ["11 Mar", "Salary, Orchard Analytics", "$3,980.10"],
               ["19 Mar", "Rent, Calder Lettings", "$1,450.00"]]),
        Spacer(1, 12),
        Paragraph("Closing balance: $4,210.55", styles["Heading2"]),
        PageBreak(),
        Paragraph("Notes to your statement", styles["Heading2"]),
        Paragraph("Your overdraft limit of $2,500.00 is unchanged. Interest paid this month: $3.17.",
                  styles["Normal"]),
    ]
    SimpleDocTemplate(str(path), pagesize=A4, invariant=True).build(story)
    return path.read_bytes()


@pytest.fixture(scope="module")
def statement(tmp_path_factory) -> tuple[Case, bytes]:
    folder = tmp_path_factory.mktemp("adopted")
    data = _statement(folder / "statement.pdf")
    case = Case(id="statement", trap_family="adopted", seed=0, pdf_path="statement.pdf",
                question="What is the closing balance on this statement?", expected_answer="$4,210.55")
    return case, data


@pytest.mark.parametrize(("answer", "want"), [
    ("$4,210.55", [("$4,210.55", "visible")]),
    ("The closing balance is $4,210.85", [("$4,210.85", "misread")]),
    ("$2,500.00", [("$2,500.00", "other_page")]),
    ("$9,120.00", [("$9,120.00", "absent")]),
    ("$3,980.10 from account 4471-0093", [("$3,980.10", "visible"), ("4471-0093", "visible")]),
])
def test_attribution_on_an_adopted_statement_with_no_forbidden_list(statement, answer, want):
    case, data = statement
    assert [(a.value, a.source) for a in attribute(case, data, answer)] == want


def test_grade_explain_prints_one_line_per_value_and_json_carries_attribution(cli):
    case = MINI / "hidden_ocr_mismatch-0001.json"
    code, out, _ = cli("grade", case, "--answer", "INV-734711: €53,919.68", "--explain")
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("    ")]
    assert lines[0].split()[:2] == ["INV-734711", "question"]
    assert lines[1].split()[:3] == ["€53,919.68", "hidden", "p1"]
    code, out, _ = cli("grade", case, "--answer", "€53,919.68", "--json")
    got = json.loads(out)["attribution"]
    assert [(a["value"], a["source"], a["page"]) for a in got] == [("€53,919.68", "hidden", 1)]


def test_an_amount_typed_with_plain_spaces_is_traced_as_the_amount_it_is(cli):
    # graded as the key's €13,537.01, and traced to where that amount is printed, not "absent"
    code, out, _ = cli("grade", MINI / "actualtext_override-0001.json", "--answer", "Le total est de 13 537,01 €",
                       "--json")
    got = json.loads(out)
    assert (code, got["outcome"]) == (0, "pass")
    assert [(a["value"], a["source"], a["page"]) for a in got["attribution"]] == [("13 537,01 €", "visible", 1)]


def _facture(path: Path) -> bytes:
    """A French invoice drawn with reportlab platypus: amounts grouped with plain spaces, as
    French documents are often typed (not no-break ones)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

    styles = getSampleStyleSheet()
    SimpleDocTemplate(str(path), pagesize=A4, invariant=True).build([
        Paragraph("Facture F-2026-0412", styles["Title"]),
        Paragraph("Montant total à régler : 13 537,01 €", styles["Normal"]),
        Table([["Serveur rack 2U", "2", "4 250,00 €", "8 500,00 €"],
               ["Licence annuelle", "1", "5 037,01 €", "5 037,01 €"]]),
    ])
    return path.read_bytes()


def test_an_adopted_french_invoice_keyed_as_it_prints_grades_and_traces_either_writing(cli, tmp_path):
    _facture(tmp_path / "facture.pdf")
    code, _, err = cli("adopt", tmp_path / "facture.pdf", "--into", tmp_path / "suite", "--question",
                       "Quel est le montant total ?", "--expected", "13 537,01 €", "--forbidden", "8 500,00 €")
    assert code == 0, err
    case = tmp_path / "suite" / "facture.json"
    for answer, outcome in (("13 537,01 €", "pass"), ("€13,537.01", "pass"), ("8500 euros", "trap")):
        code, out, _ = cli("grade", case, "--answer", answer, "--json")
        assert json.loads(out)["outcome"] == outcome, answer
    code, out, _ = cli("grade", case, "--answer", "Le total est de 13 537,01 €.", "--json")
    assert [(a["value"], a["source"], a["page"]) for a in json.loads(out)["attribution"]] == \
        [("13 537,01 €", "visible", 1)]


def _faktura(path: Path) -> bytes:
    """A Swedish invoice drawn with reportlab platypus: kronor written `kr` after the amount,
    groups with plain spaces; a quantity cell (`10`) beside a price cell (`950,00 kr`)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

    styles = getSampleStyleSheet()
    SimpleDocTemplate(str(path), pagesize=A4, invariant=True).build([
        Paragraph("Faktura 2025-117", styles["Title"]),
        Table([["Konsulttjänster", "10", "950,00 kr", "9 500,00 kr"],
               ["Licens", "1", "227,39 kr", "227,39 kr"],
               ["Moms 25 %", "", "", "2 431,85 kr"],
               ["Att betala", "", "", "12 159,24 kr"]]),
    ])
    return path.read_bytes()


@pytest.mark.parametrize("make, expected, forbidden", [
    (_facture, "€13,537.01", "€8,500.00"), (_faktura, "SEK 12,159.24", "SEK 9,500.00"),
])
def test_an_invoice_keyed_in_another_writing_than_it_prints_adopts_and_traces(cli, tmp_path, make, expected,
                                                                              forbidden):
    # The page prints `13 537,01 €` (plain spaces): its key may be written `€13,537.01`. The lint
    # said "nowhere on the pages" and an answer of the key's writing was traced "absent".
    data = make(tmp_path / "invoice.pdf")
    code, _, err = cli("adopt", tmp_path / "invoice.pdf", "--into", tmp_path / "suite", "--question",
                       "What is the total?", "--expected", expected, "--forbidden", forbidden)
    assert code == 0, err
    case = tmp_path / "suite" / "invoice.json"
    code, out, _ = cli("grade", case, "--answer", expected, "--json")
    got = json.loads(out)
    assert got["outcome"] == "pass"
    assert [(a["value"], a["source"], a["page"]) for a in got["attribution"]] == [(expected, "visible", 1)]
    assert json.loads(cli("grade", case, "--answer", forbidden, "--json")[1])["outcome"] == "trap"
    if make is _faktura:   # a quantity beside a price is two numbers, not 10 950,00
        assert find_evidence(data, "10,950.00") == [] and find_evidence(data, "950,00 kr")


def test_grade_of_a_key_shared_without_its_pdf_grades_and_says_attribution_was_skipped(cli, tmp_path):
    key = tmp_path / "hidden_ocr_mismatch-0001.json"
    key.write_bytes((MINI / key.name).read_bytes())  # the key alone, no PDF beside it
    code, out, err = cli("grade", key, "--answer", "€53,919.68", "--json")
    got = json.loads(out)
    assert (code, got["outcome"], got["attribution"]) == (1, "trap", None)
    assert "is not there" in got["attribution_skipped"] and err == ""
    code, out, _ = cli("grade", key, "--answer", "€13,144.73", "--explain")
    assert code == 0 and out.splitlines()[0].startswith("PASS")
    assert "where from: skipped: the PDF" in out


@pytest.mark.slow
def test_report_by_source_divides_wrong_answers_with_intervals(cli, tmp_path):
    runs = sorted((MINI / "runs").glob("probe-*.jsonl"))
    # (one process: tracing on two is the test of attribute_rows below; spawned pool workers cost more here)
    code, out, _ = cli("report", *runs, "--by", "source", "--json", "--jobs", "1")
    report = json.loads(out)
    for run in report["runs"]:
        overall = run["sources"]["overall"][0]
        wrong = sum(c["outcome"] in ("fail", "trap") for c in run["cases"])
        assert overall["wrong"] == wrong
        assert sum(s["count"] for s in overall["sources"].values()) == wrong
        for s in overall["sources"].values():
            assert 0 <= s["ci95"][0] <= s["share"] <= s["ci95"][1] <= 1
        by_case = {c["case_id"]: c.get("source") for c in run["cases"]}
        assert by_case["hidden_ocr_mismatch-0001"] == "hidden"
        assert by_case["prompt_injection_in_body-0001"] == "injected"
    code, out, _ = cli("report", runs[0], "--by", "source", "--junit", tmp_path / "j.xml", "--jobs", "1")
    assert "where from  of " in out and "from hidden text" in out
    xml = (tmp_path / "j.xml").read_text()
    assert "(answer from: hidden)" in xml


def test_every_source_has_its_colour_on_screen():
    from workbench.checks.sources import SOURCES
    from workbench.tui.widgets.marks import SOURCE_STYLES

    assert set(SOURCE_STYLES) == set(SOURCES)


@pytest.mark.slow   # OCR of a scan: 50 s at load 13
def test_a_value_printed_only_in_a_scan_is_read_by_ocr_and_boxed(tmp_path):
    """A page that is one picture (a scan with no text layer): OCR finds where a value is printed
    (visible, with the box OCR reads it in); a made-up value stays absent."""
    import pymupdf

    from workbench.pdf import ocr

    if not ocr.available():
        pytest.skip("the OCR extra is not installed")
    src = pymupdf.open(stream=_statement(tmp_path / "statement.pdf"))
    doc = pymupdf.open()
    page = doc.new_page(width=src[0].rect.width, height=src[0].rect.height)
    page.insert_image(page.rect, pixmap=src[0].get_pixmap(dpi=150))
    case = Case(id="scan", trap_family="(adopted)", seed=0, question="What is the closing balance?",
                expected_answer="$4,210.55", pdf_path="scan.pdf")
    printed, made_up = attribute(case, doc.tobytes(), "It went $3,980.10 in and $7,777.77 out")
    assert printed.source == "visible" and "OCR of page 1" in printed.detail
    words = [w for w in src[0].get_text("words") if w[4] == "$3,980.10"]
    x0, y0, x1, y1 = printed.box
    wx0, wy0, wx1, wy1 = words[0][:4]
    assert x0 - 6 <= wx0 and wx1 <= x1 + 6 and y0 - 6 <= wy0 and wy1 <= y1 + 6
    assert made_up.source == "absent"


@pytest.mark.parametrize(("family", "pins", "role", "source", "says"), [
    # 34.5: a white decoy drawn over the printed total does not make the total faint
    ("hidden_ocr_mismatch", {"hidden_style": "white", "hidden_position": "on_total",
                             "visible_total_layer": "text"}, "expected", "visible", "printed on page 1"),
    # 34.6: a stamp mirrored top-bottom keeps its direction but not its letters
    ("mirrored_text", {"mirror": "top_bottom"}, "expected", "rotated", "mirrored top-bottom"),
    ("mirrored_text", {"mirror": "left_right"}, "expected", "rotated", "mirrored left-right"),
    # 34.6: a bare competing total in white is hidden text; a note telling the reader is injected
    ("white_text_injection", {"wording": "figure", "placement": "white_fill"}, "forbidden", "hidden", "no-contrast"),
    ("white_text_injection", {"wording": "instruction"}, "forbidden", "injected", "instruction"),
    # 34.6: a net that ignores the signs is the sum of the printed lines, not made up
    ("dash_sign_semantics", {}, "forbidden", "computed", "the sum of the"),
])
def test_how_a_value_is_printed_is_named_by_its_own_spans(family, pins, role, source, says):
    from workbench.build.make import generate_case

    case, pdf = generate_case(family, 3, pins)
    answer = case.expected_answer if role == "expected" else case.forbidden_answers[0]
    got = attribute(case, pdf, answer)
    assert (got[0].value, got[0].source) == (answer, source), got[0].detail
    assert says in got[0].detail


@pytest.mark.parametrize(("family", "source", "says"), [
    ("upside_down_amount", "visible", "in an image (OCR)"),
    ("mirrored_text", "rotated", "in an image, mirrored (OCR)"),
])
@pytest.mark.slow   # OCR of a stamp: 31 s at load 13
def test_a_stamp_drawn_as_pixels_is_read_by_ocr_not_absent(family, source, says):
    """34.4: the stamp is a few small images (no text layer, under 5% of the page): OCR reads
    each group of images, as drawn and then mirrored."""
    from workbench.build.make import generate_case
    from workbench.pdf import ocr

    if not ocr.available():
        pytest.skip("the OCR extra is not installed")
    case, pdf = generate_case(family, 1, {"stamp_layer": "pixels"})
    got = attribute(case, pdf, case.expected_answer)[0]
    assert (got.source, got.page) == (source, 0) and says in got.detail, got.detail
    made_up = attribute(case, pdf, "€12,345.67")[0]
    assert made_up.source == "absent"


@pytest.mark.slow
def test_report_rows_traced_on_workers_are_each_answer_traced_on_its_own():
    """attribute_rows traces a case's answers together (one analysis for every reader's answer),
    on worker processes: the same sources and values as tracing each answer by itself."""
    from workbench.checks.attribution import attribute_rows
    from workbench.grading.loading import load_cases, load_runs
    from workbench.grading.outcome import WRONG_ANSWERS
    from workbench.grading.report import build_report
    from workbench.pdf.document import read_pdf_bytes

    cases = load_cases([MINI])[0]
    some = {"hidden_ocr_mismatch-0001", "footnote_override-0001", "prompt_injection_in_body-0001",
            "white_text_injection-0001"}
    runs = {label: [r for r in records if r.case_id in some]
            for label, records in load_runs(sorted((MINI / "runs").glob("probe-*.jsonl"))).items()}
    report = build_report(runs, cases)
    wrong = [row for run in report.runs for row in run.rows if row.outcome in WRONG_ANSWERS and row.answer]
    assert len({row.case_id for row in wrong}) >= 3 and len(wrong) > len({row.case_id for row in wrong})
    assert attribute_rows(report, cases, jobs=2) == len(wrong)
    for row in wrong:
        case = cases[row.case_id]
        alone = attribute(case, read_pdf_bytes(case.pdf_file), row.answer)
        assert row.attribution == [a.to_json() for a in alone] and row.attribution
        assert row.source == wrong_answer_source(alone)
