"""Icicle layout and its differential view, on stacks whose shapes are worked out by hand, and
their specs: valid against the pinned Vega-Lite schema, frame names only ever data."""
from __future__ import annotations

import itertools
import json
import random

import jsonschema
import pytest

from papercuts.parsers import folded
from papercuts.paths import PROJECT, Paths
from papercuts.publish import vendor
from papercuts.render import flame, profile_specs

STACKS = [(("a", "b"), 3.0), (("a", "c"), 1.0), (("d",), 4.0)]
# The last two break Vega-Lite 6.5 where it copies strings into expressions (see profile_specs).
HOSTILE = ["<img src=x onerror=alert(1)>", '"}]}', "datum.x || alert(1)", "</script>",
           '\\"]+alert(1)+["', "line\u2028break"]


def brief(rows):
    return [(r["frame"], r["depth"], r["x0"], r["x1"], r["self_share"]) for r in rows]


def test_layout_by_hand():
    # all = 8: a has 4 (b 3, c 1) on the left, d 4 on the right; children by name
    assert brief(flame.icicle(STACKS, width_px=0)) == [
        ("all", 0, 0.0, 1.0, 0.0),
        ("a", 1, 0.0, 0.5, 0.0), ("b", 2, 0.0, 0.375, 0.375), ("c", 2, 0.375, 0.5, 0.125),
        ("d", 1, 0.5, 1.0, 0.5),
    ]
    rows = flame.icicle(STACKS)
    assert [r["path"] for r in rows] == ["", "a", "a;b", "a;c", "d"]
    assert [r["parent"] for r in rows] == [None, 0, 1, 1, 0]


def test_narrow_frames_merge_into_other_and_deep_ones_into_deeper():
    stacks = [(("a", "x"), 98.0), (("a", "y"), 1.0), (("a", "z"), 1.0)]
    rows = flame.icicle(stacks, min_share=0.05)
    assert brief(rows)[2:] == [("x", 2, 0.0, 0.98, 0.98), ("(other)", 2, 0.98, 1.0, 0.02)]
    deep = flame.icicle([(tuple("abcdef"), 1.0)], max_depth=3)
    assert [r["frame"] for r in deep] == ["all", "a", "b", "c", "(deeper)"]
    assert deep[-1]["self_share"] == 1.0  # the weight below is kept, not dropped


def test_layout_is_deterministic_and_independent_of_input_order():
    shuffled = STACKS[:]
    random.Random(7).shuffle(shuffled)
    assert flame.icicle(shuffled) == flame.icicle(STACKS) == flame.icicle(list(STACKS))


def test_differential_by_hand():
    base = [(("a", "b"), 1.0), (("d",), 3.0)]  # a 0.25 (b 0.25), d 0.75
    rows = {r["path"]: r for r in flame.differential(base, STACKS)}
    assert (rows["a"]["base_share"], rows["a"]["delta"]) == (0.25, 0.25)
    assert (rows["a;b"]["base_share"], rows["a;b"]["delta"]) == (0.25, 0.125)
    assert (rows["a;c"]["base_share"], rows["a;c"]["delta"]) == (0.0, 0.125)  # new in the target
    assert (rows["d"]["base_share"], rows["d"]["delta"]) == (0.75, -0.25)


def test_other_compares_with_the_base_share_of_the_siblings_it_merges():
    target = [(("a", "x"), 98.0), (("a", "y"), 1.0), (("a", "z"), 1.0)]
    base = [(("a", "x"), 90.0), (("a", "y"), 6.0), (("a", "z"), 4.0)]
    other = next(r for r in flame.differential(base, target, min_share=0.05) if r["frame"] == "(other)")
    assert (other["total_share"], other["base_share"], other["delta"]) == (0.02, 0.1, -0.08)


def test_sums_do_not_depend_on_input_order_even_at_a_min_share_boundary():
    # 0.61 + 0.91 and 0.91 + 0.61 differ in the last bit: summed in input order, a's width fell on
    # either side of a min_share set to exactly its share, and "a;x0", "a;x1" were drawn or not.
    stacks = [(("a", "x0"), 0.61), (("a", "x1"), 0.91), (("b",), 427.62)]
    share = (0.61 + 0.91) / (0.61 + 0.91 + 427.62)
    layouts = {json.dumps(flame.icicle(list(p), min_share=share)) for p in itertools.permutations(stacks)}
    assert len(layouts) == 1


