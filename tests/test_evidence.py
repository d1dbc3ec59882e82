"""Contributed files are data: every campaign file is published byte for byte where its link
points, can never run as the site, and every way to break that is refused by `check` first."""
from __future__ import annotations

import gzip
import os
import re
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest

from datadir import database, write_data
from papercuts.build import build, validate
from papercuts.contract import MAX_CAMPAIGN_FILES, MAX_FILE_BYTES
from papercuts.paths import PROJECT, Paths
from papercuts.publish.serve import headers_for, make_server, matches, netlify_headers
from papercuts.render.frontmatter import page, split
from papercuts.render.investigations import datafiles
from papercuts.render.served import GZIP_FROM_BYTES, served_name

FIXTURE = Path(__file__).parent / "fixtures" / "bad" / "69-raw-malformed-vmstat" / "campaigns" / "2026-01-05-raw"
CAMPAIGN = "campaigns/2026-01-05-raw"
README = (
    "# The run\n\n"
    "{{< param title >}} {{< qr text=\"x\" />}} {{< instagram abc >}} {{% x %}}\n\n"
    "<script>alert(1)</script><img src=x onerror=alert(2)>\n\n"
    "Settings are in [run.sh](run.sh).\n"
)
EVIDENCE = {"UPPER.MD": "upper-case markdown\n", "more.markdown": "# not a page\n", "doc.adoc": "= not a page\n",
            "notes.md": "## not a page either\n", "my.cnf.z11a": "[mysqld]\n", "run.sh": "#!/bin/sh\nexit 0\n",
            # a name real archives hold, which Debian's MIME table (Python's mimetypes) calls XML
            "sb.o.myvac.es3": "window.ran = 1;\n",
            "README.md": README,
            # 266 KiB: a download, not a page, served gzipped (render/served.py)
            "big.log": "".join(f"line {i:08d} of a long log\n" for i in range(9709))}


def raw_campaign(root: Path) -> Path:
    data = write_data(root / "data")
    camp = data / CAMPAIGN
    shutil.copytree(FIXTURE, camp)
    (camp / "raw" / "my8028.cfg" / "point-query.t1.r1.vmstat.txt").unlink()  # the fixture's planted defect
    for name, text in EVIDENCE.items():
        (camp / "raw" / name).write_text(text)
    return data


def messages(data: Path) -> list[str]:
    _, problems = validate(Paths.make(data=data))
    return [f"{p.path}: {p.message}" for p in problems.errors]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("evidence")
    data = raw_campaign(root)
    content = root / "content"  # the home page alone: no investigation needs the shipped data
    (content / "investigations").mkdir(parents=True)
    shutil.copyfile(PROJECT / "content" / "_index.md", content / "_index.md")
    paths = Paths.make(data=data, build=root / "build", out=root / "public", content=content)
    build(paths)
    httpd = make_server(paths.public)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield paths, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_every_campaign_file_is_published_byte_for_byte_where_its_link_points(site):
    paths, _ = site
    html = (paths.public / CAMPAIGN / "index.html").read_text()
    committed = sorted(p for p in (paths.data / CAMPAIGN).rglob("*") if p.is_file())
    assert len(committed) == len(EVIDENCE) + 2  # + campaign.toml and the sysbench output
    big = 0
    for f in committed:
        name = f.relative_to(paths.data / CAMPAIGN).as_posix()
        if f.stat().st_size < GZIP_FROM_BYTES:
            assert f'href="/{CAMPAIGN}/{quote(name)}"' in html, name
            assert (paths.public / CAMPAIGN / name).read_bytes() == f.read_bytes(), name
            continue
        # Served gzipped, as gzip -n writes it (no name, no time: the same bytes every build),
        # giving back the committed bytes; never under its own name.
        big += 1
        served = (paths.public / CAMPAIGN / f"{name}.gz").read_bytes()
        assert f'href="/{CAMPAIGN}/{quote(name)}.gz"' in html and f'href="/{CAMPAIGN}/{quote(name)}"' not in html
        assert served[3] == 0 and served[4:8] == bytes(4)
        assert gzip.decompress(served) == f.read_bytes() and len(served) < f.stat().st_size / 5
        assert not (paths.public / CAMPAIGN / name).exists()
    assert big == 1
    # Markdown, AsciiDoc and the README are files, never pages of their own.
    assert not list((paths.public / CAMPAIGN / "raw").rglob("index.html"))


