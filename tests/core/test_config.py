"""Fuzzing the user's settings files: config.json and readers.toml, each variant made in the test
(not JSON, wrong types in every field, huge, a FIFO, a folder, deep nesting, non-UTF-8, a BOM,
bad URLs) and run through load_settings, save_settings and the real CLI. None may give a
traceback; a broken config.json is one warning line and the defaults (exit 0), never written
over; a bad readers.toml is one line where a reader uses it (exit 2), and nothing else minds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fuzzing import file_state, plant_file
from workbench.core import limits

ROOT = Path(__file__).resolve().parents[2]
CASE = ROOT / "sample_cases" / "mini" / "actualtext_override-0001.json"

# Values of every JSON type, and the awkward ones: empty, NUL, a megabyte, a huge number.
VALUES = [None, 0, -1, 1.5, True, "", "x", "a\x00b", "é" * 1000, "y" * 1_000_000, [], {}, [1],
          ["a", 2], {"a": 1}, {"a": "b"}, {"a": None}, 10**40, 1e308]
PATHS = ["/dev/zero", "/etc/passwd", "/nonexistent/x", "~nosuchuser/x", "n" * 5000, "FIFO", "."]
FIELDS = ["theme", "reader", "modality", "dpi", "graphics", "keymap", "family_dirs", "user",
          "base_urls", "questions", "env_file", "limits"]


def config_variants() -> list[tuple[str, object]]:
    """(name, content): bytes, "fifo" / "dir" / "sparse" / "link-zero" / "dangling", or
    ("path", field, path) for a path in family_dirs or env_file."""
    out: list[tuple[str, object]] = [
        ("empty", b""), ("spaces", b"  \n\t"), ("not json", b"theme = dark"), ("truncated", b'{"theme": "wo'),
        ("trailing comma", b'{"dpi": 150,}'), ("js comment", b'// mine\n{"dpi": 150}'),
        ("top-level number", b"5"), ("top-level string", b'"x"'), ("null", b"null"), ("list", b"[]"),
        ("NaN", b'{"dpi": NaN}'), ("Infinity", b'{"limits": {"json_file_bytes": Infinity}}'),
        ("1e999", b'{"dpi": 1e999, "limits": {"run_file_bytes": 1e999}}'),
        ("duplicate keys", b'{"dpi": 100, "dpi": "x"}'),
        ("BOM, valid", b'\xef\xbb\xbf{"theme": "workbench-light"}'),
        ("BOM, broken", b"\xef\xbb\xbf{"),
        ("latin-1", '{"user": "Zoë"}'.encode("latin-1")), ("utf-16", '{"dpi": 150}'.encode("utf-16")),
        ("NUL bytes", b'{"dpi": 150}\x00\x00'), ("binary", bytes(range(256)) * 4),
        ("deep list", b"[" * 100_000 + b"]" * 100_000),
        ("deep in a field", b'{"keymap": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"}"),
        ("deep unclosed", b'{"questions": ' + b"[" * 200_000),
        ("many keys", json.dumps({f"k{i}": i for i in range(200_000)}).encode()),
        ("long string", json.dumps({"theme": "t" * 5_000_000}).encode()),
        ("unknown keys only", b'{"future": {"x": 1}, "thme": "typo"}'),
        ("limits unknown and bad", b'{"limits": {"nope": 1, "json_file_bytes": -5, "run_file_bytes": 0}}'),
        ("limits as text", b'{"limits": {"json_file_bytes": "big"}}'),
        ("every field wrong", json.dumps({f: [{"bad": True}] for f in FIELDS}).encode()),
        ("fifo", "fifo"), ("dir", "dir"), ("sparse 100 MB", "sparse"), ("link to /dev/zero", "link-zero"),
        ("dangling link", "dangling"),
    ]
    for field in FIELDS:
        for i, value in enumerate(VALUES):
            out.append((f"{field}={str(value)[:20]!r}#{i}", json.dumps({field: value}).encode()))
    for field in ("family_dirs", "env_file"):
        for path in PATHS:
            out.append((f"{field} path {path[:20]}", ("path", field, path)))
    out += [("keymap odd keys", json.dumps({"keymap": {"next_page": "", "quit": "ctrl+", "x": "\x00"}}).encode()),
            ("questions odd", json.dumps({"questions": {"": "", "/x" * 3000: "q"}}).encode()),
            ("base_urls bad", json.dumps({"base_urls": {"openai": "ftp://x", "ollama": "h t t p"}}).encode())]
    return out


def expand(value: object, tmp: Path) -> object:
    """A path variant as it goes into config.json (FIFO made here)."""
    if value == "FIFO":
        fifo = tmp / "a.fifo"
        if not fifo.exists():
            os.mkfifo(fifo)
        return str(fifo)
    return value


@pytest.fixture
def limits_reset(monkeypatch):
    """A variant's `limits` must not reach the next variant."""
    saved = dict(limits._overrides)
    yield
    limits._overrides.clear()
    limits._overrides.update(saved)
    monkeypatch.delenv(limits.LIMIT_ENV, raising=False)


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    from workbench.cli import main

    before = dict(limits._overrides)
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:   # argparse, never expected here
        code = exc.code if isinstance(exc.code, int) else 99
    finally:
        limits._overrides.clear()
        limits._overrides.update(before)
        os.environ.pop(limits.LIMIT_ENV, None)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_fuzzed_config_json_never_breaks_a_command_and_is_never_written_over(tmp_path, monkeypatch,
                                                                              capsys, limits_reset):
    from workbench.core.config import SettingsNotSaved, load_settings, save_settings

    failures: list[str] = []
    variants = config_variants()
    for n, (name, content) in enumerate(variants):
        folder = tmp_path / f"v{n}"
        config = folder / "config"
        config.mkdir(parents=True)
        monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(config))
        path = config / "config.json"
        if isinstance(content, tuple):   # ("path", field, a path to put there)
            _, field, value = content
            value = expand(value, folder)
            content = json.dumps({field: [value] if field == "family_dirs" else value}).encode()
        plant_file(path, content, folder)
        before = file_state(path)

        def fail(what: str, name: str = name) -> None:
            failures.append(f"{name}: {what}")

        try:
            settings = load_settings()
        except Exception as exc:  # noqa: BLE001 (the fuzzer counts every failure)
            fail(f"load_settings raised {type(exc).__name__}: {exc}"[:300])
            continue
        if settings.problem:
            if str(path) not in settings.problem or "pdfworkbench config edit" not in settings.problem:
                fail(f"problem line names no file or fix: {settings.problem[:200]}")
            try:
                save_settings(settings)
                fail("save_settings wrote over a broken file")
            except SettingsNotSaved:
                pass
        commands = [("config", "show"), ("config", "show", "--json"), ("families",),
                    ("ask", CASE, "--reader", "probe:pypdf", "--out", folder / "asked.jsonl")]
        for argv in commands:
            try:
                code, out, err = _cli(capsys, *argv)
            except Exception as exc:  # noqa: BLE001
                fail(f"{argv[0]} raised {type(exc).__name__}: {exc}"[:300])
                continue
            if code != 0:
                fail(f"{' '.join(map(str, argv[:2]))} exit {code}: {err.strip()[-300:]}")
            if "Traceback" in err or "Traceback" in out:
                fail(f"{argv[0]} printed a traceback")
            warnings = [line for line in err.splitlines() if line.startswith(f"pdfworkbench: warning: {path}")]
            if settings.problem and len(warnings) != 1:
                fail(f"{argv[0]}: {len(warnings)} warning lines about the file (want 1): {err[:300]}")
            if not settings.problem and warnings:
                fail(f"{argv[0]}: a warning about a file that is fine: {warnings[0][:200]}")
            if any(len(line) > 2000 for line in err.splitlines()):
                fail(f"{argv[0]}: a stderr line of {max(map(len, err.splitlines()))} characters")
        if file_state(path) != before:
            fail("the file was changed")
        if not path.is_fifo():
            shutil.rmtree(folder, ignore_errors=True)
    print(f"\nconfig.json fuzz: {len(variants)} variants, {len(failures)} failed")
    assert not failures, f"{len(failures)} of {len(variants)} variants failed:\n" + "\n".join(failures[:40])


