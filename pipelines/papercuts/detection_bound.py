"""The best recall any change-point method can reach on a short ladder, for the detection benchmark.

A hit is what `make bench` counts: the step found between the right two builds. On n builds with
one step of relative size s at a uniformly drawn position k (1..n-1), per-point noise sigma known
exactly, one change declared per series at most, and at most `false_alarms` flat series (no step)
given a change:

- scan: the two-sample z of the segment means at every split, the largest |z| kept when above the
  threshold that flat series pass `false_alarms` of the time; its split is the place. This is the
  first split of derive/changepoints.py's binary segmentation, with the noise known and the
  threshold exact rather than Bonferroni's.
- oracle: the step's size is known too (its sign is not). Of all rules, the one that declares most
  steps at the right split for that false-alarm rate takes the split with the largest likelihood
  ratio when that ratio is above a threshold (maximising the hits under the constraint, point by
  point); no method that does not know the step's size can do better. The bench counts a change
  at a wrong split of a stepped series as a false alarm too, which only lowers the best reachable.

Both are computed by simulation (SYNTHETIC, seeded numpy draws): the contrast of the segment means
does not depend on the series' level, so unit-noise draws plus the step suffice.
"""
from __future__ import annotations

import math

import numpy as np


def _contrasts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """z of mean after - mean before at every split (rows x splits), and each split's standard error
    in units of the per-point noise."""
    n = x.shape[1]
    k = np.arange(1, n)
    cs = np.cumsum(x, axis=1)
    left = cs[:, :-1] / k
    right = (cs[:, -1:] - cs[:, :-1]) / (n - k)
    se = np.sqrt(1 / k + 1 / (n - k))
    return (right - left) / se, se


def _oracle_score(z: np.ndarray, se: np.ndarray, d: float) -> np.ndarray:
    """Log likelihood ratio of a step of +-d (noise units) at each split against none."""
    mu = d / se
    return np.logaddexp(mu * z, -mu * z) - mu * mu / 2


def bound(builds: int, runs: int, step: float, noise: float = 0.02, false_alarms: float = 0.01,
          draws: int = 100_000, seed: int = 1) -> tuple[float, float]:
    """(scan, oracle): the share of steps found between the right builds, averaged over positions."""
    rng = np.random.default_rng(seed)
    d = math.log1p(step) / (noise / math.sqrt(runs))
    z0, se = _contrasts(rng.standard_normal((draws, builds)))
    scan_t = np.quantile(np.abs(z0).max(axis=1), 1 - false_alarms)
    oracle_t = np.quantile(_oracle_score(z0, se, d).max(axis=1), 1 - false_alarms)
    scan = oracle = 0.0
    for k in range(1, builds):
        x = rng.standard_normal((draws, builds))
        x[:, k:] += d
        z, _ = _contrasts(x)
        az, score = np.abs(z), _oracle_score(z, se, d)
        scan += np.mean((az.max(axis=1) > scan_t) & (az.argmax(axis=1) == k - 1))
        oracle += np.mean((score.max(axis=1) > oracle_t) & (score.argmax(axis=1) == k - 1))
    return float(scan / (builds - 1)), float(oracle / (builds - 1))