def test_the_readme_is_shown_without_shortcodes_or_raw_html(site):
    paths, _ = site
    html = (paths.public / CAMPAIGN / "index.html").read_text()
    notes = html.split('<section class="run-notes">', 1)[1].split("</section>", 1)[0]
    assert "{{&lt; param title &gt;}}" in notes and "{{&lt; qr" in notes  # shown as text, not run
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in notes
    assert "&lt;img src=x onerror=alert(2)&gt;" in notes
    assert "<script" not in notes and "<img" not in notes and "instagram.com" not in html
    assert "Settings are in" in notes
    charts = set(re.findall(r'class="image-png" href="([^"]+)"',
                            "".join(p.read_text() for p in paths.public.rglob("index.html"))))
    pngs = {"/" + p.relative_to(paths.public).as_posix() for p in paths.public.rglob("*.png")}
    assert not (paths.public / "qr").exists() and pngs <= charts  # every PNG is a chart's own image


def get(url: str):
    try:
        with urllib.request.urlopen(url) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def content_type(headers: dict) -> str:
    """Python's server spells it Content-type, as HTTP allows."""
    return next(v for k, v in headers.items() if k.lower() == "content-type")


def test_raw_files_are_served_sandboxed_as_downloads_and_pages_are_not(site):
    _, url = site
    status, headers, body = get(f"{url}/{CAMPAIGN}/raw/run.sh")
    assert status == 200 and body == EVIDENCE["run.sh"].encode()
    assert "sandbox" in headers["Content-Security-Policy"] and headers["Content-Disposition"] == "attachment"
    assert headers["X-Content-Type-Options"] == "nosniff"
    # Bytes to download whatever the name, never a type a page could load as a script or a
    # browser open as a document (as the name would have it: text/x-sh, text/markdown, XML).
    for name in ("run.sh", "README.md", "sb.o.myvac.es3", "big.log.gz"):
        status, headers, _ = get(f"{url}/{CAMPAIGN}/raw/{name}")
        assert status == 200 and content_type(headers) == "application/octet-stream", (name, headers)
    # The same file spelled with percent-escapes gets the same headers.
    _, headers, _ = get(f"{url}/campaigns/2026-01-05-raw/%72aw/run.sh")
    assert "sandbox" in headers["Content-Security-Policy"]
    status, headers, _ = get(f"{url}/{CAMPAIGN}/")
    assert status == 200 and "sandbox" not in headers["Content-Security-Policy"]
    assert content_type(headers).startswith("text/html")
    assert "Content-Disposition" not in headers


def test_a_missing_page_gets_the_sites_404(site):
    paths, url = site
    status, headers, body = get(f"{url}/no/such/page/")
    assert status == 404 and body == (paths.public / "404.html").read_bytes()
    assert "script-src 'self'" in headers["Content-Security-Policy"]


def test_header_rules_match_like_netlify():
    assert matches("/*", "/") and matches("/*", "/a/b.html")
    assert matches("/campaigns/:campaign/raw/*", "/campaigns/c1/raw/x/y.txt")
    assert not matches("/campaigns/:campaign/raw/*", "/campaigns/c1/index.html")
    assert not matches("/campaigns/:campaign/raw/*", "/campaigns/a/b/raw/x")  # :name is one segment
    assert not matches("/*.csv", "/servers/x/a.csv")  # a * inside a segment is a literal on Netlify
    rules = netlify_headers()
    assert "sandbox" in headers_for("/campaigns/c/raw/a%20b?x=1", rules)["Content-Security-Policy"]
    for spelled in ("/campaigns/c/x/../raw/a.es", "/campaigns/c/./raw/a.es", "/campaigns/c/x%2F..%2Fraw/a.es"):
        assert headers_for(spelled, rules)["Content-Type"] == "application/octet-stream", spelled


