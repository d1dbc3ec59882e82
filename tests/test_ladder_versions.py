"""A version ladder has one build per version (derive/ladders.py one_per_version): a campaign that
measured several builds or configs of one version compared them; in a row, their differences were
steps 'from 8.0.40 to 8.0.40' and the ladder's noise."""
from __future__ import annotations

import duckdb

import ladder_inputs
from papercuts.derive.ladders import build_ladders, one_per_version


def test_the_build_most_like_the_ladders_other_versions_is_kept():
    busy_wait = [("my8028_rel_o2nofp", "z11a_c32r128", "8.0.28"), ("my8040_rel", "z11a_c32r128", "8.0.40"),
                 ("my8040_rel_o2nofp", "z11a_c32r128", "8.0.40"),
                 ("my8040_rel_o2nofp_norndfast", "z11a_c32r128", "8.0.40"),
                 ("my8040_rel_o2nofp_oldrnd", "z11a_c32r128", "8.0.40"),
                 ("my8041_rel_o2nofp", "z11a_c32r128", "8.0.41")]
    assert one_per_version(busy_wait) == [0, 2, 5]  # the -O2 build of 8.0.40, as 8.0.28's and 8.0.41's
    io_method = [(f"pg{v}_o2nofp", "x10a_c32r128", v) for v in ("1222", "176")] + \
                [("pg180_o2nofp", f"x10{c}_c32r128", "18.0") for c in "bcd"]
    assert one_per_version(io_method) == [0, 1, 2]  # no config of 18.0 is the others': the first
    rerun = [("my8044_rel_o2nofp", "z12a", "8.0.44"), ("my8406_rel_o2nofp", "z12a", "8.4.6"),
             ("my8406v2_rel_o2nofp", "z12a", "8.4.6"), ("my8407_rel_o2nofp", "z12a", "8.4.7")]
    assert one_per_version(rerun) == [0, 1, 3]
    config = [("my8044_rel", "z12b_a", "8.0.44"), ("my8406_rel", "z12a_a", "8.4.6"),
              ("my8406_rel", "z12b_a", "8.4.6"), ("my8407_rel", "z12b_a", "8.4.7")]
    assert one_per_version(config) == [0, 2, 3]  # same flavour: then the config the others have
    assert one_per_version(busy_wait[:1] + rerun) == [0, 1, 2, 4]


# SYNTHETIC: one campaign, 6 versions of one build flavour x 12 microbenchmarks with 1 % noise,
# and at 8.0.45 two more builds, one 30 % slower and one 30 % faster on every microbenchmark.
VALUES = ladder_inputs.TABLES + """
CREATE TABLE builds AS SELECT 'b' || i AS id, [8, 0, 40 + i] AS version_key FROM range(6) t(i);
CREATE TABLE v AS
SELECT 'my80' || (40 + b) || '_rel' AS build, '8.0.' || (40 + b) AS version, b AS rank, 1.0 AS factor
FROM range(6) t(b)
UNION ALL SELECT 'my8045_rel_patched', '8.0.45', 5, 0.7
UNION ALL SELECT 'my8045_rel_slowrnd', '8.0.45', 5, 1.3;
CREATE TABLE ladder_values AS
SELECT 'c' AS campaign, 's' AS server, 'mysql' AS dbms, 'innodb' AS engine, 'c8r32' AS family, 1 AS threads,
       build, 'z1a_c8r32' AS config, version, 'test-' || m AS microbenchmark, 100 AS "range",
       ['point', 'range', 'write'][m % 3 + 1] AS "group",
       1000 * factor * (1 + 0.01 * ((hash(build, m) % 201)::DOUBLE / 100 - 1)) AS value, 1 AS repetitions,
       NULL::DOUBLE AS log_var
FROM v, range(12) w(m)
ORDER BY rank, build, microbenchmark;
""" + ladder_inputs.SPLIT


def test_a_ladder_keeps_one_build_a_version_and_lists_the_others():
    con = duckdb.connect()
    con.execute(VALUES)
    assert build_ladders(con, 1) == 1
    builds = con.execute("SELECT build, version FROM ladder_builds ORDER BY position").fetchall()
    assert builds == [(f"my80{40 + b}_rel", f"8.0.{40 + b}") for b in range(6)]
    assert con.execute("SELECT build, version, kept_build FROM ladder_left_out ORDER BY rowid").fetchall() == [
        ("my8045_rel_patched", "8.0.45", "my8045_rel"), ("my8045_rel_slowrnd", "8.0.45", "my8045_rel")]
    # the 30 % between builds of 8.0.45 is no change point: the ladder's builds differ by noise alone
    assert con.execute("SELECT count(*) FROM change_points").fetchone()[0] == 0
    assert con.execute("SELECT max(position) FROM ladder_lines").fetchone()[0] == 5


def test_builds_a_campaign_names_comparison_only_are_off_its_ladder_whatever_the_rule_keeps():
    """campaign.toml's comparison_only: my8045_rel itself is named (say, a rebuild the campaign compares), so
    8.0.45 is the patched build, which the rule alone never keeps; my8043_rel.z1a_c8r32 names a variant, so
    8.0.43 leaves the ladder; both are listed with their reason, the other build of 8.0.45 as before."""
    con = duckdb.connect()
    con.execute(VALUES)
    con.execute("INSERT INTO campaigns VALUES ('c', ['my8045_rel', 'my8043_rel.z1a_c8r32']), ('other', ['my8041_rel'])")
    assert build_ladders(con, 1) == 1
    assert con.execute("SELECT build FROM ladder_builds ORDER BY position").fetchall() == [
        ("my8040_rel",), ("my8041_rel",), ("my8042_rel",), ("my8044_rel",), ("my8045_rel_patched",)]
    assert con.execute("SELECT build, reason, kept_build FROM ladder_left_out ORDER BY rowid").fetchall() == [
        ("my8043_rel", "campaign", None), ("my8045_rel", "campaign", None),
        ("my8045_rel_slowrnd", "version", "my8045_rel_patched")]
    # the patched build is 30 % below 8.0.44 on every microbenchmark: now the ladder's step (of its shared
    # drift and of each group's median, which explain every series' own)
    steps = con.execute("SELECT series, round(change, 2) FROM change_points WHERE before_version = '8.0.44' "
                        "AND after_version = '8.0.45' ORDER BY series").fetchall()
    assert steps == [("drift: all", -0.3), ("median: point", -0.3), ("median: range", -0.3), ("median: write", -0.3)]
