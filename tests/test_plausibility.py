"""Plausibility warnings: a second look at numbers that do not fit their peers, in linear-log time."""
from __future__ import annotations

import pickle
import random
import statistics

from datadir import FILES, write_data
from papercuts.build import validate
from papercuts.contract import MAX_FILE_BYTES
from papercuts.paths import Paths
from papercuts.problems import Problems
from papercuts.validate.load import Dataset
from papercuts.validate.plausibility import check_qps_magnitude

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


def test_every_row_10x_from_the_median_of_its_peers_is_flagged_in_campaign_group_then_qps_order():
    """Against the definition, row by row: the median of the other rows of its group. Each campaign
    is checked alone (campaigns in the order of their first row)."""
    rnd = random.Random(7)
    rows = []
    for line in range(2, 602):
        group = rnd.randrange(150)  # groups of 1 to about 10 rows: each median depends on who is left out
        qps = rnd.choice([100.0, 100.0, 150.0, rnd.uniform(1, 20), rnd.uniform(50, 200), rnd.uniform(900, 3000)])
        rows.append({"campaign": f"c{group % 3}", "server": "s", "build": f"b{group % 2}", "config": "c",
                     "microbenchmark": "m", "_published": "data/r.csv",
                     "range": group, "threads": 1, "qps": qps, "_file": "r.csv", "_line": line, "_cols": {"qps": 9}})
    ds = Dataset()
    ds.rows["builds"] = [{"id": "b0", "dbms": "mysql"}, {"id": "b1", "dbms": "mysql"}]
    ds.rows["results"] += rows
    problems = Problems()
    check_qps_magnitude(ds, problems)
    expected = []
    groups = {}
    for r in rows:
        groups.setdefault(r["campaign"], {}).setdefault(r["range"], []).append(r)
    for peers in (peers for campaign in groups.values() for peers in campaign.values()):
        peers = sorted(peers, key=lambda r: r["qps"])
        for r in peers:
            others = [o["qps"] for o in peers if o is not r]
            median = statistics.median(others) if others else None
            if others and (r["qps"] > 10 * median or r["qps"] < median / 10):
                expected.append((r["_line"], f"qps {r['qps']:g} is {r['qps'] / median:.3g}× the median {median:g}"))
    got = [(p.line, p.message.split(" of the ")[0]) for p in problems.items]
    assert all(" of the " in p.message for p in problems.items)
    assert len(expected) > 50 and got == expected
    # each one is a row of flagged_results too, which the site marks its changes by
    assert [(f[-1], f"qps {f[7]:g} is {f[7] / f[8]:.3g}× the median {f[8]:g} of the {f[9]} other")
            for f in ds.flagged] == [(p.line, p.message[:p.message.index(" other") + 6]) for p in problems.items]
    assert all(f[2] == f"b{f[5] % 2}" and f[-2] == "data/r.csv" for f in ds.flagged)


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


def test_a_campaign_checked_by_the_last_build_is_not_checked_again_unless_it_or_its_builds_changed(tmp_path):
    """Its warnings come back from the build folder while its folder and its builds' DBMS are the
    same (a planted warning there shows they are reused); a DBMS changed in builds.csv, or the
    campaign's own file, checks it again."""
    rows = ("server,build,config,microbenchmark,range,threads,qps\n"
            "box,my8028,cfg,point-query,100,1,46120.70\n"
            "box,my8040,cfg,point-query,100,1,4612070\n")
    data = write_data(tmp_path / "data", {RESULTS: rows})
    cache = tmp_path / "cache"

    def qps_warnings() -> list[tuple[int, str]]:
        _, problems = validate(Paths.make(data=data), cache)
        return [(p.line, p.message.split(" is ")[0]) for p in problems.items if p.message.startswith("qps")]

    both = [(2, "qps 46120.7"), (3, "qps 4.61207e+06")]  # each 100× from the other
    assert qps_warnings() == both
    memo = cache / "checked" / "qps-magnitude.pickle"
    saved = pickle.loads(memo.read_bytes())
    memo.write_bytes(pickle.dumps({c: (key, [((*args[:3], "qps planted is here", args[4]), flagged)
                                             for args, flagged in found])
                                   for c, (key, found) in saved.items()}))
    assert qps_warnings() == [(2, "qps planted"), (3, "qps planted")]  # unchanged: the last check's warnings
    builds = data / "builds.csv"
    builds.write_text(builds.read_text().replace("my8040,mysql", "my8040,postgres"))
    assert qps_warnings() == []  # two DBMS: no peers to compare with, checked again
    builds.write_text(builds.read_text().replace("my8040,postgres", "my8040,mysql"))
    assert qps_warnings() == both
    memo.write_bytes(pickle.dumps({c: (key, []) for c, (key, _) in pickle.loads(memo.read_bytes()).items()}))
    (data / RESULTS).write_text(rows.replace("4612070", "4612071"))
    assert qps_warnings() == both  # checked again, not the emptied memo's
    for torn in (b"not a pickle", pickle.dumps(["a list"]), pickle.dumps({"2026-01-02-test": 5}),
                 pickle.dumps({"2026-01-02-test": ()})):
        memo.write_bytes(torn)  # a torn or foreign memo is not believed: the campaign is checked again
        assert qps_warnings() == both
