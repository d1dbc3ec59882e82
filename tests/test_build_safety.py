"""Builds that cannot hurt one another or anything they did not make: a lock per site, working
files beside --out, refusals for dangerous --out values, an atomic swap, clean errors for a disk
that is read-only or full, and the pinned Vega bundles checked on every build."""
from __future__ import annotations

import fcntl
import hashlib
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from papercuts.build import STAGES, build
from papercuts.paths import PROJECT, Paths
from papercuts.problems import UserError
from papercuts.publish.swap import replace_path


def digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def cli(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "papercuts.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def mount_tmpfs(where: Path, *options: str) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    opts = ",".join(("size=2g", *options))  # room for a site with its chart images, twice
    return subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)],
                          capture_output=True).returncode == 0


@pytest.fixture
def tmpfs(tmp_path):
    where = tmp_path / "tmpfs"
    if not mount_tmpfs(where):
        pytest.skip("cannot mount a tmpfs here (not root, or no mount permission)")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_second_build_of_the_same_site_is_told_not_corrupted(tmp_path):
    out = tmp_path / "public"
    paths = Paths.make(out=out)
    paths.lock.parent.mkdir(parents=True, exist_ok=True)
    with open(paths.lock, "a") as held:  # as a first build holds it
        fcntl.flock(held, fcntl.LOCK_EX)
        proc = cli("build", "--out", str(out))
    assert proc.returncode == 1 and "another build is writing" in proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()


def test_a_build_says_each_stage_as_it_runs_and_the_times_at_the_end(tmp_path):
    proc = cli("build", "--out", str(tmp_path / "site"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    starts = [i for i, line in enumerate(lines) if line.endswith(" ...")]
    n = len(STAGES)
    assert [lines[i].split("]")[0] for i in starts] == [f"[{k}/{n}" for k in range(1, n + 1)]
    assert any(re.fullmatch(r"    \d+ campaigns \(0 unchanged since the last build\), \d+ results, "
                            r"\d+ published ratios, \d+ warning\(s\)", x)
               for x in lines)
    done = re.search(r"built \d+ pages into .* \(validate [\d.]+ s .* hugo [\d.]+ s  total ([\d.]+) s, "
                     r"([\d.]+) CPU s on \d+ cores\)$", lines[-1])
    assert done and float(done[2]) > 1.0  # its stages' work on every core: this process, its workers, Hugo
    # Long loops count as they go (plain lines at each tenth, in a log): the campaigns read, then the
    # pages made, each up to its total, inside its stage.
    for what, stage in (("campaigns read", "validate"), ("campaign pages, explorer files", "render")):
        counts = [tuple(map(int, x.split(": ")[1].split("/"))) for x in lines if x.startswith(f"    {what}: ")]
        assert len(counts) == 10 and counts[-1][0] == counts[-1][1] >= 10, lines
        assert [d for d, _ in counts] == sorted({d for d, _ in counts})
        at = lines.index(f"    {what}: {counts[0][0]}/{counts[0][1]}")
        assert lines[at - 1].startswith(f"[{STAGES.index(stage) + 1}/{n}] {stage}"), lines


def test_on_a_terminal_progress_is_one_bar_redrawn_in_place():
    import io

    from papercuts.build import Timings

    screen, said = io.StringIO(), []
    t = Timings(say=said.append, bar=screen)
    for done in range(1, 21):
        t.progress("campaigns read", done, 20)
    assert said == [] and screen.getvalue().count("\r") == 20 and screen.getvalue().endswith("] 20/20\n")
    assert "\r    campaigns read: [###############...............] 10/20\r" in screen.getvalue()


def test_working_files_go_beside_out_never_into_the_checkout(tmp_path):
    before = sorted((PROJECT / "build").rglob("*")) if (PROJECT / "build").exists() else []
    paths = Paths.make(out=tmp_path / "site")
    assert paths.build == tmp_path / ".site.build" and paths.staging.parent == tmp_path
    build(paths)
    assert (tmp_path / "site" / "index.html").is_file() and paths.db.is_file()
    after = sorted((PROJECT / "build").rglob("*")) if (PROJECT / "build").exists() else []
    assert after == before
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in ("site", ".site.build", ".site.lock")]
    assert leftovers == []


def test_out_on_another_file_system(tmpfs):
    out = tmpfs / "public"
    proc = cli("build", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    again = cli("build", "--out", str(out))  # the second build swaps over the first
    assert again.returncode == 0, again.stderr
    assert (out / "index.html").is_file()


def test_a_read_only_out_is_a_clean_error(tmp_path):
    where = tmp_path / "ro"
    if not mount_tmpfs(where, "ro"):
        pytest.skip("cannot mount a read-only tmpfs here")
    try:
        proc = cli("build", "--out", str(where / "public"))
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "Read-only file system" in proc.stderr and "previous site is unchanged" in proc.stderr


def test_a_full_disk_is_a_clean_error_and_leaves_nothing_half_written(tmp_path):
    where = tmp_path / "small"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)]).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        proc = cli("build", "--out", str(where / "public"))
        left = sorted(p.name for p in where.iterdir())
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "No space left on device" in proc.stderr
    assert "public" not in left and not [n for n in left if "staging" in n]


