"""Raw mytools trees read right (issue 11, part 4): each test builds a raw campaign from real files
of mdcallag/mytools (copied under tests/fixtures/raw/, source in its README.md) and checks what a
real archive gave wrong before. Expected numbers come from the files by hand (awk, calculator).
"""
from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from datadir import FILES, database, write_data
from papercuts.build import validate
from papercuts.db import fetch_dicts, query
from papercuts.parsers import perf_script, sysbench
from papercuts.parsers.errors import ParseError
from papercuts.paths import PROJECT, Paths
from papercuts.render.site_rows import rows_of

FIXTURES = PROJECT / "tests" / "fixtures" / "raw"
NOV25 = FIXTURES / "mytools" / "nov25.sb.mysql"
DOP1 = NOV25 / "dop1" / "x.my9500_rel_o2nofp.z12a_c8r32.pk1"
DOP40 = NOV25 / "dop40" / "x.my5651_rel_o2nofp.z12a_c32r128.pk1"
FLAT = FIXTURES / "mytools" / "feb25.pg.flat" / "x.pg1023_o2nofp.x10a_c32r128.pk1"
MORE_TESTS = ("random-points,point,queries/s,IN-list of random points,src\n"
              "delete,write,queries/s,delete rows,src\n")
TOML = ('title = "raw tree"\nsource = "src"\ncontributor = "tests"\ndate = 2026-01-03\n'
        'sysbench = "unknown"\nserver = "box"\nraw_layout = "mytools"\n')
CAMPAIGN = "campaigns/2026-01-03-tree"


def tree(tmp_path, files: dict[str, object], toml: str = TOML, variant: str = "x.my8028.cfg.pk1"):
    """A data folder whose campaign's raw/ holds one variant folder with `files` (name -> source
    path, or text)."""
    data = write_data(tmp_path / "data", {f"{CAMPAIGN}/campaign.toml": toml,
                                          "microbenchmarks.csv": FILES["microbenchmarks.csv"] + MORE_TESTS})
    folder = data / CAMPAIGN / "raw" / variant
    folder.mkdir(parents=True)
    for name, source in files.items():
        if isinstance(source, str):
            (folder / name).write_text(source)
        else:
            shutil.copy(source, folder / name)
    return data


def problems(data) -> list[str]:
    _, found = validate(Paths.make(data=data))
    return [p.render() for p in found.sorted()]


def results(con) -> list[dict]:
    return fetch_dicts(con, "SELECT * FROM results WHERE campaign = '2026-01-03-tree' ORDER BY microbenchmark")


def test_sb_met_costs_are_used_where_vmstat_and_iostat_files_are_absent(tmp_path):
    # nov25.sb.mysql keeps sb.o and sb.met per run, no sb.vm/sb.io: an.sh's costs as published.
    name = "point-query.range100.pk1.dop1"
    con = database(tree(tmp_path, {f"sb.o.{name}": DOP1 / f"sb.o.{name}", f"sb.met.{name}": DOP1 / f"sb.met.{name}"}))
    (row,) = results(con)
    assert row["qps"] == 16015.82  # sb.met's o/s is the same rate
    assert (row["cs_per_op"], row["cpu_per_op"]) == (3.832, 0.000704)
    assert (row["r_per_op"], row["rkb_per_op"], row["wkb_per_op"]) == (0.0, 0.0, 0.0)
    files = fetch_dicts(con, "SELECT tool, status, detail FROM raw_files WHERE campaign = '2026-01-03-tree' "
                             "ORDER BY tool")
    assert {"tool": "sb.met", "status": "parsed", "detail": None} in files
    # still a missing file, shown as such, and saying where the costs the page shows come from
    assert {"tool": "vmstat", "status": "missing",
            "detail": "the file: its cpu/o and cs/o are an.sh's, from the run's sb.met"} in files


