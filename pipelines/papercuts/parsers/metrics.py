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

from dataclasses import dataclass
from statistics import fmean

from .errors import Gap
from .iostat import Iostat
from .perf_stat import PerfStat
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


def per_query(qps: float, stat: PerfStat | Gap | None, window_s: float | None = None) -> PerQuery:
    """Counters per query from `perf stat -p <server>` run beside the benchmark. `-x` and `-j`
    output print no elapsed time: then window_s (the test's duration) is the counting window."""
    if not qps or qps <= 0:
        raise ValueError(f"per-query counters need a positive rate, got {qps!r}")
    if not isinstance(stat, PerfStat):
        return PerQuery(qps)

    def each(*events: str) -> float | None:
        for event in events:
            found = stat.counter(event)
            seconds = found and (found[1].elapsed_s or window_s)
            if seconds:
                return found[0].value / (qps * seconds)
        return None

    instructions, cycles = each("instructions"), each("cycles")
    ins, cyc = stat.counter("instructions"), stat.counter("cycles")
    ipc = ins[0].value / cyc[0].value if ins and cyc and ins[1] is cyc[1] and cyc[0].value else None
    return PerQuery(qps=qps, instructions=instructions, cycles=cycles,
                    bus_cycles=each("bus-cycles"), cpu_ms=each("task-clock", "cpu-clock"),
                    context_switches=each("context-switches", "cs"), ipc=ipc)
