"""`make bench SCALE=N` (`papercuts bench --scale N`): the whole build on SYNTHETIC data of the
field's shape, against the floors measured in the same run.

Shape at ×100 (issue 16): 50 servers × 100 builds × 40 microbenchmarks × 5 thread counts = 10⁶
result rows, one campaign per server, the oldest build as base. ×10 is 5 servers, ×1 one server
of 50 builds (10⁴ rows), added to the shipped data. The data is labelled SYNTHETIC, written to a scratch
folder, never published. Each build runs in its own process, so its peak memory (and Hugo's) is its own.
Printed: per stage wall time and rows/s; pages, output bytes, peak memory; a full build, a
no-change rebuild and a one-file-added rebuild; and the floors: DuckDB reading the same CSVs and
computing rQPS, and Hugo rendering as many plain pages; then the heaviest page in Chromium
(pages_bench.py: what it fetches, gzip, and when its charts are drawn).
"""
from __future__ import annotations

import csv
import datetime
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import duckdb

from .build import STAGES
from .pages_bench import page_bench
from .paths import PROJECT
from .publish.hugo import hugo_binary
from .synthetic import append_rows, build_row, new_campaign, server_row, shipped_with_synthetic_source

THREADS = (1, 4, 16, 32, 64)
TESTS = 40


