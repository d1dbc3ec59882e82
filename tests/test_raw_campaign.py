"""The committed raw outputs of the real MariaDB run parse completely: no gap, no error, a rate
for every test, per-operation costs from vmstat/iostat and perf stat beside it."""
from __future__ import annotations

import tomllib

import pytest

from papercuts.parsers import folded, iostat, metrics, perf_report, perf_stat, sysbench, vmstat
from papercuts.parsers.errors import Gap, read
from papercuts.paths import PROJECT

CAMPAIGN = PROJECT / "data" / "campaigns" / "2026-11-22-mariadb-spin-wait" / "raw"
MANIFEST = tomllib.loads((CAMPAIGN / "manifest.toml").read_text())
DEVICE = MANIFEST["server"]["iostat_device"]
RUNS = [(c["id"], test, threads, rep)
        for c in MANIFEST["configs"] for test in MANIFEST["microbenchmarks"]
        for threads in MANIFEST["threads"] for rep in range(1, MANIFEST["repetitions"] + 1)]


def test_manifest_names_what_the_tree_holds():
    assert MANIFEST["source"].startswith("measured by the Papercuts team on ")
    assert {b["id"] for b in MANIFEST["builds"]} == {MANIFEST["base_build"]}
    assert MANIFEST["base_config"] in {c["id"] for c in MANIFEST["configs"]}
    assert MANIFEST["server"]["cores"] >= 1 and MANIFEST["server"]["cpu_model"]
    folders = {p.name for p in CAMPAIGN.iterdir() if p.is_dir()}
    assert folders == {f"{MANIFEST['base_build']}.{c['id']}" for c in MANIFEST["configs"]}


@pytest.mark.parametrize("config, test, threads, rep", RUNS)
def test_every_run_parses(config, test, threads, rep):
    base = CAMPAIGN / f"{MANIFEST['base_build']}.{config}" / f"{test}.t{threads}.r{rep}"
    run = read(f"{base}.sysbench.txt", sysbench.parse)
    assert isinstance(run, sysbench.SysbenchRun) and run.threads == threads and run.qps > 0
    assert run.version == MANIFEST["sysbench"] and run.final.total_time_s >= MANIFEST["duration_s"]
    vm = read(f"{base}.vmstat.txt", vmstat.parse)
    io = read(f"{base}.iostat.txt", lambda text, path: iostat.parse(text, path, device=DEVICE, since_boot=False))
    stat = read(f"{base}.perf-stat.txt", perf_stat.parse)
    cost = metrics.per_op(run.qps, vm, io)
    assert cost.vm_samples >= MANIFEST["duration_s"] - 1 and cost.io_samples >= MANIFEST["duration_s"] - 1
    assert cost.cpu_per_op > 0 and cost.cs_per_op > 0 and cost.wkb_per_op is not None
    counters = metrics.per_query(run.qps, stat)
    assert counters.cpu_ms > 0 and counters.context_switches > 0


@pytest.mark.parametrize("config", [c["id"] for c in MANIFEST["configs"]])
def test_profiles_parse_or_are_a_recorded_gap(config):
    folder = CAMPAIGN / f"{MANIFEST['base_build']}.{config}"
    stacks = read(folder / "point-query.t2.profile.perf.folded", folded.parse, "folded")
    report = read(folder / "point-query.t2.profile.perf-report.txt", perf_report.parse, "report")
    if config == "spin0":  # perf record took no samples in that run (README.md): a gap, not a crash
        assert (stacks, report) == (Gap("folded", "empty"), Gap("report", "empty"))
        return
    assert stacks.flavour == "perf" and stacks.total > 1000
    assert report.event.startswith("cpu-clock") and report.rows


def test_folded_stacks_and_perf_report_agree_on_self_share():
    folder = CAMPAIGN / f"{MANIFEST['base_build']}.{MANIFEST['base_config']}"
    stacks = read(folder / "point-query.t2.profile.perf.folded", folded.parse)
    report = read(folder / "point-query.t2.profile.perf-report.txt", perf_report.parse)
    for row in report.rows[:3]:
        if not row.symbol.startswith("0x"):  # perf report names stripped code by address, folding by [unknown]
            assert 100 * stacks.self_share()[row.symbol] == pytest.approx(row.self_pct, abs=0.1)