BAD = "bad"   # the reader using it gets one line naming readers.toml (exit 2); probes mind nothing
OK = "ok"     # a URL the reader takes (nothing is called: `readers --json` says where it came from)


def readers_variants() -> list[tuple[str, object, str]]:
    def url(value: str) -> bytes:
        return f"[openai]\nbase_url = {json.dumps(value)}\n".encode()

    out: list[tuple[str, object, str]] = [
        ("empty", b"", OK), ("comments only", b"# nothing\n", OK),
        ("BOM, valid", b"\xef\xbb\xbf" + url("http://127.0.0.1:9/v1"), OK),
        ("not toml", b"openai: http://x", BAD), ("unclosed table", b"[openai\nbase_url = 'x'", BAD),
        ("unclosed string", b'[openai]\nbase_url = "http://x', BAD),
        ("latin-1", '[openai]\nbase_url = "http://zoë.example"'.encode("latin-1"), BAD),
        ("utf-16", url("http://127.0.0.1:9").decode().encode("utf-16"), BAD),
        ("NUL", b"[openai]\x00\nbase_url = 'http://x'", BAD),
        ("deep array", b"x = " + b"[" * 100_000 + b"]" * 100_000, BAD),
        ("deep inline table", b"x = " + b"{a = " * 20_000 + b"1" + b"}" * 20_000, BAD),
        ("section is a number", b"openai = 5", BAD), ("section is a string", b'openai = "http://x"', BAD),
        ("section is a list", b"openai = [1, 2]", BAD),
        ("base_url a number", b"[openai]\nbase_url = 8000", BAD),
        ("base_url a list", b"[openai]\nbase_url = ['http://x']", BAD),
        ("base_url a table", b"[openai.base_url]\nx = 1", BAD),
        ("base_url a bool", b"[openai]\nbase_url = true", BAD),
        ("base_url a date", b"[openai]\nbase_url = 1979-05-27", BAD),
        ("other section broken", b"[anthropic]\nbase_url = 5\n[openai]\nbase_url = 'http://127.0.0.1:9'", OK),
        ("base_url empty", url(""), OK),
        ("fifo", "fifo", BAD), ("dir", "dir", BAD), ("sparse 100 MB", "sparse", BAD),
        ("link to /dev/zero", "link-zero", BAD),
    ]
    for bad in ("ftp://x.example", "file:///etc/passwd", "javascript:alert(1)", "data:text/html,x",
                "http://", "https://", "://x", "http://a b", "http://x\tx", " http://x\n/y",
                "http://user:pw@x.example/v1", "https://sk-secret@x.example", "http://x.example:99999",
                "http://x.example:port", "http://x.example/v1?key=1", "http://x.example/#f",
                "http://[::1", "http://" + "a" * 5000 + ".example", "gopher://x", "http://x\x7f",
                "ws://127.0.0.1:9"):
        out.append((f"url {bad[:30]!r}", url(bad), BAD))
    for good in ("http://127.0.0.1:9", "https://127.0.0.1:9/v1/", "127.0.0.1:9", "http://[::1]:9/v1",
                 "HTTP://127.0.0.1:9"):
        out.append((f"url {good!r}", url(good), OK))
    return out


