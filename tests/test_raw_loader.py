"""Raw campaigns end to end in a small data folder: real raw outputs in, results, per-operation
costs, counters, profiles and gaps out of a real DuckDB; bad raw trees give one clear error each.

The raw files are copies of the committed MariaDB run (data/campaigns/2026-11-22-mariadb-spin-wait)
and of real samples under tests/fixtures/raw/; the expected numbers were computed by hand from them
with awk and a calculator, independently of the parsers (commands in the comments).
"""
from __future__ import annotations

import shutil

import pytest

from datadir import database, write_data
from papercuts.build import validate
from papercuts.db import fetch_dicts
from papercuts.paths import PROJECT, Paths

RUN = PROJECT / "data" / "campaigns" / "2026-11-22-mariadb-spin-wait" / "raw"
FIXTURES = PROJECT / "tests" / "fixtures" / "raw"
TOML = ('title = "raw test"\nsource = "src"\ncontributor = "tests"\ndate = 2026-01-03\n'
        'sysbench = "1.0.20"\nserver = "box"\nraw_layout = "papercuts"\niostat_device = "vda"\n')
CAMPAIGN = "campaigns/2026-01-03-raw"


def raw_data(tmp_path, toml: str = TOML):
    """my8028.cfg gets spin4's point-query t1 r1 outputs, my8040.cfg gets spin0's; profiles at t2."""
    data = write_data(tmp_path / "data", {f"{CAMPAIGN}/campaign.toml": toml})
    raw = data / CAMPAIGN / "raw"
    for variant, source in (("my8028.cfg", "spin4"), ("my8040.cfg", "spin24")):
        (raw / variant).mkdir(parents=True)
        src = RUN / f"ma101119_deb12.{source}"
        for tool in ("sysbench", "vmstat", "iostat", "perf-stat"):
            shutil.copy(src / f"point-query.t1.r1.{tool}.txt", raw / variant / f"point-query.t1.r1.{tool}.txt")
        for name in ("point-query.t2.profile.perf.folded", "point-query.t2.profile.perf-report.txt"):
            shutil.copy(src / name, raw / variant / name)
    return data


def check(data) -> list[str]:
    _, problems = validate(Paths.make(data=data))
    return [p.render() for p in problems.sorted()]


def test_per_operation_costs_match_a_hand_computation(tmp_path):
    con = database(raw_data(tmp_path))
    row = fetch_dicts(con, "SELECT * FROM results WHERE campaign = '2026-01-03-raw' AND build = 'my8028'")[0]
    # grep 'queries:' → 261568 (13077.21 per sec.); 95th percentile 0.15, avg 0.08
    assert (row["qps"], row["threads"], row["repetition"]) == (13077.21, 1, 1)
    assert (row["latency_avg_ms"], row["latency_p95_ms"]) == (0.08, 0.15)
    assert row["file"].endswith("raw/my8028.cfg/point-query.t1.r1.sysbench.txt")
    # awk over the vmstat rows after the since-boot row, repeated header skipped (21 samples):
    #   mean(cs) / 13077.21 and mean(us + sy) / 13077.21
    assert row["cs_per_op"] == pytest.approx(2.98049959, rel=1e-8)
    assert row["cpu_per_op"] == pytest.approx(0.003983666095, rel=1e-9)
    # awk '$1=="vda"' over the iostat -y reports: mean(r/s), mean(rkB/s), mean(wkB/s) / 13077.21
    assert row["r_per_op"] == pytest.approx(0.06203449323, rel=1e-9)
    assert row["rkb_per_op"] == pytest.approx(0.2812890663, rel=1e-9)
    assert row["wkb_per_op"] == pytest.approx(0.1770583, rel=1e-6)
    counters = {r["metric"]: r["value"] for r in fetch_dicts(
        con, "SELECT metric, value FROM counters WHERE build = 'my8028'")}
    # perf stat: 11446.28 msec task-clock, 261964 context-switches over 20.002945290 s
    assert counters == {"cpu_ms_per_query": pytest.approx(11446.28 / (13077.21 * 20.002945290)),
                        "cs_per_query": pytest.approx(261964 / (13077.21 * 20.002945290))}


def test_costs_are_relative_to_the_base_like_rqps(tmp_path):
    con = database(raw_data(tmp_path))
    rows = fetch_dicts(con, "SELECT metric, value, base_value, relative FROM op_costs "
                            "WHERE build = 'my8040' AND campaign = '2026-01-03-raw' ORDER BY metric")
    assert [r["metric"] for r in rows] == ["cpu_ms_per_query", "cpu_per_op", "cs_per_op", "cs_per_query",
                                           "r_per_op", "rkb_per_op", "wkb_per_op"]
    for r in rows:
        assert r["relative"] == pytest.approx(r["value"] / r["base_value"])
    rqps = fetch_dicts(con, "SELECT rqps, qps, base_qps FROM rqps WHERE campaign = '2026-01-03-raw'")
    assert len(rqps) == 1 and rqps[0]["base_qps"] == 13077.21


