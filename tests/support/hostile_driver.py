"""Run several CLI commands in one interpreter and report each as JSON (a hostile-corpus helper).

    python tests/support/hostile_driver.py '[{"name": N, "commands": [[argv...], ...], "tui": PATH}, ...]'

Prints one JSON object per line: {"name", "argv", "code", "stderr", "stdout_tail", "uncaught",
"seconds"}. An exception that escapes `workbench.cli.main` is reported as "uncaught" with its
type, which the test treats as a failure (the user would have seen a traceback). With "tui", it
also opens the workbench on PATH under Pilot, presses through a few keys, and reports whether it
kept running (and its notifications), with the process's peak memory so far.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import sys


def run_cli(argv: list[str]) -> dict:
    import time

    from workbench.cli import main

    t0 = time.monotonic()
    out, err = io.StringIO(), io.StringIO()
    uncaught = None
    code = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:  # a traceback the user would have seen
            uncaught = f"{type(exc).__name__}: {str(exc)[:300]}"
    return {"argv": argv, "code": code, "stderr": err.getvalue()[-2000:],
            "stdout_tail": out.getvalue()[-500:], "uncaught": uncaught,
            "seconds": round(time.monotonic() - t0, 2)}


async def run_tui(path: str) -> dict:
    import time

    t0 = time.monotonic()
    result = await _run_tui(path)
    from tests.support.own_peak import own_peak_mb

    result["seconds"] = round(time.monotonic() - t0, 2)
    result["peak_rss_mb"] = own_peak_mb()
    return result


async def _run_tui(path: str) -> dict:
    from workbench.core.errors import UserError
    from workbench.core.source import open_source
    from workbench.tui.app import WorkbenchApp

    try:
        source = open_source(path)
    except UserError as exc:
        return {"tui": path, "refused": str(exc), "uncaught": None}
    app = WorkbenchApp(source)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            for key in ("down", "pagedown", "n", "2", "3", "1"):
                await pilot.press(key)
                await pilot.pause()
            # The password dialog's worker waits for the user (who would type or cancel): not for us.
            others = [w for w in app.workers if w.group != "password"]
            if others:  # (an empty list would mean every worker)
                await pilot.app.workers.wait_for_complete(others)
            await pilot.pause()
            notes = [str(n.message)[:200] for n in app._notifications]
            running = app.is_running
    except BaseException as exc:
        return {"tui": path, "uncaught": f"{type(exc).__name__}: {str(exc)[:300]}"}
    return {"tui": path, "uncaught": None, "notifications": notes, "running": running}


def main() -> None:
    for job in json.loads(sys.argv[1]):
        for argv in job["commands"]:
            print(json.dumps({"name": job["name"], **run_cli(argv)}), flush=True)
        if job.get("tui"):
            print(json.dumps({"name": job["name"], **asyncio.run(run_tui(job["tui"]))}), flush=True)


if __name__ == "__main__":
    main()
