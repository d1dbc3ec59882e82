"""The ladder charts' lines (ladder_lines) are made by the ladder search from its matrix of values
(derive/ladders.py _lines): the rows the SQL below made of the tables the search fills, until the
search made them itself, value for value, in the same order. The SQL is kept here as the oracle."""
from __future__ import annotations

import duckdb

from papercuts.derive.ladders import build_ladders

# What derive ran after the search (sql/queries/ladder_lines_insert.sql until it was replaced).
ORACLE = """
WITH l AS (SELECT * FROM ladders),
v AS (
    SELECT l.campaign, l.server, l.ladder, lv.microbenchmark, lv."range", lv."group", lv.value, lb.position,
           lb.build, lb.config, lb.version
    FROM ladder_values lv
    JOIN l ON l.campaign = lv.campaign AND l.server = lv.server AND l.dbms = lv.dbms
          AND l.engine = lv.engine AND l.family = lv.family AND l.threads = lv.threads
    JOIN ladder_builds lb ON lb.ladder = l.ladder AND lb.build = lv.build AND lb.config = lv.config
), rel AS (
    SELECT v.*, v.value / f.value AS rqps
    FROM v JOIN v f ON f.ladder = v.ladder AND f.position = 0 AND f.microbenchmark = v.microbenchmark
                   AND f."range" IS NOT DISTINCT FROM v."range"
), lines AS (
    SELECT campaign, server, ladder, position, build || '.' || config AS variant, version,
           'median: ' || "group" AS series, median(rqps) AS rqps, count(*) AS n
    FROM rel GROUP BY ALL
    UNION ALL
    SELECT l.campaign, l.server, lb.ladder, lb.position, lb.build || '.' || lb.config, lb.version, 'drift: all',
           exp(lb.drift), l.series
    FROM ladder_builds lb JOIN l ON l.ladder = lb.ladder
)
SELECT * FROM lines ORDER BY campaign, ladder, series, position
"""

# SYNTHETIC: 3 campaigns x 2 thread counts (4 and 16: their ladder ids sort the other way) x 9
# builds x 23 microbenchmarks (one without a range) in 3 groups, values spread over 4 orders of
# magnitude so that a mean of two differs from other ways of taking it; stored in ladder order
# (sql/models/03_ladder_values.sql). The WHERE drops some values: a microbenchmark missing at the
# first build, others at some builds, a campaign's half at the first build.
VALUES = """
CREATE TABLE builds AS SELECT 'b' || i AS id, [8, 0, i] AS version_key FROM range(9) t(i);
CREATE TABLE known (id VARCHAR, dbms VARCHAR, introduced_key INTEGER[], servers VARCHAR[],
                    microbenchmarks VARCHAR[], "groups" VARCHAR[]);
CREATE TABLE ladder_values AS
SELECT 'c' || c AS campaign, 's' AS server, 'mysql' AS dbms, 'innodb' AS engine, 'c8r32' AS family,
       th AS threads, 'b' || b AS build, 'z1a_c8r32' AS config, '8.0.' || b AS version,
       'test-' || m AS microbenchmark, CASE WHEN m = 0 THEN NULL ELSE 100 END AS "range",
       ['point', 'range', 'write'][m % 3 + 1] AS "group",
       exp(9 * ((hash(c, th, b, m) % 1001)::DOUBLE / 1000) - 4) AS value, 1 AS repetitions, NULL::DOUBLE AS log_var
FROM range(3) a(c), (VALUES (4), (16)) t(th), range(9) v(b), range(23) w(m)
WHERE NOT (m = 5 AND b = 0) AND NOT (m % 7 = 3 AND b % 4 = 2) AND NOT (c = 2 AND m > 10 AND b = 0)
ORDER BY campaign, server, dbms, engine, family, threads, b, config, microbenchmark, "range";
"""


def lines_and_oracle(extra: str = "") -> tuple[list, list]:
    con = duckdb.connect()
    con.execute(VALUES + extra)
    assert build_ladders(con, 1) == 6
    return (con.execute("SELECT * FROM ladder_lines ORDER BY rowid").fetchall(),
            con.execute(ORACLE).fetchall())


def test_a_ladders_lines_are_those_sql_made_of_its_values():
    made, oracle = lines_and_oracle()
    assert len(made) > 6 * 9 * 4 - 20 and made == oracle
    assert {r[6] for r in made} == {"drift: all", "median: point", "median: range", "median: write"}
    assert any(r[8] % 2 == 0 for r in made) and any(r[8] % 2 == 1 for r in made)  # medians of both kinds


def test_a_ladder_with_two_values_in_a_cell_has_the_lines_a_join_of_its_rows_gives():
    """Published ratios against two bases give a build two values of one microbenchmark: each
    counts, against each value at the first build (two there too), as the SQL's join counted."""
    twice = """
    CREATE TABLE twice AS
    SELECT * REPLACE (value * 1.37 AS value) FROM ladder_values
    WHERE campaign = 'c1' AND threads = 16 AND microbenchmark IN ('test-1', 'test-4', 'test-9')
      AND build IN ('b0', 'b3');
    CREATE TABLE all_values AS
    SELECT * FROM (SELECT *, 0 AS copy FROM ladder_values UNION ALL SELECT *, 1 FROM twice)
    ORDER BY campaign, server, dbms, engine, family, threads, build, config, microbenchmark, "range", copy;
    DROP TABLE ladder_values;
    CREATE TABLE ladder_values AS SELECT * EXCLUDE (copy) FROM all_values;
    """
    made, oracle = lines_and_oracle(twice)
    assert made == oracle
    point = [r for r in made if r[2].startswith("c1.") and r[2].endswith(".16") and r[6] == "median: range"]
    alone = [r for r in lines_and_oracle()[0] if r[2] == point[0][2] and r[6] == "median: range"]
    # test-1 and test-4 are range tests: at b3 each one's two values against its two at b0 are four
    # ratios, not one; at b1 (one value) two
    assert [r[8] for r in point if r[3] == 3] == [r[8] + 6 for r in alone if r[3] == 3]
    assert [r[8] for r in point if r[3] == 1] == [r[8] + 2 for r in alone if r[3] == 1]


def test_the_shipped_sites_ladder_lines_are_those_sql_makes(site):
    con = duckdb.connect(str(site.db), read_only=True)
    made = con.execute("SELECT * FROM ladder_lines ORDER BY rowid").fetchall()
    assert len(made) > 1000 and made == con.execute(ORACLE).fetchall()
