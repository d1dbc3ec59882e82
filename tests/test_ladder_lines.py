"""The ladder charts' lines (ladder_lines) are made by the ladder search from its matrix of values
(derive/ladders.py _lines): the rows the SQL below made of the tables the search fills, until the
search made them itself, value for value, in the same order. The SQL is kept here as the oracle."""
from __future__ import annotations

import math
import random
import struct

import duckdb
import pyarrow as pa

import ladder_inputs
from papercuts.derive.ladders import build_ladders

# What derive ran after the search (sql/queries/ladder_lines_insert.sql until it was replaced).
ORACLE = f"""
WITH l AS (SELECT * FROM ladders),
v AS (
    SELECT l.campaign, l.server, l.ladder, lv.microbenchmark, lv."range", lv."group", lv.value, lb.position,
           lb.build, lb.config, lb.version
    FROM {ladder_inputs.WIDE} lv
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
VALUES = ladder_inputs.TABLES + """
CREATE TABLE builds AS SELECT 'b' || i AS id, [8, 0, i] AS version_key FROM range(9) t(i);
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


def bits(rows: list[tuple]) -> list[tuple]:
    """Rows with each float as its 8 bytes: NaN equals NaN, and -0.0 is not 0.0."""
    return [tuple(struct.pack("<d", x) if isinstance(x, float) else x for x in r) for r in rows]


def lines_and_oracle(extra: str = "", ladders: int | None = 6, con=None) -> tuple[list, list]:
    con = con or duckdb.connect()
    con.execute(VALUES + extra + ladder_inputs.SPLIT)
    built = build_ladders(con, 1)
    assert ladders is None or built == ladders
    return (bits(con.execute("SELECT * FROM ladder_lines ORDER BY rowid").fetchall()),
            bits(con.execute(ORACLE).fetchall()))


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


def test_values_at_the_ends_of_the_doubles_give_the_lines_sql_gave():
    """inf / inf is NaN, counted and sorted last as DuckDB sorts it; an even count's median is
    DuckDB's fma(lo, 0.5, hi * 0.5), not (lo + hi) / 2, where lo + hi overflows or a half is
    subnormal; exp of a drift past 709.78 is inf, not an error."""
    ends = """
    CREATE TABLE raw (m VARCHAR, grp VARCHAR, b INTEGER, value DOUBLE);
    INSERT INTO raw SELECT 'p' || m, 'point', b, 100 + m FROM range(3) t(m), range(4) u(b);
    INSERT INTO raw VALUES ('r1', 'range', 0, 'inf'), ('r1', 'range', 1, 5), ('r1', 'range', 2, 'inf'),
        ('w1', 'write', 0, 1e-300), ('w1', 'write', 1, 1e8), ('w2', 'write', 0, 1e-300), ('w2', 'write', 1, 1.7e8),
        ('w3', 'write', 0, 1e300), ('w3', 'write', 2, 5e-24), ('w4', 'write', 0, 1e300), ('w4', 'write', 2, 1e-23);
    CREATE TABLE huge (m VARCHAR, b INTEGER, value DOUBLE);  -- a drift of ln(1e310): exp overflows
    INSERT INTO huge SELECT 'h' || m, b, [1e-300, 1e-300, 1e10][b + 1] * (1 + m / 10) FROM range(3) t(m), range(3) u(b);
    DROP TABLE ladder_values;
    CREATE TABLE ladder_values AS
    SELECT 'c' AS campaign, 's' AS server, 'mysql' AS dbms, 'innodb' AS engine, 'f' AS family, 1 AS threads,
           'b' || b AS build, 'z1a_f' AS config, '8.0.' || b AS version, m AS microbenchmark,
           NULL::INTEGER AS "range", grp AS "group", value, 1 AS repetitions, NULL::DOUBLE AS log_var
    FROM (SELECT * FROM raw UNION ALL SELECT m, 'point', b, value FROM huge WHERE false) ORDER BY b, m;
    INSERT INTO ladder_values
    SELECT 'd', 's', 'mysql', 'innodb', 'f', 1, 'b' || b, 'z1a_f', '8.0.' || b, m, NULL, 'point', value, 1, NULL
    FROM huge ORDER BY b, m;
    """
    made, oracle = lines_and_oracle(ends, 2)
    assert made == oracle
    values = {(r[0], r[3], r[6]): struct.unpack("<d", r[7])[0] for r in made}
    assert math.isnan(values[("c", 0, "median: range")]) and values[("c", 1, "median: write")] == 1.35e308
    # ratios of one and two of the least subnormal: lo * 0.5 + hi * 0.5 rounds lo's half away
    assert values[("c", 2, "median: write")] == 1e-323 and values[("d", 2, "drift: all")] == math.inf