def test_differential_matches_frames_not_joined_paths():
    # one frame named "a;b" in the base is not the frames a, b of the target
    rows = flame.differential([(("a;b",), 1.0)], [(("a", "b"), 1.0)])
    assert [(r["frame"], r["base_share"], r["delta"]) for r in rows] == [
        ("all", 1.0, 0.0), ("a", 0.0, 1.0), ("b", 0.0, 1.0)]


def test_differential_against_itself_and_against_nothing():
    assert {r["delta"] for r in flame.differential(STACKS, STACKS)} == {0.0}
    rows = flame.differential([], STACKS)
    assert {r["base_share"] for r in rows} == {0.0} and [r["delta"] for r in rows] == [r["total_share"] for r in rows]


def test_vanished_lists_the_topmost_frame_of_each_path_the_target_never_sampled():
    base = [(("a", "b"), 3.0), (("a", "c"), 1.0), (("d", "e", "f"), 4.0)]
    target = [(("a", "b"), 5.0), (("d",), 1.0)]
    assert flame.vanished(base, target) == [
        {"frame": "e", "path": "d;e", "depth": 2, "base_share": 0.5, "base_self_share": 0.0},
        {"frame": "c", "path": "a;c", "depth": 2, "base_share": 0.125, "base_self_share": 0.125},
    ]
    assert [r["path"] for r in flame.vanished(base, target, top=1)] == ["d;e"]
    assert flame.vanished(base, base) == [] and flame.vanished([], target) == []
    # a frame the target samples rarely is folded into "(other)" there, but it did not vanish
    assert flame.vanished([(("a", "c"), 1.0)], [(("a", "b"), 999.0), (("a", "c"), 1.0)]) == []


def _fixture():
    text = (PROJECT / "tests" / "fixtures" / "raw" / "folded" / "perf-stackcollapse.folded").read_text()
    return folded.parse(text)


def test_a_real_profile_keeps_its_invariants():
    parsed = _fixture()
    rows = flame.icicle([(s.frames, s.weight) for s in parsed.stacks])
    assert rows[0]["frame"] == "all" and rows[0]["total_share"] == 1.0
    assert rows[0]["samples"] == parsed.total
    for r in rows[1:]:
        parent = rows[r["parent"]]
        assert parent["x0"] <= r["x0"] <= r["x1"] <= parent["x1"] + 1e-6
        assert 0 <= r["self_share"] <= r["total_share"] <= 1
        children = [c for c in rows if c["parent"] == r["id"]]
        assert sum(c["total_share"] for c in children) + r["self_share"] == pytest.approx(r["total_share"], abs=1e-5)
    assert sum(r["self_share"] for r in rows) == pytest.approx(1.0, abs=1e-5)


def test_a_real_differential_and_vanished_keep_their_invariants():
    stacks = [(s.frames, s.weight) for s in _fixture().stacks]
    base, target = stacks[::2], stacks[1::2] + stacks[:10]
    rows = flame.differential(base, target, min_share=0.02)
    assert any(r["frame"] == flame.OTHER for r in rows)
    for r in rows:
        assert 0 <= r["base_share"] <= 1 and r["delta"] == pytest.approx(r["total_share"] - r["base_share"], abs=2e-6)
        children = [c for c in rows if c["parent"] == r["id"]]
        assert sum(c["base_share"] for c in children) <= r["base_share"] + 1e-5  # "(other)" counts no frame twice
    gone = flame.vanished(base, target, top=1000)
    assert gone and all(0 < r["base_share"] <= 1 for r in gone)
    drawn = {r["path"] for r in flame.icicle(target, min_share=0)}
    assert not drawn & {r["path"] for r in gone}


@pytest.fixture(scope="module")
def validator():
    schema = json.loads((PROJECT / "site" / "vendor" / "vega-lite-schema.json").read_text())
    return jsonschema.Draft7Validator(schema)