def test_sb_met_for_another_rate_is_not_used(tmp_path):
    name = "point-query.range100.pk1.dop1"
    met = (DOP1 / f"sb.met.{name}").read_text().replace("16015.82", "17015.82")
    data = tree(tmp_path, {f"sb.o.{name}": DOP1 / f"sb.o.{name}", f"sb.met.{name}": met})
    con = database(data)
    (row,) = results(con)
    assert row["cs_per_op"] is None and row["cpu_per_op"] is None
    assert con.execute("SELECT detail FROM raw_files WHERE campaign = '2026-01-03-tree' AND tool = 'vmstat'"
                       ).fetchall() == [(None,)]  # a missing file whose costs are not taken from sb.met
    (warning,) = [p for p in problems(data) if "sb.met" in p]
    assert warning.endswith(f"raw/x.my8028.cfg.pk1/sb.met.{name}:3:1: warning: an.sh normalised by 17015.82 "
                            "operations/s, the sysbench output gives 16015.82: its per-operation costs are not "
                            "used (regenerate sb.met with an.sh from this run's sb.o, or remove it)")


def test_the_scan_rate_uses_the_table_size_sysbench_ran_with(tmp_path):
    # nov25 dop40 ran with --table-size=10000000; a campaign.toml copied from dop1 says 50000000.
    name = "scan.range100.pk1.dop40"
    data = tree(tmp_path, {f"sb.o.{name}": DOP40 / f"sb.o.{name}", f"sb.met.{name}": DOP40 / f"sb.met.{name}"},
                TOML + "rows_per_table = 50000000\n")
    (row,) = results(database(data))
    # (10000000 / 1000) / (avg latency 1703.78 ms / 1000) = 5869.3 Krows/s; qps.abs.my.all.csv has 5869
    assert row["qps"] == 10000 / 1.70378
    assert round(row["qps"]) == 5869  # not 29346 (50000000 rows)
    assert row["cpu_per_op"] == 0.013486  # sb.met's o/s (5869, run.sh's rounding) agrees
    (warning,) = [p for p in problems(data) if "table-size" in p]
    assert warning.endswith(f"raw/x.my8028.cfg.pk1/sb.o.{name}:1:1: warning: sysbench ran with "
                            "--table-size=10000000, campaign.toml says rows_per_table = 50000000: the scan rate "
                            "uses 10000000 (set rows_per_table = 10000000 in campaign.toml)")


def test_profiles_are_keyed_by_range(tmp_path):
    # feb25.pg.flat profiled random-points at range 10, 100 and 1000: three profiles, not one.
    files = {}
    for r in (10, 100, 1000):
        for name in (f"sb.o.random-points.range{r}.pk1.dop40", f"sb.perf.rep.f.random-points.range{r}.pk1.1"):
            files[name] = FLAT / name
    con = database(tree(tmp_path, files))
    labels = rows_of(con, "server_profiles", "server", "box")  # the server page's sections
    assert [p["microbenchmark"] for p in labels] == [
        "random-points_range=10", "random-points_range=100", "random-points_range=1000"]
    shares = fetch_dicts(con, "SELECT range, self_share FROM profile_symbols WHERE symbol = '_bt_compare' "
                              "ORDER BY range")
    # grep _bt_compare in each report: 12.18%, 14.78%, 17.00%
    assert shares == [{"range": 10, "self_share": pytest.approx(0.1218)},
                      {"range": 100, "self_share": pytest.approx(0.1478)},
                      {"range": 1000, "self_share": pytest.approx(0.17)}]
    top = fetch_dicts(con, query("profile_top"), {"campaign": "2026-01-03-tree", "threads": 40,
                                                  "microbenchmark": "random-points_range=1000"})
    assert (top[0]["symbol"], top[0]["self_share"]) == ("_bt_compare", pytest.approx(0.17))


def flat_samples(numbers) -> dict[str, object]:
    """feb25.pg.flat's delete test: sb.o and the numbered perf report samples (excerpts)."""
    name = "sb.perf.rep.f.delete.range100.pk1"
    return {"sb.o.delete.range100.pk1.dop40": FLAT / "sb.o.delete.range100.pk1.dop40",
            **{f"{name}.{k}": FLAT / f"{name}.{k}.excerpt" for k in numbers}}