@pytest.mark.parametrize("where", ["data", "data/campaigns", "project", "parent"])
def test_out_that_would_replace_data_or_the_project_is_refused(tmp_path, where):
    data = tmp_path / "data"
    shutil.copytree(PROJECT / "data", data)
    out = {"data": data, "data/campaigns": data / "campaigns", "project": PROJECT,
           "parent": tmp_path}[where]
    before = digest(data)
    with pytest.raises(UserError, match="--out"):
        build(Paths.make(data=data, out=out, build=tmp_path / "b"))
    assert digest(data) == before


def test_a_folder_beside_out_that_the_build_did_not_make_is_never_deleted(tmp_path):
    out = tmp_path / "public"
    mine = tmp_path / "public.old"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine")
    paths = Paths.make(out=out)
    build(paths)
    build(paths)
    assert (mine / "keep.txt").read_text() == "mine"


def test_a_failed_swap_leaves_the_old_output(tmp_path):
    final = tmp_path / "public"
    final.mkdir()
    (final / "index.html").write_text("old")
    with pytest.raises(OSError):
        replace_path(tmp_path / "never-built", final)  # the new tree is not there
    assert (final / "index.html").read_text() == "old"
    new = tmp_path / "new"
    new.mkdir()
    (new / "index.html").write_text("new")
    replace_path(new, final)
    assert (final / "index.html").read_text() == "new" and sorted(tmp_path.iterdir()) == [final]


def test_a_killed_build_leaves_a_complete_old_or_new_site(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(PROJECT / "data", data)
    out = tmp_path / "public"
    assert cli("build", "--data", str(data), "--out", str(out)).returncode == 0
    old = digest(out)
    # New data, so that the new site differs from the old one.
    (data / "sources.csv").write_text((data / "sources.csv").read_text().replace(
        "Small Datum", "Small  Datum", 1))
    for delay in (0.5, 1.5, 2.5, 3.5):
        proc = subprocess.Popen([sys.executable, "-m", "papercuts.cli", "build", "--data", str(data),
                                 "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        now = digest(out)
        if now != old:
            break
    assert cli("build", "--data", str(data), "--out", str(out)).returncode == 0
    new = digest(out)
    assert new != old
    # whatever moment the kill hit, the site was the whole old one or the whole new one
    assert now == old or now == new


def test_tampered_bundles_are_refused_at_build_time(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(PROJECT / "site", project / "site")
    shutil.copytree(PROJECT / "layouts", project / "layouts")
    (project / "data").mkdir()
    shutil.copyfile(PROJECT / "data" / "README.md", project / "data" / "README.md")  # the contract page
    bundle = project / "site" / "static" / "vendor" / "vega-embed.min.js"
    bundle.write_bytes(bundle.read_bytes() + b"\n;alert(1)\n")
    paths = Paths(data=PROJECT / "data", public=tmp_path / "public", build=tmp_path / "build",
                  project=project, content_root=PROJECT / "content")
    with pytest.raises(UserError, match="not the pinned"):
        build(paths)
    assert not paths.public.exists()


def test_ctrl_c_ends_a_command_as_an_interrupt_whatever_took_it(monkeypatch, capsys):
    """Ctrl-C reaches a command as the code running then turns it: DuckDB's 'Query interrupted',
    a pool whose workers it stopped first, a library that swallows it. Each is exit 130 without a
    traceback; another error is still an error; the handler in place before is back after."""
    import argparse
    import os
    import signal
    import time
    from concurrent.futures.process import BrokenProcessPool

    import duckdb

    from papercuts import cli
    from papercuts.problems import UserError

    def command(turned_into):
        def run(args) -> int:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(5)
            except KeyboardInterrupt:
                if turned_into is not None:
                    raise turned_into from None
            return 0
        return run

    def with_command(run) -> None:
        p = argparse.ArgumentParser()
        p.add_argument("--traceback", action="store_true")
        p.set_defaults(func=run)
        monkeypatch.setattr(cli, "parser", lambda: p)

    # As in a terminal: Python's handler (a background job of a script, as CI may run this, ignores
    # SIGINT: then so does the command, and the signal sent below is nothing).
    outside = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for turned_into in (duckdb.InterruptException("Query interrupted"), BrokenProcessPool("a worker stopped"),
                            UserError("a process making pages was killed (out of memory?)"), None):
            with_command(command(turned_into))
            assert cli.main([]) == 130, turned_into
        assert capsys.readouterr().err == ""
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler

        def fails(args) -> int:
            raise RuntimeError("a bug")
        with_command(fails)
        with pytest.raises(RuntimeError):
            cli.main([])

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with_command(lambda args: (os.kill(os.getpid(), signal.SIGINT), time.sleep(0.2), 0)[2])
        assert cli.main([]) == 0 and signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, outside)


def test_a_stages_system_seconds_are_the_kernels_part_of_its_cpu_seconds():
    """Timings.system: the kernel's share of a stage's CPU seconds (the bench prints it: file
    writes cost several times more on a disk that has just removed a large tree)."""
    from papercuts.build import Timings

    t = Timings()
    with t.stage("validate"):
        sum(i * i for i in range(300_000))  # Python's own work: user time, no system call
    assert 0 <= t.system["validate"] < t.cpu["validate"] / 2  # user time: most of it
