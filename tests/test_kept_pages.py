"""Pages of unchanged units are the last site's HTML, not rendered by Hugo again
(publish/kept_pages.py), and only while every other input of Hugo is unchanged too."""
from __future__ import annotations

import json
import shutil

import pytest

from datadir import campaign_again
from papercuts.build import Timings, build
from papercuts.paths import PROJECT, Paths
from papercuts.problems import UserError
from papercuts.publish.hugo import OPTIONS
from papercuts.publish.kept_pages import RECORD, KeptPages

ELSEWHERE = "campaigns/2014-04-16-itc-vs-threads/index.html"  # a campaign on another server than dell32
SERVER = "servers/dell32/index.html"


def test_a_kept_units_pages_are_linked_from_the_last_site_unless_edited_there_or_the_layouts_change(
        data_copy, tmp_path):
    project = tmp_path / "project"  # layouts of its own, to change
    for part in ("site", "layouts"):
        shutil.copytree(PROJECT / part, project / part)
    (project / "data").mkdir()
    shutil.copyfile(PROJECT / "data" / "README.md", project / "data" / "README.md")  # the contract page
    paths = Paths(data=data_copy, public=tmp_path / "public", build=tmp_path / "build", project=project,
                  content_root=PROJECT / "content")
    build(paths)
    elsewhere, server = paths.public / ELSEWHERE, paths.public / SERVER
    first = {p: (p.stat().st_ino, p.read_bytes()) for p in (elsewhere, server)}

    # A new campaign on dell32: the other server's campaign page is the last site's very file; the
    # server page it reaches is rendered again, and shows it.
    campaign_again(data_copy, "2026-11-01-busy-wait-dell32-again", "2026-11-01", 1.01)
    said: list[str] = []
    build(paths, Timings(say=said.append))
    assert elsewhere.stat().st_ino == first[elsewhere][0]
    assert server.stat().st_ino != first[server][0] and "2026-11-01-busy-wait-dell32-again" in server.read_text()
    assert any("taken from the last site, not rendered again" in line for line in said), said

    # and at the next build again (a page taken is recorded as one Hugo wrote)
    campaign_again(data_copy, "2026-11-02-busy-wait-dell32-again", "2026-11-02", 1.02)
    build(paths)
    assert elsewhere.stat().st_ino == first[elsewhere][0]

    # Edited by hand in the site: rendered again at the next build, as Hugo writes it.
    elsewhere.write_bytes(first[elsewhere][1] + b"<!-- edited -->")
    campaign_again(data_copy, "2026-11-03-busy-wait-dell32-again", "2026-11-03", 1.03)
    build(paths)
    assert elsewhere.read_bytes() == first[elsewhere][1]

    # A layout changed: no unit's content changes, yet every page shows it.
    layout = project / "layouts" / "campaigns" / "page.html"
    text = layout.read_text()
    assert '<article class="campaign">' in text
    layout.write_text(text.replace('<article class="campaign">', '<article class="campaign" data-layout="2">', 1))
    said.clear()
    build(paths, Timings(say=said.append))
    assert 'data-layout="2"' in elsewhere.read_text()
    assert not any("taken from the last site" in line for line in said), said


