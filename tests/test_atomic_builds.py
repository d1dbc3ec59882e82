"""A failed build leaves the previous site byte-identical; the database is always rebuilt."""
from __future__ import annotations

import hashlib
import shutil
import threading
from pathlib import Path

import duckdb
import pytest

from papercuts import build as build_module
from papercuts.build import build, validate
from papercuts.paths import PROJECT, Paths
from papercuts.problems import UserError


def digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def built(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(PROJECT / "content", content)
    paths = Paths.make(build=tmp_path / "build", out=tmp_path / "public", content=content)
    build(paths)
    return paths, digest(paths.public)


def test_a_hugo_error_keeps_the_old_site(built):
    paths, before = built
    page = paths.content / "investigations" / "myrocks-2x-less-slow.md"
    page.write_text(page.read_text() + "\n{{< no-such-shortcode >}}\n")
    with pytest.raises(UserError, match="hugo failed"):
        build(paths)
    assert digest(paths.public) == before
    assert beside(paths) == [".public.lock", "public"]  # no staging tree, no tree of Papercuts' files


def test_staging_trees_a_killed_build_left_are_removed_by_the_next(built):
    """A build killed outright (SIGKILL while Hugo ran) leaves its staging tree and its tree of
    Papercuts' files, named by its pid: the next build of the site removes them, even one that
    finds nothing changed."""
    paths, before = built
    for name in (".public.staging-4242", ".public.staging-4242.files"):
        (paths.public.parent / name / "a").mkdir(parents=True)
        (paths.public.parent / name / "a" / "index.html").write_text("half a site")
    build(paths)
    assert beside(paths) == [".public.lock", "public"] and digest(paths.public) == before


def beside(paths: Paths) -> list[str]:
    return sorted(p.name for p in paths.public.parent.iterdir() if p.name.startswith((".public", "public")))


def hugo_processes(paths: Paths) -> list[str]:
    """Hugo processes writing this build's staging tree, from /proc."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:  # ended meanwhile
            continue
        if str(paths.staging).encode() in args:
            found.append(cmdline.parent.name)
    return found


def test_an_interrupt_while_waiting_for_hugo_stops_it(built, monkeypatch):
    """Interrupted while it waits for Hugo (Ctrl-C, kill -INT), the build stops Hugo: a Hugo left
    running would write into a staging tree no later build removes. Hugo is held stopped from
    its start (SIGSTOP), so it is still there when the interrupt comes."""
    import os
    import signal
    import subprocess

    from papercuts.publish import hugo

    paths, before = built
    start, communicate, started = subprocess.Popen.__init__, subprocess.Popen.communicate, []

    def stopped(self, args, *rest, **kwargs):
        start(self, args, *rest, **kwargs)
        if args[0] == hugo.hugo_binary():
            os.kill(self.pid, signal.SIGSTOP)
            started.append(self.pid)

    def interrupted(self, *args, **kwargs):
        if self.pid in started:
            raise KeyboardInterrupt
        return communicate(self, *args, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", stopped)
    monkeypatch.setattr(subprocess.Popen, "communicate", interrupted)
    page = paths.content / "investigations" / "myrocks-2x-less-slow.md"
    page.write_text(page.read_text() + "\n")
    try:
        with pytest.raises(KeyboardInterrupt):
            build(paths)
        assert len(started) == 1
        assert hugo_processes(paths) == []
        with pytest.raises(ProcessLookupError):
            os.kill(started[0], 0)  # killed and reaped, not left behind
    finally:
        for pid in started:  # the bug this test is for: do not leave it stopped
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert digest(paths.public) == before
    assert beside(paths) == [".public.lock", "public"]


@pytest.mark.parametrize("where", ["placing", "before hugo"])
def test_an_interrupt_while_hugo_runs_stops_it_and_keeps_the_old_site(built, monkeypatch, where):
    """Papercuts places its own files while Hugo runs (publish/own_files.py): interrupted there, or
    while the kept pages are looked for before Hugo starts, no Hugo is left running and neither
    its tree nor Papercuts' is left."""
    from papercuts.publish import kept_pages
    from papercuts.publish.own_files import OwnFiles

    paths, before = built

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    if where == "placing":
        monkeypatch.setattr(OwnFiles, "place_chart_files", interrupted)
    else:
        monkeypatch.setattr(kept_pages.KeptPages, "options", interrupted)
    page = paths.content / "investigations" / "myrocks-2x-less-slow.md"
    page.write_text(page.read_text() + "\n")
    with pytest.raises(KeyboardInterrupt):
        build(paths)
    assert hugo_processes(paths) == []
    assert digest(paths.public) == before
    assert beside(paths) == [".public.lock", "public"]


def test_a_bad_narrative_keeps_the_old_site(built):
    paths, before = built
    page = paths.content / "investigations" / "innodb-busy-wait-8030.md"
    page.write_text(page.read_text().replace("campaign: 2024-10-23-busy-wait-dell32",
                                             "campaign: 2024-10-23-no-such-campaign", 1))
    with pytest.raises(UserError) as e:
        build(paths)
    assert any("unknown campaign '2024-10-23-no-such-campaign'" in p.message for p in e.value.problems)
    assert digest(paths.public) == before
    # the new database, begun while the checks ran (build._Database), is closed and removed
    assert not paths.db.with_name(paths.db.name + ".tmp").exists()
    assert not [t for t in threading.enumerate() if t.name.startswith("database")]


def test_an_interrupted_build_keeps_the_old_site(built, monkeypatch):
    paths, before = built

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # as if Ctrl-C or a signal arrived while rendering

    monkeypatch.setattr(build_module, "render_site", killed)
    page = paths.content / "investigations" / "myrocks-2x-less-slow.md"
    page.write_text(page.read_text() + "\n")  # an input changed, so the build runs (and is killed)
    with pytest.raises(KeyboardInterrupt):
        build(paths)
    assert digest(paths.public) == before
    assert not paths.db.with_name(paths.db.name + ".tmp").exists()


def test_the_files_of_a_build_killed_outright_do_not_stop_the_next(built):
    """kill -9 during ingest leaves the new database and its log (WAL) beside the one in place;
    DuckDB refuses a log that is not its database's ("WAL does not match database file")."""
    import subprocess
    import sys

    paths, _ = built
    tmp = paths.db.with_name(paths.db.name + ".tmp")
    wal = tmp.with_name(tmp.name + ".wal")
    killed = ("import duckdb, os, sys; con = duckdb.connect(sys.argv[1]); con.execute('CHECKPOINT'); "
              "con.execute('CREATE TABLE t AS SELECT 1 AS x'); os._exit(0)")  # the log not yet applied
    subprocess.run([sys.executable, "-c", killed, str(tmp)], check=True)
    assert tmp.exists() and wal.exists()
    page = paths.content / "investigations" / "myrocks-2x-less-slow.md"
    page.write_text(page.read_text() + "\n")  # an input changed, so the build runs
    build(paths)
    assert not tmp.exists() and not wal.exists()


def test_a_corrupt_database_file_is_rebuilt(built):
    paths, _ = built
    paths.db.write_bytes(b"this is not a duckdb file")
    build(paths)
    con = duckdb.connect(str(paths.db), read_only=True)
    expected = len(validate(paths)[0].rows["relative"])  # every published ratio of data/, loaded again
    assert expected > 0
    assert con.execute("SELECT count(*) FROM relative").fetchall() == [(expected,)]
    con.close()
