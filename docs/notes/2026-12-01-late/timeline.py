# Timeline of the workbench's first page (a measurement script, not part of the package):
#   AHEAD=1 python timeline.py PATH   (AHEAD: as `open` starts, with the first page's process)
#   SAMPLE=1 also samples the main thread's stack every 2 ms (sampler.py beside it).
"""Timeline of the first page: wrap functions and print (start, end) from process start."""
import time
START = time.time()
import asyncio, sys, threading, functools, os
from pathlib import Path
EV = []
exec(open(os.path.join(os.path.dirname(__file__), 'sampler.py')).read()) if os.environ.get('SAMPLE') else None
def wrap(obj, name, label=None):
    f = getattr(obj, name)
    @functools.wraps(f)
    def g(*a, **k):
        t0 = time.time()
        try:
            return f(*a, **k)
        finally:
            EV.append((t0 - START, time.time() - START, label or name, threading.current_thread().name))
    setattr(obj, name, g)
from workbench.core.source import open_source
import os
from workbench.tui import firstpage
FIRST = firstpage.start(Path(sys.argv[1])) if os.environ.get("AHEAD") else None
STOP = start() if os.environ.get("SAMPLE") else None
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.page_view import PageView
import workbench.tui.widgets.page_view as pv
SOURCE = (FIRST.source() if FIRST else None) or open_source(Path(sys.argv[1]))
import workbench.tui.screens.inspect as ins
import workbench.tui.case_data as cd
import workbench.pdf.document as doc
T_IMP = time.time() - START
wrap(ins, "open_case_data"); wrap(ins, "finish_case_data"); wrap(doc, "read_pdf_bytes")
ins.read_pdf_bytes = doc.read_pdf_bytes if hasattr(ins, "read_pdf_bytes") else None
wrap(pv, "render_view")
wrap(ins.InspectScreen, "_refresh_verdict_marks"); wrap(ins.InspectScreen, "on_case_opened")
wrap(ins.InspectScreen, "compose"); wrap(ins.InspectScreen, "on_mount"); wrap(ins.InspectScreen, "page_shown")
wrap(ins.InspectScreen, "on_case_loaded"); wrap(pv.FastHalfcellRenderer, "picture"); wrap(pv.PageView, "_show_rendered"); wrap(ins.InspectScreen, "_load"); import workbench.tui.widgets.case_list as cl; wrap(cl.CaseList, "rebuild"); wrap(cl.CaseList, "move_cursor")
seen = {}
def hook(m):
    k = type(m).__name__
    if k not in seen: seen[k] = time.time() - START
async def main(path):
    app = WorkbenchApp(SOURCE)
    async with app.run_test(size=(160, 48), message_hook=hook) as pilot:
        while True:
            try: v = app.screen.query_one(PageView)
            except Exception: v = None
            if v is not None and v.rendered_page is not None: break
            await asyncio.sleep(0.002)
        first = time.time() - START
        await asyncio.sleep(1.5)
        app.exit()
    return first
first = asyncio.run(main(sys.argv[1]))
print(f"imports end {T_IMP:.3f}; first page {first:.3f}; cpu {time.process_time():.2f}")
rows = [(s, e, l, t) for s, e, l, t in EV] + [(v, v, "msg " + k, "") for k, v in seen.items() if k in ("Ready", "CaseOpened", "PageShown", "CaseLoaded", "Selected", "ScreenResume")]
for s, e, l, t in sorted(rows):
    if s < first + 1.2: print(f"{s:6.3f} {e:6.3f} {1000*(e-s):6.0f}ms {l} {t}")

if STOP is not None:
    STOP.set()
    if os.environ.get("W0") == "auto":
        w0, w1 = seen.get("Ready", 0), seen.get("CaseOpened", 9)
    else:
        w0 = float(os.environ.get("W0", "0")); w1 = float(os.environ.get("W1", "9"))
    report(w0, w1, START)