def shares(con, symbol: str) -> float:
    (row,) = fetch_dicts(con, "SELECT self_share FROM profile_symbols WHERE symbol = $s", {"s": symbol})
    return row["self_share"]


def test_every_numbered_perf_report_sample_is_used_in_numeric_order(tmp_path):
    con = database(tree(tmp_path, flat_samples(range(1, 16))))
    # awk over the 15 samples: sum(percent x Event count) / sum(Event count) / 100, as flamegraph.pl
    # weighs the samples it is fed together (sample .9 alone says 6.52%)
    assert shares(con, "LWLockWaitListLock") == pytest.approx(0.0502903980, rel=1e-9)
    assert shares(con, "_bt_compare") == pytest.approx(0.0247778461, rel=1e-9)
    (profile,) = fetch_dicts(con, "SELECT file FROM profiles")
    assert profile["file"].endswith("sb.perf.rep.f.delete.range100.pk1.1")  # .1 first, not .10
    parsed = fetch_dicts(con, "SELECT count(*) AS n FROM raw_files WHERE tool = 'perf report' AND status = 'parsed'")
    assert parsed[0]["n"] == 15


def test_a_missing_sample_is_a_gap(tmp_path):
    con = database(tree(tmp_path, flat_samples([k for k in range(1, 16) if k != 7])))
    gaps = fetch_dicts(con, "SELECT file, status FROM raw_files WHERE tool = 'perf report' AND status <> 'parsed'")
    assert len(gaps) == 1 and gaps[0]["status"] == "missing"
    assert gaps[0]["file"].endswith("raw/x.my8028.cfg.pk1/sb.perf.rep.f.delete.range100.pk1.7")


def test_perf_stat_samples_are_summed_and_a_truncated_one_is_reported(tmp_path):
    # feb25.pg.perf: six perf stat samples of delete; .6 has 3 of its 7 --append groups (the test ended)
    perf = FIXTURES / "mytools" / "feb25.pg.perf" / "x.pg1023_o2nofp.x10a_c32r128.pk1"
    files = {"sb.o.delete.range100.pk1.dop40": perf / "sb.o.delete.range100.pk1.dop40"}
    files |= {f"sb.perf.hw.delete.range100.pk1.{k}": perf / f"sb.perf.hw.delete.range100.pk1.{k}" for k in range(1, 7)}
    con = database(tree(tmp_path, files))
    counters = {r["metric"]: r["value"] for r in fetch_dicts(con, "SELECT metric, value FROM counters")}
    qps = 338700.77
    # awk: instructions summed over the 6 samples, over their groups' elapsed times (60.008491449 s);
    # context-switches over the 5 samples whose 7th group is there (50.007136921 s)
    assert counters["instructions_per_query"] == pytest.approx(44961280632 / (qps * 60.008491449), rel=1e-12)
    assert counters["cs_per_query"] == pytest.approx(633000 / (qps * 50.007136921), rel=1e-12)
    assert counters["ipc"] == pytest.approx(44961280632 / 70300782944, rel=1e-12)
    (cut,) = fetch_dicts(con, "SELECT file, detail FROM raw_files WHERE status = 'truncated'")
    assert cut["file"].endswith("sb.perf.hw.delete.range100.pk1.6")
    assert cut["detail"] == "3 of 7 perf stat groups complete"


def spin_run(tmp_path, toml: str, perf_stat: str | None = None):
    """The committed MariaDB run's point-query t1 r1 outputs (papercuts layout), iostat replaced
    (and perf stat, when named: a file of tests/fixtures/raw/perf_stat)."""
    run = PROJECT / "data" / "campaigns" / "2026-11-22-mariadb-spin-wait" / "raw" / "ma101119_deb12.spin4"
    data = write_data(tmp_path / "data", {f"{CAMPAIGN}/campaign.toml": toml})
    folder = data / CAMPAIGN / "raw" / "my8028.cfg"
    folder.mkdir(parents=True)
    for tool in ("sysbench", "vmstat"):
        shutil.copy(run / f"point-query.t1.r1.{tool}.txt", folder / f"point-query.t1.r1.{tool}.txt")
    shutil.copy(FIXTURES / "iostat" / "iostat-x.txt", folder / "point-query.t1.r1.iostat.txt")
    if perf_stat:
        shutil.copy(FIXTURES / "perf_stat" / perf_stat, folder / "point-query.t1.r1.perf-stat.txt")
    return data