@pytest.mark.slow
def test_fuzzed_readers_toml_is_one_line_where_used_and_nothing_else_minds(tmp_path, monkeypatch, capsys,
                                                                           limits_reset):
    failures: list[str] = []
    variants = readers_variants()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fuzz-0123456789abcdef0123456789")
    for n, (name, content, expect) in enumerate(variants):
        folder = tmp_path / f"r{n}"
        config = folder / "config"
        config.mkdir(parents=True)
        monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(config))
        path = config / "readers.toml"
        plant_file(path, content, folder)
        before = file_state(path)

        def fail(what: str, name: str = name) -> None:
            failures.append(f"{name}: {what}")

        runs = {"readers": ("readers", "--json"), "show": ("config", "show"),
                "probe": ("ask", CASE, "--reader", "probe:pypdf", "--out", folder / "asked.jsonl")}
        if expect == BAD:
            runs["openai"] = ("ask", CASE, "--reader", "openai:gpt-4o", "--out", folder / "asked.jsonl")
        for label, argv in runs.items():
            try:
                code, out, err = _cli(capsys, *argv)
            except Exception as exc:  # noqa: BLE001
                fail(f"{label} raised {type(exc).__name__}: {exc}"[:300])
                continue
            if "Traceback" in err or "Traceback" in out:
                fail(f"{label} printed a traceback")
            if label == "openai":
                lines = err.strip().splitlines()
                if code != 2 or len(lines) != 1 or "readers.toml" not in lines[0]:
                    fail(f"ask openai: exit {code}, want 2 and one line naming readers.toml: {err[:300]}")
                elif "sk-fuzz" in err or "pw@" in err or "sk-secret" in err:
                    fail(f"ask openai showed a secret: {err[:200]}")
                elif len(lines[0]) > 600:
                    fail(f"ask openai: a line of {len(lines[0])} characters")
            elif code != 0:
                fail(f"{label}: exit {code}: {err.strip()[-300:]}")
            if label == "readers" and code == 0:
                row = next(r for r in json.loads(out) if r["reader"].startswith("openai:"))
                if expect == OK and not (row["base_url_from"] in ("readers.toml", "default")
                                         and row["base_url"].startswith(("http://", "https://"))):
                    fail(f"readers: openai row {row}")
                if expect == BAD and not any("readers.toml" in m for m in row["missing"]):
                    fail(f"readers: openai row does not say what is wrong: {row}")
        if file_state(path) != before:
            fail("the file was changed")
    print(f"\nreaders.toml fuzz: {len(variants)} variants, {len(failures)} failed")
    assert not failures, f"{len(failures)} of {len(variants)} variants failed:\n" + "\n".join(failures[:40])


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "deep", "sparse", "dir"])
def test_the_console_script_neither_hangs_nor_tracebacks_on_a_hostile_config(tmp_path, kind):
    """A fresh interpreter, both files hostile at once (a FIFO used to block every command)."""
    config = tmp_path / "config"
    config.mkdir()
    content = {"fifo": "fifo", "deep": b"[" * 100_000, "sparse": "sparse", "dir": "dir"}[kind]
    plant_file(config / "config.json", content, tmp_path)
    plant_file(config / "readers.toml", content if not isinstance(content, bytes) else b"x = " + content, tmp_path)
    env = {**os.environ, "PDFWORKBENCH_CONFIG_DIR": str(config)}
    proc = subprocess.run([sys.executable, "-m", "workbench", "families"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    warning, = [line for line in proc.stderr.splitlines() if "config.json" in line]
    assert warning.startswith(f"pdfworkbench: warning: {config / 'config.json'}: ignored (")
    assert warning.endswith("fix it with `pdfworkbench config edit` (it is not written over meanwhile)")


def test_a_config_json_kept_as_a_link_is_saved_where_it_points(tmp_path, monkeypatch):
    """Dotfiles kept by GNU Stow are links into the user's dotfiles folder: the workbench saving
    its settings (the theme, the hint dismissed) writes the file the link points to, and the link
    stays (it was refused as a link: every save warned and nothing was kept)."""
    from workbench.core.config import load_settings, save_settings

    dotfiles, config = tmp_path / "dotfiles", tmp_path / "config"
    dotfiles.mkdir()
    config.mkdir()
    (dotfiles / "config.json").write_text('{"theme": "textual-dark"}\n')
    os.symlink(dotfiles / "config.json", config / "config.json")
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(config))
    settings = load_settings()
    settings.theme = "textual-light"
    save_settings(settings)
    assert os.path.islink(config / "config.json")
    assert json.loads((dotfiles / "config.json").read_text())["theme"] == "textual-light"
    assert load_settings().theme == "textual-light"
