"""The best recall any change-point method can reach on the detection goal's short ladders
(issue 12: 8 builds, 3 runs of 2 % noise, at most 1 false alarm per 100 flat series), by step size:
the scan with the noise known and the oracle that knows the step's size too
(papercuts/detection_bound.py says how). A hit is the step found between the right two builds.

    .venv/bin/python scripts/changepoint_bound.py [DRAWS]
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pipelines"))

from papercuts.detection_bound import bound  # noqa: E402


def main(draws: int) -> None:
    print(f"8 builds, 1 % false alarms, {draws:,} SYNTHETIC draws per position")
    for runs in (1, 3):
        for step in (0.02, 0.03, 0.05, 0.10, 0.20):
            scan, oracle = bound(8, runs, step, draws=draws)
            print(f"  {runs} run(s), {step:>4.0%} steps: scan {scan:.3f}, oracle {oracle:.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400_000)