PAPERCUTS = TOML.replace('"mytools"', '"papercuts"') + 'iostat_device = "vda"\n'


def test_iostat_without_y_leaves_the_since_boot_report_out(tmp_path):
    # iostat-x.txt is `iostat -x 1 8`: report 1 is since boot (vda wkB/s 1468.16), 2..8 the run's
    con = database(spin_run(tmp_path, PAPERCUTS + 'iostat_command = "iostat -x 1 8"\n'))
    (row,) = results(con)
    # awk '$1=="vda"' reports 2..8: wkB/s 23600+27192+23404+23952+22952+21060+30160 = 172320
    assert row["wkb_per_op"] == pytest.approx(172320 / 7 / 13077.21, rel=1e-12)  # not 173788.16 / 8
    with_y = database(spin_run(tmp_path / "y", PAPERCUTS + 'iostat_command = "iostat -y -kx 1 8"\n'))
    assert results(with_y)[0]["wkb_per_op"] == pytest.approx(173788.16 / 8 / 13077.21, rel=1e-12)


def test_iostat_command_must_be_an_iostat_command(tmp_path):
    data = spin_run(tmp_path, PAPERCUTS + 'iostat_command = "-x 1"\n')
    (error,) = [p for p in problems(data) if ": error: " in p]
    assert error.endswith(f"{CAMPAIGN}/campaign.toml:9:18: error: iostat_command must be the iostat command line "
                          "the run used, not '-x 1' (write e.g. iostat_command = \"iostat -kx 1\")")


def counters(con) -> dict[str, float]:
    return {r["metric"]: r["value"] for r in fetch_dicts(con, "SELECT metric, value FROM counters")}


def test_perf_stat_per_cpu_counts_are_summed(tmp_path):
    # perf-stat-a-A.txt: `perf stat -a -A` (per CPU); QPS 13077.21 from the run's sysbench output
    con = database(spin_run(tmp_path, PAPERCUTS, "perf-stat-a-A.txt"))
    # CPU0 624 + CPU1 2217 context-switches over 2.022719776 s
    assert counters(con) == {"cs_per_query": pytest.approx((624 + 2217) / (13077.21 * 2.022719776), rel=1e-12)}
    # system-wide task-clock is every CPU's wall time: not a CPU cost, and said so
    (unused,) = fetch_dicts(con, "SELECT detail FROM raw_files WHERE status = 'not used'")
    assert unused["detail"] == "task-clock: system-wide (-a) counts every CPU's wall time, not the server's"


def test_perf_stat_intervals_are_summed_over_their_time(tmp_path):
    # perf-stat-interval.txt: `perf stat -I 500 -p <mariadbd>`, three intervals, the last at 1.100274165 s
    con = database(spin_run(tmp_path, PAPERCUTS, "perf-stat-interval.txt"))
    seconds = 13077.21 * 1.100274165
    assert counters(con) == {"cpu_ms_per_query": pytest.approx((405.45 + 293.34 + 71.38) / seconds, rel=1e-12),
                             "cs_per_query": pytest.approx((10155 + 7150 + 1628) / seconds, rel=1e-12)}


@pytest.mark.parametrize("name", ["perf-dd-stacks-01", "perf-cycles-instructions-01"])
def test_perf_script_is_folded_as_stackcollapse_does(name):
    # brendangregg/FlameGraph's own test inputs and the stacks its stackcollapse-perf.pl prints
    # for them (cycles-instructions mixes two events: the first one, cycles, is kept)
    folder = FIXTURES / "perf_script"
    stacks = perf_script.parse((folder / f"{name}.txt").read_text(), name)
    printed = [f"{';'.join(s.frames)} {s.weight:.0f}" for s in stacks.stacks]
    assert printed == (folder / f"{name}-collapsed.txt").read_text().splitlines()


