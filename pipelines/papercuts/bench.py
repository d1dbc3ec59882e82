"""`make bench`: wall time of each build stage, on the shipped data and on synthetic data.

The shipped data is the baseline measured in the same run; the synthetic rows are reported as
ratios to it, since absolute times on a shared 2-core machine are noisy.
"""
from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from .build import STAGES, Timings, build
from .paths import Paths
from .synthetic import write_synthetic


def _measure(paths: Paths, repeat: int) -> tuple[dict[str, float], int, int]:
    runs = []
    for _ in range(repeat):
        t = Timings()
        build(paths, t)
        runs.append(t)
    files = sum(1 for p in paths.public.rglob("*") if p.is_file())
    return {s: statistics.median(r[s] for r in runs) for s in STAGES}, runs[-1].pages, files


def bench(repeat: int = 3, servers: int = 20) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shipped = _measure(Paths.make(build=root / "b1", out=root / "p1"), repeat)
        data = write_synthetic(root / "synthetic-data", servers)
        files = list(data.rglob("results.csv"))
        rows = sum(len(f.read_text().splitlines()) - 1 for f in files)
        synthetic = _measure(Paths.make(data=data, build=root / "b2", out=root / "p2"), repeat)
    print(f"papercuts bench: median of {repeat} builds per dataset")
    print(f"  shipped  : data/ ({shipped[1]} pages, {shipped[2]} files published)")
    print(f"  synthetic: data/ + {servers} SYNTHETIC servers, {rows} result rows "
          f"({synthetic[1]} pages, {synthetic[2]} files)")
    print(f"{'stage':<10}{'shipped s':>11}{'synthetic s':>13}{'ratio':>8}")
    for s in STAGES:
        a, b = shipped[0][s], synthetic[0][s]
        print(f"{s:<10}{a:>11.3f}{b:>13.3f}{b / a:>8.1f}")
    ta, tb = sum(shipped[0].values()), sum(synthetic[0].values())
    print(f"{'total':<10}{ta:>11.3f}{tb:>13.3f}{tb / ta:>8.1f}")
    print(f"pages per second: shipped {shipped[1] / ta:.0f}, synthetic {synthetic[1] / tb:.0f}")
