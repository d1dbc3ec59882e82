"""`make bench`: wall time of each build stage, on the shipped data and on synthetic data.

The shipped data is the baseline measured in the same run; the synthetic rows are reported as
ratios to it, since absolute times on a shared 2-core machine are noisy.
"""
from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from .build import STAGES, Timings, build
from .derive.changepoints import SPAN, detect
from .detection_bound import bound
from .explore_bench import explorer_bench
from .fingerprint import forget
from .paths import PROJECT, Paths
from .synthetic import write_explorer_synthetic, write_synthetic
from .synthetic_ladders import ladder as synthetic_ladder

STEPS = (0.02, 0.03, 0.05, 0.10, 0.20)


def _measure(paths: Paths, repeat: int) -> tuple[dict[str, float], int, int]:
    """Median seconds per stage over `repeat` builds; the first build draws every chart image
    (its own empty cache), the others find them cached: "images" is the median of those, and
    "images (first)" the first build's."""
    runs = []
    for _ in range(repeat):
        t = Timings()
        forget(paths)  # every build here is a whole one, not the no-change shortcut
        build(paths, t)
        runs.append(t)
    files = sum(1 for p in paths.public.rglob("*") if p.is_file())
    cached = runs[1:] or runs
    times = {s: statistics.median(r.get(s, 0.0) for r in (cached if s == "images" else runs)) for s in STAGES}
    return {**times, "images (first)": runs[0].get("images", 0.0)}, runs[-1].pages, files


def bench(repeat: int = 3, servers: int = 20) -> None:
    os.environ.pop("PAPERCUTS_IMAGE_CACHE", None)  # each dataset's first build starts with no image cached
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shipped = _measure(Paths.make(build=root / "b1", out=root / "p1"), repeat)
        data = write_synthetic(root / "synthetic-data", servers)
        files = list(data.rglob("results.csv"))
        rows = sum(len(f.read_text().splitlines()) - 1 for f in files)
        # SYNTHETIC data is built without chart images: their cost is the shipped data's images
        # stage above, and drawing thousands of synthetic charts would be most of the run.
        os.environ["PAPERCUTS_IMAGES"] = "0"
        try:
            # the shipped data and its pages, with the synthetic servers beside them
            synthetic = _measure(Paths.make(data=data, build=root / "b2", out=root / "p2",
                                            content=PROJECT / "content"), repeat)
            x10 = Paths.make(data=write_explorer_synthetic(root / "explorer-data"), build=root / "b3",
                             out=root / "p3")
            build(x10)
        finally:
            os.environ.pop("PAPERCUTS_IMAGES", None)
        explorer_sites = {"shipped, largest server": (root / "p1", _largest_server(root / "p1")),
                          "SYNTHETIC ×10 server": (x10.public, "synx10")}
        explorer_bench(explorer_sites)
    print(f"papercuts bench: median of {repeat} builds per dataset")
    print(f"  shipped  : data/ ({shipped[1]} pages, {shipped[2]} files published)")
    print(f"  synthetic: data/ + {servers} SYNTHETIC servers, {rows} result rows "
          f"({synthetic[1]} pages, {synthetic[2]} files)")
    print(f"{'stage':<15}{'shipped s':>11}{'synthetic s':>13}{'ratio':>8}")
    for s in (*STAGES, "images (first)"):
        a, b = shipped[0][s], synthetic[0][s]
        if s.startswith("images"):
            print(f"{s:<15}{a:>11.3f}{'not drawn':>13}")
            continue
        print(f"{s:<15}{a:>11.3f}{b:>13.3f}{b / a:>8.1f}")
    print("(images: the median of the builds that found every image cached; images (first): the first "
          "build, which drew them all; the totals leave images out, SYNTHETIC data draws none)")
    ta, tb = (sum(m[0][s] for s in STAGES if s != "images") for m in (shipped, synthetic))
    print(f"{'total':<15}{ta:>11.3f}{tb:>13.3f}{tb / ta:>8.1f}")
    print(f"pages per second: shipped {shipped[1] / ta:.0f}, synthetic {synthetic[1] / tb:.0f}")
    detection_bench()


def _largest_server(public: Path) -> str:
    """The server whose explorer data file is the largest."""
    return max((p for p in (public / "explore").glob("*.json") if not p.name.endswith(".costs.json")),
               key=lambda p: p.stat().st_size).stem


