"""Pinned embeds: a chart as drawn from data/ as committed on a date, rebuilt from git history
on every build; later results leave it byte for byte as it was (issue 14)."""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from datetime import date

import pytest

from datadir import write_data
from papercuts.build import build
from papercuts.paths import PROJECT, Paths
from papercuts.problems import UserError
from papercuts.render.frontmatter import page
from papercuts.render.snapshots import Pin, _chart_file, _live_embed, read_pins

CHART = "heatmap-2026-01-02-test-1-my8028-cfg"  # the campaign's rQPS heatmap on /servers/box/
LIVE = f"embed/servers/box/{CHART}"
PINNED = f"{LIVE}@2026-01-05"
MORE = {
    "campaigns/2026-01-09-more/campaign.toml": (
        'title = "later results"\nsource = "src"\ncontributor = "tests"\ndate = 2026-01-09\nsysbench = "1.1.0"\n'),
    "campaigns/2026-01-09-more/results.csv": (
        "server,build,config,microbenchmark,range,threads,qps\n"
        "box,my8028,cfg,point-query,100,1,1100\nbox,my8040,cfg,point-query,100,1,700\n"),
}


def git(repo, *args, when="2026-01-05T12:00:00Z"):
    env = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "PATH": "/usr/bin:/bin"}
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          check=True, capture_output=True, text=True, env=env).stdout.strip()


def files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "repo"
    write_data(repo / "data")
    (repo / "content" / "investigations").mkdir(parents=True)
    (repo / "content" / "investigations" / ".keep").write_text("")
    shutil.copyfile(PROJECT / "content" / "_index.md", repo / "content" / "_index.md")
    (repo / "content" / "snapshots.toml").write_text(f'[[pin]]\nembed = "/{LIVE}/"\ndate = 2026-01-05\n')
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "first results")
    return repo