def test_profiles_give_shares_and_their_change(tmp_path):
    con = database(raw_data(tmp_path))
    share = fetch_dicts(con, "SELECT self_share, total_share, source FROM profile_symbols "
                             "WHERE build = 'my8028' AND symbol = 'finish_task_switch.isra.0'")
    # awk: weight of the stacks whose leaf is finish_task_switch.isra.0 / all weight (2044)
    assert share == [{"self_share": pytest.approx(0.1834637965, rel=1e-9),
                      "total_share": pytest.approx(0.1834637965, rel=1e-9), "source": "folded"}]
    total = fetch_dicts(con, "SELECT sum(self_share) AS s FROM profile_symbols WHERE build = 'my8028'")
    assert total[0]["s"] == pytest.approx(1.0)
    change = fetch_dicts(con, "SELECT base_build, self_share, base_self_share, self_delta FROM profile_change "
                              "WHERE symbol = 'finish_task_switch.isra.0'")
    assert len(change) == 1 and change[0]["base_build"] == "my8028"
    assert change[0]["base_self_share"] == pytest.approx(0.1834637965, rel=1e-9)
    assert change[0]["self_delta"] == pytest.approx(change[0]["self_share"] - change[0]["base_self_share"])
    # A symbol seen only in the base profile is kept, with share 0 in the other.
    vanished = fetch_dicts(con, "SELECT count(*) AS n FROM profile_change WHERE self_share = 0 "
                                "AND base_self_share > 0")
    assert vanished[0]["n"] > 0


def test_missing_and_empty_files_are_gaps_not_errors(tmp_path):
    data = raw_data(tmp_path)
    raw = data / CAMPAIGN / "raw" / "my8040.cfg"
    (raw / "point-query.t1.r1.iostat.txt").unlink()
    (raw / "point-query.t2.profile.perf.folded").write_text("")
    con = database(data)
    gaps = fetch_dicts(con, "SELECT tool, status, detail FROM raw_files WHERE status <> 'parsed' "
                            "ORDER BY tool, status, detail")
    assert {"tool": "iostat", "status": "missing", "detail": None} in gaps
    assert {"tool": "folded stacks", "status": "empty", "detail": None} in gaps
    assert {"tool": "perf stat", "status": "not supported", "detail": "instructions"} in gaps
    row = fetch_dicts(con, "SELECT qps, r_per_op, cpu_per_op FROM results WHERE build = 'my8040' "
                           "AND campaign = '2026-01-03-raw'")[0]
    assert row["r_per_op"] is None and row["cpu_per_op"] > 0  # missing, never zero
    # Without folded stacks, that profile's shares come from perf report as printed.
    sources = fetch_dicts(con, "SELECT DISTINCT build, source FROM profile_symbols ORDER BY build")
    assert sources == [{"build": "my8028", "source": "folded"}, {"build": "my8040", "source": "perf report"}]


def test_a_mytools_tree_is_read_with_its_range_and_hardware_counters(tmp_path):
    toml = (TOML.replace('raw_layout = "papercuts"', 'raw_layout = "mytools"').replace('"1.0.20"', '"1.1.0-3ceba0b"')
            + "rows_per_table = 50000000\n")
    data = write_data(tmp_path / "data", {f"{CAMPAIGN}/campaign.toml": toml})
    variant = data / CAMPAIGN / "raw" / "dop1" / "x.my8028.cfg.pk1"
    variant.mkdir(parents=True)
    tree = FIXTURES / "mytools" / "nov25.sb.mysql" / "dop1" / "x.my9500_rel_o2nofp.z12a_c8r32.pk1"
    shutil.copy(tree / "sb.o.point-query.range100.pk1.dop1", variant / "sb.o.point-query.range100.pk1.dop1")
    shutil.copy(FIXTURES / "vmstat" / "vmstat-1.txt", variant / "sb.vm.point-query.range100.pk1.dop1")
    shutil.copy(FIXTURES / "perf_stat" / "mytools-feb25-pg110-hw-append.txt",
                variant / "sb.perf.hw.point-query.range100.pk1.1")
    shutil.copy(variant / "sb.o.point-query.range100.pk1.dop1", variant / "sb.o.scan.range100.pk1.dop1")
    con = database(data)
    row = fetch_dicts(con, "SELECT microbenchmark, range, threads, qps FROM results "
                           "WHERE campaign = '2026-01-03-raw' ORDER BY microbenchmark")
    assert row[0] == {"microbenchmark": "point-query", "range": 100, "threads": 1, "qps": 16015.82}
    # scan is in thousands of rows/s: (--table-size=50000000 rows / 1000) / (avg latency 0.06 ms / 1000)
    assert row[1] == {"microbenchmark": "scan", "range": 100, "threads": 1, "qps": pytest.approx(50000 / 0.00006)}
    counters = {r["metric"]: r["value"] for r in fetch_dicts(con, "SELECT metric, value FROM counters")}
    # First --append block: 14,455,893,466 instructions and 15,676,820,798 cycles in 10.001384527 s
    assert counters["instructions_per_query"] == pytest.approx(14455893466 / (16015.82 * 10.001384527))
    assert counters["ipc"] == pytest.approx(14455893466 / 15676820798)
    gaps = fetch_dicts(con, "SELECT tool, status, file FROM raw_files WHERE status = 'missing' ORDER BY file")
    # sb.io was not copied; scan has no perf file and needs none, but its vmstat is missing
    assert [(g["tool"], g["file"].split(", ")[1]) for g in gaps] == [
        ("iostat", "point-query_range=100"), ("iostat", "scan_range=100"), ("vmstat", "scan_range=100")]


