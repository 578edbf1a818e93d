"""A suite folder is untrusted (issue 33, items 3 and 4): a symbolic link in it (`suite.json`,
a case file, `runs/`, `disputes.jsonl`) is refused with one line and nothing is read or written
through it; a FIFO or a device given as a PDF, a case or a run is refused without blocking; every
file read has a cap. Each hostile thing is made in the test."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.support.fixtures import ONE_CASE
from workbench.core import files, limits
from workbench.core.errors import UserError

LINK_WORDS = "is a symbolic link; a suite folder's files must be its own: replace the link with the file"


def _suite(tmp_path: Path) -> Path:
    """A one-case suite with a manifest, in `tmp_path/suite`."""
    from workbench.core.suite import compute_entries, load_suite, write_manifest

    folder = tmp_path / "suite"
    folder.mkdir()
    shutil.copy(ONE_CASE, folder)
    shutil.copy(ONE_CASE.with_suffix(".pdf"), folder)
    write_manifest(folder, "s", "1", compute_entries(load_suite(folder)))
    return folder


def _outside(tmp_path: Path) -> Path:
    out = tmp_path / "elsewhere"
    out.mkdir(exist_ok=True)
    return out


def _one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ---- symbolic links -----------------------------------------------------------------------------

def test_a_linked_suite_json_is_refused_naming_the_link(tmp_path, cli):
    folder = _suite(tmp_path)
    away = _outside(tmp_path) / "suite.json"
    shutil.move(folder / "suite.json", away)
    os.symlink(away, folder / "suite.json")
    code, _, err = cli("lint", folder)
    assert code == 2
    assert _one_line(err).endswith(f"{folder / 'suite.json'} {LINK_WORDS}")


def test_a_linked_case_json_is_refused_and_so_is_a_linked_pdf(tmp_path, cli):
    from workbench.core.suite import load_suite

    folder = _suite(tmp_path)
    name = ONE_CASE.name
    secret = _outside(tmp_path) / "case.json"
    shutil.move(folder / name, secret)
    os.symlink(secret, folder / name)
    with pytest.raises(UserError, match="is a symbolic link"):
        load_suite(folder)
    # The PDF, linked to a file elsewhere (a PDF, so only the link gives it away).
    (folder / name).unlink()
    shutil.copy(secret, folder / name)
    pdf = folder / ONE_CASE.with_suffix(".pdf").name
    shutil.move(pdf, _outside(tmp_path) / "case.pdf")
    os.symlink(_outside(tmp_path) / "case.pdf", pdf)
    code, _, err = cli("inspect", folder / name)
    assert code == 2
    assert _one_line(err).endswith(f"{pdf} {LINK_WORDS}")


def test_a_linked_case_in_a_folder_without_manifest_is_a_problem_not_a_case(tmp_path):
    from workbench.core.suite import load_suite

    folder = _suite(tmp_path)
    (folder / "suite.json").unlink()
    shutil.copy(ONE_CASE, _outside(tmp_path) / "other.json")
    os.symlink(_outside(tmp_path) / "other.json", folder / "other.json")
    suite = load_suite(folder)
    assert [c.id for c in suite.cases] == [ONE_CASE.stem]
    assert any(p.endswith(f"other.json {LINK_WORDS}") for p in suite.problems)


def test_linked_runs_folder_is_refused_and_ask_writes_nothing_outside(tmp_path, cli):
    from tests.support.fixtures import record, write_run
    from workbench.core.layout import ask_run, run_files
    from workbench.core.suite import load_suite

    folder = _suite(tmp_path)
    away = _outside(tmp_path)
    case = load_suite(folder).cases[0]
    write_run(away / "planted.jsonl", [record(case, "42")])
    before = _tree(away)
    os.symlink(away, folder / "runs")
    with pytest.raises(UserError, match="is a symbolic link"):
        run_files(folder)
    with pytest.raises(UserError, match="is a symbolic link"):
        ask_run(folder)
    code, _, err = cli("ask", folder / ONE_CASE.name, "--reader", "probe:pymupdf")
    assert code == 2
    assert _one_line(err).endswith(f"{folder / 'runs'} {LINK_WORDS}")
    assert _tree(away) == before


def test_a_linked_run_file_and_journal_are_never_appended_through(tmp_path):
    from tests.support.fixtures import record
    from workbench.core.layout import journal_path
    from workbench.core.runs import RunWriter
    from workbench.core.suite import load_suite

    folder = _suite(tmp_path)
    away = _outside(tmp_path)
    (away / "precious.txt").write_text("mine\n")
    (folder / "runs").mkdir()
    os.symlink(away / "precious.txt", folder / "runs" / "asked.jsonl")
    with pytest.raises(UserError, match="is a symbolic link"), RunWriter(folder / "runs" / "asked.jsonl") as w:
        w.append(record(load_suite(folder).cases[0], "42"))
    os.symlink(away / "precious.txt", folder / "disputes.jsonl")
    with pytest.raises(UserError, match="is a symbolic link"):
        journal_path(folder)
    assert (away / "precious.txt").read_text() == "mine\n"


def test_atomic_writes_refuse_a_linked_target_folder_and_lock(tmp_path):
    from workbench.core import atomic

    folder = tmp_path / "suite"
    folder.mkdir()
    away = _outside(tmp_path)
    (away / "x.txt").write_text("keep")
    os.symlink(away / "x.txt", folder / "suite.json")
    with pytest.raises(UserError, match="is a symbolic link"):
        atomic.write_json(folder / "suite.json", {"cases": []}, within=folder)
    os.symlink(away, folder / "runs")
    with pytest.raises(UserError, match="is a symbolic link"):
        atomic.write_bytes(folder / "runs" / "r.jsonl", b"{}\n", within=folder)
    os.symlink(away / "x.txt", folder / ".suite.lock")  # filelock truncates its lock file
    with pytest.raises(UserError, match="is a symbolic link"), atomic.suite_lock(folder):
        pass
    assert _tree(away) == {"x.txt": b"keep"}


def test_a_link_the_user_names_is_followed(tmp_path, cli):
    """A path typed on the command line is the user's own: a link there is theirs to follow."""
    link = tmp_path / "mine.pdf"
    os.symlink(ONE_CASE.with_suffix(".pdf"), link)
    code, out, err = cli("inspect", link)
    assert code == 0, err


