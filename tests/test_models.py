"""The SQL models on given rows → expected rows, in an in-memory DuckDB."""
from __future__ import annotations

import math
from itertools import groupby
from pathlib import Path

import duckdb
import pytest

from datadir import FILES, database, write_data
from papercuts.build import validate
from papercuts.db import fetch_dicts, query
from papercuts.derive.models import derive
from papercuts.ingest.tables import check_loaded, ingest
from papercuts.paths import PROJECT, Paths


def test_rqps_is_qps_over_the_oldest_build(tmp_path):
    con = database(write_data(tmp_path / "data"))
    rows = fetch_dicts(con, "SELECT build, config, microbenchmark, base_build, base_config, rqps, qps, "
                            "base_qps, origin FROM rqps ORDER BY microbenchmark, build, config")
    assert rows == [
        {"build": "my8040", "config": "cfg", "microbenchmark": "point-query", "base_build": "my8028",
         "base_config": "cfg", "rqps": 0.9, "qps": 900.0, "base_qps": 1000.0, "origin": "measured"},
        {"build": "my8040", "config": "cfg", "microbenchmark": "update-index", "base_build": "my8028",
         "base_config": "cfg", "rqps": 0.25, "qps": 100.0, "base_qps": 400.0, "origin": "measured"},
        {"build": "my8040", "config": "cfg_spin5", "microbenchmark": "update-index", "base_build": "my8028",
         "base_config": "cfg", "rqps": 0.75, "qps": 300.0, "base_qps": 400.0, "origin": "measured"},
    ]


def test_the_base_is_the_oldest_version_not_the_first_string(tmp_path):
    # The oldest build's id sorts last as a string ("z" > "m") and its version sorts last as a
    # string too ("8.0.9" > "8.0.28"): only the parsed version makes it the base.
    builds = FILES["builds.csv"] + "zz-old,mysql,innodb,8.0.9,src\n"
    results = FILES["campaigns/2026-01-02-test/results.csv"] + "box,zz-old,cfg,point-query,100,1,2000\n"
    con = database(write_data(tmp_path / "data", {"builds.csv": builds,
                                                   "campaigns/2026-01-02-test/results.csv": results}))
    bases = fetch_dicts(con, "SELECT dbms, engine, base_build, base_config FROM campaign_bases")
    assert bases == [{"dbms": "mysql", "engine": "innodb", "base_build": "zz-old", "base_config": "cfg"}]
    rows = fetch_dicts(con, "SELECT build, rqps FROM rqps WHERE microbenchmark = 'point-query' ORDER BY build")
    assert rows == [{"build": "my8028", "rqps": 0.5}, {"build": "my8040", "rqps": 0.45}]


def test_each_engine_is_compared_with_its_own_oldest_build(tmp_path):
    builds = FILES["builds.csv"] + "fb8028,fbmysql,myrocks,8.0.28,src\nfb8032,fbmysql,myrocks,8.0.32,src\n"
    results = (FILES["campaigns/2026-01-02-test/results.csv"]
               + "box,fb8028,cfg,point-query,100,1,500\nbox,fb8032,cfg,point-query,100,1,450\n")
    con = database(write_data(tmp_path / "data", {"builds.csv": builds,
                                                   "campaigns/2026-01-02-test/results.csv": results}))
    rows = fetch_dicts(con, "SELECT build, base_build, rqps FROM rqps WHERE microbenchmark = 'point-query' "
                            "ORDER BY build")
    assert rows == [{"build": "fb8032", "base_build": "fb8028", "rqps": 0.9},
                    {"build": "my8040", "base_build": "my8028", "rqps": 0.9}]


def test_repetitions_are_averaged(tmp_path):
    results = ("server,build,config,microbenchmark,threads,repetition,qps\n"
               "box,my8028,cfg,scan,1,1,100\nbox,my8028,cfg,scan,1,2,300\n"
               "box,my8040,cfg,scan,1,1,100\n")
    con = database(write_data(tmp_path / "data", {"campaigns/2026-01-02-test/results.csv": results}))
    assert fetch_dicts(con, "SELECT qps, repetitions FROM measured_qps WHERE build = 'my8028'") == [
        {"qps": 200.0, "repetitions": 2}]
    assert fetch_dicts(con, "SELECT rqps FROM rqps") == [{"rqps": 0.5}]


