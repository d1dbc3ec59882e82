"""Change points along version ladders: known answers on planted series, and the real nov25 ladder."""
from __future__ import annotations

import math
import random
import statistics

from papercuts.derive.changepoints import detect, segment
from papercuts.paths import PROJECT
from papercuts.synthetic_ladders import ladder

NOV25 = PROJECT / "data" / "campaigns" / "2025-11-28-pn53-mysql-5-6-to-9-5" / "raw"


def flat_ladder(rng: random.Random, builds: int, n: int = 30, noise: float = 0.02) -> dict[str, list[float]]:
    return {f"s{i}": [1000 * math.exp(rng.gauss(0, noise)) for _ in range(builds)] for i in range(n)}


def test_a_planted_step_is_found_between_the_right_builds_with_its_sign_and_size():
    rng = random.Random(7)
    series = flat_ladder(rng, 10)
    series["s3"] = [v * (0.8 if b >= 6 else 1.0) for b, v in enumerate(series["s3"])]  # -20 % at build 6
    groups = {name: ("point", "range", "write")[i % 3] for i, name in enumerate(series)}
    changes, sigma, _ = detect(series, groups)
    own = [c for c in changes if c.series == "s3"]
    assert [(c.index, c.change < 0) for c in own] == [(6, True)]
    assert own[0].change == pytest_approx(-0.2, 0.03) and own[0].pvalue < 0.002
    assert 0.01 < sigma < 0.03  # the 2 % noise, estimated from the data
    assert [c for c in changes if c.series not in ("s3",)] == []  # nothing else, not the medians


def pytest_approx(value: float, tol: float):
    import pytest
    return pytest.approx(value, abs=tol)


def test_noise_alone_gives_no_change_points():
    rng = random.Random(3)
    found = sum(len(detect(flat_ladder(rng, 8), {})[0]) for _ in range(20))
    assert found <= 6  # 600 flat series: at most 1 false alarm per 100


def test_a_step_every_series_shares_is_drift_not_thirty_regressions():
    rng = random.Random(5)
    series = {name: [v * (0.85 if b >= 4 else 1.0) for b, v in enumerate(xs)]
              for name, xs in flat_ladder(rng, 8).items()}
    groups = {name: "point" for name in series}
    changes, _, drift = detect(series, groups)
    assert {c.series for c in changes} == {"drift: all", "median: point"}
    assert all(c.index == 4 and c.change < -0.1 for c in changes)
    assert drift[4] - drift[3] == pytest_approx(math.log(0.85), 0.02)


def test_segmentation_finds_two_steps_in_one_series():
    values = [0.0] * 5 + [0.3] * 5 + [0.1] * 5
    assert [k for k, _, _ in segment(values, 0.02)] == [5, 10]


def test_synthetic_ladders_are_labelled_and_carry_their_steps():
    lad = ladder(random.Random(1), 8, 0.10, 3)
    assert all(name.startswith("synthetic-") for name in lad.series) and lad.steps and lad.spread


def test_the_real_nov25_ladder_finds_the_5_7_to_8_0_step_on_the_drift(site):
    """Seed 002: most of the loss from 5.6 to 8.0 is many small regressions arriving at 5.7 and
    8.0 in every microbenchmark, which is what the shared drift and the group medians show."""
    import duckdb

    con = duckdb.connect(str(site.db), read_only=True)
    rows = con.execute("SELECT series, before_version, after_version, change FROM change_points "
                       "WHERE campaign = '2025-11-28-pn53-mysql-5-6-to-9-5' AND kind = 'drift'").fetchall()
    steps = {(b, a): c for _, b, a, c in rows}
    # The same step from the archive itself: the median over microbenchmarks of 8.0.43 / 5.7.44.
    tsv = (NOV25 / "qps.abs.all.tsv").read_text()
    names = [line.split(" : ")[1].split(".")[1] for line in tsv.splitlines() if " : " in line]
    lines = [line.split(",") for line in (NOV25 / "qps.abs.all.csv").read_text().splitlines() if line]
    i57, i80 = names.index("my5744_rel_o2nofp") + 1, names.index("my8043_rel_o2nofp") + 1
    ratio = statistics.median(float(r[i80]) / float(r[i57]) for r in lines if float(r[i57]) > 0)
    assert ratio < 0.9
    assert steps[("5.7.44", "8.0.43")] == pytest_approx(ratio - 1, 0.05)
    assert steps[("5.6.51", "5.7.44")] < -0.05


