"""The scale bench's figures are ratios within one run: it says when the machine's own speed moved
during the run (the DuckDB floor measured before and after the full build), which makes them so."""
from __future__ import annotations

from papercuts.scale_bench import drift


def test_a_floor_that_moved_during_the_run_is_said_and_a_steady_one_is_not():
    steady, moved = drift(0.64, 0.70), drift(0.64, 0.92)
    assert "+9%, +0.06 s: steady" in steady and "changed" not in steady
    assert "+44%" in moved and "the machine's speed changed during the run" in moved
    assert "changed" in drift(0.92, 0.64)  # faster counts too: -30 %
    assert "steady" in drift(0.05, 0.08)  # +60 %, but 0.03 s: a small floor's own noise