def test_a_run_numbered_in_part_is_one_variant(tmp_path):
    """measured_qps groups only the runs with a numbered repetition (any other run is one row): a
    run whose first repetition has no number and whose second has one is averaged whole."""
    results = ("server,build,config,microbenchmark,threads,repetition,qps\n"
               "box,my8028,cfg,scan,1,,100\nbox,my8028,cfg,scan,1,2,300\n"
               "box,my8040,cfg,scan,1,,100\n")
    con = database(write_data(tmp_path / "data", {"campaigns/2026-01-02-test/results.csv": results}))
    rows = fetch_dicts(con, "SELECT build, qps, repetitions, log_var FROM measured_qps ORDER BY build")
    assert rows == [{"build": "my8028", "qps": 200.0, "repetitions": 2, "log_var": pytest.approx(math.log(3) ** 2 / 2)},
                    {"build": "my8040", "qps": 100.0, "repetitions": 1, "log_var": None}]


def test_summary_per_group(tmp_path):
    con = database(write_data(tmp_path / "data"))
    rows = fetch_dicts(con, 'SELECT build, config, "group", min, max, avg, median, n FROM rqps_summary '
                            'ORDER BY build, config, "group"')
    assert rows == [
        {"build": "my8040", "config": "cfg", "group": "point", "min": 0.9, "max": 0.9, "avg": 0.9,
         "median": 0.9, "n": 1},
        {"build": "my8040", "config": "cfg", "group": "write", "min": 0.25, "max": 0.25, "avg": 0.25,
         "median": 0.25, "n": 1},
        {"build": "my8040", "config": "cfg_spin5", "group": "write", "min": 0.75, "max": 0.75,
         "avg": 0.75, "median": 0.75, "n": 1},
    ]


def test_seed_000_summary_matches_a_hand_check():
    """Seed 000's dell32 table, column 1 (my8040_rel_o2nofp), summarised by hand:
    point   0.96 1.06 1.06 1.06 1.04                     → min 0.96 max 1.06 avg 1.036 median 1.06
    range   0.98 0.95 0.87                               → min 0.87 max 0.98 avg 0.9333 median 0.95
    write   0.94 0.94 0.95 0.56 1.03 0.95 0.94 0.95 0.93 → min 0.56 max 1.03 avg 0.91 median 0.94
    """
    con = database(PROJECT / "data")
    rows = fetch_dicts(con, 'SELECT "group", min, max, avg, median, n FROM rqps_summary '
                            "WHERE campaign = '2024-10-23-busy-wait-dell32' AND build = 'my8040_rel_o2nofp' "
                            "AND config = 'z11a_c32r128' ORDER BY \"group\"")
    expected = [("point", 0.96, 1.06, 1.036, 1.06, 5), ("range", 0.87, 0.98, 0.9333, 0.95, 3),
                ("write", 0.56, 1.03, 0.91, 0.94, 9)]
    assert [(r["group"], r["n"]) for r in rows] == [(e[0], e[5]) for e in expected]
    for r, (_, lo, hi, avg, med, _) in zip(rows, expected, strict=True):
        assert (r["min"], r["max"], r["median"]) == (lo, hi, med)
        assert r["avg"] == pytest.approx(avg, abs=1e-4)


def test_published_rqps_are_kept_as_printed():
    con = database(PROJECT / "data")
    row = fetch_dicts(con, "SELECT rqps, qps, origin FROM rqps WHERE microbenchmark = 'update-index' "
                           "AND build = 'my8040_rel_o2nofp' AND config = 'z11a_c32r128'")
    assert row == [{"rqps": 0.56, "qps": None, "origin": "published"}]


def test_each_thread_count_is_divided_by_the_base_at_the_same_thread_count(tmp_path):
    results = FILES["campaigns/2026-01-02-test/results.csv"] + (
        "box,my8028,cfg,point-query,100,8,5000\nbox,my8040,cfg,point-query,100,8,6000\n")
    con = database(write_data(tmp_path / "data", {"campaigns/2026-01-02-test/results.csv": results}))
    rows = fetch_dicts(con, "SELECT threads, rqps FROM rqps WHERE build = 'my8040' AND config = 'cfg' "
                            "AND microbenchmark = 'point-query' ORDER BY threads")
    assert rows == [{"threads": 1, "rqps": 0.9}, {"threads": 8, "rqps": 1.2}]


