"""Which text layer each extractor exposes (providers/exposure.py): a case's state for a text, and
the matrix `pdfworkbench exposure` prints."""

from __future__ import annotations

from tests.support.fixtures import SAMPLE
from workbench.core.suite import load_suite
from workbench.grading.needles import expected_needles
from workbench.providers import exposure, pagetexts


def test_an_extraction_case_is_exposed_by_the_values_its_page_shows():
    """An extraction's key is a JSON object, which no extractor's text holds: exposure looks for the
    values the page shows (the vendor's number and the total), as the olmOCR-bench export does."""

    case = load_suite(SAMPLE).case("invoice_extraction-0001")
    phone, total, decoy = (case.metadata[k] for k in ("vendor_phone", "total", "decoy"))
    assert expected_needles(case) == [phone, total]
    assert exposure.exposure_state(case, f"Tel {phone}\nTOTAL {total}") == "expected"
    assert exposure.exposure_state(case, f"Tel {decoy}\nTOTAL {total}") == "forbidden"
    text = pagetexts.page_text("pypdf", case.pdf_file.read_bytes(), 1)
    assert exposure.exposure_state(case, text) == "both"   # the decoy is printed too: a faithful text holds both
