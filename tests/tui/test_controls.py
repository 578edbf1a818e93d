"""The workbench's screen and a hostile text layer (tui/controls.py): opening the pypdf tab of a
PDF whose layer holds escape sequences sent them to the terminal (the terminal's title became
PWNED and the screen was cleared). The pane draws them as pictures; nothing the screen writes
holds one."""

from __future__ import annotations

from tests.support.fixtures import settle
from tests.support.hostile_corpus import escape_layer_pdf
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.text_layers import TextLayerView


async def test_a_layer_of_escape_sequences_is_shown_as_pictures_and_never_sent(tmp_path):
    pdf = tmp_path / "escapes.pdf"
    pdf.write_bytes(escape_layer_pdf())
    app = WorkbenchApp(open_source(pdf))
    written: list[str] = []
    display = app._display

    def frame(screen, update) -> None:   # each frame as the terminal would get it
        if update is not None:
            written.append(update.render_segments(app.console))
        display(screen, update)

    app._display = frame
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("[")   # the tab before pymupdf's: pypdf's
        await settle(pilot)
        layer = app.screen.query_one("#text-pypdf", TextLayerView)
        assert layer.plain.startswith("Total \x1b]0;PWNED")   # (the layer itself is kept as it is)
    shown = "".join(written)
    assert "Total ␛]0;PWNED␇␛[2J␛[31m 42.00" in shown   # the pane was drawn with its pictures...
    assert "\x1b]0;" not in shown and "\x07" not in shown and "\x1b[2J" not in shown   # ...and sent nothing


def test_no_line_the_screen_draws_sends_a_control_character():
    """Whatever pane shows outside text (a case's question, an answer, a finding), the line drawn
    leaves its control characters out: they take no cell, so the line keeps its width."""
    from rich.console import Console
    from rich.segment import Segment
    from textual.strip import Strip

    from workbench.tui.controls import drop_controls_from_screen

    drop_controls_from_screen()
    line = Strip([Segment("Q: total?\x1b]0;HACKED\x07\x9b2J"), Segment(" ok")])
    assert line.cell_length == len("Q: total?]0;HACKED2J ok")
    out = line.render(Console(color_system="truecolor"))
    assert out == "Q: total?]0;HACKED2J ok"
    # a picture drawn in Sixel (`--graphics hires`, textual-image): its line holds a control
    # segment, and its cursor moves and picture data go out as they are
    from rich.segment import ControlType
    from rich.style import Style

    sixel = [Segment("\x1b[6;3H", Style()), Segment("\x1bPq#0;2;0;0;0#0~~\x1b\\", Style(),
                                                      ((ControlType.CURSOR_FORWARD, 0),)),
             Segment("\x1b[12;40H", Style())]
    assert Strip(sixel, cell_length=37).render(Console()) == "".join(s.text for s in sixel)


async def test_a_pdf_opened_by_a_name_that_looks_like_markup_is_titled_by_that_name(tmp_path):
    """The page pane's title is the case's id, a bare PDF's file name: as markup, a name such as
    `[@click=app.quit]Q.pdf` made its title a link that quit the workbench when clicked."""
    pdf = tmp_path / "[@click=app.quit]Q[b].pdf"
    pdf.write_bytes(escape_layer_pdf())
    app = WorkbenchApp(open_source(pdf))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        from textual.content import Content

        from workbench.tui.widgets.page_view import PageView

        title = app.screen.query_one(PageView).border_title   # (Textual reads a title as markup)
        assert Content.from_markup(title).plain == "[@click=app.quit]Q[b]"


async def test_a_notification_quoting_an_answer_is_plain_text_never_markup(tmp_path):
    """The workbench's notifications quote answers, PDF text and file names: as Textual markup, a
    provider's answer `[@click=app.quit]...` was a link in the toast that ran the action."""
    pdf = tmp_path / "escapes.pdf"
    pdf.write_bytes(escape_layer_pdf())
    app = WorkbenchApp(open_source(pdf))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        answer = "[@click=app.quit]Total $1,234.56[/] [red]"
        app.screen.notify(f"openai:gpt-4o: {answer}")   # as the Answers flow says an answer that came
        await pilot.pause()
        (note,) = [n for n in app._notifications if answer in n.message]
        assert note.markup is False
        assert app.is_running


async def test_an_answer_holding_markup_is_a_row_of_the_runs_table_as_it_is(tmp_path, cli):
    """The Runs table read a plain string cell as markup, and a row's reason quotes the answer: a
    model's answer (or, for a probe, a PDF's text) holding "[/]" crashed the workbench (a
    MarkupError, exit 1) as the Runs screen opened."""
    import json
    import shutil

    from textual.widgets import DataTable

    from tests.support.fixtures import SAMPLE

    suite = tmp_path / "suite"
    suite.mkdir()
    # (one case of the sample suite: the whole suite's lint, 6 s of CPU, is not what is tested)
    for name in ("footnote_override-0001.json", "footnote_override-0001.pdf", "spec.toml"):
        shutil.copy(SAMPLE / name, suite / name)
    answer = "oops [/] the total is [@click=app.quit]here[/]"
    preds = tmp_path / "preds.jsonl"
    # (a case of printed text: on a scan the answer's source is looked for by OCR, 3-9 s here)
    preds.write_text(json.dumps({"id": "footnote_override-0001", "prediction": answer}) + "\n")
    code, _, err = cli("import-run", preds, "--suite", suite, "--reader", "evil:markup",
                       "--out", suite / "runs" / "evil.jsonl")
    assert code == 0, err
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        table = app.screen.query_one("#runs-table", DataTable)
        reasons = [str(cell) for row in table.rows for cell in [table.get_row(row)[-1]]]
        # (the reason is cut to the width the other columns leave: the markup shows as written)
        assert any("oops [/] the total is [@click=app." in r for r in reasons), reasons
        assert app.is_running
