"""Derive reads the ladders' values on every core (derive/ladders.py), and makes some models there
(derive/models.py ALL_CORES): the ladders, their builds and change points, and those models, must
be the same, row for row and in order, as on one thread."""
from __future__ import annotations

import duckdb
import pytest

import ladder_inputs
from papercuts.derive.ladders import TABLES, build_ladders

# SYNTHETIC: 24 campaigns × 2 thread counts × 12 builds × 2 configs × 175 microbenchmarks × 2 ranges
# = 403,200 values, a few row groups, so that DuckDB reads them on more than one thread; stored in
# ladder order, as sql/models/03_ladder_values.sql stores them. Build names do not sort as their
# versions; some series step at the sixth build.
VALUES = ladder_inputs.TABLES + """
CREATE TABLE builds AS
SELECT 'b' || (i * 7 % 12) AS id, [8, 0, i] AS version_key FROM range(12) t(i);
CREATE TABLE ladder_values AS
SELECT 'c' || lpad(c::VARCHAR, 2, '0') AS campaign, 's' AS server, 'mysql' AS dbms, 'innodb' AS engine,
       'c8r32' AS family, th AS threads, 'b' || (b * 7 % 12) AS build, ['z1a_c8r32', 'z1b_c8r32'][cf + 1] AS config,
       '8.0.' || b AS version, [8, 0, b] AS version_key, 'test-' || m AS microbenchmark,
       [10, 100][rg + 1] AS "range", ['point', 'range', 'write'][m % 3 + 1] AS "group",
       1000 * exp(0.02 * ((hash(c, th, b, cf, m, rg) % 2001)::DOUBLE / 1000 - 1))
            * CASE WHEN m % 25 = 7 AND b >= 6 THEN 0.8 ELSE 1 END AS value,
       1 AS repetitions, NULL::DOUBLE AS log_var
FROM range(24) a(c), (VALUES (1), (16)) t(th), range(12) v(b), range(2) f(cf), range(175) w(m), range(2) r(rg)
ORDER BY campaign, server, dbms, engine, family, threads, version_key, build, config, microbenchmark, "range";
""" + ladder_inputs.SPLIT


def ladders_on(cores: int) -> dict[str, list]:
    con = duckdb.connect()
    con.execute(VALUES)
    con.execute("SET threads = 1")  # as derive leaves it
    built = build_ladders(con, cores)
    assert built == 48
    return {t: con.execute(f"SELECT * FROM {t}").fetchall() for t in TABLES}


def test_ladders_read_on_two_threads_are_those_read_on_one():
    one, two = ladders_on(1), ladders_on(2)
    # each build in two configs of one family: a ladder keeps one a version (one_per_version)
    assert len(one["ladder_builds"]) == len(one["ladder_left_out"]) == 48 * 12
    assert len(one["change_points"]) >= 48 * 14  # each ladder's 14 stepped series at least
    for table in one:
        assert two[table] == one[table], table


@pytest.mark.parametrize("cores", [2, None])  # None: the values read on the search's thread (derive)
def test_a_search_made_beside_other_queries_gives_the_same_ladders_and_leaves_no_thread(cores):
    """derive starts the ladders' search (ladders.Search) once ladder_values is made and makes its
    other models meanwhile: the same rows as a search made alone, and its thread has ended when
    build_ladders returns (the render stage forks its workers only when no other thread runs)."""
    import threading

    from papercuts.derive.ladders import Search

    alone = ladders_on(2)
    con = duckdb.connect()
    con.execute(VALUES)
    con.execute("SET threads = 1")
    before = threading.active_count()
    search = Search(con, cores)
    con.execute("CREATE TABLE beside AS SELECT campaign, max(value) FROM ladder_values GROUP BY ALL")  # a model
    assert build_ladders(con, 2, search=search) == 48
    assert threading.active_count() == before and not search.is_alive()
    assert {t: con.execute(f"SELECT * FROM {t}").fetchall() for t in alone} == alone