@pytest.mark.parametrize("change, expected", [
    (lambda raw: (raw / "my8040.cfg").rename(raw / "my9999.cfg"),
     "raw/my9999.cfg/point-query.t1.r1.sysbench.txt:14:1: error: unknown build 'my9999'"),
    (lambda raw: (raw / "my8040.cfg" / "point-query.t1.r1.sysbench.txt").rename(
        raw / "my8040.cfg" / "point-query.t2.r1.sysbench.txt"),
     "raw/my8040.cfg/point-query.t2.r1.sysbench.txt:1:1: error: the file name says 2 thread(s), sysbench ran 1"),
    (lambda raw: (raw / "my8040.cfg" / "point-query.t1.r1.vmstat.txt").write_text(
        "procs\n r  b  cs us sy\n1 2 3 4 x\n"),
     "raw/my8040.cfg/point-query.t1.r1.vmstat.txt:3:9: error: 'x' is not a number"),
    (lambda raw: (raw / "my8040.cfg" / "point-query.t1.r1.sysbnch.txt").write_text("x"), None),
    (lambda raw: (raw / "my8040.cfg" / "point-query.r1.vmstat.txt").write_text("x"),
     "raw/my8040.cfg/point-query.r1.vmstat.txt:1:1: error: raw output name does not say its test"),
    (lambda raw: (raw / "my8040.cfg" / "link.txt").symlink_to("/etc/passwd"),
     "raw/my8040.cfg/link.txt:1:1: error: symbolic links are not allowed"),
    (lambda raw: (raw / "notavariant").mkdir(),
     "raw/notavariant:1:1: error: folder 'notavariant' is not <build>.<config>"),
])
def test_bad_raw_trees_fail_at_the_file(tmp_path, change, expected):
    data = raw_data(tmp_path)
    change(data / CAMPAIGN / "raw")
    out = check(data)
    errors = [line for line in out if ": error: " in line]
    if expected is None:  # a file that is not a raw output is evidence, not an error
        assert errors == []
        return
    assert len(errors) == 1, out
    assert expected in errors[0], errors[0]


def test_a_raw_campaign_must_say_its_layout_and_server(tmp_path):
    data = raw_data(tmp_path, TOML.replace('raw_layout = "papercuts"\n', ""))
    errors = [line for line in check(data) if "error" in line]
    assert len(errors) == 1 and errors[0].endswith(
        f"{CAMPAIGN}/campaign.toml:1:1: error: raw_layout must be one of papercuts, mytools "
        "when the campaign has a raw/ folder "
        "(add raw_layout = \"papercuts\" or raw_layout = \"mytools\" to campaign.toml)")
    data = raw_data(tmp_path / "b", TOML.replace('server = "box"', 'server = "bx"'))
    errors = [line for line in check(data) if "error" in line]
    assert len(errors) == 1 and "unknown server 'bx'" in errors[0] and "did you mean 'box'?" in errors[0]


def test_perf_stat_csv_and_json_count_over_the_tests_duration(tmp_path):
    data = raw_data(tmp_path)
    raw = data / CAMPAIGN / "raw"
    (raw / "my8028.cfg" / "point-query.t1.r1.perf-stat.txt").unlink()
    shutil.copy(FIXTURES / "perf_stat" / "perf-stat-x.csv", raw / "my8028.cfg" / "point-query.t1.r1.perf-stat.csv")
    (raw / "my8040.cfg" / "point-query.t1.r1.perf-stat.txt").unlink()
    shutil.copy(FIXTURES / "perf_stat" / "perf-stat-j.json", raw / "my8040.cfg" / "point-query.t1.r1.perf-stat.json")
    con = database(data)
    counters = {(r["build"], r["metric"]): r["value"] for r in fetch_dicts(
        con, "SELECT build, metric, value FROM counters")}
    # -x,: 91127 context-switches; no elapsed time, so the sysbench run's 20.0009 s total time
    assert counters[("my8028", "cs_per_query")] == pytest.approx(91127 / (13077.21 * 20.0009), rel=1e-9)
    assert ("my8040", "cs_per_query") in counters and ("my8040", "cpu_ms_per_query") in counters