@pytest.mark.parametrize("name", ["x\n::warning file=README.md,line=1::INJECTED\ny.txt", "tab\tname.txt",
                                  "q%zz.txt", "a b.txt", ".hidden", "ü.txt"])
def test_file_names_outside_the_rule_are_refused(tmp_path, name):
    data = raw_campaign(tmp_path)
    (data / CAMPAIGN / "raw" / name).write_text("x\n")
    [message] = messages(data)
    assert message.endswith(f"name {name!r} is not allowed")


def test_a_file_and_its_gz_are_refused_as_two_files_served_under_one_name(tmp_path):
    """x.log of 256 KiB or more is published as x.log.gz: a committed x.log.gz would be served
    under the same name (whichever was written last), so the pair is refused, as raw runs' are."""
    data = raw_campaign(tmp_path)
    (data / CAMPAIGN / "raw" / "notes.txt").write_text("plain\n")
    (data / CAMPAIGN / "raw" / "NOTES.txt.gz").write_bytes(gzip.compress(b"plain\n", mtime=0))
    [message] = messages(data)
    assert message.endswith("raw/NOTES.txt.gz: notes.txt is here too: the site would serve both as NOTES.txt.gz")


def test_campaign_toml_as_a_link_or_a_folder_is_named_so(tmp_path):
    data = write_data(tmp_path / "data")
    toml = data / "campaigns" / "2026-01-02-test" / "campaign.toml"
    toml.unlink()
    toml.symlink_to(data / "sources.csv")
    assert [m.rsplit(": ", 1)[1] for m in messages(data)] == ["is a symbolic link"]
    toml.unlink()
    toml.mkdir()
    assert [m.rsplit(": ", 1)[1] for m in messages(data)] == ["is a folder, expected a file"]


def test_a_raw_output_that_is_a_folder_is_named_so_not_misnamed(tmp_path):
    data = raw_campaign(tmp_path)
    out = data / CAMPAIGN / "raw" / "my8028.cfg" / "point-query.t1.r1.vmstat.txt"
    out.mkdir()
    (out / "vmstat.txt").write_text("x\n")
    # It said: 'raw output name does not say its test, threads and repetition' of a good name.
    assert [m for m in messages(data) if "vmstat" in m] == [
        f"{out}: is a folder, expected the tool's output file"]

def test_a_catalog_that_is_a_folder_is_an_error_not_a_traceback(tmp_path):
    data = write_data(tmp_path / "data")
    (data / "configs.csv").unlink()
    (data / "configs.csv").mkdir()
    assert any(m.endswith("configs.csv: is a folder, expected a file") for m in messages(data))


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    data = write_data(tmp_path / "data")
    with open(data / "servers.csv", "r+b") as f:
        f.truncate(1 << 30)  # sparse: 1 GB that costs nothing unless someone reads it
    [message] = [m for m in messages(data) if "servers.csv" in m]
    assert message.endswith(f"file is {1 << 30} bytes, over the limit of {MAX_FILE_BYTES}")


def test_too_many_files_in_one_campaign(tmp_path):
    data = raw_campaign(tmp_path)
    extra = data / CAMPAIGN / "raw" / "my8028.cfg"
    for i in range(MAX_CAMPAIGN_FILES):
        (extra / f"n{i}.txt").touch()
    [message] = messages(data)
    assert f"over the limit of {MAX_CAMPAIGN_FILES}" in message


def test_compiler_flags_are_not_formulas(tmp_path):
    builds = "id,dbms,engine,version,flags,source\nmy8028,mysql,innodb,8.0.28,-O2 -fno-omit-frame-pointer,src\n"
    data = write_data(tmp_path / "data", {"builds.csv": builds + "my8040,mysql,innodb,8.0.40,-O3,src\n"
                                          "my8009,mysql,innodb,8.0.9,,src\n"})
    assert messages(data) == []


