"""mytools result trees and summary files (real files from mdcallag/mytools, see the fixtures README)."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from papercuts.parsers import mytools, sysbench
from papercuts.parsers.errors import Gap, ParseError

RAW = Path(__file__).parent / "fixtures" / "raw" / "mytools"
HETZ = RAW / "apr26.sb.hetz"


@pytest.mark.parametrize("name, dbms, version, build, config, pk", [
    ("my8028", "mysql", "8.0.28", "my8028", None, None),
    ("x.my8028_rel_o2nofp.z11a_c32r128.pk1", "mysql", "8.0.28", "my8028_rel_o2nofp", "z11a_c32r128", 1),
    ("my5651_rel_o2nofp", "mysql", "5.6.51", "my5651_rel_o2nofp", None, None),
    ("my9500_rel_o2nofp", "mysql", "9.5.0", "my9500_rel_o2nofp", None, None),
    ("pg1023", "postgres", "10.23", "pg1023", None, None),
    ("x.pg110_o2nofp.x10a_c32r128.pk1", "postgres", "11.0", "pg110_o2nofp", "x10a_c32r128", 1),
    ("pg174", "postgres", "17.4", "pg174", None, None),
    ("pg18beta1", "postgres", "18beta1", "pg18beta1", None, None),
    ("ma100434", "mariadb", "10.4.34", "ma100434", None, None),
    ("x.ma110803_rel_withdbg.z12b_c32r128.pk1", "mariadb", "11.8.3", "ma110803_rel_withdbg", "z12b_c32r128", 1),
    ("fbmy5635_202203072101", "fbmysql", "5.6.35", "fbmy5635_202203072101", None, None),
    ("sh", None, None, "sh", None, None),
])
def test_build_names(name, dbms, version, build, config, pk):
    b = mytools.parse_build_name(name)
    assert (b.dbms, b.version, b.build, b.config, b.pk) == (dbms, version, build, config, pk)


def test_build_names_sort_by_version_never_as_strings():
    names = ["pg1023", "pg110", "pg96", "pg18beta1", "pg174", "sh"]
    assert sorted(names) == ["pg1023", "pg110", "pg174", "pg18beta1", "pg96", "sh"]  # the trap
    ordered = sorted(names, key=lambda n: mytools.parse_build_name(n).order_key())
    assert ordered == ["pg96", "pg1023", "pg110", "pg174", "pg18beta1", "sh"]


@pytest.mark.parametrize("name, kind, test, rng, threads, repeat", [
    ("sb.o.point-query.range100.pk1.dop1", "o", "point-query", 100, 1, None),
    ("sb.met.point-query.pre.range100.pk1.dop40", "met", "point-query.pre", 100, 40, None),
    ("sb.vm.random-points.range1000.pk1.dop40", "vm", "random-points", 1000, 40, None),
    ("sb.perf.hw.scan.warm.range100.pk1.3", "perf.hw", "scan.warm", 100, None, 3),
    ("sb.perf.rep.f.scan.range100.pk1.1", "perf.rep.f", "scan", 100, None, 1),
    ("sb.perf.rep.g.graph.update-index.range100.pk1.2.gz", "perf.rep.g.graph", "update-index", 100, None, 2),
    ("sb.prepare.met.point-query.warm.range100.pk1", "prepare.met", "point-query.warm", 100, None, None),
])
def test_test_file_names(name, kind, test, rng, threads, repeat):
    f = mytools.parse_test_file_name(name)
    assert (f.kind, f.test, f.range, f.threads, f.repeat) == (kind, test, rng, threads, repeat)


def test_qps_abs_csv_takes_column_names_from_the_tsv():
    t = mytools.parse_qps((HETZ / "qps.abs.ma.latest.csv").read_text(), (HETZ / "qps.abs.ma.latest.tsv").read_text())
    assert len(t.columns) == 11 and len(t.rows) == 33 and t.relative_to is None
    assert [c.version for c in t.columns[:4]] == ["10.2.30", "10.2.44", "10.3.39", "10.4.34"]
    assert t.columns[5].config == "z12b_c32r128"
    assert (t.rows[0].test, t.rows[0].range, t.rows[0].values[0]) == ("hot-points", 100, 78413)
    scan = next(r for r in t.rows if r.test == "scan.warm")
    assert (scan.range, scan.values[-1]) == (100, 3585)  # Krows/s, not queries/s
    assert [(r.test, r.range) for r in t.rows[6:9]] == [  # ls|sort order: 1000 before 100 before 10
        ("random-points", 1000), ("random-points", 100), ("random-points", 10)]
    assert ("write-only", 10000, t.columns[-1], 387191) in t.long()


def test_qps_rel_names_its_base_and_leaves_it_out():
    t = mytools.parse_qps((HETZ / "qps.rel.ma.latest.csv").read_text(), (HETZ / "qps.rel.ma.latest.tsv").read_text())
    assert t.relative_to.build == "ma100230_rel_withdbg" and len(t.columns) == 10
    assert t.columns[0].version == "10.2.44" and t.rows[23].test == "delete" and t.rows[23].values[-1] == 2.75


def test_qps_csv_and_tsv_that_disagree():
    with pytest.raises(ParseError) as e:
        mytools.parse_qps("point-query_range=100,1,2,3\n", "col-1 : my8028\ncol-2 : my8040\n", "q.csv", "q.tsv")
    assert e.value.problems[0].render() == ("q.csv:1:1: error: 3 values where q.tsv names 2 columns "
                                            "(the .csv and .tsv must come from one sum_qps_csv.sh run)")
    assert mytools.parse_qps("", "col-1 : my8028\n", "q.csv") == Gap("q.csv", "empty")


def test_sb_met():
    path = RAW / "nov25.sb.mysql/dop1/x.my9500_rel_o2nofp.z12a_c8r32.pk1/sb.met.point-query.range100.pk1.dop1"
    m = mytools.parse_sb_met(path.read_text())
    assert (m.get("o/s"), m.get("cs/o"), m.get("cpu/o"), m.get("wKB/o")) == (16015.82, 3.832, 0.000704, 0.0)
    assert (dict(m.io)["samp"], dict(m.vm)["samp"]) == (604, 633)  # each part has its own sample count


def test_o_met_2025_edition_with_double_tab_and_inf():
    blocks = mytools.parse_o_met((HETZ / "o.met.ma.latest.excerpt").read_text())
    prep, rnc = blocks
    assert (prep.prepare, prep.test, prep.range, prep.threads) == (True, "point-query.warm", 100, None)
    assert prep.columns == ("cpu/o", "cs/o", "r/o", "rKB/o", "wKB/o", "o/s")
    assert (rnc.test, rnc.threads, len(rnc.absolute), len(rnc.relative)) == ("range-notcovered-si.pre", 40, 11, 10)
    base = rnc.absolute[0]
    assert (base.variant.version, base.get("cpu/o"), base.get("cs/o"), base.get("o/s")) == (
        "10.2.30", 0.001054, 2.498, 75723)
    assert rnc.relative[0].get("wKB/o") == math.inf and rnc.relative[0].get("cs/o") == 1.00


def test_o_met_2024_edition_without_cs():
    prep, pq = mytools.parse_o_met((RAW / "feb24.bee.sysbench.my/met.my80.excerpt").read_text())
    assert pq.columns == ("cpu/o", "r/o", "rKB/o", "wKB/o", "o/s")
    assert pq.absolute[3].variant.version == "8.0.28" and pq.absolute[3].get("o/s") == 16571
    assert pq.relative[1].get("r/o") == 1  # both zero


def test_o_met_2020_edition_by_header_names():
    text = ("sb.met.update-index.range100.pk1.dop1\n--- absolute\ncpu/o\t\trKB/o\twKB/o\to/s\tdbms\n"
            "0.001\t0\t5.5\t2000\tx.my5635_rel.c10b.pk1\n--- relative to first result\n")
    (b,) = mytools.parse_o_met(text)
    assert b.columns == ("cpu/o", "rKB/o", "wKB/o", "o/s") and b.absolute[0].get("wKB/o") == 5.5


def test_o_met_malformed_row():
    with pytest.raises(ParseError) as e:
        mytools.parse_o_met("sb.met.x.range100.pk1.dop1\n--- absolute\ncpu/o\to/s\tdbms\n"
                            "0.1\tfast\tx.my8028\n", "o.met")
    assert e.value.line == 4 and "'fast' is not a number" in str(e.value)


def test_result_tree_with_gaps(tmp_path):
    shutil.copytree(RAW / "nov25.sb.mysql", tmp_path / "tree")
    vdir = tmp_path / "tree/dop1/x.my9500_rel_o2nofp.z12a_c8r32.pk1"
    (vdir / "sb.vm.point-query.range100.pk1.dop1").write_text("")  # committed empty, as in the archive
    entries = mytools.load_tree(tmp_path / "tree")
    by_kind = {e.file.kind: e for e in entries}
    assert set(by_kind) == {"o", "met", "vm"}  # no iostat device given: sb.io is not expected
    assert isinstance(by_kind["o"].result, sysbench.SysbenchRun) and by_kind["o"].result.qps == 16015.82
    assert by_kind["o"].variant.version == "9.5.0" and by_kind["o"].file.threads == 1
    folder = "dop1/x.my9500_rel_o2nofp.z12a_c8r32.pk1/"
    assert by_kind["vm"].result == Gap(folder + "sb.vm.point-query.range100.pk1.dop1", "empty")
    with_io = {e.file.kind: e for e in mytools.load_tree(tmp_path / "tree", device="nvme0n1")}
    assert with_io["io"].result == Gap(folder + "sb.io.point-query.range100.pk1.dop1", "missing")
