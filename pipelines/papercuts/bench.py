"""`make bench`: wall time of each build stage on the shipped data, in a scratch folder."""
from __future__ import annotations

import statistics
import tempfile

from .build import STAGES, Timings, build
from .paths import Paths


def bench(repeat: int = 3) -> None:
    runs: list[Timings] = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = Paths.make(build=f"{tmp}/build", out=f"{tmp}/public")
        for _ in range(repeat):
            t = Timings()
            build(paths, t)
            runs.append(t)
        pages = runs[-1].pages
        files = sum(1 for p in paths.public.rglob("*") if p.is_file())
    medians = {s: statistics.median(r[s] for r in runs) for s in STAGES}
    total = sum(medians.values())
    print(f"papercuts bench: shipped data, {repeat} runs, median wall time per stage")
    print(f"{'stage':<10}{'seconds':>10}{'share':>8}")
    for s in STAGES:
        print(f"{s:<10}{medians[s]:>10.3f}{medians[s] / total:>8.1%}")
    print(f"{'total':<10}{total:>10.3f}")
    print(f"pages rendered: {pages}; files published: {files}")
