"""The best recall any change-point test can reach on the detection goal's short ladders
(issue 12: 5 % steps, 8 builds, 3 runs of 2 % noise, at most 1 false alarm per 100 series).

With the noise known exactly, a step between builds k and k+1 of n is seen through the two-sample
z of the segment means; its expected value is ln(1.05) / (σ √(1/k + 1/(n-k))), σ = 2 % / √3.
A flat series must pass the threshold at most 1 % of the time over all its splits at once: that
threshold is the 99th percentile of max |z| over the splits of a flat series, found here by
simulation (SYNTHETIC, seeded). The recall of a step at k is then P(Z > threshold - its z),
averaged over the step's position.

    .venv/bin/python scripts/changepoint_bound.py [SERIES]
"""
from __future__ import annotations

import math
import random
import sys
from statistics import NormalDist


def max_z(values: list[float]) -> float:
    n, total, left, best = len(values), sum(values), 0.0, 0.0
    for k in range(1, n):
        left += values[k - 1]
        z = abs((total - left) / (n - k) - left / k) / math.sqrt(1 / k + 1 / (n - k))
        best = max(best, z)
    return best


def main(series: int, builds: int = 8, runs: int = 3, noise: float = 0.02, step: float = 0.05,
         false_alarms: float = 0.01) -> None:
    rng = random.Random(1)
    null = sorted(max_z([rng.gauss(0, 1) for _ in range(builds)]) for _ in range(series))
    threshold = null[int((1 - false_alarms) * series)]
    sigma = noise / math.sqrt(runs)
    recall = [NormalDist().cdf(math.log1p(step) / (sigma * math.sqrt(1 / k + 1 / (builds - k))) - threshold)
              for k in range(1, builds)]
    print(f"{builds} builds, {runs} runs of {noise:.0%} noise, {step:.0%} steps, {false_alarms:.0%} false alarms "
          f"per series ({series:,} SYNTHETIC flat series): threshold |z| > {threshold:.2f}")
    print("recall by the step's position: " + " ".join(f"{r:.2f}" for r in recall))
    print(f"best recall, steps at uniform positions: {sum(recall) / len(recall):.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