def test_many_series_stepping_at_one_build_do_not_step_the_flat_ones():
    """When 12 of 30 microbenchmarks step by 10 % at one build (a real regression often hits a
    group), their steps pull the shared drift's medians; the drift is estimated again without them,
    so the 18 flat series are not given the mirror step. SYNTHETIC, seeded: 40 ladders of 8 builds,
    1 % noise. Before the second estimate, 52 false changes in the 720 flat series; now 15."""
    rng = random.Random(1)
    false = hits = 0
    for _ in range(40):
        series = {f"s{i}": [1000 * math.exp(rng.gauss(0, 0.01) + (0.10 if i < 12 and b >= 4 else 0.0))
                            for b in range(8)] for i in range(30)}
        changes, _, _ = detect(series, {name: "point" for name in series})
        for c in changes:
            if c.series.startswith("s"):
                stepped = int(c.series[1:]) < 12
                hits += stepped and c.index == 4
                false += not stepped
    assert hits == 40 * 12
    assert false <= 25


def test_the_median_polish_is_tukeys_with_statistics_median_bit_for_bit():
    """The drift is a median polish (series level + build effect), not a mean: one series' own step
    must not move it. The numpy polish is checked against the textbook loop, bit for bit."""
    import numpy as np

    from papercuts.derive.changepoints import median_polish

    def reference(rows, rounds=6):
        level = [statistics.median(xs) for xs in rows]
        drift = [0.0] * len(rows[0])
        for _ in range(rounds):
            drift = [statistics.median(xs[b] - v for xs, v in zip(rows, level, strict=True))
                     for b in range(len(drift))]
            level = [statistics.median(x - d for x, d in zip(xs, drift, strict=True)) for xs in rows]
        return [d - drift[0] for d in drift], [v + drift[0] for v in level]

    rng = random.Random(7)
    for count, builds in ((1, 2), (2, 3), (3, 8), (30, 8), (31, 101)):
        rows = [[rng.choice((0.1, -0.25, 1e-9, rng.gauss(0, 1))) for _ in range(builds)] for _ in range(count)]
        drift, level = median_polish(np.array(rows))
        assert (drift.tolist(), level.tolist()) == reference(rows)
    # One series stepping by 50 % leaves the drift of 30 flat ones at zero.
    rows = [[0.0] * 8 for _ in range(30)]
    rows[0] = [0.0] * 4 + [0.5] * 4
    assert median_polish(np.array(rows))[0].tolist() == [0.0] * 8


def test_the_detection_bound_matches_the_two_build_case_worked_by_hand():
    """On two builds there is one split: z ~ N(d / sqrt 2, 1) and the threshold is the 99th
    percentile of |N(0, 1)|, so the recall is P(|z| > 2.576) exactly."""
    from statistics import NormalDist

    from papercuts.detection_bound import bound

    nd = NormalDist()
    mu = math.log1p(0.05) / (0.02 / math.sqrt(3)) / math.sqrt(2)
    t = nd.inv_cdf(0.995)
    exact = (1 - nd.cdf(t - mu)) + nd.cdf(-t - mu)
    scan, oracle = bound(2, 3, 0.05, draws=200_000)
    assert scan == pytest_approx(exact, 0.01) and oracle == pytest_approx(exact, 0.01)


def test_the_five_percent_goal_on_eight_builds_is_above_what_any_method_reaches():
    """Issue 12 asks 0.95 for 5 % steps on 8 builds of 3 runs at 1 false alarm per 100 series:
    even knowing the step's size, the best rule finds about 0.91 between the right builds."""
    from papercuts.detection_bound import bound

    scan, oracle = bound(8, 3, 0.05, draws=50_000)
    assert 0.85 < scan <= oracle + 0.01 and oracle < 0.93


def test_a_large_step_is_placed_to_its_pair_and_a_small_one_gets_a_span_that_holds_it():
    """A change's span is the builds it lies between with probability 0.9: one pair for a step far
    above the noise; for a 3 % step in 100 builds of 2 % noise (one run), most often several builds
    around the place found, holding the true step at least 90 % of the time (far more often than
    the place itself is right) but not always, as spans far too wide would."""
    rng = random.Random(11)
    series = flat_ladder(rng, 12)
    series["s0"] = [v * (1.3 if b >= 5 else 1.0) for b, v in enumerate(series["s0"])]
    big = [c for c in detect(series, {})[0] if c.series == "s0"]
    assert [(c.index, c.first, c.last) for c in big] == [(5, 5, 5)]
    exact = held = wide = found = width = 0
    for _ in range(40):
        lad = ladder(rng, 100, 0.03, 1)
        for c in detect(lad.series, lad.groups, lad.spread)[0]:
            true = lad.steps.get(c.series)
            if true is None or abs(c.index - true) > 3:
                continue
            found += 1
            exact += c.index == true
            held += c.first <= true <= c.last
            wide += c.last > c.first
            width += c.last - c.first + 1
            assert c.first <= c.index <= c.last
    assert found >= 20 and 0.9 * found <= held < found and held > exact and wide >= found / 3
    assert width / found < 10  # pairs of builds: a few, not the ladder