def _expressions(node):
    """Every string Vega evaluates as code: expr, filter, calculate, signal, test."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("expr", "filter", "calculate", "signal", "test") and isinstance(value, str):
                yield value
            yield from _expressions(value)
    elif isinstance(node, list):
        for item in node:
            yield from _expressions(item)


def _hostile_specs() -> list[dict]:
    stacks = [((HOSTILE[0], HOSTILE[1]), 3.0), ((HOSTILE[2], HOSTILE[4]), 2.0), ((HOSTILE[3], HOSTILE[5]), 1.0)]
    rows = flame.icicle(stacks)
    diff = flame.differential(stacks[:1], stacks)
    variants = ["b.c", *HOSTILE[4:]]
    top = [{"symbol": h, "variant": v, "self_share": 0.1, "total_share": 0.2, "source": "folded"}
           for h in HOSTILE for v in variants]
    return [profile_specs.icicle(HOSTILE[0], rows),
            profile_specs.differential(HOSTILE[5], diff, HOSTILE[4], HOSTILE[5]),
            profile_specs.differential("t", diff, HOSTILE[1], HOSTILE[2]),
            profile_specs.symbol_shares(HOSTILE[4], top, variants, HOSTILE)]


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)


def test_specs_are_valid_and_hostile_frames_stay_data(validator):
    specs = _hostile_specs()
    for spec in specs:
        validator.validate(spec)
        for code in _expressions({k: v for k, v in spec.items() if k != "data"}):
            assert not any(h in code for h in HOSTILE), code
        # Contributed strings are only data values, the title and the subtitle: never a channel
        # title, a sort or a domain, which Vega-Lite copies into expressions.
        rest = {k: v for k, v in spec.items() if k not in ("data", "title")}
        assert not [s for s in _strings(rest) if any(h in s for h in HOSTILE)]
        assert all(isinstance(s, str) for s in _strings(spec["title"]))
    assert {r["frame"] for r in specs[0]["data"]["values"]} >= set(HOSTILE)
    assert any(HOSTILE[4] in s for s in specs[1]["title"]["subtitle"])


def test_symbol_shares_draws_rows_in_the_order_of_symbols_then_variants():
    rows = [{"symbol": s, "variant": v, "self_share": 0.1, "total_share": 0.2, "source": "folded"}
            for s in ("z", "a", "m") for v in ("v2", "v1")]
    spec = profile_specs.symbol_shares("t", rows, ["v1", "v2"], ["m", "z", "a"])
    assert [(r["symbol"], r["variant"]) for r in spec["data"]["values"]] == [
        ("m", "v1"), ("m", "v2"), ("z", "v1"), ("z", "v2"), ("a", "v1"), ("a", "v2")]
    assert spec["data"]["values"] is not rows and len(rows) == 6


COMPILE = """async (spec) => {
  const found = [];
  const walk = (node) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object")
      for (const [key, value] of Object.entries(node)) {
        if (["signal", "expr", "test", "update", "init"].includes(key) && typeof value === "string") found.push(value);
        else walk(value);
      }
  };
  try {
    const vg = vegaLite.compile(spec).spec;
    walk(vg);
    const parses = (e) => { try { vega.parseExpression(e); return true; } catch (err) { return false; } };
    const unparsable = found.filter((e) => !parses(e));
    const view = new vega.View(vega.parse(vg), {renderer: "none"});
    await view.runAsync();
    return {error: null, unparsable, rows: view.data("table").length};
  } catch (err) {
    return {error: String(err && err.message || err), unparsable: [], rows: 0};
  }
}"""


@pytest.mark.browser
def test_hostile_specs_compile_in_the_pinned_vega_lite_and_every_expression_parses(page):
    """The real compiler, not only the schema: Vega-Lite writes titles and sorts into expressions."""
    paths = Paths.make()
    vendor.vendor(paths)
    page.goto("about:blank")
    for name in ("vega.min.js", "vega-lite.min.js"):
        page.add_script_tag(path=str(paths.vendor / name))
    for spec in _hostile_specs():
        assert page.evaluate(COMPILE, spec) == {"error": None, "unparsable": [], "rows": len(spec["data"]["values"])}