def test_the_base_named_in_campaign_toml_wins_over_the_oldest_build(tmp_path):
    toml = FILES["campaigns/2026-01-02-test/campaign.toml"] + 'base_build = "my8040"\nbase_config = "cfg"\n'
    con = database(write_data(tmp_path / "data", {"campaigns/2026-01-02-test/campaign.toml": toml}))
    assert fetch_dicts(con, "SELECT base_build, base_config FROM campaign_bases") == [
        {"base_build": "my8040", "base_config": "cfg"}]
    rows = fetch_dicts(con, "SELECT build, config, microbenchmark, rqps FROM rqps ORDER BY microbenchmark, config")
    assert rows == [{"build": "my8028", "config": "cfg", "microbenchmark": "point-query", "rqps": 1000 / 900},
                    {"build": "my8028", "config": "cfg", "microbenchmark": "update-index", "rqps": 4.0},
                    {"build": "my8040", "config": "cfg_spin5", "microbenchmark": "update-index", "rqps": 3.0}]


def test_file_rows_count_every_row_of_each_campaign_file_and_server():
    """file_rows (sql/models/16_*), which campaign and server pages read instead of the tables of
    rows: a count per campaign, server and file of each table's rows, results marked measured."""
    con = database(PROJECT / "data")
    by_tables = con.execute("""
        SELECT campaign, server, file, measured, count(*) FROM (
            SELECT campaign, server, file, true AS measured FROM results
            UNION ALL SELECT campaign, server, file, false FROM relative
            UNION ALL SELECT campaign, server, file, false FROM summaries
            UNION ALL SELECT campaign, server, file, false FROM observations)
        GROUP BY ALL ORDER BY ALL""").fetchall()
    assert con.execute("SELECT * FROM file_rows ORDER BY ALL").fetchall() == by_tables
    assert {m for *_, m, _ in by_tables} == {True, False}
    assert any(s is None for _, s, *_ in by_tables)  # observations of no server are counted too
    # and, apart from the SQL: a campaign's own CSV file has as many rows as data lines
    counted = con.execute("SELECT file, sum(rows) FROM file_rows WHERE file SIMILAR TO "
                          "'data/campaigns/[^/]+/[a-z]+[.]csv' GROUP BY file").fetchall()
    assert {Path(f).name for f, _ in counted} == {"results.csv", "relative.csv", "summaries.csv", "observations.csv"}
    for file, rows in counted:
        lines = (PROJECT / file).read_text().splitlines()[1:]
        assert rows == sum(1 for line in lines if line.strip()), file


def test_server_variants_are_each_campaigns_measured_and_published_variants_per_server():
    """server_variants (sql/models/17_*), which the explorer reads instead of measured_qps and
    relative: a campaign's variants on a server, measured when results hold them, published ones
    with their bases, each once."""
    con = database(PROJECT / "data")
    held = con.execute("SELECT campaign, server, build, config, measured FROM server_variants").fetchall()
    assert len(held) == len({k[:4] for k in held})  # once each
    measured = set(con.execute("SELECT DISTINCT campaign, server, build, config FROM results").fetchall())
    published = set(con.execute("SELECT campaign, server, build, config FROM relative UNION "
                                "SELECT campaign, server, base_build, base_config FROM relative").fetchall())
    assert measured and published - measured  # the project's data has both kinds
    assert {k[:4]: k[4] for k in held} == {**{k: False for k in published}, **{k: True for k in measured}}


def test_derived_tables_are_the_same_bits_on_every_build():
    """Floats summed by a parallel aggregate come out in whatever order its threads finish: the
    shipped data's rqps_summary.avg differed in the last bit between builds (and with it the
    summary charts' CSVs). Derived four times, with more threads than cores, every table holds
    the same bits."""
    ds, problems = validate(Paths.make(data=PROJECT / "data"))
    assert not problems.errors
    tables = None
    for _ in range(4):
        con = duckdb.connect()
        con.execute("SET threads = 8")
        ingest(ds, con, None)
        derive(con)
        names = [n for (n,) in con.execute("SELECT table_name FROM information_schema.tables "
                                           "WHERE table_type = 'BASE TABLE' ORDER BY 1").fetchall()]
        got = {n: con.execute(f'SELECT * FROM "{n}" ORDER BY ALL').fetchall() for n in names}
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 8  # the build's own setting is back
        con.close()
        assert tables is None or got == tables
        tables = got
    assert len(tables["rqps_summary"]) > 100