def test_a_span_weighs_each_split_by_its_likelihood_as_worked_by_hand():
    """Segment 0, 0.1, 1, 1.1 with noise 0.5: z at the splits 1, 2, 3 is 1.27, 2.00, 1.27, their
    standard errors (in noise units) 1.155, 1, 1.155, so the weights se exp(z^2 / 2) give the middle
    split 0.588 of the likelihood and each other 0.206: 0.5 holds the middle alone, 0.6 needs a
    second split (the first, on a tie), 0.9 all three. Inside a longer series, the same splits
    shifted by the segment's start."""
    import numpy as np

    from papercuts.derive.changepoints import spans

    def span(values, sigma, lo, hi, index, level):  # one change of one series
        first, last = spans(values[None, :], np.array([sigma]), *(np.array([x]) for x in (0, lo, hi, index)), level)
        return int(first[0]), int(last[0])

    seg = np.array([0.0, 0.1, 1.0, 1.1])
    assert [span(seg, 0.5, 0, 4, 2, level) for level in (0.5, 0.6, 0.9)] == [(2, 2), (1, 2), (1, 3)]
    longer = np.array([5.0, 5.0, *seg, 7.0])
    assert span(longer, 0.5, 2, 6, 4, 0.6) == (3, 4)


def test_ladder_variants_are_stored_in_ladder_order_and_series_numbered_as_sql_ranks_them(site):
    """derive/ladders.py reads ladder_variants by rowid, the values by variant, and numbers each
    ladder's series itself: the variants must be stored ladder by ladder, builds by version
    (sql/models/03_ladder_variants.sql), and the numbering must be SQL's dense rank of
    (microbenchmark, range) in each ladder."""
    import duckdb
    import numpy as np

    from papercuts.derive.ladders import KEY, VALUES, Inputs, _places, _series_keys

    con = duckdb.connect(str(site.db), read_only=True)
    ladder = ", ".join(f"w.{k}" for k in KEY)
    stored = con.execute(f"SELECT w.rowid FROM ladder_variants w JOIN builds b ON b.id = w.build "
                         f"ORDER BY {ladder}, b.version_key, w.build, w.config").fetchall()
    assert [r for (r,) in stored] == list(range(len(stored))) and len(stored) > 100
    inputs = Inputs.read(con, ())
    want = con.execute(f"""
        SELECT dense_rank() OVER (PARTITION BY {ladder} ORDER BY m.name, v."range") - 1
        FROM ({VALUES.replace("$kept::VARCHAR[]", "[]::VARCHAR[]")}) v
        JOIN ladder_variants w ON w.rowid = v.variant
        JOIN (SELECT name, row_number() OVER (ORDER BY name) AS number FROM microbenchmarks) m
          ON m.number = v.microbenchmark
        ORDER BY v.variant, v.microbenchmark, v."range", v.value, v.repetitions, v.log_var""").fetchnumpy()
    want = next(iter(want.values()))
    keys = _series_keys(inputs.values)
    _, _, _, bounds = _places(inputs.values, inputs.variants)
    assert bounds[-1] == len(keys) > 1000
    for s, e in zip(bounds[:-1], bounds[1:], strict=True):
        assert np.unique(keys[s:e], return_inverse=True)[1].tolist() == want[s:e].tolist()


def test_a_step_is_sized_between_its_builds_not_with_an_earlier_shared_step():
    # Every series loses 20 % at build 2 (drift); s3 then loses 4 % more at build 6. Measured on
    # its segment means, s3's change took builds 0-1's speed in: about -10 %.
    rng = random.Random(11)
    series = {name: [v * (0.8 if b >= 2 else 1.0) * (0.96 if name == "s3" and b >= 6 else 1.0)
                     for b, v in enumerate(xs)] for name, xs in flat_ladder(rng, 10, noise=0.005).items()}
    changes, _, _ = detect(series, {name: "point" for name in series})
    own = [c for c in changes if c.series == "s3"]
    assert [c.index for c in own] == [6]
    assert own[0].change == pytest_approx(-0.04, 0.01)
    assert [c.change for c in changes if c.series == "drift: all"] == [pytest_approx(-0.2, 0.01)]