def _score(ladder, found, tally: Counter, step: float) -> None:
    """Count one ladder's detections against its injected steps, by the exact pair and by span."""
    changes: dict[str, list] = {}
    for c in found:
        changes.setdefault(c.series, []).append(c)
    for name in ladder.series:
        true = ladder.steps.get(name)
        own = changes.get(name, [])
        tally["series"] += 1
        tally["flat"] += true is None
        if true is not None:
            tally["stepped", step] += 1
            tally["hit", step] += any(c.index == true for c in own)
            tally["held", step] += any(c.first <= true <= c.last for c in own)
        wrong = [c for c in own if c.index != true]
        tally["false"] += len(wrong)
        tally["off by one"] += true is not None and any(abs(c.index - true) == 1 for c in wrong)
        tally["no step"] += len(wrong) if true is None else 0
        tally["misplaced"] += len(wrong) if true is not None else 0
        tally["false span"] += sum(true is None or not c.first <= true <= c.last for c in own)
        tally["changes"] += len(own)
        tally["width"] += sum(c.last - c.first + 1 for c in own)
        tally["found true"] += sum(true is not None and abs(c.index - true) <= 2 for c in own)
        tally["found true held"] += sum(true is not None and abs(c.index - true) <= 2 and c.first <= true <= c.last
                                        for c in own)


def detection_bench(seed: int = 1) -> None:
    """Recall per step size and false alarms on SYNTHETIC ladders with known steps (2 % noise,
    slow shared drift), by the exact pair of builds and by span; the detection time per 10,000
    series; and the best any method can do on 8 builds."""
    rng = random.Random(seed)
    seconds = series = 0
    tallies = {}
    # 8 builds of 5 runs too: the fewest runs at which 5 % steps can be found 95 % of the time
    # (with 3, no method can: see the bound below)
    for builds, ladders, runs_each in ((8, 60, (1, 3, 5)), (100, 12, (1, 3))):
        for runs in runs_each:
            tally = tallies[builds, runs] = Counter()
            for step in STEPS:
                for _ in range(ladders):
                    ladder = synthetic_ladder(rng, builds, step, runs)
                    start = time.perf_counter()
                    found, _, _ = detect(ladder.series, ladder.groups, ladder.spread)
                    if builds == 100:
                        seconds += time.perf_counter() - start
                        series += len(ladder.series)
                    _score(ladder, found, tally, step)
    head = f"{'builds':>6}{'runs':>5}  " + "".join(f"{f'{s:.0%}':>7}" for s in STEPS)
    print("change-point detection on SYNTHETIC ladders (30 series each, 1 in 5 with one step; "
          "a hit is the exact pair of builds)")
    print(head + f"{'false/100':>11}{'1 build off':>13}{'no step':>9}{'misplaced':>11}")
    for (builds, runs), t in tallies.items():
        stepped = t["series"] - t["flat"]
        print(f"{builds:>6}{runs:>5}  " + "".join(f"{t['hit', s] / t['stepped', s]:>7.2f}" for s in STEPS)
              + f"{100 * t['false'] / t['series']:>11.2f}{100 * t['off by one'] / t['series']:>13.2f}"
              f"{100 * t['no step'] / t['flat']:>9.2f}{100 * t['misplaced'] / stepped:>11.2f}")
    print("false/100: changes where no step was injected, per 100 series; '1 build off': of those, a true "
          "step's change placed one build early or late (counted as a miss and a false alarm)")
    print("no step: changes in the series without a step, per 100 such series (alarms with nothing behind them); "
          "misplaced: changes in a stepped series away from its step, per 100 stepped series (a real, small "
          "step found at the wrong build: most are 2-3 % steps in 2 % noise)")
    print(f"the same detections by span (the builds a change lies between with probability {SPAN:.0%}, "
          "as the site shows them): a hit is a span holding the step")
    print(head + f"{'false/100':>11}{'width':>7}{'held':>7}")
    for (builds, runs), t in tallies.items():
        print(f"{builds:>6}{runs:>5}  " + "".join(f"{t['held', s] / t['stepped', s]:>7.2f}" for s in STEPS)
              + f"{100 * t['false span'] / t['series']:>11.2f}{t['width'] / max(t['changes'], 1):>7.2f}"
              f"{t['found true held'] / max(t['found true'], 1):>7.2f}")
    print("false/100: changes whose span holds no step, per 100 series; width: pairs of consecutive builds "
          "per span, mean (1: the exact pair); held: of the changes within two builds of a true step, the share "
          "whose span holds it")
    print(f"detection time: {10_000 * seconds / series:.2f} s per 10,000 series of 100 builds (numpy, 1 core)")
    print("the best on 8 builds at 1 false alarm per 100 flat series, a hit again being the exact pair "
          "(detection_bound.py, the noise known exactly): scan, the largest |z| of the segment means; "
          "oracle, the best any method can do, knowing the step's size too:")
    for runs in (1, 3, 5):
        pairs = [bound(8, runs, step) for step in STEPS]
        for i, name in enumerate(("scan", "oracle")):
            print(f"{8:>6}{runs:>5}  " + "".join(f"{p[i]:>7.2f}" for p in pairs) + f"  {name}")
