"""The command table: every command in the order `pdfworkbench --help` lists it, with its line
there, the function that declares its options and the function that runs it.

Both are named as "module:function" and imported only when that command is parsed or run, so
`pdfworkbench --help` (the lines below) imports no command's code, `pdfworkbench grade` imports
its options and `workbench.cli.grade` alone, and each command's module imports what it needs at
its top. Option modules (`workbench.cli.parsers`) hold argparse calls only, so a parser of every
command (completion, `COMMAND --help` of each in the tests) stays light.

A command with actions (`dispute add`, `config show`) maps each action to its function; its
options function makes the actions' parsers.
"""

from __future__ import annotations

import importlib


class Command:
    """One row of the table (a plain class: `--help` reads the table and pays for nothing more)."""

    __slots__ = ("help", "light", "name", "options", "run")

    def __init__(self, name: str, help: str, options: str, run: str | dict[str, str], light: bool = False) -> None:
        self.name = name          # the word typed
        self.help = help          # its line in `pdfworkbench --help` (argparse's %-format: '%%' is '%')
        self.options = options    # "module:function(parser)" that adds its options
        self.run = run            # "module:function(args) -> exit code", or action -> that
        # A one-shot command that loads no library unless an option asks for one: it runs without
        # the logging set-up (`logging` is a tenth of its start) and enters it (`cli.logs.
        # cli_logging`) itself where a library loads (`grade --explain`).
        self.light = light

    def target(self, action: str | None = None) -> str:
        """The "module:function" that runs this command (or its `action`)."""
        if isinstance(self.run, str):
            return self.run
        return self.run[action or ""]


_CASES = "workbench.cli.parsers.cases"
_GRADING = "workbench.cli.parsers.grading"
_READERS = "workbench.cli.parsers.readers"
_GOLD = "workbench.cli.parsers.gold"
_APP = "workbench.cli.parsers.app"