def test_a_perf_script_profile_gives_shares(tmp_path):
    # perf-dd-stacks-01.txt committed as a profile, under either name; it was refused as folded text
    for i, name in enumerate(("point-query.t1.profile.perf.folded", "point-query.t1.profile.perf-script.txt")):
        data = spin_run(tmp_path / str(i), PAPERCUTS)
        shutil.copy(FIXTURES / "perf_script" / "perf-dd-stacks-01.txt", data / CAMPAIGN / "raw" / "my8028.cfg" / name)
        con = database(data)
        # perf-dd-stacks-01-collapsed.txt: the stacks whose leaf is __srcu_read_unlock weigh 20202020 +
        # 10101010 of 101010100 in all (10 samples of 10101010)
        (row,) = fetch_dicts(con, "SELECT self_share, source FROM profile_symbols WHERE symbol = '__srcu_read_unlock'")
        assert row == {"self_share": pytest.approx(30303030 / 101010100, rel=1e-12), "source": "folded"}


def test_checkpoint_reports_give_qps_and_latency_over_one_window(tmp_path):
    # sb-1.0-oltp_read_only-checkpoints.txt: --report-checkpoints=2,4; three reports of 2 s each
    data = spin_run(tmp_path, PAPERCUTS)
    folder = data / CAMPAIGN / "raw" / "my8028.cfg"
    shutil.copy(FIXTURES / "sysbench" / "sb-1.0-oltp_read_only-checkpoints.txt",
                folder / "point-query.t1.r1.sysbench.txt")
    (row,) = results(database(data))
    # queries 30425 + 17034 + 17085 over the total time 6.0016 s; latency sums 1995.47 + 1998.70 +
    # 1999.50 ms over 1901 + 1065 + 1068 events (the last report alone says avg 1.87, 95th 2.35)
    assert row["qps"] == pytest.approx((30425 + 17034 + 17085) / 6.0016, rel=1e-12)
    assert row["latency_avg_ms"] == pytest.approx((1995.47 + 1998.70 + 1999.50) / (1901 + 1065 + 1068), rel=1e-12)
    assert row["latency_p95_ms"] is None  # the reports' percentiles do not give the run's


@pytest.mark.parametrize("name, first_line", [("sb-1.0-report-json-hook.txt", 14), ("sb-1.0-report-csv-hook.txt", 13)])
def test_report_hook_intervals_are_read(name, first_line):
    run = sysbench.parse((FIXTURES / "sysbench" / name).read_text(), name)
    first = run.intervals[0]
    # json: {"time": 1, "threads": 2, "tps": 114922.72, ...}; csv: 1,2,215784.14,0.00,...
    assert (first.line, first.time_s, first.threads) == (first_line, 1.0, 2)
    assert first.tps == {"sb-1.0-report-json-hook.txt": 114922.72, "sb-1.0-report-csv-hook.txt": 215784.14}[name]
    assert [i.time_s for i in run.intervals] == ([1.0, 2.0] if "json" in name else [1.0, 2.0, 3.0])
    assert run.final.events == {"sb-1.0-report-json-hook.txt": 349116, "sb-1.0-report-csv-hook.txt": 607782}[name]
    assert run.final.line > run.intervals[-1].line  # the final report starts after the hook's output


def test_an_unclosed_report_json_array_is_an_error():
    text = (FIXTURES / "sysbench" / "sb-1.0-report-json-hook.txt").read_text().replace("\n]\n", "\n")
    with pytest.raises(ParseError) as e:
        sysbench.parse(text, "sb.txt")
    assert e.value.problem.render() == ("sb.txt:13:1: error: the report_json array that starts here is never "
                                        "closed (a sysbench report hook's output was cut or mixed with other "
                                        "text; rerun the test)")


