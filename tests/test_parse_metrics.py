"""Per-operation costs checked by hand on real vmstat/iostat/perf stat samples."""
from __future__ import annotations

from pathlib import Path

import pytest

from papercuts.parsers import iostat, metrics, perf_stat, vmstat
from papercuts.parsers.errors import Gap

RAW = Path(__file__).parent / "fixtures" / "raw"


def test_cpu_and_context_switches_per_op_by_hand():
    v = vmstat.parse((RAW / "vmstat/vmstat-1.txt").read_text())
    m = metrics.per_op(1000.0, vmstat=v)
    # cs after the since-boot row: 47489 49902 48721 49776 48560 44736 26993 -> 316177 / 7
    # us+sy: 66 55 56 58 55 48 28 -> 366 / 7
    assert m.vm_samples == 7
    assert m.cs_per_s == pytest.approx(316177 / 7) and m.cs_per_op == pytest.approx(316177 / 7 / 1000)
    assert m.cpu_pct == pytest.approx(366 / 7) and m.cpu_per_op == pytest.approx(366 / 7 / 1000)
    an_sh = (316177 + 1699) / 8  # mytools' an.sh averages the since-boot row in
    assert m.cs_per_s != pytest.approx(an_sh)


def test_repeated_headers_are_not_zero_samples():
    v = vmstat.parse((RAW / "vmstat/vmstat-24-repeated-header.txt").read_text())
    m = metrics.per_op(500.0, vmstat=v)
    assert m.vm_samples == 23 and m.cs_per_s == pytest.approx(sum(v.column("cs")) / 23)


def test_reads_and_kb_per_op_by_hand():
    i = iostat.parse((RAW / "iostat/iostat-ykx-vda.txt").read_text(), device="vda", since_boot=False)
    m = metrics.per_op(1000.0, iostat=i)
    # r/s 262 0 187 0 0; rkB/s 1436 0 1892 0 0; wkB/s 23600 27192 23404 23952 22952
    assert m.io_samples == 5
    assert (m.r_per_op, m.rkb_per_op, m.wkb_per_op) == pytest.approx(
        (449 / 5 / 1000, 3328 / 5 / 1000, 121100 / 5 / 1000))


def test_missing_sources_leave_values_unknown():
    m = metrics.per_op(1000.0, vmstat=Gap("sb.vm", "empty"), iostat=None)
    assert (m.cpu_per_op, m.cs_per_op, m.r_per_op, m.vm_samples) == (None, None, None, 0)
    with pytest.raises(ValueError):
        metrics.per_op(0.0)


def test_counters_per_query_and_ipc():
    s = perf_stat.parse((RAW / "perf_stat/mytools-feb25-pg110-hw-append.txt").read_text())
    q = metrics.per_query(100000.0, s)
    assert q.instructions == pytest.approx(14455893466 / (100000 * 10.001384527))
    assert q.cycles == pytest.approx(15676820798 / (100000 * 10.001384527))
    assert q.ipc == pytest.approx(14455893466 / 15676820798) and round(q.ipc, 2) == 0.92  # perf printed 0.92
    assert q.bus_cycles is None  # <not supported>
    assert q.context_switches == pytest.approx(232265 / (100000 * 10.001564165))  # its own --append window
    assert q.cpu_ms == pytest.approx(6254.94 / (100000 * 10.001384527))  # cpu-clock when no task-clock


def test_software_counters_only_on_a_vm():
    s = perf_stat.parse((RAW / "perf_stat/perf-stat-human.txt").read_text())
    q = metrics.per_query(20000.0, s)
    assert (q.instructions, q.cycles, q.ipc) == (None, None, None)
    assert q.cpu_ms == pytest.approx(3948.76 / (20000 * 5.00519668))
    assert metrics.per_query(1.0, Gap("p", "missing")) == metrics.PerQuery(1.0)