def shape(scale: int) -> tuple[int, int]:
    """(servers, builds) for a scale: ×1 one server of 50 builds, else scale/2 servers of 100."""
    return (1, 50) if scale <= 1 else (max(1, scale // 2), 100)


def write_scale(dest: Path, scale: int) -> tuple[Path, int]:
    """The shipped data plus SYNTHETIC servers, builds, tests and campaigns; returns the rows added
    (the shipped rows stay in, uncounted: the site's pages are written for them)."""
    servers, builds = shape(scale)
    shipped_with_synthetic_source(dest)
    rnd = random.Random(20261124)
    append_rows(dest / "microbenchmarks.csv",
                [[f"syn-test-{t:02d}", ("point", "range", "write")[t % 3], "", "queries/s",
                  "SYNTHETIC microbenchmark", "synthetic"] for t in range(TESTS)])
    append_rows(dest / "builds.csv", [build_row(f"synb{b:03d}", f"8.{b // 10}.{b % 10}") for b in range(builds)])
    append_rows(dest / "servers.csv", [server_row(f"syns{s:03d}") for s in range(servers)])
    rows = 0
    for s in range(servers):
        rows += _campaign(dest, f"2026-01-01-synthetic-{s:03d}", f"syns{s:03d}", range(builds), rnd)
    return dest, rows


def _server(k: int, servers: int) -> str:
    """The k-th synthetic server there is (x1 has one)."""
    return f"syns{k % servers:03d}"


def _after_newest(data: Path) -> str:
    """A campaign id dated the day after the newest campaign's date."""
    newest = max(p.name[:10] for p in (data / "campaigns").iterdir())
    return f"{datetime.date.fromisoformat(newest) + datetime.timedelta(days=1)}-synthetic-added"


def _campaign(data: Path, campaign: str, server: str, builds, rnd: random.Random) -> int:
    folder = new_campaign(data, campaign)
    rows = 0
    with open(folder / "results.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["server", "build", "config", "microbenchmark", "range", "threads", "qps"])
        for t in range(TESTS):
            level = rnd.uniform(1e3, 1e5)
            for b in builds:
                for n in THREADS:
                    qps = level * math.sqrt(n) * (1 - 0.001 * b) * rnd.uniform(0.98, 1.02)
                    w.writerow([server, f"synb{b:03d}", "z11a_c32r128", f"syn-test-{t:02d}", 100, n, f"{qps:.2f}"])
                    rows += 1
    return rows


_RUN = """
import json, resource, sys, time
from pathlib import Path
from papercuts.build import Timings, build
from papercuts.paths import PROJECT, Paths
t = Timings()
start = time.perf_counter()
build(Paths.make(data=sys.argv[1], build=sys.argv[2], out=sys.argv[3], content=PROJECT / "content"), t)
print(json.dumps({"stages": dict(t), "cpu": t.cpu, "system": t.system, "wall": time.perf_counter() - start,
                  "pages": t.pages, "python_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def hugo_peak(root: Path) -> float:
    """Hugo's own peak memory (MB) on the content the full build wrote, measured by wait4 on it."""
    proc = subprocess.Popen([hugo_binary(), "--source", str(PROJECT / "site"), "--contentDir",
                             str(root / "build" / "content"), "--destination", str(root / "hugo-peak"),
                             "--quiet", "--noBuildLock"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024


def _tree_pss(pid: int) -> int:
    """Bytes of memory a process and its descendants use, each shared page counted once
    (the sum of their PSS): the build with its forked workers and Hugo, as the machine sees it."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
                    break
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):  # it ended while being read
            continue
    return total


# How often a memory-sampled build (_build sample=True) reads its processes' PSS: 12 ms of one core
# a sample at x100, so not in a timed build (every 0.5 s there, 0.19 CPU s of the 8.3 s full build).
SAMPLE_S = 0.25


def _build(data: Path, root: Path, sample: bool = False) -> dict:
    """A build of `data` in `root`, timed by the build itself; with `sample`, the peak of the PSS of
    its process tree too (tree_mb), read every SAMPLE_S by this process beside it."""
    # Without chart images: thousands of SYNTHETIC charts would be drawn (the shipped data's images
    # stage is measured by `make bench`); the pages then offer no image links.
    proc = subprocess.Popen([sys.executable, "-c", _RUN, str(data), str(root / "build"), str(root / "public")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PAPERCUTS_IMAGES": "0"})
    peak, done = [0], threading.Event()

    def read_peak() -> None:
        while not done.wait(SAMPLE_S):
            peak[0] = max(peak[0], _tree_pss(proc.pid))

    sampler = threading.Thread(target=read_peak, daemon=True) if sample else None
    if sampler:
        sampler.start()
    stdout, stderr = proc.communicate()
    done.set()
    if sampler:
        sampler.join()
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, proc.args, stdout, stderr)
    got = json.loads(stdout.strip().splitlines()[-1])
    got["tree_mb"] = peak[0] / 1e6
    got["bytes"] = sum(p.stat().st_size for p in (root / "public").rglob("*") if p.is_file())
    return got


def duckdb_floor(data: Path) -> float:
    """DuckDB alone: read every results.csv, average repetitions, rQPS against the oldest build."""
    start = time.perf_counter()
    con = duckdb.connect()
    con.execute(f"""
        CREATE TABLE r AS SELECT * FROM read_csv('{data}/campaigns/*/results.csv', filename = true);
        CREATE TABLE q AS SELECT filename, server, build, microbenchmark, threads, avg(qps) AS qps
                          FROM r GROUP BY ALL;
        CREATE TABLE rq AS SELECT q.*, q.qps / b.qps AS rqps FROM q JOIN
            (SELECT * FROM q WHERE build = (SELECT min(build) FROM q)) b
            USING (filename, server, microbenchmark, threads);""")
    con.close()
    return time.perf_counter() - start


def cores_used(cpu: float, wall: float, cores: int) -> str:
    """What the full build's CPU seconds say: how many cores its stages kept busy, and the wall
    time its work would take with every core busy throughout (less only with less work)."""
    return (f"CPU: the stages took {cpu:.1f} CPU seconds in {wall:.1f} s, {cpu / wall:.2f} of {cores} cores busy; "
            f"the same work on {cores} cores kept busy throughout would take {cpu / cores:.1f} s")


def drift(before: float, after: float, tolerance: float = 0.15, slack: float = 0.05) -> str:
    """The DuckDB floor before and after the full build, and whether the machine's speed held: a
    change of more than `tolerance`, and more than `slack` seconds (a floor of 0.05 s at x1 moves
    by half from run to run)."""
    change = after / before - 1
    line = f"machine: the DuckDB floor took {before:.2f} s before the full build and {after:.2f} s after it"
    if abs(change) <= tolerance or abs(after - before) <= slack:
        return line + f" ({change:+.0%}, {after - before:+.2f} s: steady)"
    return (line + f" ({change:+.0%}): the machine's speed changed during the run; compare figures "
            "across runs with care, or run again")


def kernel_share(system: float, cpu: float, usual: float = 0.25) -> str:
    """The kernel's share of the full build's CPU seconds, and whether it is above `usual`: it is
    the disk's, and on one that has just removed a large tree (an old build, the last bench's
    folder; ext4 with `discard`) file writes cost several times more. x100 on this project's
    machine: 17-20 % in runs after a pause, 25-42 % in runs within a minute or two of a removal,
    whose full builds took 0.2-4.3 s longer than a quiet run's 7.97 s."""
    line = f"of those, {system:.1f} CPU seconds ({system / cpu:.0%}) were the kernel's (sys s: file writes, mostly)"
    if system <= usual * cpu:
        return line
    return (line + f": more than {usual:.0%}, as on a disk that has just removed a large tree (an old build, the "
            "last bench's folder), where file writes cost several times more; run again after a pause")


def hugo_floor(pages: int, root: Path) -> float:
    """Hugo alone on as many plain pages (one-line Markdown, a one-line layout)."""
    site = root / "hugo-floor"
    (site / "content").mkdir(parents=True)
    (site / "layouts").mkdir()
    (site / "layouts" / "single.html").write_text("<h1>{{ .Title }}</h1>{{ .Content }}\n")
    (site / "layouts" / "list.html").write_text("<h1>{{ .Title }}</h1>\n")
    (site / "hugo.toml").write_text('baseURL = "/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n')
    for i in range(pages):
        (site / "content" / f"p{i}.md").write_text(f"---\ntitle: page {i}\n---\nplain page {i}\n")
    start = time.perf_counter()
    subprocess.run([hugo_binary(), "-s", str(site), "--quiet"], check=True, capture_output=True)
    return time.perf_counter() - start


def scale_bench(scale: int) -> None:
    servers, builds = shape(scale)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        data, rows = write_scale(root / "data", scale)
        print(f"papercuts bench --scale {scale}: SYNTHETIC data, {servers} server(s) × {builds} builds × "
              f"{TESTS} microbenchmarks × {len(THREADS)} thread counts = {rows:,} result rows "
              f"({os.cpu_count()} cores)")
        # The floor before and after the full build: on a shared machine its speed can change
        # within a run (x100: 0.64, 0.73 and 0.92 s in three runs of one day), and a ratio is only
        # worth as much as the two agree.
        floor_before = min(duckdb_floor(data) for _ in range(2))  # the first run warms DuckDB and the files up
        full = _build(data, root)
        full["hugo_mb"] = hugo_peak(root)
        floor_db = duckdb_floor(data)  # on the data the full build read
        again = _build(data, root)
        # Twice: the first rebuild after a full build finds an empty trash; later ones remove the
        # trees the one before them replaced (publish/trash.py), as every rebuild after them does.
        # A new campaign is dated after the others (ids begin with the date it was measured); then
        # one dated among them, then one dated before every other. Each build starts from a copy of
        # the last database, its campaigns' rows kept where they are, the new one's appended
        # (ingest/previous.py): the date should not matter.
        _campaign(data, _after_newest(data), _server(0, servers), range(2), random.Random(1))
        first = _build(data, root)
        _campaign(data, _after_newest(data), _server(1, servers), range(2), random.Random(2))
        added = _build(data, root)
        _campaign(data, "2026-01-02-synthetic-added", _server(2, servers), range(2), random.Random(3))
        among = _build(data, root)
        _campaign(data, "2000-01-01-synthetic-added", _server(3, servers), range(2), random.Random(4))
        oldest = _build(data, root)
        floor_hugo = hugo_floor(full["pages"], root)
        heaviest = page_bench(root / "public")
        # The peak memory of a full build in a folder of its own, not the timed one: reading the
        # processes' memory takes a core's time (and the four small campaigns added are in it)
        full["tree_mb"] = _build(data, root / "peak", sample=True)["tree_mb"]
    print(f"{'stage':<10}{'full s':>9}{'CPU s':>8}{'sys s':>8}{'rows/s':>12}{'no change s':>13}{'1 file added s':>16}")
    for s in STAGES:
        if s in full["stages"]:
            a = full["stages"][s]
            print(f"{s:<10}{a:>9.2f}{full['cpu'][s]:>8.2f}{full['system'][s]:>8.2f}{rows / a if a else 0:>12,.0f}"
                  f"{again['stages'].get(s, 0):>13.2f}{added['stages'].get(s, 0):>16.2f}")
    cpu, system = sum(full["cpu"].values()), sum(full["system"].values())
    print(f"{'wall':<10}{full['wall']:>9.2f}{cpu:>8.2f}{system:>8.2f}{rows / full['wall']:>12,.0f}"
          f"{again['wall']:>13.2f}{added['wall']:>16.2f}")
    print(cores_used(cpu, sum(full["stages"].values()), os.cpu_count() or 1))
    print(kernel_share(system, cpu))
    # A fork's ru_maxrss counts the pages it shares with its parent, so the whole build's figure is
    # the peak of the PSS of its process tree (the build, its forked workers, Hugo), sampled.
    print(f"pages {full['pages']}, output {full['bytes'] / 1e6:.1f} MB, peak memory: the whole build "
          f"{full['tree_mb']:,.0f} MB (its processes' PSS, Hugo and forked workers included, sampled every "
          f"{SAMPLE_S} s in a build of its own after the timed ones); its own process {full['python_mb']:,.0f} MB; "
          f"Hugo alone {full['hugo_mb']:,.0f} MB")
    print(f"rebuilds: no change {again['wall'] / full['wall']:.0%} of the full build, one file added "
          f"{added['wall'] / full['wall']:.0%} (the first after the full build, with no old trees to "
          f"remove: {first['wall']:.2f} s, {first['wall'] / full['wall']:.0%}); one file added among older "
          f"campaigns {among['wall']:.2f} s, {among['wall'] / full['wall']:.0%}; before every other campaign "
          f"{oldest['wall']:.2f} s, {oldest['wall'] / full['wall']:.0%}")
    print(f"floors: DuckDB load + rQPS {floor_db:.2f} s (build {full['wall'] / floor_db:.0f}× it); Hugo on "
          f"{full['pages']} plain pages {floor_hugo:.2f} s (hugo stage {full['stages']['hugo'] / floor_hugo:.1f}× it)")
    print(drift(floor_before, floor_db))
    print(heaviest)
