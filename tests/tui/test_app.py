"""The workbench as a user debugging a failed run drives it: Pilot tests on what the screen shows."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.support.fixtures import screen_text, settle, until
from workbench.core.config import config_path
from workbench.core.layout import ASK_RUN, RUNS_DIR
from workbench.core.runs import RunWriter, iter_records
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.ask import AskScreen
from workbench.tui.screens.inspect import InspectScreen
from workbench.tui.screens.runs import RunsScreen
from workbench.tui.widgets.answers import AnswersView
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView

SIZE = (160, 48)


async def _probe_run(suite) -> None:
    """A real run of the pymupdf probe over the suite, written as the CLI would."""
    from workbench.providers.reading import read

    run = suite / RUNS_DIR / "probe.jsonl"
    with RunWriter(run) as writer:
        for case in open_source(suite).cases:
            writer.append(await read(case, None, "probe:pymupdf", "text", None))


async def _ask(pilot, reader: str, modality: str = "text") -> None:
    await pilot.press("a")
    await pilot.pause()
    assert isinstance(pilot.app.screen, AskScreen)
    pilot.app.screen.query_one("#ask-custom").value = reader
    pilot.app.screen.query_one("#ask-modality").value = modality
    await pilot.click("#ask-send")


async def test_evidence_boxes_and_hidden_shading_toggle(suite_copy):
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        page = app.screen.query_one(PageView)
        # The printed total is pixels only, so only the hidden (forbidden) total has boxes.
        kinds = {b.kind for b in page.visible_boxes()}
        assert {"forbidden", "hidden"} <= kinds
        await pilot.press("e")
        await settle(pilot)
        assert {b.kind for b in page.visible_boxes()} == {"hidden"}
        assert "ev" not in page.border_subtitle.split(" · ")[-1]
        await pilot.press("h")
        await settle(pilot)
        assert page.visible_boxes() == []
        await pilot.press("e")
        await settle(pilot)
        assert {b.kind for b in page.visible_boxes()} == {"forbidden"}


@pytest.mark.slow
async def test_ask_a_reader_on_the_fake_server_shows_answer_and_verdict(suite_copy, monkeypatch):
    from workbench.providers.fakeserver import FakeServer

    case = open_source(suite_copy).cases[0]
    with FakeServer(script={"*": f"The total due is {case.expected_answer}."}) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url("openai"))
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
        app = WorkbenchApp(open_source(suite_copy))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await _ask(pilot, "openai:gpt-4o", "pdf")
            await settle(pilot)
            shown = screen_text(app)
            assert "✔ pass" in shown and "openai:gpt-4o" in shown
            assert f"The total due is {case.expected_answer}." in shown
    records = list(iter_records(suite_copy / RUNS_DIR / ASK_RUN))
    assert [(r.case_id, r.reader, r.status) for r in records] == [(case.id, "openai:gpt-4o", "ok")]
    assert "sk-test-not-a-real-key" not in (suite_copy / RUNS_DIR / ASK_RUN).read_text()


@pytest.mark.slow
async def test_a_missing_key_names_the_variable_and_records_nothing(suite_copy):
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _ask(pilot, "anthropic:claude-sonnet-4-5", "pdf")
        await settle(pilot)
        assert any("ANTHROPIC_API_KEY" in n.message for n in app._notifications)
        assert isinstance(app.screen, InspectScreen)
    assert not (suite_copy / RUNS_DIR / ASK_RUN).exists()


@pytest.mark.slow
async def test_cancel_a_slow_call(suite_copy, monkeypatch):
    from workbench.providers.fakeserver import FakeServer

    with FakeServer(latency_s=20) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url("openai"))
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        app = WorkbenchApp(open_source(suite_copy))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await _ask(pilot, "openai:gpt-4o", "text")
            assert await asyncio.to_thread(server.wait_for_requests, 1, 60)
            assert app.screen.asking
            await until(pilot, lambda: "esc cancels · asking openai:gpt-4o" in screen_text(app))
            assert "esc cancels · asking openai:gpt-4o" in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: not app.screen.asking
                        and any("cancelled" in n.message for n in app._notifications))
            assert not app.screen.asking
            assert any("cancelled" in n.message for n in app._notifications)
    assert not (suite_copy / RUNS_DIR / ASK_RUN).exists()


@pytest.mark.slow
async def test_probe_answer_then_run_report_then_jump_to_a_trapped_case(suite_copy):
    await _probe_run(suite_copy)
    cases = open_source(suite_copy).cases
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # The pymupdf probe reads the hidden total: every case is marked as fallen for the trap.
        assert {o.kind for o in app.screen.query_one(CaseList).outcomes.values()} == {"trap"}
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RunsScreen)
        shown = screen_text(app)
        assert "probe:pymupdf" in shown and "fell for the trap" in shown.lower()
        await pilot.press("f", "f")  # all -> failures -> trap
        await settle(pilot)
        assert app.screen.filter == "trap"
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, InspectScreen)
        assert app.screen.current.id == cases[1].id
        answers = app.screen.query_one(AnswersView)
        assert answers.selected_index() == 0
        shown = screen_text(app)
        assert "fell for trap" in shown and cases[1].forbidden_answers[0] in shown


async def test_runs_screen_filters_wrong_answers_by_where_they_came_from(suite_copy):
    await _probe_run(suite_copy)
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        for _ in range(600):  # tracing takes a few seconds; under load much longer
            await pilot.pause(0.1)
            if screen.sources:
                break
        # The pymupdf probe read every hidden total: each wrong answer is traced to hidden text.
        assert set(screen.sources.values()) == {"hidden"}
        assert "hidden" in screen_text(app)
        await pilot.press("s")
        await settle(pilot)
        assert screen.source_filter == "hidden"
        wrong = [r for r in screen.rows if r[1].failed]
        assert len(screen.visible_rows()) == len(wrong) > 0
        assert "source: hidden" in screen.query_one("#runs-table").border_title
        await pilot.press("s")
        await settle(pilot)
        assert screen.source_filter == "" and len(screen.visible_rows()) == len(screen.rows)


async def test_failures_only_and_text_filter(suite_copy):
    await _probe_run(suite_copy)
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        cases = app.screen.query_one(CaseList)
        await pilot.press("slash")
        await pilot.press(*"0002")
        await settle(pilot)
        assert [c.id for c in cases.visible_cases()] == ["hidden_ocr_mismatch-0002"]
        assert cases.border_title == "Cases (1/3)"
        await pilot.press("escape")
        await settle(pilot)
        assert len(cases.visible_cases()) == 3
        # The box goes in at the first `/` (not before the first frame); the next `/` brings it back.
        assert not app.screen.query_one("#filter").display
        await pilot.press("slash", *"0001", "enter")
        await settle(pilot)
        assert len(app.screen.query("#filter")) == 1 and app.screen.query_one("#filter").display
        assert [c.id for c in cases.visible_cases()] == ["hidden_ocr_mismatch-0001"]


async def test_palette_offers_the_screens_commands(suite_copy):
    await _probe_run(suite_copy)
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Ask a reader", "Run lint", "Family: hidden_ocr_mismatch", "Reader: probe:pymupdf"} <= titles
        await pilot.press("r")
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert "Ask a reader" not in titles and "Run lint" not in titles


@pytest.mark.slow
async def test_theme_switch_is_remembered(suite_copy):
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.theme = "workbench-high-contrast"
        await pilot.pause()
    assert json.loads(config_path().read_text())["theme"] == "workbench-high-contrast"
    again = WorkbenchApp(open_source(suite_copy))
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "workbench-high-contrast"


async def test_user_key_remapping(suite_copy):
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(json.dumps({"keymap": {"toggle_evidence": "x"}}))
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        page = app.screen.query_one(PageView)
        await pilot.press("x")
        assert page.show_evidence is False


async def test_an_imported_pdfhell_run_opens_in_the_runs_screen(suite_copy, tmp_path, cli):
    cases = open_source(suite_copy).cases
    result = {"model": "anthropic:claude-opus-4-7", "suite": "mini", "modality": "pixels", "raster_dpi": 150,
              "cases": [
                  {"case_id": cases[0].id, "model_output": cases[0].forbidden_answers[0], "correct": False},
                  {"case_id": cases[1].id, "model_output": "", "api_error": True, "correct": False},
              ]}
    src = tmp_path / "pdfhell-run.json"
    src.write_text(json.dumps(result))
    code, _, err = cli("import-run", src, "--suite", suite_copy)
    assert code == 0, err
    app = WorkbenchApp(open_source(tmp_path / "pdfhell-run.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, RunsScreen)
        shown = screen_text(app)
        assert "imported" in shown and "fell for trap" in shown
        assert "1 errored" in shown or "errored" in shown


def _bare_pdf(folder: Path) -> Path:
    """A PDF written by pymupdf directly, as other software writes them: no key, no question."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Purchase order PO-55821 · deliver to Dock 4", fontsize=12)
    path = folder / "po.pdf"
    doc.save(path)
    doc.close()
    return path