def test_front_matter_repeats_values_instead_of_aliasing_them():
    same = {"rows": None, "status": "parsed"}
    text = page({"files": [same] * 3, "more": same}, "body")
    assert text.count('"status":"parsed"') == 4  # written out each time (Hugo refused YAML aliases)
    assert split(text, "p") == ({"files": [same] * 3, "more": same}, "body")


def test_no_symlink_escape_in_raw(tmp_path):
    data = raw_campaign(tmp_path)
    os.symlink("/etc/passwd", data / CAMPAIGN / "raw" / "passwd.txt")
    assert any("symbolic link" in m for m in messages(data))


def test_a_raw_output_that_is_not_utf8_is_an_error_at_its_line(tmp_path):
    data = raw_campaign(tmp_path)
    out = data / CAMPAIGN / "raw" / "my8028.cfg" / "point-query.t1.r1.sysbench.txt"
    lines = out.read_bytes().split(b"\n")
    lines[2] = "é ".encode() + lines[2] + b" caf\xe9"  # latin-1, as a legacy locale writes it
    out.write_bytes(b"\n".join(lines))
    _, problems = validate(Paths.make(data=data))
    [p] = problems.errors
    column = len(lines[2].decode("utf-8", errors="replace"))  # in characters: é is two bytes
    assert (p.path.endswith("point-query.t1.r1.sysbench.txt"), p.line, p.column) == (True, 3, column)
    assert p.message == "invalid UTF-8 byte 0xe9" and "iconv" in p.hint


def test_only_large_files_not_compressed_already_are_served_gzipped():
    big = GZIP_FROM_BYTES
    assert [served_name(n, big) for n in ("a.log", "b.LOG.GZ", "c.tgz", "d.png", "e.csv.xz")] == [
        "a.log.gz", "b.LOG.GZ", "c.tgz", "d.png", "e.csv.xz"]
    assert served_name("a.log", big - 1) == "a.log" and served_name("a.log", None) == "a.log"


def test_an_investigation_links_each_data_file_where_it_is_served(tmp_path):
    """A data file of 256 KiB or more is served gzipped: an investigation's Sources table links
    that file, not the name it was committed under (which the site does not serve)."""
    small = datafiles(database(write_data(tmp_path / "small")), ["2026-01-02-test"])
    assert [f["file_url"] for f in small] == ["/campaigns/2026-01-02-test/results.csv"]
    rows = "".join(f"box,{b},cfg,point-query,100,{t},{1000 + t % 7}\n" for t in range(1, 4001)
                   for b in ("my8028", "my8040"))
    data = write_data(tmp_path / "large", {"campaigns/2026-01-02-test/results.csv":
                                           "server,build,config,microbenchmark,range,threads,qps\n" + rows})
    assert (data / "campaigns" / "2026-01-02-test" / "results.csv").stat().st_size >= GZIP_FROM_BYTES
    large = datafiles(database(data), ["2026-01-02-test"])
    assert [(f["file_url"], f["rows"]) for f in large] == [("/campaigns/2026-01-02-test/results.csv.gz", 8000)]


