"""`config show|path|edit|keys|limits` (workbench/cli/config.py): exit codes and --json on good
input and on bad; the folder, the settings shown without a key and the editor's result as a user
sees them, in a new process. The settings are the test's own (tests/conftest.py)."""

from __future__ import annotations

import json
import os
import sys

import pytest

from tests.support.cli import PLANTED, printed_json, refused
from tests.support.cli import run_command as run


def test_config_show_keys_and_limits_json(command, work):
    shown = printed_json(command("config", "show", "--json"))
    assert shown["folder"] == os.environ["PDFWORKBENCH_CONFIG_DIR"] and not shown["config_json"]["exists"]
    keys = printed_json(command("config", "keys", "--json"))
    assert {"id", "keys", "description"} <= set(keys[0]) and any(k["id"] == "help" for k in keys)
    limits = printed_json(command("config", "limits", "--json"))
    assert all(limit["value"] == limit["default"] for limit in limits)


def test_config_path_prints_the_folder_or_one_file(command, work):
    code, out, _ = command("config", "path")
    assert code == 0 and out.strip() == os.environ["PDFWORKBENCH_CONFIG_DIR"]
    code, out, _ = command("config", "path", "--file", "readers")
    assert code == 0 and out.strip().endswith("readers.toml")



@pytest.mark.skipif(sys.platform != "linux", reason="the XDG rule is Linux's; elsewhere platformdirs answers")
@pytest.mark.parametrize("xdg", [None, "", "relative/conf", "/somewhere/conf"])
def test_config_path_without_the_variable_is_the_folder_platformdirs_names(command, work, monkeypatch, xdg):
    """Read without platformdirs' import on Linux (a tenth of `grade`'s start): the same folder."""
    from platformdirs import user_config_dir

    monkeypatch.delenv("PDFWORKBENCH_CONFIG_DIR")
    if xdg is None:
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CONFIG_HOME", xdg)
    code, out, _ = command("config", "path")
    assert (code, out.strip()) == (0, user_config_dir("pdfworkbench"))

def test_config_edit_checks_what_the_editor_left(command, work, monkeypatch):
    writes = work / "editor.py"
    writes.write_text("import sys\nopen(sys.argv[2], 'w').write(sys.argv[1])\n")
    monkeypatch.setenv("VISUAL", f"{sys.executable} {writes} {json.dumps(json.dumps({'user': 'ann'}))}")
    code, out, _ = command("config", "edit")
    assert code == 0 and out.strip().endswith("config.json: ok")
    monkeypatch.setenv("VISUAL", "false")
    refused(command("config", "edit"), "exited with code 1")
    monkeypatch.setenv("VISUAL", f"{sys.executable} {writes} '{{not json'")
    refused(command("config", "edit"), "config edit")


def test_config_refuses_bad_input_in_one_line(command, work):
    refused(command("config", "path", "--file", "nosuch"), "invalid choice: 'nosuch'")
    refused(command("config", "show", "--json", "--all"), "unrecognized arguments: --all")
    refused(command("config", "limits", "--limit", "no_such_limit=3", "--json"), "no_such_limit")
    refused(command("config", "keys", "--json", "--limit", "x"), "")


@pytest.mark.slow   # five commands in processes of their own (`config keys` imports every screen): 2.8 s of CPU
def test_config_path_show_and_keys(home):
    folder = home / "config"
    assert run("config", "path").stdout.strip() == str(folder)
    assert run("config", "path", "--file", "readers").stdout.strip() == str(folder / "readers.toml")
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"theme": "workbench-light", "keymap": {"toggle_evidence": "x"}}))
    (folder / "readers.toml").write_text('[ollama]\nbase_url = "http://127.0.0.1:9"\n')
    doc = json.loads(run("config", "show", "--json", env={"OPENAI_API_KEY": PLANTED}).stdout)
    assert doc["settings"]["theme"] == "workbench-light" and doc["settings"]["keymap"] == {"toggle_evidence": "x"}
    assert doc["readers"] == {"ollama": {"base_url": "http://127.0.0.1:9"}}
    assert doc["environment"]["OPENAI_API_KEY"] is True
    text = run("config", "show", env={"OPENAI_API_KEY": PLANTED}).stdout
    assert PLANTED not in text and str(folder / "config.json") in text and "workbench-light" in text
    keys = json.loads(run("config", "keys", "--json").stdout)
    ids = {k["id"] for k in keys}
    assert {"toggle_evidence", "next_page", "quit"} <= ids
    assert len(ids) == len(keys)