@pytest.mark.slow
async def test_ask_your_own_question_of_a_bare_pdf_through_a_base_url_typed_in_the_dialog(tmp_path):
    """Any PDF can be asked about: the question field is editable, the base URL is typed in the
    dialog (no variable set), the record carries the prompt with that question, and both the
    question (for this PDF) and the base URL are remembered in a new session."""
    from workbench.providers.fakeserver import FakeServer

    pdf = _bare_pdf(tmp_path)
    with FakeServer(script={"*": "PO-55821"}) as server:
        app = WorkbenchApp(open_source(pdf))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("a")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, AskScreen)
            assert dialog.query_one("#ask-question").value == ""
            assert app.focused is dialog.query_one("#ask-question")
            await pilot.press(*"What")  # the field takes typing (the page keys do not)
            assert dialog.query_one("#ask-question").value == "What"
            dialog.query_one("#ask-question").value = "What is the PO number?"
            dialog.query_one("#ask-custom").value = "openai-compatible:local-model"
            await pilot.pause()
            assert "OPENAI_COMPATIBLE_BASE_URL" in str(dialog.query_one("#ask-hint").render())
            dialog.query_one("#ask-base-url").value = server.base_url("openai-compatible")
            dialog.query_one("#ask-modality").value = "pixels"
            await pilot.click("#ask-send")
            await settle(pilot)
            assert "PO-55821" in screen_text(app)
            assert app.settings.reader == "openai-compatible:local-model"  # it answered: remembered
    records = list(iter_records(tmp_path / RUNS_DIR / ASK_RUN))
    assert [(r.reader, r.status, r.answer) for r in records] == [("openai-compatible:local-model", "ok", "PO-55821")]
    assert "Question: What is the PO number?" in records[0].prompt
    assert records[0].extra["question"] == "What is the PO number?"
    saved = json.loads(config_path().read_text())
    assert saved["base_urls"] == {"openai-compatible": server.base_url("openai-compatible")}
    app = WorkbenchApp(open_source(pdf))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await pilot.pause()
        dialog = app.screen
        assert dialog.query_one("#ask-question").value == "What is the PO number?"
        assert dialog.query_one("#ask-reader").value == "openai-compatible:local-model"
        assert dialog.query_one("#ask-base-url").value == server.base_url("openai-compatible")