# ---- FIFOs, devices and caps ----------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["pdf", "case", "run"])
def test_a_fifo_is_refused_at_once(tmp_path, cli, kind):
    """On the old code each of these blocked forever in open()."""
    fifo = tmp_path / {"pdf": "x.pdf", "case": "x.json", "run": "x.jsonl"}[kind]
    os.mkfifo(fifo)
    argv = {"pdf": ("inspect", fifo), "case": ("inspect", fifo), "run": ("report", fifo)}[kind]
    code, _, err = cli(*argv)
    assert code == 2
    assert "is a FIFO (named pipe)" in _one_line(err)


def test_a_fifo_planted_as_a_suite_case_is_refused(tmp_path, cli):
    folder = _suite(tmp_path)
    pdf = folder / ONE_CASE.with_suffix(".pdf").name
    pdf.unlink()
    os.mkfifo(pdf)
    code, _, err = cli("inspect", folder / ONE_CASE.name)
    assert code == 2
    assert _one_line(err).endswith(f"{pdf}: is a FIFO (named pipe), not a PDF; give a regular file")


def test_dev_zero_is_refused_not_read(cli):
    code, _, err = cli("inspect", "/dev/zero")
    assert code == 2
    assert "/dev/zero: is a device, not a PDF; give a regular file" in _one_line(err)


def test_a_file_over_its_cap_names_the_limit_and_the_flag_raises_it(tmp_path, cli):
    big = tmp_path / "big.json"
    case = json.loads(ONE_CASE.read_text())
    case["metadata"] = {"pad": "x" * 70_000}
    big.write_text(json.dumps(case))
    shutil.copy(ONE_CASE.with_suffix(".pdf"), tmp_path / ONE_CASE.with_suffix(".pdf").name)
    code, _, err = cli("--limit", "json_file_bytes=65536", "inspect", big)
    assert code == 2
    assert _one_line(err).endswith("is too large for a case JSON (over the json_file_bytes limit of 64 KB; "
                                   "raise it with --limit json_file_bytes=N)")
    code, _, err = cli("--limit", "json_file_bytes=1048576", "inspect", big)
    assert code == 0, err


def test_the_cap_holds_when_the_size_on_disk_lies(tmp_path, monkeypatch):
    """A file whose stat size is 0 (as /proc files and devices report) is still read no further
    than its cap."""
    path = tmp_path / "grows.json"
    path.write_bytes(b"[" + b"0," * 40_000 + b"0]")
    real = os.fstat

    class Zero:
        def __init__(self, st):
            self.st_mode, self.st_size = st.st_mode, 0

    monkeypatch.setattr(os, "fstat", lambda fd: Zero(real(fd)))
    limits.set_overrides({"json_file_bytes": 1024}, export=False)
    try:
        with pytest.raises(files.FileRefused, match="more than 1,024 bytes"):
            files.read_json(path)
    finally:
        limits._overrides.pop("json_file_bytes", None)


