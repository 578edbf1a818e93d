"""The HTML report in a real browser: headless Chromium (the Debian `chromium` package) opens the
file from disk with the network off. Nothing may be requested but the file itself, nothing may
be logged as an error, the charts must be drawn and the filters must change what is shown. On a
failure the screenshot is saved in pytest's tmp folder and its path is in the message.

Skipped, with the reason, where Chromium or the playwright package is missing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support.fixtures import SAMPLE, needs

CHROMIUM = os.environ.get("PDFWORKBENCH_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                 reason="no Chromium (apt-get install chromium): the browser tests need it"),
              needs("playwright", reason="the browser tests drive Chromium with playwright"),
              needs("vl_convert", reason="the HTML report needs the report extra (vl-convert-python)"),
              pytest.mark.slow]   # a real browser: 15 s for 3 at load 10

# Flags that keep Chromium from reaching anywhere on its own (updates, sync, QUIC probes).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions"]


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    from workbench.cli import main

    out = tmp_path_factory.mktemp("html") / "report.html"
    code = main(["report", *map(str, sorted((SAMPLE / "runs").glob("*.jsonl"))), "--html", str(out),
                 "--jobs", "1", "-q"])
    assert code == 0 and out.exists()
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        b = p.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=FLAGS,
                                                 headless=True, offline=True)
        yield b
        b.close()


class Page:
    """A page opened on the report, recording every request and console message."""

    def __init__(self, context, url: str, tmp_path: Path, width: int = 1280, scheme: str = "light") -> None:
        self.page = context.new_page()
        self.page.set_viewport_size({"width": width, "height": 900})
        self.page.emulate_media(color_scheme=scheme)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.tmp_path = tmp_path
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_load_state("load")

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            shot = self.tmp_path / "report-failure.png"
            self.page.screenshot(path=str(shot), full_page=False)
            pytest.fail(f"{what} (screenshot: {shot})")


def test_the_report_loads_offline_fetches_nothing_and_draws_its_charts(browser, report_file, tmp_path):
    view = Page(browser, report_file.as_uri(), tmp_path)
    view.check(view.requests == [report_file.as_uri()], f"requests other than the file: {view.requests}")
    view.check(view.errors == [], f"console errors: {view.errors}")
    for chart in ("chart-pass", "chart-heat", "chart-outcomes"):
        box = view.page.locator(f"#{chart} svg").bounding_box()
        view.check(box is not None and box["width"] > 200 and box["height"] > 30, f"{chart} not drawn: {box}")
    bars = view.page.locator("#chart-pass svg .layer_0_marks path").count()   # the bars; then whiskers
    view.check(bars == 2, f"expected one bar per reader in the pass-rate chart, found {bars}")
    # every crop's image came from the page itself (a data: URL), and is drawn
    crops = view.page.evaluate("""Array.from(document.querySelectorAll('.crop')).map(
        e => [getComputedStyle(e).backgroundImage.slice(0, 27), e.getBoundingClientRect().height])""")
    view.check(crops and all(bg == 'url("data:image/png;base64,' and h > 20 for bg, h in crops),
               f"crops without their image: {crops[:3]}")
    view.page.close()


def test_the_filters_change_what_is_shown(browser, report_file, tmp_path):
    view = Page(browser, report_file.as_uri(), tmp_path)
    shown = view.page.locator("#shown")
    total = view.page.locator(".answer").count()
    view.check(shown.inner_text() == f"{total} of {total} shown", f"before filtering: {shown.inner_text()}")
    view.page.select_option("select[name=verdict]", "trap")
    traps = view.page.locator(".answer:not([hidden])").count()
    visible = view.page.locator('.answer:not([hidden])[data-verdict="trap"]').count()
    view.check(0 < traps < total and traps == visible, f"verdict=trap shows {traps} of {total}")
    view.check(shown.inner_text() == f"{traps} of {total} shown", shown.inner_text())
    view.page.select_option("select[name=reader]", "probe-pypdf")
    both = view.page.locator(".answer:not([hidden])").count()
    view.check(0 < both <= traps, f"trap and probe-pypdf shows {both}")
    cards = view.page.locator(".card:not([hidden])").count()
    view.check(cards == view.page.locator(".card:not([hidden]) .answer:not([hidden])").count(),
               "a card stays shown with none of its answers")
    view.page.select_option("select[name=family]", "hidden_ocr_mismatch")
    view.page.select_option("select[name=reader]", "")
    view.page.select_option("select[name=verdict]", "")
    fam = view.page.locator(".card:not([hidden])").evaluate_all("cs => cs.map(c => c.dataset.family)")
    view.check(fam and set(fam) == {"hidden_ocr_mismatch"}, f"family filter shows {set(fam)}")
    view.check(view.errors == [], f"console errors: {view.errors}")
    view.page.close()


def test_a_phone_width_needs_no_sideways_scrolling_in_dark_mode(browser, report_file, tmp_path):
    view = Page(browser, report_file.as_uri(), tmp_path, width=390, scheme="dark")
    width = view.page.evaluate("document.documentElement.scrollWidth")
    view.check(width <= 390, f"the page is {width} px wide at 390")
    bg = view.page.evaluate("getComputedStyle(document.body).backgroundColor")
    view.check(bg == "rgb(20, 24, 28)", f"dark background expected, got {bg}")
    view.page.close()