def test_iostat_json_is_read(tmp_path):
    # iostat-o-json.txt: `iostat -o JSON -kx 1 4 vda` (no -y: statistics[0] is since boot)
    data = spin_run(tmp_path, PAPERCUTS + 'iostat_command = "iostat -o JSON -kx 1 4 vda"\n')
    folder = data / CAMPAIGN / "raw" / "my8028.cfg"
    shutil.copy(FIXTURES / "iostat" / "iostat-o-json.txt", folder / "point-query.t1.r1.iostat.txt")
    (row,) = results(database(data))
    # statistics 2..4 of vda: r/s 803.0, 0.0, 0.0; rkB/s 409612.0, 0.0, 0.0; wkB/s 409600.0, 8.0, 524.0
    qps = 13077.21
    assert row["r_per_op"] == pytest.approx(803 / 3 / qps, rel=1e-12)
    assert row["rkb_per_op"] == pytest.approx(409612 / 3 / qps, rel=1e-12)
    assert row["wkb_per_op"] == pytest.approx((409600 + 8 + 524) / 3 / qps, rel=1e-12)


def gzipped(path: Path) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)


def test_a_gzipped_run_output_gives_the_rows_of_the_plain_one(tmp_path):
    """Per-run outputs may be kept gzipped (mytools gzips some; nov25's dop40 ones are 90 MB plain):
    a .gz file is read as its decompressed text, every number the same."""
    name = "point-query.range100.pk1.dop1"
    plain = results(database(tree(tmp_path / "plain", {f"sb.o.{name}": DOP1 / f"sb.o.{name}",
                                                       f"sb.met.{name}": DOP1 / f"sb.met.{name}"})))
    data = tree(tmp_path / "gz", {})
    folder = data / CAMPAIGN / "raw" / "x.my8028.cfg.pk1"
    (folder / f"sb.o.{name}.gz").write_bytes(gzipped(DOP1 / f"sb.o.{name}"))
    (folder / f"sb.met.{name}.gz").write_bytes(gzipped(DOP1 / f"sb.met.{name}"))
    packed = results(database(data))
    assert len(plain) == 1 and plain[0]["qps"] == 16015.82
    assert [{k: v for k, v in r.items() if k != "file"} for r in packed] == \
           [{k: v for k, v in r.items() if k != "file"} for r in plain]
    assert packed[0]["file"].endswith(f"sb.o.{name}.gz")


def test_a_broken_or_doubled_gzipped_output_is_an_error_at_its_file(tmp_path):
    name = "point-query.range100.pk1.dop1"
    data = tree(tmp_path, {f"sb.o.{name}": DOP1 / f"sb.o.{name}"})
    folder = data / CAMPAIGN / "raw" / "x.my8028.cfg.pk1"
    (folder / f"sb.o.{name}.gz").write_bytes(gzipped(DOP1 / f"sb.o.{name}"))
    (folder / f"sb.met.{name}.gz").write_bytes(gzipped(DOP1 / f"sb.met.{name}")[:-20])  # cut short
    found = problems(data)
    assert any(p.endswith(f"raw/x.my8028.cfg.pk1/sb.o.{name}.gz:1:1: error: sb.o.{name} is here too: "
                          "the run's output twice (keep one of them, the plain file or the .gz)") for p in found), found
    assert any(f"raw/x.my8028.cfg.pk1/sb.met.{name}.gz:1:1: error: not a complete gzip file" in p
               and p.endswith("(compress the output again with gzip -n, or commit it uncompressed)")
               for p in found), found


def _deflate_broken(packed: bytes) -> bytes:
    """Its first deflate block of the reserved type 3 (RFC 1951: an error), after the 10-byte header."""
    return packed[:10] + bytes([packed[10] | 0b110]) + packed[11:]


def _crc_broken(packed: bytes) -> bytes:
    return packed[:-8] + bytes([packed[-8] ^ 1]) + packed[-7:]


