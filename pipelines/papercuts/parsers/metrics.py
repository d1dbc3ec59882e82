"""Per-operation costs from parsed samples, as mytools' an.sh defines them, with its traps fixed.

With q the operations per second of the test (sysbench QPS; Krows/s for scan):
  vmstat: cs/s = mean(cs), cpu/s = mean(us + sy) (a percentage of all CPUs, not seconds),
          cs/o = cs/s / q, cpu/o = mean(us + sy) / q  (so cpu/o compares runs on one host only);
  iostat: r/o = mean(r/s) / q, rKB/o = mean(rkB/s) / q, wKB/o = mean(wkB/s) / q (one device).
Fixed here: the since-boot vmstat row (an.sh averages it in) and repeated vmstat headers (an.sh
counts them as zero samples) are left out by the parsers. From perf stat: counters per query
(counts / (q x seconds counted): `--append` groups and numbered samples each over their own window,
`-A` CPUs and `-I` intervals summed) and IPC; CPU time only from a process's counters, not `-a`.
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


def _counted(block: Block, event: str) -> tuple[float, float | None] | None:
    """The block's count of `event` (any `:u`/`:k` suffix) and, for `-I` output, the time it was
    counted over (the last interval's timestamp): per-CPU lines (`-A`) and intervals are summed.
    None if the block did not count it."""
    found = [c for c in block.counters if c.event.split(":")[0] == event and c.value is not None]
    if not found:
        return None
    times = [c.time_s for c in found if c.time_s is not None]
    return math.fsum(c.value for c in found), (max(times) if times else None)


def system_wide(block: Block) -> bool:
    """`perf stat -a` (and `-a -A`, per CPU): task-clock/cpu-clock then count every CPU's wall
    time, busy or idle, so they say nothing about the server's CPU time."""
    return block.target == "'system wide'" or any(c.cpu is not None for c in block.counters)


def per_query(qps: float, stat: PerfStat | Gap | None, window_s: float | None = None) -> PerQuery:
    """Counters per query from `perf stat -p <server>` run beside the benchmark: an event's counts
    summed over every block that counted it, over the sum of those blocks' windows (mytools' numbered
    samples, combined, are many blocks). `-x` and `-j` output print no elapsed time: then window_s
    (the test's duration) is the window; a human block cut before its elapsed line is left out."""
    if not qps or qps <= 0:
        raise ValueError(f"per-query counters need a positive rate, got {qps!r}")
    if not isinstance(stat, PerfStat):
        return PerQuery(qps)

    def counted(block: Block, event: str) -> tuple[float, float] | None:
        """(count, seconds) of one block, when both are known."""
        found = _counted(block, event)
        if found is None:
            return None
        value, interval_s = found
        seconds = block.elapsed_s or interval_s or (window_s if block.target is None else None)
        return (value, seconds) if seconds else None

    def each(*events: str, own_time: bool = False) -> float | None:
        for event in events:
            pairs = [p for b in stat.blocks if (p := counted(b, event)) and not (own_time and system_wide(b))]
            if pairs:
                return math.fsum(v for v, _ in pairs) / (qps * math.fsum(w for _, w in pairs))
        return None

    both = [(i[0], c[0]) for b in stat.blocks
            if (i := counted(b, "instructions")) and (c := counted(b, "cycles"))]
    cycles = math.fsum(c for _, c in both)
    ipc = math.fsum(i for i, _ in both) / cycles if both and cycles else None
    return PerQuery(qps=qps, instructions=each("instructions"), cycles=each("cycles"),
                    bus_cycles=each("bus-cycles"), cpu_ms=each("task-clock", "cpu-clock", own_time=True),
                    context_switches=each("context-switches", "cs"), ipc=ipc)
