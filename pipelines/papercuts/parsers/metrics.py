"""Per-operation costs from parsed samples, as mytools' an.sh defines them, with its traps fixed.

With q the operations per second of the test (sysbench QPS; Krows/s for scan):
  vmstat: cs/s = mean(cs), cpu/s = mean(us + sy) (a percentage of all CPUs, not seconds),
          cs/o = cs/s / q, cpu/o = mean(us + sy) / q  (so cpu/o compares runs on one host only);
  iostat: r/o = mean(r/s) / q, rKB/o = mean(rkB/s) / q, wKB/o = mean(wkB/s) / q (one device).
Fixed here: the since-boot vmstat row (an.sh averages it in) and repeated vmstat headers (an.sh
counts them as zero samples) are left out by the parsers. From perf stat: counters per query
(counter / (q x the block's elapsed seconds), each --append group over its own window) and IPC.
A value that cannot be computed (no samples, no counter) is None, never 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean

from .errors import Gap
from .iostat import Iostat
from .perf_stat import Block, PerfStat
from .vmstat import Vmstat


@dataclass(frozen=True)
class PerOp:
    qps: float
    vm_samples: int = 0
    cs_per_s: float | None = None
    cpu_pct: float | None = None  # mean(us + sy)
    cs_per_op: float | None = None
    cpu_per_op: float | None = None
    io_samples: int = 0
    r_per_s: float | None = None
    rkb_per_s: float | None = None
    wkb_per_s: float | None = None
    r_per_op: float | None = None
    rkb_per_op: float | None = None
    wkb_per_op: float | None = None


def _mean(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return fmean(known) if known and len(known) == len(values) else None


def _per(value: float | None, qps: float) -> float | None:
    return None if value is None else value / qps


def per_op(qps: float, vmstat: Vmstat | Gap | None = None, iostat: Iostat | Gap | None = None) -> PerOp:
    """cpu/o, cs/o, r/o, rKB/o, wKB/o for one test; a Gap or None source leaves its values None."""
    if not qps or qps <= 0:
        raise ValueError(f"per-operation costs need a positive rate, got {qps!r}")
    out: dict = {"qps": qps}
    if isinstance(vmstat, Vmstat) and vmstat.samples:
        cs = _mean(vmstat.column("cs"))
        us, sy = vmstat.column("us"), vmstat.column("sy")
        cpu = _mean([a + b for a, b in zip(us, sy, strict=True)]) if us and sy else None
        out.update(vm_samples=len(vmstat.samples), cs_per_s=cs, cpu_pct=cpu,
                   cs_per_op=_per(cs, qps), cpu_per_op=_per(cpu, qps))
    if isinstance(iostat, Iostat) and iostat.samples:
        r = _mean([s.get("r/s") for s in iostat.samples])
        rkb = _mean([s.rkb_per_s for s in iostat.samples])
        wkb = _mean([s.wkb_per_s for s in iostat.samples])
        out.update(io_samples=len(iostat.samples), r_per_s=r, rkb_per_s=rkb, wkb_per_s=wkb,
                   r_per_op=_per(r, qps), rkb_per_op=_per(rkb, qps), wkb_per_op=_per(wkb, qps))
    return PerOp(**out)


@dataclass(frozen=True)
class PerQuery:
    qps: float
    instructions: float | None = None
    cycles: float | None = None
    bus_cycles: float | None = None
    cpu_ms: float | None = None  # task-clock (or cpu-clock) milliseconds per query
    context_switches: float | None = None
    ipc: float | None = None  # instructions / cycles, when both were counted in one window


def _counted(block: Block, event: str) -> float | None:
    """The block's count of `event` (any `:u`/`:k` suffix), or None if it did not count it."""
    values = [c.value for c in block.counters
              if c.event.split(":")[0] == event and c.time_s is None and c.cpu is None and c.value is not None]
    return values[0] if values else None


def per_query(qps: float, stat: PerfStat | Gap | None, window_s: float | None = None) -> PerQuery:
    """Counters per query from `perf stat -p <server>` run beside the benchmark: an event's counts
    summed over every block that counted it, over the sum of those blocks' windows (mytools' numbered
    samples, combined, are many blocks). `-x` and `-j` output print no elapsed time: then window_s
    (the test's duration) is the window; a human block cut before its elapsed line is left out."""
    if not qps or qps <= 0:
        raise ValueError(f"per-query counters need a positive rate, got {qps!r}")
    if not isinstance(stat, PerfStat):
        return PerQuery(qps)

    def window(block: Block) -> float | None:
        return block.elapsed_s if block.elapsed_s is not None else (window_s if block.target is None else None)

    def each(*events: str) -> float | None:
        for event in events:
            pairs = [(v, window(b)) for b in stat.blocks if (v := _counted(b, event)) is not None and window(b)]
            if pairs:
                return math.fsum(v for v, _ in pairs) / (qps * math.fsum(w for _, w in pairs))
        return None

    both = [(i, c) for b in stat.blocks if window(b)
            and (i := _counted(b, "instructions")) is not None and (c := _counted(b, "cycles")) is not None]
    cycles = math.fsum(c for _, c in both)
    ipc = math.fsum(i for i, _ in both) / cycles if both and cycles else None
    return PerQuery(qps=qps, instructions=each("instructions"), cycles=each("cycles"),
                    bus_cycles=each("bus-cycles"), cpu_ms=each("task-clock", "cpu-clock"),
                    context_switches=each("context-switches", "cs"), ipc=ipc)