@pytest.mark.slow
async def test_a_reader_whose_call_failed_is_not_remembered(suite_copy):
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = app.settings.reader
        await _ask(pilot, "anthropic:claude-sonnet-4-5", "pdf")
        await settle(pilot)
        assert any("ANTHROPIC_API_KEY" in n.message for n in app._notifications)
        assert app.settings.reader == before
    if config_path().exists():
        assert json.loads(config_path().read_text()).get("reader", before) == before


@pytest.mark.slow
async def test_with_no_path_the_sample_opens_from_its_copy_and_asking_writes_there(tmp_path):
    """The shipped sample is read-only: the workbench opens the user's copy (its path in the
    title) and a probe's answer lands in the copy's runs/, never in the package."""
    from workbench.cli.app import sample_suite_path

    shipped_runs = sorted((Path(__file__).resolve().parents[2] / "sample_cases" / "mini" / "runs").iterdir())
    path = sample_suite_path()
    assert path == tmp_path / "data" / "samples" / "mini"
    app = WorkbenchApp(open_source(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert str(path) in app.screen._sub_title() or "~/" in app.screen._sub_title()
        await settle(pilot)
        await _ask(pilot, "probe:pypdf")
        await settle(pilot)
    assert [r.reader for r in iter_records(path / RUNS_DIR / ASK_RUN)] == ["probe:pypdf"]
    assert sorted((Path(__file__).resolve().parents[2] / "sample_cases" / "mini" / "runs").iterdir()) == shipped_runs


async def test_a_closed_screens_widgets_and_the_lines_they_drew_leave_memory(suite_copy):
    """Textual's style cache kept the last 1,024 widgets drawn with every line each drew
    (Textualize/textual#6665): the screens closed and the cases looked at stayed in memory for the
    session. Once the help is closed, what its widgets drew is gone."""
    import gc
    import weakref

    from textual.widget import Widget

    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert not isinstance(app.screen, InspectScreen)
        drawn = [weakref.ref(w._styles_cache) for w in app.screen.query(Widget)]
        assert len(drawn) > 10
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, InspectScreen)
        gc.collect()
        kept = [r() for r in drawn if r() is not None]
        assert not kept, f"{len(kept)} of the closed screen's {len(drawn)} widgets' lines kept"
