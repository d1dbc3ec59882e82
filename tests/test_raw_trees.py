"""Raw mytools trees read right (issue 11, part 4): each test builds a raw campaign from real files
of mdcallag/mytools (copied under tests/fixtures/raw/, source in its README.md) and checks what a
real archive gave wrong before. Expected numbers come from the files by hand (awk, calculator).
"""
from __future__ import annotations

import shutil

import pytest

from datadir import FILES, database, write_data
from papercuts.build import validate
from papercuts.db import fetch_dicts, query
from papercuts.paths import PROJECT, Paths

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
    files = fetch_dicts(con, "SELECT tool, status FROM raw_files WHERE campaign = '2026-01-03-tree' ORDER BY tool")
    assert {"tool": "sb.met", "status": "parsed"} in files
    assert {"tool": "vmstat", "status": "missing"} in files  # still a missing file, shown as such


def test_sb_met_for_another_rate_is_not_used(tmp_path):
    name = "point-query.range100.pk1.dop1"
    met = (DOP1 / f"sb.met.{name}").read_text().replace("16015.82", "17015.82")
    data = tree(tmp_path, {f"sb.o.{name}": DOP1 / f"sb.o.{name}", f"sb.met.{name}": met})
    (row,) = results(database(data))
    assert row["cs_per_op"] is None and row["cpu_per_op"] is None
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
    labels = fetch_dicts(con, query("server_profiles"), {"server": "box"})  # the server page's sections
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