def test_a_page_is_skipped_only_when_its_bundle_its_html_and_hugos_inputs_are_the_last_builds(
        tmp_path, monkeypatch):
    """The decision alone, on a content tree and a site written by hand (Hugo's part is above)."""
    project, content = tmp_path / "project", tmp_path / "content"
    for folder in (project / "site", project / "layouts"):
        folder.mkdir(parents=True)
    pages = ("servers/Ab", "servers/ab", "servers/cd", "campaigns/x y")
    for page in pages:
        (content / page).mkdir(parents=True)
        (content / page / "index.md").write_text(page)
    paths = Paths(data=tmp_path / "data", public=tmp_path / "public", build=tmp_path / "build", project=project)
    paths.build.mkdir()
    cd = paths.public / "servers/cd/index.html"

    def publish(meanwhile=None) -> set[str]:
        staging = tmp_path / "staging"
        shutil.rmtree(staging, ignore_errors=True)
        kept = KeptPages(paths, content, staging, OPTIONS)
        for page in pages:  # what Hugo would write: every page not skipped
            if page not in kept.skip:
                (staging / page).mkdir(parents=True)
                (staging / page / "index.html").write_text(f"<p>{page}</p>")
        if meanwhile:
            meanwhile()
        kept.take()
        kept.save()
        shutil.rmtree(paths.public, ignore_errors=True)
        staging.rename(paths.public)
        return set(kept.skip)

    assert publish() == set()  # nothing recorded yet
    # cd is skipped; Ab and ab differ only in case (Hugo would match both), 'x y' is no plain glob
    assert publish() == {"servers/cd"}
    inode = cd.stat().st_ino
    assert publish() == {"servers/cd"}  # and again: a page taken is recorded as one rendered
    assert cd.stat().st_ino == inode and cd.read_text() == "<p>servers/cd</p>"  # the last site's, linked
    (content / "servers/cd/index.md").write_text("changed")  # its bundle changed
    assert publish() == set()
    cd.write_text("edited")  # its HTML edited in the site
    assert publish() == set()
    assert publish() == {"servers/cd"}
    with pytest.raises(UserError, match="changed while this build ran"):  # edited while Hugo ran
        publish(meanwhile=lambda: cd.write_text("edited again"))
    assert publish() == set()
    assert publish() == {"servers/cd"}
    # Any other input of Hugo's changed: a layout, a file of the Hugo site, Hugo's environment.
    for change in (lambda: (project / "layouts" / "single.html").write_text("{{ .Title }}"),
                   lambda: (project / "site" / "hugo.toml").write_text('title = "Other"'),
                   lambda: monkeypatch.setenv("HUGO_PARAMS_OTHER", "1")):
        change()
        assert publish() == set()
        assert publish() == {"servers/cd"}
    # A record of another shape (a crash, a hand edit, another version) is none.
    for record in ("[]", '{"hugo": 1}', '{"hugo": "x", "pages": []}', json.dumps(
            {"hugo": KeptPages(paths, content, tmp_path / "x", OPTIONS).digest, "pages": {"servers/cd": {}}})):
        (paths.build / RECORD).write_text(record)
        assert publish() == set()


def test_a_kept_pages_file_is_never_linked_over_papercuts_own_and_a_contributed_one_there_is_refused(tmp_path):
    """take() runs after Papercuts' own files are moved into Hugo's tree (publish/hugo.py): a
    chart file where a kept page's file goes is the page's own (the same bytes: kept, and left out
    of the page's record); a contributed file or an embed page there is refused, as move_into
    refuses one over a page Hugo wrote."""
    project, content = tmp_path / "project", tmp_path / "content"
    for folder in (project / "site", project / "layouts", content / "servers" / "cd"):
        folder.mkdir(parents=True)
    (content / "servers" / "cd" / "index.md").write_text("cd")
    paths = Paths(data=tmp_path / "data", public=tmp_path / "public", build=tmp_path / "build", project=project)
    paths.build.mkdir()
    staging = tmp_path / "staging"

    def kept_pages() -> KeptPages:
        shutil.rmtree(staging, ignore_errors=True)
        return KeptPages(paths, content, staging, OPTIONS)

    for _ in range(2):  # rendered, then recorded as rendered with its image
        kept = kept_pages()
        (staging / "servers" / "cd").mkdir(parents=True)
        for name in ("index.html", "a.png"):
            (staging / "servers" / "cd" / name).write_text(name)
        kept.take()
        kept.save()
        shutil.rmtree(paths.public, ignore_errors=True)
        staging.rename(paths.public)
    kept = kept_pages()
    assert set(kept.skip) == {"servers/cd"}
    (staging / "servers" / "cd").mkdir(parents=True)
    (staging / "servers" / "cd" / "a.png").write_text("a.png")  # Papercuts' copy of the chart image
    (staging / "servers" / "cd" / "data.csv").write_text("x")
    assert kept.take({"servers/cd/a.png": None, "servers/cd/data.csv": None}) == 1  # index.html alone
    assert set(kept.pages["servers/cd"]["outputs"]) == {"servers/cd/index.html"}
    kept = kept_pages()
    (staging / "servers" / "cd").mkdir(parents=True)
    (staging / "servers" / "cd" / "index.html").write_text("contributed")
    with pytest.raises(UserError, match="servers/cd/index.html: a contributed file has the name of a page file"):
        kept.take({"servers/cd/index.html": "a contributed file has the name of a page file"})
