"""--verbose, --quiet and library warnings (workbench/cli/logs.py), run as a user would, in a new
process: our messages as they are, a library's repeated warning once with a count, -vv each as it
happens, HTTP requests at -v and never a key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import PLANTED
from tests.support.cli import run_command as run


def _cff_pdf(path: Path, pages: int) -> None:
    """A pypdf-written PDF whose every page uses a CFF font: pypdf warns "fontTools is required"
    once per page when fontTools is missing (the 117-page report printed 1,412 of them)."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    w = PdfWriter()
    for i in range(pages):
        page = w.add_blank_page(200, 200)
        ff = DecodedStreamObject()
        ff.set_data(b"\x01\x00\x04\x01")
        ff[NameObject("/Subtype")] = NameObject("/Type1C")
        desc = DictionaryObject({NameObject("/Type"): NameObject("/FontDescriptor"),
                                 NameObject("/FontName"): NameObject("/Fake"),
                                 NameObject("/FontFile3"): w._add_object(ff)})
        font = DictionaryObject({NameObject("/Type"): NameObject("/Font"),
                                 NameObject("/Subtype"): NameObject("/Type1"),
                                 NameObject("/BaseFont"): NameObject("/Fake"),
                                 NameObject("/FontDescriptor"): w._add_object(desc)})
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): w._add_object(font)})})
        content = DecodedStreamObject()
        content.set_data(f"BT /F1 12 Tf 20 100 Td (page {i}) Tj ET".encode())
        page[NameObject("/Contents")] = w._add_object(content)
    with open(path, "wb") as fh:
        w.write(fh)


@pytest.fixture(scope="module")
def cff_pdf(tmp_path_factory):
    try:
        import fontTools  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("fontTools is installed: pypdf has nothing to warn about")
    path = tmp_path_factory.mktemp("cff") / "cff.pdf"
    _cff_pdf(path, 25)
    return path


def test_repeated_library_warnings_are_shown_once_with_a_count(cff_pdf):
    proc = run("inspect", cff_pdf)
    assert proc.returncode == 0, proc.stderr
    lines = sorted(ln for ln in proc.stderr.splitlines() if ln)
    # One line per library and message: pypdf's, and MuPDF's about the same fake font (which
    # pymupdf used to print into stdout, among the pages).
    assert len(lines) == 2, proc.stderr
    assert lines[0].startswith("pdfworkbench: warning: pymupdf: MuPDF error: ") and "Fake" in lines[0]
    assert lines[1].startswith("pdfworkbench: warning: pypdf: fontTools is required")
    assert all(line.endswith("(25 times)") for line in lines)
    assert "page 24" in proc.stdout and "MuPDF" not in proc.stdout


def test_very_verbose_shows_every_library_warning_as_it_happens(cff_pdf):
    proc = run("-vv", "inspect", cff_pdf)
    assert proc.stderr.count("fontTools is required") == 25
    assert "times)" not in proc.stderr


@pytest.mark.slow   # three commands in processes of their own (build, run, run): 2.2 s of CPU
def test_quiet_hides_progress_but_keeps_results(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text('name = "q"\n[[families]]\nname = "footnote_override"\nseeds = [1]\n')
    built = run("build", spec, "--out", tmp_path / "s", "--quiet")
    assert built.returncode == 0 and built.stderr == "" and "built 1 cases" in built.stdout
    ran = run("run", tmp_path / "s", "--reader", "probe:pypdf", "-q",
              env={"PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache")})
    assert ran.returncode in (0, 1) and "run file:" not in ran.stderr and "done" not in ran.stderr
    noisy = run("run", tmp_path / "s", "--reader", "probe:pypdf", "--out", tmp_path / "again.jsonl",
                env={"PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache")})
    assert "run file:" in noisy.stderr


def test_verbose_shows_http_requests_and_never_a_key(tmp_path):
    from workbench.providers.fakeserver import FakeServer

    spec = tmp_path / "spec.toml"
    spec.write_text('name = "v"\n[[families]]\nname = "footnote_override"\nseeds = [1]\n')
    assert run("build", spec, "--out", tmp_path / "s").returncode == 0
    with FakeServer() as server:
        # The fake's 401 echoes the key it got, as careless servers do.
        proc = run("-v", "run", tmp_path / "s", "--reader", "openai:fake+401xall", "--out", tmp_path / "r.jsonl",
                   env={"OPENAI_API_KEY": PLANTED, "OPENAI_BASE_URL": server.url + "/v1",
                        "PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache")})
    assert "httpx: INFO: HTTP Request: POST" in proc.stderr and "run: 1 case(s)" in proc.stderr
    assert PLANTED not in proc.stderr + proc.stdout
    assert PLANTED not in (tmp_path / "r.jsonl").read_text()


def test_verbose_flag_goes_before_or_after_the_command():
    for argv in (["-v", "families"], ["families", "-v"], ["families", "--verbose"], ["--quiet", "families"]):
        proc = run(*argv)
        assert proc.returncode == 0 and "footnote_override" in proc.stdout, argv