@pytest.mark.parametrize("column,value", [("server", "nosuchbox"), ("build", "my9999"), ("config", "nocfg"),
                                          ("microbenchmark", "no-such-test"), ("campaign", "2000-01-01-none")])
def test_a_results_row_naming_nothing_in_the_catalogs_stops_the_load(tmp_path, column, value):
    """results' references are checked over the loaded table (sql/checks/), not per inserted row."""
    con = database(write_data(tmp_path))
    check_loaded(con)  # the data as validated passes
    row = con.execute("SELECT * FROM results LIMIT 1").fetchone()
    names = [d[0] for d in con.description]
    con.execute(f"INSERT INTO results VALUES ({', '.join('?' * len(row))})",
                [value if n == column else v for n, v in zip(names, row, strict=True)])
    with pytest.raises(RuntimeError, match=f"results_references.sql: .*'{column}', '{value}'"):
        check_loaded(con)


def test_build_order_ranks_builds_by_parsed_version_then_id():
    """00_build_order: the rank the version-ordered queries and ladder_values sort by is ORDER BY
    version_key, id: 8.0.9 before 8.0.10 (not as text), equal versions by id."""
    from papercuts.db import sql_files

    con = duckdb.connect()
    con.execute("CREATE TABLE builds AS SELECT * FROM (VALUES ('my8010_rel', [8, 0, 10]), ('my809_rel', [8, 0, 9]), "
                "('my809_dbg', [8, 0, 9]), ('my5651', [5, 6, 51])) t(id, version_key)")
    model = next(p for p in sql_files("models") if p.name.endswith("_build_order.sql"))
    con.execute(model.read_text())
    assert con.execute("SELECT build, rank FROM build_order ORDER BY rank").fetchall() == [
        ("my5651", 1), ("my809_dbg", 2), ("my809_rel", 3), ("my8010_rel", 4)]


def test_a_campaign_that_measured_and_published_is_laddered_on_what_it_measured(tmp_path):
    """A ladder's values are measured, or published only where its campaign measured nothing on
    that server at that thread count (sql/models/03_ladder_variants.sql says so, once; the view
    04_ladder_values joins on its origin). Measured and published variants are the same here:
    without the origin in the join, each measured value came with the published ratio beside it."""
    results = ("server,build,config,microbenchmark,range,threads,qps\n"
               "box,my8009,cfg,scan,,1,100\nbox,my8028,cfg,scan,,1,90\nbox,my8040,cfg,scan,,1,80\n")
    relative = ("server,threads,base_build,base_config,build,config,microbenchmark,rqps\n"
                "box,1,my8009,cfg,my8028,cfg,scan,0.5\nbox,1,my8009,cfg,my8040,cfg,scan,0.25\n")
    con = database(write_data(tmp_path / "data", {"campaigns/2026-01-02-test/results.csv": results,
                                                  "campaigns/2026-01-02-test/relative.csv": relative}))
    got = con.execute("SELECT w.build, v.value, v.repetitions FROM ladder_values v "
                      "JOIN ladder_variants w ON w.rowid = v.variant ORDER BY v.variant").fetchall()
    assert got == [("my8009", 100.0, 1), ("my8028", 90.0, 1), ("my8040", 80.0, 1)]
    # published alone (no results.csv): its ratios, the base as 1
    con = database(write_data(tmp_path / "published", {"campaigns/2026-01-02-test/results.csv": None,
                                                       "campaigns/2026-01-02-test/relative.csv": relative}))
    got = con.execute("SELECT w.build, v.value FROM ladder_values v "
                      "JOIN ladder_variants w ON w.rowid = v.variant ORDER BY v.variant").fetchall()
    assert got == [("my8009", 1.0), ("my8028", 0.5), ("my8040", 0.25)]


