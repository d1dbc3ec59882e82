"""`papercuts export`: derived tables as CSV or Parquet, read back with a real DuckDB."""
from __future__ import annotations

import csv

import duckdb
import pytest

from papercuts.export import export
from papercuts.paths import PROJECT, Paths
from papercuts.problems import UserError

LATIN = PROJECT / "data" / "campaigns" / "2026-04-03-pn53-mariadb-latin1" / "raw" / "qps.abs.latest.csv"
RQPS_COLUMNS = ["campaign", "server", "threads", "microbenchmark", "range", "variant", "base_variant",
                "qps", "base_qps", "rqps"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("export")
    paths = Paths.make()
    return {name: export(paths, table, str(out / name) + ("/" if name.endswith("/") else ""))
            for name, table in (("rqps.csv", "rqps"), ("rqps.parquet", "rqps"), ("rqps/", "rqps"),
                                ("results.csv", "results"), ("summaries.csv", "summaries"))}


def test_rqps_csv_has_the_promised_columns_at_full_precision(exported):
    path, rows = exported["rqps.csv"]
    with open(path, newline="") as f:
        table = list(csv.DictReader(f))
    assert len(table) == rows > 8000
    assert set(RQPS_COLUMNS) <= set(table[0])
    # hot-points of the MariaDB 10.2.44 build against 10.2.30 on pn53, from the archive's first line
    first = LATIN.read_text().splitlines()[0].split(",")
    row = next(r for r in table if r["campaign"] == "2026-04-03-pn53-mariadb-latin1"
               and r["variant"] == "ma100244_rel_withdbg.z12a_c8r32" and r["microbenchmark"] == "hot-points")
    assert row["base_variant"] == "ma100230_rel_withdbg.z12a_c8r32"
    assert (float(row["qps"]), float(row["base_qps"])) == (float(first[2]), float(first[1]))
    assert float(row["rqps"]) == float(first[2]) / float(first[1])  # not rounded
    published = [r for r in table if r["origin"] == "published"]
    assert published and all(r["qps"] == "" and float(r["rqps"]) > 0 for r in published)


def test_parquet_and_partitioned_parquet_hold_the_same_rows(exported):
    csv_path, rows = exported["rqps.csv"]
    con = duckdb.connect()
    flat = con.execute(f"SELECT count(*), sum(rqps) FROM '{exported['rqps.parquet'][0]}'").fetchone()
    folder = exported["rqps/"][0]
    parts = sorted(p.relative_to(folder).parts[:2] for p in folder.rglob("*.parquet"))
    assert ("server=pn53", "dbms=mariadb") in parts and all(a.startswith("server=") and b.startswith("dbms=")
                                                            for a, b in parts)
    hive = con.execute(f"SELECT count(*), sum(rqps) FROM read_parquet('{folder}/**/*.parquet', "
                       "hive_partitioning = true)").fetchone()
    from_csv = con.execute(f"SELECT count(*), sum(rqps) FROM read_csv('{csv_path}')").fetchone()
    assert flat[0] == hive[0] == from_csv[0] == rows
    assert flat[1] == pytest.approx(hive[1]) == pytest.approx(from_csv[1])


def test_results_and_summaries_export(exported):
    path, rows = exported["results.csv"]
    with open(path, newline="") as f:
        table = list(csv.DictReader(f))
    assert len(table) == rows and {"file", "line", "qps", "dbms", "variant"} <= set(table[0])
    _, summaries = exported["summaries.csv"]
    assert summaries > 0


@pytest.mark.parametrize("table, out, message", [
    ("nope", "x.csv", "unknown table .nope.; export one of: change_points, results, rqps, summaries"),
    ("rqps", "x.txt", "name a .csv or .parquet file"),
])
def test_bad_arguments_are_clear_errors(tmp_path, table, out, message):
    with pytest.raises(UserError, match=message):
        export(Paths.make(), table, str(tmp_path / out))
    assert not list(tmp_path.iterdir())


def test_an_export_replaces_only_what_an_export_wrote(tmp_path, exported):
    data = tmp_path / "data"
    (data / "campaigns").mkdir(parents=True)
    (data / "servers.csv").write_text("id\n")
    notes = tmp_path / "mine"
    notes.mkdir()
    (notes / "notes.txt").write_text("keep")
    (tmp_path / "f.parquet").mkdir()
    (tmp_path / "file").write_text("keep")
    paths = Paths.make(data=data)
    for out, said in ((f"{data}/", "is the data folder"), (f"{data}/servers.csv", "is the data folder or inside it"),
                      (f"{tmp_path}/", "contains the data folder"), (f"{notes}/", "did not write, such as notes.txt"),
                      (f"{tmp_path}/f.parquet", "is a folder"), (f"{tmp_path}/file/", "is a file"),
                      (f"{PROJECT.parent}/", "contains the project")):
        with pytest.raises(UserError, match=said):
            export(paths, "rqps", out)
    assert (data / "servers.csv").read_text() == "id\n" and (notes / "notes.txt").read_text() == "keep"
    assert (tmp_path / "f.parquet").is_dir() and (tmp_path / "file").read_text() == "keep"
    # Its own partitioned folder is replaced: exported again over the module's, the same rows.
    folder, rows = exported["rqps/"]
    assert export(Paths.make(), "rqps", f"{folder}/") == (folder, rows)


def test_an_unwritable_place_is_a_clear_error(tmp_path):
    (tmp_path / "s.bak").write_text("a file")
    for out in (f"{tmp_path}/s.bak/x.csv", "/proc/x.csv"):
        with pytest.raises(UserError, match="cannot write there"):
            export(Paths.make(), "rqps", out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.bak"]
