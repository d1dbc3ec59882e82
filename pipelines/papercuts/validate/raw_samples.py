"""mytools' numbered perf samples: `sb.perf.hw.<test>....pk1.<k>` and `sb.perf.rep.f....pk1.<k>`.

run.sh's perf loop takes one 10-second window every ~50 s of a test, numbered 1, 2, ... 15, so the
samples of a test are one profile (or one set of counters) taken in pieces. They are combined as
the tool combines its own: `cat sb.perf.g.fold.*.<k> | flamegraph.pl` adds every sample's stacks,
weighted by their event period, so a flat report's percentages are weighted by that sample's
`Event count`, and perf stat counters are summed over the summed windows. Numbers are ordered as
numbers (.10 after .9); a number missing between the first and the last is a gap, and a sample
with fewer `--append` groups than its siblings (the test ended during its window) is reported as
truncated (its complete groups still count).
"""
from __future__ import annotations

import math
from pathlib import Path

from ..parsers.perf_report import PerfReport
from ..parsers.perf_stat import PerfStat


def sample_path(first: Path, k: int) -> Path:
    """The name run.sh gives sample k, beside sample `first`."""
    return first.with_name(f"{first.name.rsplit('.', 1)[0]}.{k}")


def missing(samples: dict[int, Path]) -> list[Path]:
    """Samples absent between 1 and the last one present."""
    first = samples[min(samples)]
    return [sample_path(first, k) for k in range(1, max(samples) + 1) if k not in samples]


def truncated(stats: dict[int, PerfStat]) -> dict[int, str]:
    """Sample -> why it is incomplete: fewer event groups than the fullest sample, or a group cut
    before its `seconds time elapsed` line."""
    most = max(len(s.blocks) for s in stats.values())
    out = {}
    for k, stat in stats.items():
        cut = [b for b in stat.blocks if b.target is not None and b.elapsed_s is None]
        if len(stat.blocks) < most or cut:
            out[k] = f"{len(stat.blocks) - len(cut)} of {most} perf stat groups complete"
    return out


def combine_stats(stats: dict[int, PerfStat]) -> PerfStat:
    """Every sample's groups, in sample order: counters per query then sum values over windows."""
    return PerfStat(tuple(b for k in sorted(stats) for b in stats[k].blocks))


def report_weights(reports: dict[int, PerfReport]) -> dict[int, float]:
    """Each sample's share of all samples' events (equal shares when a report prints no count)."""
    counts = {k: r.event_count for k, r in reports.items()}
    if any(c is None for c in counts.values()) or not math.fsum(counts.values()):
        return {k: 1 / len(reports) for k in reports}
    total = math.fsum(counts.values())
    return {k: c / total for k, c in counts.items()}