def test_a_pinned_embed_keeps_its_bytes_when_results_land_while_the_live_one_follows(repo, tmp_path):
    paths = Paths.make(data=repo / "data", build=tmp_path / "build", out=tmp_path / "public",
                       content=repo / "content")
    build(paths)
    pinned, live = files(paths.public / PINNED), files(paths.public / LIVE)
    first = git(repo, "rev-parse", "HEAD")
    assert {"index.html", "chart.vl.json", "chart.csv", "chart.svg"} <= pinned.keys()
    page = pinned["index.html"].decode()
    # the pin's date is the repository's state; the chart's data is of its campaign's date, as the
    # live embed says (it said "Pinned: data as of 2026-01-05" alone, the pin's date as the data's)
    assert f"Data as of 2026-01-02, pinned to the data of 2026-01-05 (commit {first[:12]})" in page
    assert 'data-spec-url="/embed/servers/box/' + CHART + '@2026-01-05/chart.vl.json"' in page
    # its CSV downloads named after its chart and date, not as chart.csv
    assert f'href="/{PINNED}/chart.csv" download="box-{CHART}@2026-01-05.csv"' in page
    assert "Data as of 2026-01-02" in live["index.html"].decode()

    shown_from = paths.public / "campaigns" / "2026-01-02-test"  # the server page shows the campaign's chart
    spec = json.loads((shown_from / f"{CHART}.vl.json").read_bytes())
    data = (shown_from / spec["data"]["url"]).read_bytes()  # the comparison's CSV, every thread count
    # pinned today: the same numbers as the live chart, read from the pin's own copy of the CSV
    assert pinned["chart.csv"] == data
    assert f'download="{spec["data"]["url"]}"' in live["index.html"].decode()  # the live one, its own name
    pinned_spec = json.loads(pinned["chart.vl.json"])
    assert {**pinned_spec, "usermeta": None} == {**spec, "data": {**spec["data"], "url": "chart.csv"}, "usermeta": None}
    # its images say where the pin is and of when, as its page does (the live chart's: its own page)
    assert pinned_spec["usermeta"]["credit"] == [
        f"Papercuts · /{PINNED}/ · Data as of 2026-01-02, pinned to the data of 2026-01-05 (commit {first[:12]})",
        "Source: A test source, Tester (2026-01-02)"]
    assert spec["usermeta"]["credit"][0] == "Papercuts · /campaigns/2026-01-02-test/ · Data as of 2026-01-02"
    assert b"pinned to the data of 2026-01-05" in pinned["chart.svg"]
    # The image a blog without frames shows: where /embed/ says a pinned chart's PNG is, beside it.
    doc = html.unescape(re.sub(r"<[^>]+>", "", (paths.public / "embed" / "index.html").read_text()))
    example = re.search(r'<iframe src="https://<this site>(/embed/[^"]+)/"', doc)[1]
    assert f'src="https://<this site>{example}@2026-11-24/chart.png"' in doc
    assert pinned["chart.png"].startswith(b"\x89PNG") and b"<svg" in pinned["chart.svg"]
    live_png = (shown_from / f"2026-01-02-test-{CHART}.png").read_bytes()

    # A results file lands days later, and a rerun corrects a number of the pinned chart.
    write_data(repo / "data", MORE)
    results = repo / "data" / "campaigns" / "2026-01-02-test" / "results.csv"
    text = results.read_text()
    results.write_text(text.replace("my8040,cfg,update-index,100,1,100", "my8040,cfg,update-index,100,1,200"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "later results", when="2026-01-10T09:00:00Z")
    build(paths)
    assert files(paths.public / PINNED) == pinned
    after = files(paths.public / LIVE)["index.html"].decode()
    # The live embed is dated by the campaign its chart draws, 2026-01-02, though its server's page
    # now draws a campaign of 2026-01-09 too (it said "Data as of 2026-01-09", its page's newest);
    # the campaign's own page says the same.
    assert "Data as of 2026-01-02" in after and "2026-01-09" not in after
    own = paths.public / "embed" / "campaigns" / "2026-01-02-test" / CHART / "index.html"
    assert "Data as of 2026-01-02" in own.read_text()
    assert (shown_from / spec["data"]["url"]).read_bytes() != data  # the live chart moved
    assert (shown_from / f"2026-01-02-test-{CHART}.png").read_bytes() != live_png  # and its image, not the pin's


def test_a_chart_pinned_twice_to_one_date_is_refused_at_its_line(repo, tmp_path):
    pin = f'[[pin]]\nembed = "/{LIVE}/"\ndate = 2026-01-05\n'
    (repo / "content" / "snapshots.toml").write_text(pin + pin)
    paths = Paths.make(data=repo / "data", build=tmp_path / "build", out=tmp_path / "public",
                       content=repo / "content")
    with pytest.raises(UserError, match=r"snapshots.toml:\d+: .* is pinned to 2026-01-05 twice; remove one"):
        build(paths)


def test_a_pin_before_any_data_is_refused_at_its_line(repo, tmp_path):
    (repo / "content" / "snapshots.toml").write_text(f'# pins\n[[pin]]\nembed = "/{LIVE}/"\ndate = 2025-12-01\n')
    paths = Paths.make(data=repo / "data", build=tmp_path / "build", out=tmp_path / "public",
                       content=repo / "content")
    with pytest.raises(UserError, match=r"snapshots.toml:3: no commit of .*data on or before 2025-12-01"):
        build(paths)


def test_a_pin_names_its_chart_by_the_address_the_snippet_gives_with_the_sites_origin(repo, tmp_path):
    """The snippet beside each chart gives its embed page's address with the site's origin
    (HUGO_BASEURL in production); an author pasting it into snapshots.toml was refused ("is not
    an embed page's address"). Any origin: a pin draws this site's data."""
    (repo / "content" / "snapshots.toml").write_text(
        f'[[pin]]\nembed = "https://papercuts.example/{LIVE}/"\ndate = 2026-01-05\n')
    paths = Paths.make(data=repo / "data", build=tmp_path / "build", out=tmp_path / "public",
                       content=repo / "content")
    build(paths)
    assert "pinned to the data of 2026-01-05" in (paths.public / PINNED / "index.html").read_text()
    listed = tmp_path / "pins.toml"
    for embed in (f"/{LIVE}/", f"https://papercuts.example/{LIVE}/", f"HTTP://127.0.0.1:1313/{LIVE}/"):
        listed.write_text(f'[[pin]]\nembed = "{embed}"\ndate = 2026-01-05\n')
        assert read_pins(listed, "pins.toml") == [Pin("/servers/box/", CHART, date(2026, 1, 5), "pins.toml:2")]
    for embed in (f"https://papercuts.example/servers/box/{CHART}/", f"javascript:/{LIVE}/",
                  f"https://papercuts.example/{PINNED}/", f"https://papercuts.example/{LIVE}/?x=1",
                  "/embed/../../../../etc/x/passwd/", f"/embed/servers/./box/{CHART}/", f"/embed/servers//{CHART}/"):
        listed.write_text(f'[[pin]]\nembed = "{embed}"\ndate = 2026-01-05\n')
        with pytest.raises(UserError, match="is not an embed page's address"):
            read_pins(listed, "pins.toml")


def test_a_pin_under_a_sites_base_path_is_named_by_its_address_there(tmp_path, monkeypatch):
    """A site published below a path (HUGO_BASEURL https://example.org/papercuts/) gives its
    snippets' addresses with that path before /embed/."""
    from papercuts.render import embeds

    monkeypatch.setenv("HUGO_BASEURL", "https://example.org/papercuts/")
    embeds._settings.cache_clear()
    try:
        listed = tmp_path / "pins.toml"
        listed.write_text(f'[[pin]]\nembed = "https://example.org/papercuts/{LIVE}/"\ndate = 2026-01-05\n')
        assert read_pins(listed, "pins.toml") == [Pin("/servers/box/", CHART, date(2026, 1, 5), "pins.toml:2")]
    finally:
        embeds._settings.cache_clear()


def test_the_example_pin_in_content_snapshots_toml_is_a_valid_pin(tmp_path):
    text = (PROJECT / "content" / "snapshots.toml").read_text().split("For example:", 1)[1]
    example = tmp_path / "snapshots.toml"
    example.write_text("\n".join(line.removeprefix("#").strip() for line in text.splitlines()))
    [pin] = read_pins(example, "snapshots.toml")
    assert (pin.page, pin.chart) == ("/investigations/innodb-busy-wait-8030/", "dell32-rqps")


def test_a_pin_reads_only_pages_papercuts_wrote_and_their_files(tmp_path):
    """A pin names its chart by address; what it publishes comes from that page's front matter.
    A campaign may hold an index.md among its files (published as they are, from _verbatim/):
    its front matter must not name the chart, nor a file outside the site's pages (/etc/hostname)."""
    then = tmp_path / "then"

    def write(folder: str, csv: str, source: str = "") -> None:
        chart = {"id": "c", "title": "t", "rows": 1, "spec": "c.vl.json", "csv": csv, "svg": "", "png": "",
                 **({"from": source} if source else {})}
        (then / folder).mkdir(parents=True, exist_ok=True)
        (then / folder / "index.md").write_text(page({"title": "p", "charts": [chart]}, ""))
        (then / folder / "c.vl.json").write_text('{"data": {}}')

    escape = "../" * 12 + "etc/hostname"
    write("_verbatim/campaigns/2026-01-01-x", escape)
    contributed = Pin("/_verbatim/campaigns/2026-01-01-x/", "c", date(2026, 1, 1), "snapshots.toml:2")
    assert _live_embed(then, contributed) is None
    # nor a page of another kind's front matter (YAML: hand-written, never a page Papercuts wrote)
    (then / "servers" / "yaml").mkdir(parents=True)
    (then / "servers" / "yaml" / "index.md").write_text(
        f"---\ntitle: y\ncharts:\n- {{id: c, title: t, rows: 1, spec: c.vl.json, csv: {escape}, svg: '', png: ''}}"
        "\n---\n")
    assert _live_embed(then, Pin("/servers/yaml/", "c", date(2026, 1, 1), "snapshots.toml:2")) is None
    (then / "_verbatim" / "campaigns" / "2026-01-01-x" / "data.csv").write_text("a,b\n")
    for csv, source in ((escape, ""), ("data.csv", "/_verbatim/campaigns/2026-01-01-x/"), ("c.vl.json", "")):
        write("servers/box", csv, source)
        pin = Pin("/servers/box/", "c", date(2026, 1, 1), "snapshots.toml:2")
        meta = _live_embed(then, pin)
        with pytest.raises(UserError, match=r"snapshots.toml:2: the chart's .csv file .* is not a file of a page"):
            _chart_file(then, meta["chart"]["csv"], ".csv", pin)
    # a calibration's own files are published beside its page, but are no chart's
    write("calibration", "files/cal/raw.csv")
    (then / "calibration" / "files" / "cal").mkdir(parents=True)
    (then / "calibration" / "files" / "cal" / "raw.csv").write_text("a,b\n")
    with pytest.raises(UserError, match="is not a file of a page"):
        _chart_file(then, "/calibration/files/cal/raw.csv", ".csv", pin)
    write("servers/box", "c.csv")
    (then / "servers" / "box" / "c.csv").write_text("a,b\n")
    assert _chart_file(then, _live_embed(then, pin)["chart"]["csv"], ".csv", pin) == then / "servers" / "box" / "c.csv"
