"""Synthetic data for benchmarks only: a data folder of a given size, labelled as synthetic.

Never published: `make bench` builds it in a scratch folder. Deterministic for a given size.
"""
from __future__ import annotations

import csv
import random
import shutil
from pathlib import Path

from .paths import PROJECT

VERSIONS = ["5.6.51", "5.7.44", "8.0.28", "8.0.32", "8.0.40", "8.4.3", "9.1.0", "9.5.0"]
THREADS = [1, 8, 24]


def shipped_with_synthetic_source(dest: Path) -> None:
    """The shipped data/ copied to dest (the site's pages are written for it), plus the source row
    every SYNTHETIC catalog row and campaign names."""
    shutil.copytree(PROJECT / "data", dest)
    append_rows(dest / "sources.csv",
                [["synthetic", "SYNTHETIC benchmark data (never published)", "papercuts bench", "", "", "", ""]])


def append_rows(path: Path, rows) -> None:
    with open(path, "a", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def build_row(build: str, version: str) -> list:
    return [build, "mysql", "innodb", version, "", "", "", "synthetic", "synthetic"]


def server_row(server: str) -> list:
    return [server, "", "SYNTHETIC CPU", 1, 16, "off", 64, "", "", "synthetic", "synthetic"]


def new_campaign(data: Path, campaign: str) -> Path:
    """An empty SYNTHETIC campaign folder (its date from its id) with its campaign.toml."""
    folder = data / "campaigns" / campaign
    folder.mkdir()
    (folder / "campaign.toml").write_text(
        'title = "SYNTHETIC"\nsource = "synthetic"\ncontributor = "papercuts bench"\n'
        f'date = {campaign[:10]}\nsysbench = "none"\nnotes = "synthetic benchmark data"\n')
    return folder


def shipped_tests() -> list[str]:
    """The shipped microbenchmarks of the point, range and write groups."""
    with open(PROJECT / "data" / "microbenchmarks.csv") as f:
        return [r["name"] for r in csv.DictReader(f) if r["group"] != "other"]


def write_synthetic(dest: Path, servers: int) -> Path:
    """Copy the shipped catalogs and add `servers` servers, each with one campaign."""
    shipped_with_synthetic_source(dest)
    rnd = random.Random(20261122)
    tests = shipped_tests()
    append_rows(dest / "builds.csv", [build_row(f"syn{v.replace('.', '')}", v) for v in VERSIONS])
    append_rows(dest / "servers.csv", [server_row(f"syn{s:04d}") for s in range(servers)])
    for s in range(servers):
        camp = new_campaign(dest, f"2026-01-01-synthetic-{s:04d}")
        with open(camp / "results.csv", "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["server", "build", "config", "microbenchmark", "range", "threads", "qps"])
            for test in tests:
                base = rnd.uniform(1e3, 1e5)
                for i, v in enumerate(VERSIONS):
                    for t in THREADS:
                        qps = base * t * (1 - 0.03 * i) * rnd.uniform(0.97, 1.03)
                        w.writerow([f"syn{s:04d}", f"syn{v.replace('.', '')}", "z11a_c32r128", test,
                                    100, t, f"{qps:.2f}"])
    return dest


def write_explorer_synthetic(dest: Path, campaigns: int = 11, builds: int = 30) -> Path:
    """The shipped data plus one SYNTHETIC server shaped like the largest real one ×10: `campaigns`
    campaigns of `builds` builds × every microbenchmark × 3 thread counts, with per-op costs."""
    shipped_with_synthetic_source(dest)
    rnd = random.Random(20261124)
    tests = shipped_tests()
    versions = [f"8.0.{n}" for n in range(1, builds + 1)]
    append_rows(dest / "builds.csv", [build_row(f"synx{v.replace('.', '')}", v) for v in versions])
    append_rows(dest / "servers.csv", [server_row("synx10")])
    for c in range(campaigns):
        camp = new_campaign(dest, f"2026-02-{c + 1:02d}-synthetic-explorer")
        with open(camp / "results.csv", "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["server", "build", "config", "microbenchmark", "range", "threads", "qps",
                        "cpu_per_op", "cs_per_op", "r_per_op", "rkb_per_op", "wkb_per_op"])
            for test in tests:
                base = rnd.uniform(1e3, 1e5)
                for i, v in enumerate(versions):
                    for t in THREADS:
                        qps = base * t * (1 - 0.005 * i) * rnd.uniform(0.97, 1.03)
                        costs = [f"{x / qps:.6f}" for x in (rnd.uniform(50, 90), rnd.uniform(1e4, 1e5),
                                                            rnd.uniform(0, 10), rnd.uniform(0, 80),
                                                            rnd.uniform(10, 400))]
                        w.writerow(["synx10", f"synx{v.replace('.', '')}", "z11a_c32r128", test, 100, t,
                                    f"{qps:.2f}", *costs])
    return dest