@pytest.mark.parametrize("broken", [_deflate_broken, _crc_broken])
def test_a_gzipped_output_with_broken_compressed_bytes_or_checksum_is_an_error_at_its_file(tmp_path, broken):
    """What the reader (ISA-L's) refuses is said at the file, as a cut-short one is: a deflate block
    it cannot read, a CRC that does not match the bytes."""
    name = "point-query.range100.pk1.dop1"
    data = tree(tmp_path, {f"sb.met.{name}": DOP1 / f"sb.met.{name}"})
    folder = data / CAMPAIGN / "raw" / "x.my8028.cfg.pk1"
    (folder / f"sb.o.{name}.gz").write_bytes(broken(gzipped(DOP1 / f"sb.o.{name}")))
    found = problems(data)
    assert any(f"raw/x.my8028.cfg.pk1/sb.o.{name}.gz:1:1: error: not a complete gzip file" in p
               and p.endswith("(compress the output again with gzip -n, or commit it uncompressed)")
               for p in found), found


@pytest.mark.parametrize("server, refused", [
    ("box,c8r32,Test CPU,8,off,src", None),  # the machine it ran on: 8 cores, no SMT
    ("box,c8r32,Test CPU,4,,src", None),  # SMT not stated: 4 cores may be 8 CPUs
    ("box,c8r32,Test CPU,4,on,src", None),
    ("box,c8r32,Test CPU,48,off,src", "server 'box' has 48 cores, SMT off: 48 CPUs"),  # imported as ax162-s
    ("box,c8r32,Test CPU,4,off,src", "server 'box' has 4 cores, SMT off: 4 CPUs"),
    ("box,c8r32,Test CPU,8,on,src", "server 'box' has 8 cores, SMT on: 16 CPUs"),
    ("box,c8r32,Test CPU,6,,src", "server 'box' has 6 cores, SMT not stated: 6 or 12 CPUs"),
])
def test_outputs_that_ran_on_another_machine_than_their_server_are_refused(tmp_path, server, refused):
    """mytools writes the host's processor count as an output's second line (run.sh: realdop from
    /proc/cpuinfo, "8 CPUs"): the pn53 archive imported with --server ax162-s (48 cores) published
    an 8-CPU machine's numbers as the 48-core server's, unless a folder name gave it away."""
    name = "point-query.range100.pk1.dop1"
    data = tree(tmp_path, {f"sb.o.{name}": DOP1 / f"sb.o.{name}"})
    (data / "servers.csv").write_text(f"id,aliases,cpu_model,cores,smt,source\n{server}\n")
    found = problems(data)
    if refused is None:
        assert not any("CPUs" in p for p in found), found
        return
    (problem,) = [p for p in found if ": error: " in p]
    assert problem == (f"{Paths.make().rel(data / CAMPAIGN)}/raw/x.my8028.cfg.pk1/sb.o.{name}:2:1: error: sysbench "
                       "ran on a machine "
                       f"with 8 CPUs (its second line says so); {refused} (name the server these outputs ran on: "
                       "campaign.toml's server, papercuts import's --server; or correct its cores and smt in "
                       "data/servers.csv)")


def test_one_error_names_how_many_of_a_campaigns_outputs_disagree(tmp_path):
    """Each of 342 outputs said 8 CPUs: one error, at the first file, counting them."""
    dop1, dop40 = "point-query.range100.pk1.dop1", "scan.range100.pk1.dop40"
    data = tree(tmp_path, {f"sb.o.{dop1}": DOP1 / f"sb.o.{dop1}"})
    other = data / CAMPAIGN / "raw" / "x.my8040.cfg.pk1"
    other.mkdir()
    shutil.copy(DOP40 / f"sb.o.{dop40}", other / f"sb.o.{dop40}")  # ran on the 48-CPU server
    (data / "servers.csv").write_text("id,aliases,cpu_model,cores,smt,source\nbox,c8r32,Test CPU,48,off,src\n")
    errors = [p for p in problems(data) if ": error: " in p]
    assert len(errors) == 1 and errors[0].startswith(
        f"{Paths.make().rel(data / CAMPAIGN)}/raw/x.my8028.cfg.pk1/sb.o.{dop1}:2:1: error: sysbench ran on a machine "
        "with 8 CPUs (1 of the campaign's 2 outputs say so); server 'box' has 48 cores, SMT off: 48 CPUs"), errors
