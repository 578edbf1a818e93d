"""Author's previews (workbench/tui/screens/author_preview.py): the pypdf layer and the page image
come from the helper process, which ends with the screen. (Moved from tests/tui/test_author.py.)"""

from __future__ import annotations

import pytest

from tests.support.author import show_tab, start, type_into
from tests.support.fixtures import AUTHOR_DEBOUNCE, ONE_CASE, helper_started, processes_end, settle
from workbench.build.authoring import Draft
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp

SIZE = (160, 48)


@pytest.mark.slow   # (as in test_author.py) the Author screen regenerates a case per change
async def test_the_pypdf_layer_and_page_come_from_the_helper_process_which_ends_with_the_screen():
    import asyncio

    import pytest

    from workbench.core.pool import cores
    from workbench.pdf.textlayer import pypdf_page_text

    if cores() < 2:
        pytest.skip("the helper process is started on a machine of two cores or more")
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 3))
        helper = screen._helper
        assert helper is not None
        await asyncio.to_thread(helper_started, helper)
        handed: list[int] = []
        submit = helper.submit

        def spy(fn, *args):
            future = submit(fn, *args)
            handed.append((fn.__name__, args[1] if fn.__name__ == "pypdf_page_text" else None))
            return future

        helper.submit = spy
        await type_into(pilot, "#value-vendor", "Helper Read Ltd")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        # Page 1's layer and the page's image were made by the helper, the layer first (the
        # analysis waits for it; the image is wanted only once the page is analysed).
        assert handed[-2:] == [("pypdf_page_text", 0), ("raster_for", None)]
        assert screen.page.rendered_page == 0
        assert "Helper Read Ltd" in await show_tab(pilot, "author-tab-pypdf")
        assert screen.data.layers["pypdf"][0] == pypdf_page_text(screen.preview.pdf, 0)
        processes = list(helper._pool._processes.values())
        assert processes and all(p.is_alive() for p in processes)
        app.pop_screen()
        await pilot.pause()
        # each process's end, awaited (at most 60 s in all: a loaded 2-core machine took over 10 s)
        assert await asyncio.to_thread(processes_end, processes, 60)
        assert screen._helper is None


# ---- the preview built without the TUI (fast) ----------------------------------------------------

def test_a_preview_is_built_with_its_data_and_a_scan_with_its_clean_page():
    from workbench.build.authoring import Draft
    from workbench.core.scan import DegradeSpec
    from workbench.generators.registry import registry
    from workbench.tui.screens.author_preview import build_preview

    family = registry().get("hidden_ocr_mismatch")
    plain = build_preview(family, Draft("hidden_ocr_mismatch", 2), 72, None, "scan", None, lambda: False)
    assert plain.clean is None and plain.ahead is None and plain.data.case.seed == 2
    assert plain.data.findings == [] or all(f.severity != "error" for f in plain.data.findings)
    scan = DegradeSpec.parse({"tier": "clean", "text_layer": "none", "dpi": 72})   # (no layer: no OCR)
    built = build_preview(family, Draft("hidden_ocr_mismatch", 2, degrade=scan), 72, None, "scan", None,
                          lambda: False)
    assert built.clean is not None and built.clean.case.degrade is None
    assert built.data.pdf != built.clean.pdf and built.clean.pdf == plain.data.pdf
    assert build_preview(family, Draft("hidden_ocr_mismatch", 2), 72, None, "scan", None, lambda: True) is None
