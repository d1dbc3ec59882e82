"""Plausibility warnings: a second look at numbers that do not fit their peers, in linear-log time."""
from __future__ import annotations

import random
import statistics

from datadir import FILES, write_data
from papercuts.build import validate
from papercuts.contract import MAX_FILE_BYTES
from papercuts.paths import Paths
from papercuts.validate.plausibility import _median_without

RESULTS = "campaigns/2026-01-02-test/results.csv"


def warnings(data) -> list[tuple[int, str]]:
    _, problems = validate(Paths.make(data=data))
    assert problems.errors == []
    return [(p.line, p.message) for p in problems.items if p.severity == "warning"]


def test_a_100x_typo_in_a_two_build_campaign_is_flagged_with_its_numbers(tmp_path):
    rows = ("server,build,config,microbenchmark,range,threads,qps\n"
            "box,my8028,cfg,point-query,100,1,46120.70\n"
            "box,my8040,cfg,point-query,100,1,4612070\n")
    found = warnings(write_data(tmp_path / "data", {RESULTS: rows}))
    assert (3, "qps 4.61207e+06 is 100× the median 46120.7 of the 1 other result for this campaign, "
               "server, DBMS, microbenchmark and thread count") in found
    assert all(line in (2, 3) for line, _ in found)


def test_ordinary_differences_are_not_flagged(tmp_path):
    assert warnings(write_data(tmp_path / "data")) == []  # 0.25× to 1.0× within a group


def test_leave_one_out_median_matches_the_definition():
    rng = random.Random(7)
    for n in range(2, 12):
        values = sorted(rng.uniform(1, 100) for _ in range(n))
        for i in range(n):
            assert _median_without(values, i) == statistics.median(values[:i] + values[i + 1:])


def test_200000_rows_of_one_group_validate(tmp_path):
    # The documented limits (200,000 rows, 5 MB) with every row in one server/test/threads group:
    # quadratic per group before (still running after 20 minutes); it must simply finish.
    rows = "server,build,config,microbenchmark,threads,repetition,qps\n" + "".join(
        f"s,b,{'cd'[i % 2]},m,1,{i // 2 + 1},{1000 + i % 7}\n" for i in range(200_000))
    data = write_data(tmp_path / "data", {
        RESULTS: rows,
        "servers.csv": FILES["servers.csv"] + "s,,Test CPU,8,src\n",
        "builds.csv": FILES["builds.csv"] + "b,mysql,innodb,8.0.1,src\n",
        "configs.csv": FILES["configs.csv"] + "c,,src\nd,,src\n",
        "microbenchmarks.csv": FILES["microbenchmarks.csv"] + "m,point,queries/s,one group,src\n"})
    assert len(rows) <= MAX_FILE_BYTES
    _, problems = validate(Paths.make(data=data))
    assert problems.errors == []


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    # Spreadsheets save "CSV UTF-8" with a BOM; the header must still read as the header.
    rows = "\ufeff" + FILES[RESULTS]
    data = write_data(tmp_path / "data", {RESULTS: rows.encode("utf-8")})
    _, problems = validate(Paths.make(data=data))
    assert problems.items == []