def test_a_fifo_as_a_runs_batch_state_file_is_refused_at_once(tmp_path):
    """`run --batch` keeps its batches' ids beside the run file; a FIFO there blocked for ever."""
    from workbench.providers.batch.state import load_state, state_path

    state = state_path(tmp_path / "runs" / "r.jsonl")
    state.parent.mkdir(parents=True)
    assert load_state(state) is None
    os.mkfifo(state)
    with pytest.raises(UserError, match="is a FIFO"):
        load_state(state)


# ---- what a command writes: never in place of a device, a FIFO or a socket ----------------------

def _special(tmp_path: Path, kind: str) -> Path:
    """A FIFO, a listening UNIX socket or a character device (the null device's numbers) at
    `tmp_path/out.html`: each one a write by rename would have replaced with a regular file."""
    import socket
    import stat

    path = tmp_path / "out.html"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()
    else:
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("making a device needs root (CI runs as root; as root the old code replaced /dev/null)")
    return path


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
def test_an_output_on_a_fifo_socket_or_device_is_refused_before_the_work_and_left_as_it_was(tmp_path, cli, kind):
    """`report --html /dev/null` run as root replaced the null device with the HTML page (the
    write's rename puts a regular file where the path was); a FIFO or a socket likewise."""
    from tests.support.fixtures import SAMPLE

    path = _special(tmp_path, kind)
    before = os.lstat(path)
    what = {"fifo": "a FIFO (named pipe)", "socket": "a socket", "device": "a device"}[kind]
    runs = sorted((SAMPLE / "runs").glob("*.jsonl"))
    for flag in ("--html", "--junit", "--leaderboard", "--audit-pack"):
        code, out, err = cli("report", *runs, flag, path, "--jobs", "1")
        assert code == 2 and out == ""
        assert _one_line(err) == (f"pdfworkbench: error: {flag} {path}: is {what}, not a file (a write would "
                                  "put a file in its place); give a file name")
    code, _, err = cli("compare", *runs, "--html", path)
    assert code == 2 and f"--html {path}: is {what}" in _one_line(err)
    after = os.lstat(path)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.html"]   # no temporary file left


def test_run_refuses_a_junit_path_on_a_fifo_before_any_call(tmp_path, cli):
    from tests.support.fixtures import SAMPLE

    fifo = tmp_path / "junit.xml"
    os.mkfifo(fifo)
    run_file = tmp_path / "r.jsonl"
    code, _, err = cli("run", SAMPLE, "--reader", "probe:pypdf", "--out", run_file, "--junit", fifo)
    assert code == 2
    assert _one_line(err).endswith(f"--junit {fifo}: is a FIFO (named pipe), not a file (a write would put a "
                                   "file in its place); give a file name")
    assert not run_file.exists()


def test_a_written_file_lands_where_a_link_the_user_names_points(tmp_path, cli):
    """An output path typed on the command line is the user's own (as for a file read): the page
    is written where the link points and the link stays; a suite folder's links stay refused."""
    from tests.support.fixtures import SAMPLE
    from workbench.core import atomic

    target = _outside(tmp_path) / "report.html"
    link = tmp_path / "latest.html"
    os.symlink(target, link)
    run = sorted((SAMPLE / "runs").glob("*.jsonl"))[0]
    code, _, err = cli("report", run, "--html", link, "--jobs", "1")
    assert code in (0, 1), err
    assert os.path.islink(link) and target.read_bytes().startswith(b"<!DOCTYPE html>")
    with pytest.raises(UserError, match=r"is a symbolic link; give the file itself"):
        atomic.write_bytes(link, b"x")
    assert target.read_bytes().startswith(b"<!DOCTYPE html>")
    # a run file too: appended where the link points (it was refused as a suite folder's link)
    run_file, run_link = _outside(tmp_path) / "run.jsonl", tmp_path / "run.jsonl"
    os.symlink(run_file, run_link)
    code, _, err = cli("run", SAMPLE, "--reader", "probe:pypdf", "--out", run_link)
    assert code in (0, 1), err
    assert os.path.islink(run_link) and len(run_file.read_text().splitlines()) == 34