def test_config_edit_runs_the_editor_and_checks_the_result(home, tmp_path):
    editor = tmp_path / "editor.py"
    editor.write_text("import json, sys\np = sys.argv[1]\nd = json.load(open(p))\nd['dpi'] = 200\n"
                      "json.dump(d, open(p, 'w'))\n")
    proc = run("config", "edit", env={"EDITOR": f"{sys.executable} {editor}", "VISUAL": ""})
    assert proc.returncode == 0, proc.stderr
    assert json.loads((home / "config" / "config.json").read_text())["dpi"] == 200
    breaker = tmp_path / "breaker.py"
    breaker.write_text("import sys\nopen(sys.argv[1], 'w').write('{not json')\n")
    proc = run("config", "edit", env={"EDITOR": f"{sys.executable} {breaker}", "VISUAL": ""})
    assert proc.returncode == 2 and "config.json" in proc.stderr and proc.stderr.count("\n") == 1
    proc = run("config", "edit", "--readers", env={"EDITOR": f"{sys.executable} {breaker}", "VISUAL": ""})
    assert proc.returncode == 2 and "not valid TOML" in proc.stderr


def test_config_cache_counts_and_clears_only_its_own_entries(command, work, tmp_path):
    """`config cache` on a cache folder that holds, besides real entries of every part, what a
    folder from elsewhere may: a linked part folder, an entry-named link to a file of the user's,
    a FIFO where an entry goes, files of other names, a write's temporary file. Clearing removes
    the entries (a link itself, never what it points to; a FIFO without opening it), leaves the
    rest, and keeps the answers unless they are named."""
    from workbench.core.cache import entry_path, key_of, part_folder, read_entry, write_entry

    keys = {part: key_of("test", part) for part in ("answers", "extracted", "lint", "crops")}
    for part, key in keys.items():
        write_entry(part_folder(part), key, {"part": part}, sync=False)
    crops = part_folder("crops")
    tmp_key = key_of("a write cut short")
    temp = crops / tmp_key[:2] / f".{tmp_key}.json.host-1.abc123.tmp"
    temp.parent.mkdir(parents=True, exist_ok=True)
    temp.write_text("{")
    (crops / keys["crops"][:2] / "notes.txt").write_text("mine")
    (crops / "README").write_text("mine")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    precious = outside / "precious.json"
    precious.write_text("the user's")
    linked_key = key_of("a link")
    link = entry_path(part_folder("lint"), linked_key)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(precious)
    fifo_key = key_of("a fifo")
    fifo = entry_path(part_folder("extracted"), fifo_key)
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    held = entry_path(outside, key_of("held elsewhere"))
    held.parent.mkdir(parents=True)
    held.write_text("{}")
    part_folder("ocr").symlink_to(outside, target_is_directory=True)

    shown = {p["part"]: p for p in printed_json(command("config", "cache", "--json"))["parts"]}
    assert {k: (v["entries"], v["others"]) for k, v in shown.items()} == {
        "answers": (1, 0), "extracted": (2, 0), "lint": (2, 0), "crops": (2, 2), "ocr": (0, 0)}
    assert "left alone" in shown["ocr"]["note"] and shown["crops"]["bytes"] > 0
    code, out, _ = command("config", "cache")
    assert code == 0 and "entries" in out and "2 other files or folders left alone" in out
    assert next(line for line in out.splitlines() if "answers " in line).split()[:3] == ["answers", "1", "0.0"]

    cleared = printed_json(command("config", "cache", "--clear", "--json"))
    assert cleared["cleared"] and [p["part"] for p in cleared["parts"]] == ["extracted", "lint", "crops", "ocr"]
    assert sum(p["entries"] for p in cleared["parts"]) == 6
    assert not link.is_symlink() and precious.read_text() == "the user's"   # the link, not its target
    assert not os.path.lexists(fifo) and not temp.exists()
    assert (crops / keys["crops"][:2] / "notes.txt").read_text() == "mine" and (crops / "README").exists()
    assert held.read_text() == "{}" and part_folder("ocr").is_symlink()     # a linked part is not entered
    assert not (part_folder("lint") / linked_key[:2]).exists()             # emptied subfolders go
    assert read_entry(part_folder("answers"), keys["answers"]) is not None  # answers stay unless named
    assert read_entry(part_folder("crops"), keys["crops"]) is None
    write_entry(part_folder("lint"), keys["lint"], {"again": True}, sync=False)   # made again as before
    assert read_entry(part_folder("lint"), keys["lint"])["again"] is True

    code, out, _ = command("config", "cache", "--clear", "answers")
    assert code == 0 and "removed" in out and out.splitlines()[2].split()[:2] == ["answers", "1"]
    assert read_entry(part_folder("answers"), keys["answers"]) is None
    assert read_entry(part_folder("lint"), keys["lint"]) is not None         # only what was named
    refused(command("config", "cache", "--clear", "nosuch"), "invalid choice: 'nosuch'")