def test_random_ladders_have_the_lines_sql_makes_of_them():
    """SYNTHETIC, seeded: ladders of 3-6 builds and one or two configs, microbenchmarks with and
    without ranges in four groups, values missing at random (at the first build too), some cells
    with two or three values, values across 18 orders of magnitude, ties."""
    for seed in range(12):
        rng = random.Random(seed)
        rows = []
        # a microbenchmark's group is its own (the microbenchmarks table's), in every ladder
        group = {n: rng.choice(["point", "range", "write", "other"]) for n in ["a", "b", "cc", "d-x", "é", "Z", "q"]}
        for campaign in ("c0", "c.1"):
            for threads in rng.sample([1, 4, 16, 32], 2):
                names = rng.sample(["a", "b", "cc", "d-x", "é", "Z", "q"], rng.randint(2, 7))
                tests = [(n, r) for n in names for r in rng.sample([None, 10, 100], rng.randint(1, 2))]
                missing = rng.choice([0.0, 0.1, 0.3])
                for b in range(rng.randint(3, 6)):
                    for config in rng.sample(["z1a_f", "z1b_f"], rng.randint(1, 2)):
                        for name, rg in tests:
                            if rng.random() < missing:
                                continue
                            for _ in range(rng.choice([1] * 10 + [2, 3])):
                                value = rng.choice([1.0, 2.0]) if rng.random() < 0.2 else math.exp(rng.uniform(-20, 20))
                                rows.append((campaign, "s", "mysql", "innodb", "f", threads, f"b{b}", config,
                                             f"8.0.{b}", name, rg, group[name], value, 1, None))
        names = ["campaign", "server", "dbms", "engine", "family", "threads", "build", "config", "version",
                 "microbenchmark", "range", "group", "value", "repetitions", "log_var"]
        con = duckdb.connect()
        con.register("incoming", pa.table({k: [r[i] for r in rows] for i, k in enumerate(names)}))
        given = """
        DROP TABLE ladder_values;
        CREATE TABLE ladder_values AS
        SELECT i.* REPLACE ("range"::INTEGER AS "range", log_var::DOUBLE AS log_var),
               [8, 0, substr(build, 2)::INTEGER] AS version_key
        FROM incoming i
        ORDER BY campaign, server, dbms, engine, family, threads, version_key, config, microbenchmark, "range";
        """
        made, oracle = lines_and_oracle(given, None, con)
        assert made == oracle, seed


def test_the_shipped_sites_ladder_lines_are_those_sql_makes(site):
    con = duckdb.connect(str(site.db), read_only=True)
    made = con.execute("SELECT * FROM ladder_lines ORDER BY rowid").fetchall()
    assert len(made) > 1000 and bits(made) == bits(con.execute(ORACLE).fetchall())


def test_a_cells_values_are_read_in_one_order_whatever_order_duckdb_gives_them():
    """VALUES sorts by cell alone; ladders._ties_sorted orders a cell's several values (published
    ratios against two bases) by value, repetitions and log_var, nulls last, as DuckDB's ORDER BY of
    all six would, so that the noise's sum adds them in one order on any number of threads."""
    from papercuts.derive import ladders

    rows = [(1, 1, 100, 1.5, 3, 0.1), (1, 1, 100, 1.5, 3, None), (1, 1, 100, 0.5, 1, 0.2), (1, 1, 100, None, 2, 0.1),
            (1, 1, 100, 1.5, None, 0.3), (1, 2, None, 2.0, 1, None), (1, 2, None, 1.0, 1, None),
            (2, 1, 100, 1.0, 1, 0.0)]
    names = ["variant", "microbenchmark", "range", "value", "repetitions", "log_var"]
    con = duckdb.connect()
    con.execute('CREATE TABLE v (variant BIGINT, microbenchmark BIGINT, "range" BIGINT, value DOUBLE, '
                "repetitions BIGINT, log_var DOUBLE)")
    con.executemany("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)", rows)
    want = con.sql('SELECT * FROM v ORDER BY variant, microbenchmark, "range", value, repetitions, log_var').fetchall()
    for seed in range(5):  # each cell's rows together (VALUES' order), in any order within it
        rnd = random.Random(seed)
        given = sorted(rows, key=lambda r: (r[0], r[1], r[2] is None, r[2] or 0, rnd.random()))
        table = pa.table({n: [r[i] for r in given] for i, n in enumerate(names)},
                         schema=pa.schema([(n, pa.float64() if n in ("value", "log_var") else pa.int64())
                                           for n in names]))
        assert [tuple(r.values()) for r in ladders._ties_sorted(table).to_pylist()] == want
