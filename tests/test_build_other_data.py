"""A data folder other than the project's builds a site of the generated pages alone: the project's
investigations are written for the project's data/ and are checked, rendered and pinned only with it,
or with pages given with the data (paths.pages)."""
from __future__ import annotations

import html
import re
import subprocess
import sys

from datadir import write_data
from papercuts.paths import PROJECT, Paths


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "papercuts.cli", *args], capture_output=True, text=True)


def test_another_data_folder_builds_its_generated_pages_and_no_investigation(tmp_path):
    """One small campaign on a server 'box': none of the campaigns the project's investigations draw.
    `check --data` passed and `build --data` failed rendering content/investigations/ against it."""
    data, out = write_data(tmp_path / "data"), tmp_path / "public"
    assert cli("check", "--data", str(data)).returncode == 0
    built = cli("build", "--data", str(data), "--out", str(out))
    assert built.returncode == 0, built.stderr
    for page in ("campaigns/2026-01-02-test", "servers/box", "campaigns", "servers", "ladders", "explore",
                 "regressions", "investigations"):
        assert (out / page / "index.html").is_file(), page
    assert not [p for p in (out / "investigations").iterdir() if p.is_dir()]  # the section, empty
    assert not (out / "embed" / "investigations").exists()
    # The /embed/ page's example is a chart of this site: its embed page, its chart and its image
    # (it named the busy-wait investigation's chart whatever the data: three 404s here).
    text = html.unescape(re.sub(r"<[^>]+>", "", (out / "embed" / "index.html").read_text()))
    frame = re.search(r'<iframe src="https://<this site>(/embed/[^"]+/)"', text)[1]
    anchor = re.search(r'<a href="https://<this site>(/[^"#]+/)#chart-([^"]+)"', text)
    png = re.search(r'src="https://<this site>(/[^"@]+[.]png)"', text)[1]  # the live chart's, not a pin's
    assert (out / frame.strip("/") / "index.html").is_file(), frame
    assert f'id="chart-{anchor[2]}"' in (out / anchor[1].strip("/") / "index.html").read_text()
    assert (out / png.strip("/")).read_bytes().startswith(b"\x89PNG"), png
    assert f'embed = "{frame}"' in text and f"{frame[:-1]}@2026-11-24/" in text  # the pin's example
    home = (out / "index.html").read_text()
    assert 'href="/investigations/' not in home.replace('href="/investigations/"', "").replace(
        'href="/investigations/feed.xml"', "")


def test_pages_belong_to_the_projects_data_or_to_the_data_they_are_given_with(tmp_path):
    assert Paths.make().pages == PROJECT / "content"
    assert Paths.make(data=PROJECT / "data").pages == PROJECT / "content"
    assert Paths.make(data=tmp_path / "data").pages is None  # a copy or other data: its own pages only
    assert Paths.make(data=tmp_path / "data", content=tmp_path / "pages").pages == tmp_path / "pages"


def test_a_known_regression_links_its_investigation_only_where_the_site_has_it(data_copy, tmp_path):
    """A copy of data/ is another data folder: its known regressions (data/known/) still label their
    changes, but an investigation it names is not built there, so the label links the bug instead
    (it linked /investigations/innodb-myrocks-over-time/, a page the copy's site has not)."""
    from papercuts.build import build

    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    html = (paths.public / "regressions" / "index.html").read_text()
    assert "bug 102037) (explained)" in html
    assert 'href="/investigations/innodb-myrocks-over-time/"' not in html
    assert '<a href="https://bugs.mysql.com/bug.php?id=102037">random-points range 1000 regresses' in html


def test_the_help_says_which_data_and_site_folders_are_the_defaults():
    """`--data` said "(default: data/)" and `--out` "(default: public/)": from a data repository of
    one's own, that reads as ./data and ./public, but a build without them read this checkout's data/
    and replaced this checkout's public/."""
    from papercuts.cli import parser

    commands = parser()._subparsers._group_actions[0].choices
    for name, option, default in (("check", "--data", "data"), ("build", "--data", "data"),
                                  ("import", "--data", "data"), ("export", "--data", "data"),
                                  ("build", "--out", "public"), ("serve", "--out", "public")):
        [action] = [a for a in commands[name]._actions if option in a.option_strings]
        assert f"(default: this checkout's {default}/, {PROJECT / default}" in action.help, (name, option)
    assert Paths.make().data == PROJECT / "data" and Paths.make().public == PROJECT / "public"
