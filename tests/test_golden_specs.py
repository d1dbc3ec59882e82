"""Every emitted Vega-Lite spec is valid against the pinned schema and matches its golden file.

On a mismatch (or a missing golden) the new spec is written beside the golden file as
`*-changed.vl.json` for review; a test run never writes a golden file. `make golden` accepts the
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


def specs(site, pinned: bool = False) -> list[Path]:
    found = sorted(site.generated.rglob("*.vl.json"))
    return [p for p in found if not any(c in p.name for c in IMPORTED)] if pinned else found


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA.read_text())
    assert schema["$schema"].startswith("http://json-schema.org/draft-07")
    return jsonschema.Draft7Validator(schema)


def test_every_page_with_charts_has_specs(site):
    found = {p.relative_to(site.generated).as_posix() for p in specs(site)}
    assert "investigations/innodb-busy-wait-8030/dell32-rqps.vl.json" in found
    assert "servers/dell32/heatmap-2024-10-23-busy-wait-dell32-24-my8028-rel-o2nofp-z11a-c32r128.vl.json" in found
    assert len(found) >= 10


def test_specs_are_valid_vega_lite(site, validator):
    for path in specs(site):
        errors = sorted(validator.iter_errors(json.loads(path.read_text())), key=lambda e: e.path)
        assert not errors, f"{path.name}: {errors[0].message}"


def test_specs_match_golden_files(site):
    assert len(IMPORTED) >= 17 and len(specs(site, pinned=True)) >= 10
    mismatched, missing = [], []
    for path in specs(site, pinned=True):
        rel = path.relative_to(site.generated)
        golden = GOLDEN / rel
        # Goldens are pretty-printed for review; the site writes compact JSON.
        actual = json.dumps(json.loads(path.read_text()), sort_keys=True, indent=1, ensure_ascii=False) + "\n"
        changed = golden.with_name(golden.name.replace(".vl.json", "-changed.vl.json"))
        if not golden.exists() or golden.read_text() != actual:
            changed.parent.mkdir(parents=True, exist_ok=True)
            changed.write_text(actual)
            (mismatched if golden.exists() else missing).append(str(rel))
        else:
            changed.unlink(missing_ok=True)  # no stale copy for `make golden` to accept
    assert not missing, f"no golden file for {missing} (review the -changed files, then `make golden`)"
    assert not mismatched, f"specs differ from golden (see *-changed.vl.json): {mismatched}"
    goldens = {p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*.vl.json")
               if not p.name.endswith("-changed.vl.json")}
    assert goldens == {p.relative_to(site.generated).as_posix() for p in specs(site, pinned=True)}, "stale golden files"


def test_specs_bind_data_by_name_and_carry_no_expressions(site):
    """Data is inline and named 'table'; no spec holds a Vega expression string built from data."""
    for path in specs(site):
        spec = json.loads(path.read_text())
        assert spec["data"]["name"] == "table"
        text = path.read_text()
        assert '"expr"' not in text and '"calculate"' not in text and '"filter"' not in text