def test_contributed_files_go_beside_hugos_pages_byte_for_byte_and_never_over_one(tmp_path):
    """publish/own_files.py places the content tree's contributed files in a tree of their own while
    Hugo runs, then moves them beside Hugo's pages; a name Hugo already wrote is refused, never
    overwritten."""
    from papercuts.problems import UserError
    from papercuts.publish.own_files import OwnFiles
    from papercuts.publish.placed import Placer

    src = tmp_path / "content" / "_verbatim"
    files = {"campaigns/a/raw/o.met.all": b"x\ty\n1\t2\n", "campaigns/a/results.csv.gz": bytes(range(256)),
             "campaigns/b/README.md": b"# not a page\n"}
    for rel, data in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_bytes(data)

    def publish(staging, own):
        own_files = OwnFiles(own, Placer(tmp_path / "placed.json", tmp_path / "public", own))
        own_files.place_verbatim(src)
        own_files.move_into(staging)
        return own_files.placer

    staging = tmp_path / "staging"
    (staging / "campaigns" / "a").mkdir(parents=True)
    (staging / "campaigns" / "a" / "index.html").write_bytes(b"<html>")  # Hugo's page, kept
    placer = publish(staging, tmp_path / "own")
    assert {str(p.relative_to(staging)): p.read_bytes() for p in staging.rglob("*") if p.is_file()} == {
        **files, "campaigns/a/index.html": b"<html>"}
    assert sorted(placer.placed) == sorted(files)  # what the next build may link from this site
    assert not [p for p in (tmp_path / "own").rglob("*") if p.is_file()]  # all moved

    clash = tmp_path / "clash"
    (clash / "campaigns" / "b").mkdir(parents=True)
    (clash / "campaigns" / "b" / "README.md").write_bytes(b"Hugo's")
    with pytest.raises(UserError, match="campaigns/b/README.md: a contributed file has the name of a page file"):
        publish(clash, tmp_path / "own2")
    assert (clash / "campaigns" / "b" / "README.md").read_bytes() == b"Hugo's"

    folder = tmp_path / "folder"  # Hugo wrote a file where a contributed folder goes
    (folder / "campaigns").mkdir(parents=True)
    (folder / "campaigns" / "a").write_bytes(b"Hugo's")
    with pytest.raises(UserError, match="campaigns/a/raw/o.met.all: a contributed file has the name of a page file"):
        publish(folder, tmp_path / "own3")
    assert (folder / "campaigns" / "a").read_bytes() == b"Hugo's"


def test_a_published_file_edited_in_place_changes_nothing_the_next_build_publishes(data_copy, tmp_path):
    """The published folder shares no file with the build's own (the page units a rebuild reuses
    are hard-linked into its content tree): an edit in place, as an editor that keeps links or a
    deploy step rewriting files makes, is undone by the next build, not carried into it."""
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    name = "campaigns/2024-10-23-busy-wait-dell32/campaign.toml"
    published, given = paths.public / name, (data_copy / name).read_bytes()
    assert published.read_bytes() == given
    with open(published, "r+b") as f:  # in place: the same file, not a new one
        f.write(b"# edited\n")
    build(paths)  # the site changed behind the build's back: built again, units reused
    assert (paths.public / name).read_bytes() == given


def test_a_contributed_file_named_as_a_charts_file_is_refused(tmp_path):
    """publish/own_files.py adds the charts' files after the contributed ones: a contributed file at a
    chart file's address is refused, not served in its place; the same file twice (a page's chart
    image Hugo published as its og:image) is Hugo's, kept; other bytes there are refused."""
    from papercuts.problems import UserError
    from papercuts.publish.own_files import OwnFiles
    from papercuts.publish.placed import Placer

    content = tmp_path / "content"
    (content / "campaigns" / "c").mkdir(parents=True)
    (content / "campaigns" / "c" / "rqps-c.csv").write_text("a,b\n1,2\n")
    (content / "campaigns" / "c" / "index.md").write_text("---\n---\n")

    def publish(name, hugos=None, contributed=None):
        staging, own = tmp_path / name / "staging", tmp_path / name / "own"
        (staging / "campaigns" / "c").mkdir(parents=True)
        own.mkdir()
        if hugos is not None:
            (staging / "campaigns" / "c" / "rqps-c.csv").write_text(hugos)
        files = OwnFiles(own, Placer(tmp_path / "placed.json", tmp_path / "public", own))
        if contributed is not None:
            (content / "_verbatim" / "campaigns" / "c").mkdir(parents=True, exist_ok=True)
            (content / "_verbatim" / "campaigns" / "c" / "rqps-c.csv").write_text(contributed)
            files.place_verbatim(content / "_verbatim")
        files.place_chart_files(content)
        files.move_into(staging)
        return staging, files.placer

    staging, placer = publish("same", hugos="a,b\n1,2\n")  # the same bytes: Hugo's, kept
    assert (staging / "campaigns" / "c" / "rqps-c.csv").read_text() == "a,b\n1,2\n"
    assert "campaigns/c/rqps-c.csv" not in placer.placed
    with pytest.raises(UserError, match=r"campaigns/c/rqps-c.csv: a contributed file has the name of a chart's file"):
        publish("other", hugos="other bytes\n")
    staging, placer = publish("none")
    assert (staging / "campaigns" / "c" / "rqps-c.csv").read_text() == "a,b\n1,2\n"
    assert "campaigns/c/rqps-c.csv" in placer.placed
    assert not (staging / "campaigns" / "c" / "index.md").exists()  # pages are Hugo's
    with pytest.raises(UserError, match=r"campaigns/c/rqps-c.csv: a contributed file has the name of a chart's file"):
        publish("contributed", contributed="contributed\n")