COMMANDS: tuple[Command, ...] = (
    Command("families", "list the trap families", f"{_CASES}:families", "workbench.cli.families:cmd_families"),
    Command("make", "generate one case: <id>.pdf and <id>.json", f"{_CASES}:make", "workbench.cli.make:cmd_make"),
    Command("build", "materialise a suite from a TOML spec", f"{_CASES}:build", "workbench.cli.suites:cmd_build"),
    Command("merge-suite", "merge a sharded build's shard manifests into suite.json", f"{_CASES}:merge_suite",
            "workbench.cli.suites:cmd_merge_suite"),
    Command("verify", "regenerate every case of a suite and compare bytes and keys", f"{_CASES}:verify",
            "workbench.cli.suites:cmd_verify"),
    Command("inspect", "page sizes and text layers of a PDF or a case", f"{_CASES}:inspect",
            "workbench.cli.inspection:cmd_inspect"),
    Command("adopt", "make a case from any PDF: copied into a suite, keyed by hand", f"{_CASES}:adopt",
            "workbench.cli.adopt:cmd_adopt"),
    Command("mutate", "arm a trap in an adopted case: hidden_layer, white_text, ...", f"{_CASES}:mutate",
            "workbench.cli.adopt:cmd_mutate"),
    Command("lint", "check every case's arming contract against what is visible and hidden on its pages",
            f"{_CASES}:lint", "workbench.cli.lint:cmd_lint"),
    Command("grade", "grade one answer against a case's key (exit 0 if correct, 1 if not); "
                     "--batch grades many in one process", f"{_GRADING}:grade", "workbench.cli.grade:cmd_grade",
            light=True),
    Command("report", "score run records against their answer keys", f"{_GRADING}:report",
            "workbench.cli.report:cmd_report"),
    Command("compare", "paired comparison of two runs on the same suite: flips each way, "
                       "exact McNemar test, the difference in pass rate with its 95%% interval",
            f"{_GRADING}:compare", "workbench.cli.compare:cmd_compare"),
    Command("export", "write a suite for another harness: Inspect AI, or a Hugging Face dataset",
            f"{_GRADING}:export", "workbench.cli.export:cmd_export"),
    Command("import-run", "turn a pdfhell run JSON, an Inspect eval log or a JSONL of "
                          "predictions into run records (provenance imported)",
            f"{_GRADING}:import_run", "workbench.cli.import_run:cmd_import_run"),
    Command("run", "ask every case of a suite with one reader; write a run file", f"{_READERS}:run",
            "workbench.cli.run:cmd_run"),
    Command("ask", "ask one case's question (or your own) of one reader; record it in a run file",
            f"{_READERS}:ask", "workbench.cli.ask:cmd_ask"),
    Command("readers", "list readers and whether their keys are set", f"{_READERS}:readers",
            "workbench.cli.readers:cmd_readers"),
    Command("fake-server", "serve a fake model provider on 127.0.0.1 (tests, CI dry runs)",
            f"{_READERS}:fake_server", "workbench.cli.fake_server:cmd_fake_server"),
    Command("mcp", "serve a case's four agent tools over MCP (stdio, or streamable HTTP "
                   "on 127.0.0.1 with --http); record the client's submission in a run file",
            "workbench.cli.mcp:options", "workbench.cli.mcp:cmd_mcp"),
    Command("exposure", "per case and extractor: does its text hold the expected "
                        "answer, the trap's, both or neither",
            "workbench.cli.exposure:options", "workbench.cli.exposure:cmd_exposure"),
    Command("batch", "poll, collect or cancel a run's provider batches (run --batch)", f"{_READERS}:batch",
            {"status": "workbench.cli.batch:cmd_status", "cancel": "workbench.cli.batch:cmd_cancel"}),
    Command("dispute", "open, list, show and decide gold disputes", f"{_GOLD}:dispute",
            {"add": "workbench.cli.gold:cmd_dispute_add", "list": "workbench.cli.gold:cmd_dispute_list",
             "show": "workbench.cli.gold:cmd_dispute_show", "decide": "workbench.cli.gold:cmd_dispute_decide"}),
    Command("gold", "gold versions of a suite, and export of gold keys", f"{_GOLD}:gold",
            {"versions": "workbench.cli.gold:cmd_versions", "export": "workbench.cli.gold:cmd_export"}),
    Command("regrade", "regrade saved answers against a gold version, no model call", f"{_GOLD}:regrade",
            "workbench.cli.gold:cmd_regrade"),
    Command("audit-hints", "gold values the question or schema gives away; exit 1 if any",
            f"{_GOLD}:audit_hints", "workbench.cli.gold:cmd_audit_hints"),
    Command("new-family", "write a new trap family module from the template", f"{_CASES}:new_family",
            "workbench.cli.new_family:cmd_new_family"),
    Command("open", "open the workbench on a suite, a case JSON, a PDF or a run (default)", f"{_APP}:open_",
            "workbench.cli.app:cmd_open"),
    Command("serve", "serve the workbench to a web browser (textual-serve), behind a token", f"{_APP}:serve",
            "workbench.cli.serve:cmd_serve"),
    Command("config", "show, locate and edit the settings (config.json, readers.toml)", f"{_APP}:config",
            {"show": "workbench.cli.config:cmd_show", "path": "workbench.cli.config:cmd_path",
             "edit": "workbench.cli.config:cmd_edit", "keys": "workbench.cli.config:cmd_keys",
             "limits": "workbench.cli.config:cmd_limits", "cache": "workbench.cli.config:cmd_cache"}),
    Command("completion", "print the shell completion script for bash, zsh or fish", f"{_APP}:completion",
            "workbench.cli.completion:cmd_completion"),
)

BY_NAME = {c.name: c for c in COMMANDS}


def resolve(target: str):
    """The function a table entry names ("module:function"), its module imported now."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)