def test_variant_groups_are_each_campaigns_variants_in_the_order_colours_are_assigned():
    """variant_groups (sql/models/19_*), which every render process reads for the site-wide
    colours instead of every result: a campaign's measured and published variants, bases included,
    each once, by campaign and version (queries/variant_groups.sql), as read from the rows."""
    con = database(PROJECT / "data")
    held = con.execute(query("variant_groups")).fetchall()
    from_rows = con.execute("""
        WITH v AS (SELECT DISTINCT campaign, build, config FROM results
                   UNION SELECT DISTINCT campaign, build, config FROM relative
                   UNION SELECT DISTINCT campaign, base_build, base_config FROM relative)
        SELECT v.campaign, v.build || '.' || v.config FROM v JOIN builds b ON b.id = v.build
        ORDER BY v.campaign, b.dbms, b.engine, b.version_key, v.build, v.config""").fetchall()
    assert len(held) > 100 and held == from_rows
    assert len(held) == len(set(held))


def test_cost_variants_are_each_comparisons_variants_with_a_cost_ranked_by_version():
    """cost_variants (sql/models/21_*), which every render process reads for the server pages'
    cost charts instead of ranking op_costs itself: each comparison's variants with a relative
    cost at a thread count, ranked by version over the comparison's every non-base row, as read
    from op_costs."""
    con = database(PROJECT / "data")
    held = con.execute(query("server_cost_variants")).fetchall()
    from_rows = con.execute("""
        SELECT DISTINCT campaign, server, base_build, base_config, threads, version_rank, build, config, variant
        FROM (SELECT o.*, o.build || '.' || o.config AS variant,
                     dense_rank() OVER (PARTITION BY o.campaign, o.server, o.base_build, o.base_config
                                        ORDER BY b.version_key) AS version_rank
              FROM op_costs o JOIN builds b ON b.id = o.build
              WHERE (o.build, o.config) <> (o.base_build, o.base_config))
        WHERE relative IS NOT NULL""").fetchall()
    assert len(held) > 20 and sorted(held) == sorted(from_rows)
    assert len({r[:4] for r in held}) > 1  # more than one comparison
    assert any(r[5] > 1 for r in held)  # ranked


def test_comparison_costs_are_each_comparisons_costs_ranked_and_ordered_as_its_charts_read_them():
    """comparison_costs (sql/models/20_*), which the cost charts read a campaign's slice of
    (queries/op_costs_selection.sql) instead of ranking and sorting op_costs in every render
    process: every non-base cost row with its base's, ranked by version, in the charts' order."""
    con = database(PROJECT / "data")
    held = con.execute(query("op_costs_selection")).fetchall()
    from_rows = con.execute("""
        SELECT o.campaign, o.server, o.base_build, o.base_config, o.microbenchmark, o."range", m."group",
               o.build, o.config, o.build || '.' || o.config, o.threads, o.metric, o.value, o.base_value,
               o.relative, o.repetitions,
               dense_rank() OVER (PARTITION BY o.campaign, o.server, o.base_build, o.base_config
                                  ORDER BY b.version_key)
        FROM op_costs o JOIN builds b ON b.id = o.build JOIN build_order bo ON bo.build = o.build
        JOIN microbenchmarks m ON m.name = o.microbenchmark
        WHERE (o.build, o.config) <> (o.base_build, o.base_config)
        ORDER BY o.campaign, o.server, o.base_build, o.base_config, m."group", o.microbenchmark, o."range",
                 o.threads, o.metric, bo.rank, o.config""").fetchall()
    assert len(held) > 1000 and held == from_rows


def test_ladder_lines_are_read_each_ladders_together_by_series_then_position():
    """queries/ladder_lines.sql reads the table in its stored order, not sorted: each ladder's rows
    are one run (site_rows slices them), by series, then position, as the charts draw them."""
    con = database(PROJECT / "data")
    rows = con.execute(query("ladder_lines")).fetchall()
    runs = [(ladder, [(r[4], r[1]) for r in group]) for ladder, group in groupby(rows, key=lambda r: r[0])]
    assert len(runs) > 20 and len({ladder for ladder, _ in runs}) == len(runs)
    assert all(keys == sorted(keys) for _, keys in runs)
    assert len(rows) == con.execute("SELECT count(*) FROM ladder_lines").fetchone()[0]