def test_a_source_that_is_not_a_regular_file_is_refused_not_waited_on(tmp_path):
    """Placing opens each source once: a named pipe (nothing the pipeline writes, but a content
    tree is a folder anyone can touch) is refused at once, as shutil.copyfile refused it."""
    import os
    import shutil

    from papercuts.publish.placed import Placer

    (tmp_path / "src").mkdir()
    (tmp_path / "own").mkdir()
    os.mkfifo(tmp_path / "src" / "pipe")
    placer = Placer(tmp_path / "placed.json", tmp_path / "public", tmp_path / "own")
    with pytest.raises(shutil.SpecialFileError, match="not a regular file"):
        placer.place(str(tmp_path / "src" / "pipe"), "pipe")
    assert not (tmp_path / "own" / "pipe").exists()


@pytest.mark.parametrize("data, found", [
    (b'event,count\ncycles,=HYPERLINK("http://x","y")\n', [(2, 8)]),
    (b'"=1+1",2\n', [(1, 1)]),  # quoted
    (b'\xef\xbb\xbf=HYPERLINK("x")\n', [(1, 1)]),  # after a BOM, which a spreadsheet drops
    (b'a;=HYPERLINK(1)\n', [(1, 3)]),  # a separator in some locales
    (b'x\t@SUM(1)\r\ny,+cmd|\' /C calc\'!A0\r\n', [(1, 3), (2, 3)]),
    (b'\xc2\xb5s,\xc3\xa9,=1\n', [(1, 6)]),  # columns in characters, not bytes
    (b'-1,+2,-3.5e4,-nan,+inf\n"-1.5","+3 %"\n', []),  # numbers, quoted or not, are numbers
    (b"=1\n" * 100_000, [(i, 1) for i in range(1, 11)]),  # the first ten: not 10^5 errors
])
def test_a_raw_csv_cell_a_spreadsheet_would_run_is_refused_where_it_is(data, found):
    from papercuts.problems import Problems
    from papercuts.validate.files import check_sheet_cells
    problems = Problems()
    check_sheet_cells(data, "raw/c.csv", problems)
    assert [(p.line, p.column) for p in problems.items] == found
    assert all("would run it as a formula" in p.message for p in problems.items)


def test_a_readme_may_start_with_a_bom_and_join_an_emoji_but_a_name_may_hold_nothing_invisible(tmp_path):
    """A README is shown as text: an editor's byte-order mark and an emoji's zero-width joiner are
    text there. A cell is not: a variation selector in a name would make a second one that reads
    as the first."""
    data = raw_campaign(tmp_path)
    (data / CAMPAIGN / "raw" / "README.md").write_bytes("\ufeff# The run\n\nBy \U0001f469\u200d\U0001f4bb.\n".encode())
    assert messages(data) == []
    with open(data / "microbenchmarks.csv", "a") as f:
        f.write("point\ufe0f-query,point,queries/s,a look-alike,src\n")
    assert [m.split("/data/", 1)[1] for m in messages(data)] == [
        "microbenchmarks.csv: name contains U+FE0F, a control, invisible, line-separator or "
        "bidirectional-override character"]
