"""Every emitted Vega-Lite spec is valid against the pinned schema and matches its golden file, and
so does the CSV it draws (the chart's data, written once: render/datafile.py).

On a mismatch (or a missing golden) the new file is written beside the golden file as
`*-changed.vl.json` or `*-changed.csv` for review; a test run never writes a golden file. `make golden` accepts the
reviewed changes (tests/golden/accept.py).
"""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from papercuts.paths import PROJECT

GOLDEN = Path(__file__).parent / "golden"
SCHEMA = PROJECT / "site" / "vendor" / "vega-lite-schema.json"


# Campaigns imported from mytools archives are drawn by the same definitions as the hand-written
# ones; pinning their hundreds of specs would pin data, not definitions, so they have no goldens.
IMPORTED = frozenset(c.parent.name for c in (PROJECT / "data" / "campaigns").glob("*/campaign.toml")
                     if "papercuts import mytools" in c.read_text())
# But one spec of each kind drawn from imported campaigns alone, pinned for its definition: the
# ladders (the busy-wait campaign's builds of 8.0.40 made the one ladder of hand-written data).
DEFINITIONS = frozenset({"ladder-2025-11-28-pn53-mysql-5-6-to-9-5-pn53-mysql-innodb-c8r32-1.vl.json"})


def specs(site, pinned: bool = False) -> list[Path]:
    found = sorted(site.generated.rglob("*.vl.json"))
    return [p for p in found if p.name in DEFINITIONS or not any(c in p.name for c in IMPORTED)] if pinned else found


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA.read_text())
    assert schema["$schema"].startswith("http://json-schema.org/draft-07")
    return jsonschema.Draft7Validator(schema)


def test_every_page_with_charts_has_specs(site):
    found = {p.relative_to(site.generated).as_posix() for p in specs(site)}
    assert "investigations/innodb-busy-wait-8030/dell32-rqps.vl.json" in found
    assert ("campaigns/2024-10-23-busy-wait-dell32/"
            "heatmap-2024-10-23-busy-wait-dell32-24-my8028-rel-o2nofp-z11a-c32r128.vl.json") in found
    assert len(found) >= 10


def test_specs_are_valid_vega_lite(site, validator):
    for path in specs(site):
        errors = sorted(validator.iter_errors(json.loads(path.read_text())), key=lambda e: e.path)
        assert not errors, f"{path.name}: {errors[0].message}"


def _golden_text(path: Path) -> str:
    if path.suffix == ".csv":
        return path.read_text()
    # Goldens are pretty-printed for review; the site writes compact JSON.
    return json.dumps(json.loads(path.read_text()), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def test_specs_and_their_data_match_golden_files(site):
    assert len(IMPORTED) >= 17 and len(specs(site, pinned=True)) >= 10
    # each spec, and the CSV it reads (the heatmaps of a comparison share one)
    files = list(dict.fromkeys(f for p in specs(site, pinned=True)
                               for f in (p, p.parent / json.loads(p.read_text())["data"]["url"])))
    mismatched, missing = [], []
    for path in files:
        rel = path.relative_to(site.generated)
        golden = GOLDEN / rel
        actual = _golden_text(path)
        ext = ".vl.json" if golden.name.endswith(".vl.json") else ".csv"  # a chart id may hold a '.'
        changed = golden.with_name(golden.name.removesuffix(ext) + "-changed" + ext)
        if not golden.exists() or golden.read_text() != actual:
            changed.parent.mkdir(parents=True, exist_ok=True)
            changed.write_text(actual)
            (mismatched if golden.exists() else missing).append(str(rel))
        else:
            changed.unlink(missing_ok=True)  # no stale copy for `make golden` to accept
    assert not missing, f"no golden file for {missing} (review the -changed files, then `make golden`)"
    assert not mismatched, f"specs or data differ from golden (see *-changed.*): {mismatched}"
    goldens = {p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*") if p.suffix in (".json", ".csv")
               and "-changed." not in p.name}
    assert goldens == {p.relative_to(site.generated).as_posix() for p in files}, "stale golden files"


def _found(node, key: str) -> list:
    """Every value under `key` anywhere in a spec."""
    if isinstance(node, dict):
        return ([node[key]] if key in node else []) + [v for n in node.values() for v in _found(n, key)]
    return [v for n in node for v in _found(n, key)] if isinstance(node, list) else []


def test_specs_bind_data_by_name_and_carry_no_expressions(site):
    """Data is the chart's CSV beside the spec, named 'table'; no spec holds a Vega expression
    string built from data: the one expression allowed is the bare name of a param the spec
    declares (a menu's variable, whose value Vega keeps as data), in a filter on a field."""
    menus = 0
    for path in specs(site):
        spec = json.loads(path.read_text())
        assert spec["data"]["name"] == "table" and "values" not in spec["data"]
        assert (path.parent / spec["data"]["url"]).is_file() and spec["data"]["url"].endswith(".csv")
        assert '"calculate"' not in path.read_text()
        declared = {p["name"] for p in _found(spec, "params") for p in p}
        for expr in _found(spec, "expr"):
            assert expr in declared and expr.isidentifier(), (path, expr)
        for f in _found(spec, "filter"):
            if set(f) == {"field", "valid"}:  # a chart's own rows of a shared file (datafile.share)
                continue
            assert set(f) == {"field", "equal"} and set(f["equal"]) == {"expr"}, (path, f)
            menus += 1
    assert menus >= 2  # throughput against threads, a microbenchmark at a time