# SYNTHETIC: 30 campaigns × 12 builds × 2 configs × 175 microbenchmarks × 2 ranges × 2 thread counts
# = 504,000 measured variants (several row groups), one in seven run three times, its repetitions
# numbered (measured_qps averages them on every core, in file order), and published ratios for two
# more campaigns.
SOURCES = """
CREATE TABLE builds AS
SELECT 'b' || i AS id, 'mysql' AS dbms, 'innodb' AS engine, '8.0.' || i AS version, [8, 0, i] AS version_key
FROM range(12) t(i);
CREATE TABLE microbenchmarks AS
SELECT 'test-' || m AS name, ['point', 'range', 'write'][m % 3 + 1] AS "group", 'g' || (m % 4) AS group4
FROM range(175) t(m);
CREATE TABLE results AS
SELECT 'c' || lpad(c::VARCHAR, 2, '0') AS campaign, 's' AS server, 'b' || b AS build,
       ['z1a_c8r32', 'z1b_c8r32'][cf + 1] AS config, 'test-' || m AS microbenchmark, [10, 100][rg + 1] AS "range",
       th AS threads, CASE WHEN hash(c, b, cf, m, rg, th) % 7 = 0 THEN rep + 1 END AS repetition,
       1000 * exp((hash(c, b, cf, m, rg, th, rep) % 1000)::DOUBLE / 997) AS qps,
       'results-' || (hash(b, m) % 3) || '.csv' AS file
FROM range(30) a(c), range(12) v(b), range(2) f(cf), range(175) w(m), range(2) r(rg), (VALUES (1), (16)) t(th),
     range(3) p(rep)
WHERE rep = 0 OR hash(c, b, cf, m, rg, th) % 7 = 0
ORDER BY hash(c, b, cf, m, rg, th, rep);
CREATE TABLE campaign_bases AS
SELECT DISTINCT campaign, server, 'mysql' AS dbms, 'innodb' AS engine, 'b0' AS base_build,
       'z1a_c8r32' AS base_config FROM results;
CREATE TABLE relative AS
SELECT 'p' || c AS campaign, 's' AS server, th AS threads, 'b0' AS base_build, 'z1a_c8r32' AS base_config,
       'b' || b AS build, 'z1a_c8r32' AS config, 'test-' || m AS microbenchmark, 10 AS "range",
       0.5 + (hash(c, b, m, th) % 100)::DOUBLE / 100 AS rqps
FROM range(2) a(c), range(1, 12) v(b), range(175) w(m), (VALUES (1), (16)) t(th);
ALTER TABLE relative ADD COLUMN file VARCHAR DEFAULT 'relative.csv';
CREATE TABLE summaries AS SELECT * FROM relative LIMIT 0;
CREATE TABLE observations AS
SELECT 'o' || (i % 3) AS campaign, CASE WHEN i % 2 = 0 THEN 's' END AS server, 'observations.csv' AS file
FROM range(50) t(i);
"""


def models_on(cores: int) -> dict[str, list]:
    from papercuts.db import sql_files, table_name
    from papercuts.derive.models import ALL_CORES

    con = duckdb.connect()
    con.execute(SOURCES)
    con.execute(f"SET threads = {cores}")
    made = {}
    for path in sql_files("models"):
        if table_name(path) == "build_order":  # ladder_variants sorts by it
            con.execute(path.read_text())
        elif table_name(path) in ALL_CORES:
            con.execute(path.read_text())
            made[table_name(path)] = con.execute(f"SELECT * FROM {table_name(path)}").fetchall()
    return made


def test_models_made_on_every_core_are_those_made_on_one_row_for_row():
    """derive/models.py ALL_CORES: their ORDER BY leaves no tie, so neither a value nor a row's
    place depends on how many threads made them (the incremental build's test holds the database
    to a clean build's, row for row)."""
    one, two = models_on(1), models_on(2)
    assert set(one) == {"measured_qps", "rqps", "ladder_variants", "file_rows", "server_variants", "variant_groups"}
    repeated = [row for row in one["measured_qps"] if row[8] > 1]  # repetitions
    assert len(one["measured_qps"]) == 30 * 12 * 2 * 175 * 2 * 2 and 60_000 < len(repeated) < 84_000
    assert len(one["file_rows"]) == 30 * 3 + 2 + 3 * 2  # results files, relative, observations with and without
    assert len(one["rqps"]) == 30 * (12 * 2 - 1) * 175 * 2 * 2 + 2 * 11 * 175 * 2  # every variant but the base
    for table in one:
        assert two[table] == one[table], table


def test_a_model_failing_beside_the_search_leaves_no_thread(tmp_path, monkeypatch):
    """derive joins the ladders' search before it raises a later model's error: a process that
    goes on (tests, papercuts serve) forks its workers only when no other thread runs."""
    import threading

    from papercuts.derive import models

    (tmp_path / "03_ladder_values.sql").write_text("CREATE TABLE ladder_values AS SELECT * FROM given")
    if models.SEARCH_AFTER != "ladder_values":  # a model after the values, the search started after it
        (tmp_path / f"04_{models.SEARCH_AFTER}.sql").write_text(f"CREATE TABLE {models.SEARCH_AFTER} AS SELECT 1 AS x")
    (tmp_path / "05_broken.sql").write_text("CREATE TABLE broken AS SELECT * FROM no_such_table")
    monkeypatch.setattr(models, "sql_files", lambda folder: sorted(tmp_path.glob("*.sql")))
    con = duckdb.connect()
    con.execute(VALUES)
    con.execute("ALTER TABLE ladder_values RENAME TO given")
    con.execute("INSERT INTO campaigns SELECT DISTINCT campaign, NULL FROM given")
    before = threading.active_count()
    with pytest.raises(duckdb.CatalogException, match="no_such_table"):
        models.derive(con)
    assert threading.active_count() == before
