"""A build of unchanged inputs does nothing and keeps the site; any change to an input rebuilds,
and the site is byte for byte what a clean build of the same inputs writes."""
from __future__ import annotations

from datadir import tree_digest as tree
from papercuts.build import Timings, build
from papercuts.paths import Paths


def test_unchanged_inputs_keep_the_site_and_any_change_rebuilds_it(data_copy, tmp_path):
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    first = build(paths)
    clean = tree(paths.public)
    said: list[str] = []
    t = Timings(say=said.append)
    again = build(paths, t)
    assert dict(t) == {} and any("nothing changed" in line for line in said)  # no stage ran
    assert again.sorted() == first.sorted()  # the same warnings are reported again
    assert tree(paths.public) == clean
    # One published ratio changed: the build runs again and the site shows the new number.
    results = data_copy / "campaigns" / "2024-10-23-busy-wait-dell32" / "relative.csv"
    original = results.read_text()
    header, first_row, rest = original.split("\n", 2)
    value = first_row.rsplit(",", 1)[1]
    results.write_text(f"{header}\n{first_row.rsplit(',', 1)[0]},{float(value) + 0.01:.2f}\n{rest}")
    t = Timings()
    build(paths, t)
    assert set(t) >= {"validate", "render", "hugo"}
    assert tree(paths.public) != clean
    # Back to the first inputs: the site is the clean build's, byte for byte.
    results.write_text(original)
    build(paths)
    assert tree(paths.public) == clean
    # An output changed behind the build's back (a page edited by hand) is rebuilt, not kept.
    page = paths.public / "index.html"
    page.write_text(page.read_text() + "<!-- edited -->")
    t = Timings()
    build(paths, t)
    assert "render" in t and tree(paths.public) == clean


def test_a_changed_campaign_is_read_again_and_the_others_come_from_the_last_build(data_copy, tmp_path):
    """Issue 16.3: after one campaign changes, only it is read and parsed again; the site and the
    warnings are what a clean build of the same inputs gives, byte for byte."""
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    campaigns = sorted(p.name for p in (data_copy / "campaigns").iterdir())
    results = data_copy / "campaigns" / "2024-10-23-busy-wait-dell32" / "relative.csv"
    header, first_row, rest = results.read_text().split("\n", 2)
    value = first_row.rsplit(",", 1)[1]
    results.write_text(f"{header}\n{first_row.rsplit(',', 1)[0]},{float(value) + 0.01:.2f}\n{rest}")
    said: list[str] = []
    again = build(paths, Timings(say=said.append))
    assert any(f"{len(campaigns)} campaigns ({len(campaigns) - 1} unchanged since the last build)" in line
               for line in said), said
    clean_paths = Paths.make(data=data_copy, build=tmp_path / "clean-build", out=tmp_path / "clean")
    clean = build(clean_paths)
    assert tree(paths.public) == tree(clean_paths.public)
    assert [p.render() for p in again.sorted()] == [p.render() for p in clean.sorted()]
