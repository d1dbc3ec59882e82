"""A build of unchanged inputs does nothing and keeps the site; any change to an input rebuilds,
and the site is byte for byte what a clean build of the same inputs writes."""
from __future__ import annotations

import os
import shutil
from itertools import groupby
from pathlib import Path

import duckdb
import pytest

from datadir import campaign_again
from datadir import tree_digest as tree
from papercuts.build import IN_PLACE, Timings, build
from papercuts.ingest import previous
from papercuts.paths import PROJECT, Paths
from papercuts.render.reuse import _place
from papercuts.validate.raw import RAW_TABLES


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
    changed = tree(paths.public)
    assert changed != clean
    # The site replaced waits in the trash for the next build (publish/trash.py); the content tree
    # replaced was removed while Hugo ran.
    assert _trash(paths) == [clean]
    # Back to the first inputs: the site is the clean build's, byte for byte.
    results.write_text(original)
    build(paths)
    assert tree(paths.public) == clean
    assert _trash(paths) == [changed]  # the older one was removed
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
    # The other campaigns' rows were kept in a copy of the last build's database, the changed one's
    # appended, each campaign's rows as a clean build has them (ingest/previous.py).
    assert any(f"the rows of {len(campaigns) - 1} unchanged campaign(s) kept in a copy" in line for line in said), said
    assert _tables(paths.db) == _tables(clean_paths.db)
    assert [p.render() for p in again.sorted()] == [p.render() for p in clean.sorted()]
    # Most campaigns changed (a comment added to each one's campaign.toml): the few kept are copied
    # from the last database into an empty one, the others' rows made again after them.
    touched = campaigns[: len(campaigns) // 2 + 1]
    for name in touched:
        toml = data_copy / "campaigns" / name / "campaign.toml"
        toml.write_text(toml.read_text() + "# read again\n")
    said.clear()
    build(paths, Timings(say=said.append))
    kept = len(campaigns) - len(touched)
    assert any(f"the rows of {kept} unchanged campaign(s) copied from the last build's database" in line
               for line in said), said
    clean_paths = Paths.make(data=data_copy, build=tmp_path / "clean-build-2", out=tmp_path / "clean-2")
    build(clean_paths)
    assert _tables(paths.db) == _tables(clean_paths.db)
    assert tree(paths.public) == tree(clean_paths.public)


def test_a_cache_entry_unreadable_past_its_key_is_read_again(data_copy, tmp_path):
    """validate/campaign_cache.py: an entry's key is read first, to know which folders are read
    again before any entry is loaded; an entry whose key is right but whose rows are not readable
    (a torn or foreign file) has its folder read again, and the dataset is a clean read's."""
    import pickle

    from papercuts.problems import Problems
    from papercuts.validate.load import load_dataset

    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    cache = paths.build / "campaigns-read"
    entry = cache / "2014-04-16-itc-vs-threads.pickle"
    with open(entry, "rb") as f:
        key = pickle.load(f)
    with open(entry, "wb") as f:
        pickle.dump(key, f)
        f.write(b"torn")
    problems, clean_problems = Problems(), Problems()
    ds = load_dataset(paths, problems, cache)
    clean = load_dataset(paths, clean_problems)
    assert ds.reused == len(list((data_copy / "campaigns").iterdir())) - 1
    assert (ds.rows, ds.campaigns, problems.items) == (clean.rows, clean.campaigns, clean_problems.items)


def test_a_build_whose_campaigns_fail_to_read_removes_its_copy_of_the_last_database(data_copy, tmp_path,
                                                                                   monkeypatch):
    """build._Database.prepare copies the last database while the campaigns are read, before any
    is checked: when one then fails to read, the copy is closed and removed, no thread is left,
    and the database in place is untouched."""
    import threading

    from papercuts.problems import UserError

    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    database = paths.db.read_bytes()
    copies: list[bool] = []
    prepare = previous.prepare

    def spy(*args):
        seed = prepare(*args)
        copies.append(seed.con is not None and Path(args[0]).is_file())
        return seed

    monkeypatch.setattr(previous, "prepare", spy)
    results = data_copy / "campaigns" / "2014-04-16-itc-vs-threads" / "results.csv"
    results.write_text(results.read_text().replace("\n", "\nnot a row of this file\n", 1))
    with pytest.raises(UserError, match="error") as failed:  # held: the build's frames stay alive
        build(paths)
    assert copies == [True]  # the copy was made as the campaign was read
    assert sorted(p.name for p in paths.db.parent.glob(paths.db.name + "*")) == [paths.db.name]
    open_files = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            open_files.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:  # closed meanwhile (the listing's own)
            pass
    assert not [f for f in open_files if paths.db.name + ".tmp" in f], failed  # closed, not only removed
    assert paths.db.read_bytes() == database
    assert not [t for t in threading.enumerate() if t.name.startswith("database")]


def test_a_file_saved_while_a_build_reads_it_is_trusted_by_no_later_build(data_copy, tmp_path, monkeypatch):
    """A contributor's editor saves while a build runs. What that build read may be neither the
    bytes it hashed nor those there when it ends: no later build may take its rows, pages or
    database for another state of the folder, nor say that nothing changed."""
    import papercuts.build
    from papercuts.validate import campaign_cache

    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    ratios = data_copy / "campaigns" / "2024-10-23-busy-wait-dell32" / "relative.csv"
    header, first_row, rest = ratios.read_text().split("\n", 2)
    key, value = first_row.rsplit(",", 1)

    def saved(delta: float) -> None:  # the file as an editor saves it: one value changed
        ratios.write_text(f"{header}\n{key},{float(value) + delta:.2f}\n{rest}")

    # Saved between the folder's digest and its reading: read as +0.02, hashed as +0.01.
    saved(0.01)
    read_all = campaign_cache._read_all
    monkeypatch.setattr(campaign_cache, "_read_all", lambda *a: (saved(0.02), read_all(*a))[1])
    said: list[str] = []
    build(paths, Timings(say=said.append))
    assert any("inputs changed while this build ran" in line for line in said), said
    monkeypatch.undo()
    saved(0.01)  # saved back, and another campaign changed: its rows of +0.02 are kept nowhere
    toml = data_copy / "campaigns" / "2025-10-13-dell32-postgres-18-0-v1" / "campaign.toml"
    toml.write_text(toml.read_text() + "# read again\n")
    build(paths)
    clean_paths = Paths.make(data=data_copy, build=tmp_path / "clean-build", out=tmp_path / "clean")
    build(clean_paths)
    clean = tree(clean_paths.public)
    assert tree(paths.public) == clean
    # Saved after the inputs' digest, before reading (the other campaign changed again, so the
    # build runs): the site shows +0.03. Saved back, the next build runs and shows +0.01 (it had
    # said that nothing changed, and kept +0.03).
    toml.write_text(toml.read_text() + "# and again\n")
    real = papercuts.build._build
    monkeypatch.setattr(papercuts.build, "_build", lambda *a: (saved(0.03), real(*a))[1])
    build(paths)
    monkeypatch.undo()
    saved(0.01)
    said.clear()
    build(paths, Timings(say=said.append))
    assert not any("nothing changed" in line for line in said), said
    clean_paths = Paths.make(data=data_copy, build=tmp_path / "clean-build-2", out=tmp_path / "clean-2")
    build(clean_paths)
    assert tree(paths.public) == tree(clean_paths.public)


def _trash(paths: Paths) -> list[dict]:
    """The trees in the build's trash, by their files' digests."""
    return [tree(held) for box in sorted(paths.trash.iterdir()) for held in box.iterdir()]


def _tables(db) -> dict[str, list]:
    """Every table's rows in order; those of a table of campaign rows as each campaign's rows in
    order, campaigns by id: a build keeps the unchanged campaigns' rows where they were and appends
    the changed ones' (ingest/previous.py), so only a campaign's own rows have an order, and they
    are consecutive."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        # tables: a view (ladder_values) is made of them, and names rows by their places (rowid)
        names = [t for (t,) in con.execute("SELECT table_name FROM information_schema.tables "
                                           "WHERE table_type = 'BASE TABLE' ORDER BY 1").fetchall()]
        ladders = dict(con.execute("SELECT ladder, campaign FROM ladders").fetchall()) if "ladders" in names else {}
        tables = {}
        for t in names:
            rows = con.execute(f'SELECT * FROM "{t}"').fetchall()
            columns = [d[0] for d in con.description]
            if not _blocks(t, columns):
                tables[t] = rows
                continue
            if "campaign" in columns:
                of = [r[columns.index("campaign")] for r in rows]
            else:
                of = [ladders[r[columns.index("ladder")]] for r in rows]
            blocks = [(c, [r for _, r in b]) for c, b in groupby(zip(of, rows, strict=True), key=lambda p: p[0])]
            assert len({c for c, _ in blocks}) == len(blocks), f"{t}: a campaign's rows apart"
            tables[t] = sorted(blocks)
        return tables
    finally:
        con.close()


def _blocks(table: str, columns: list[str]) -> bool:
    """Whether a table holds campaign rows, whose campaigns may come in any order: those a build
    may keep in place, and the raw tables with a campaign column (ingest/tables.py _ingest_raw)."""
    return table in IN_PLACE or (table in RAW_TABLES and "campaign" in columns)


def _units(said: list[str]) -> tuple[int, int]:
    line = next(s for s in said if "page unit(s) unchanged" in s)
    kept, written = (int(w) for w in line.split() if w.isdigit())
    return kept, written


def _placed(public: Path, campaign: str) -> dict:
    """The files Papercuts publishes itself under a campaign's address, with their inodes: not
    Hugo's pages, nor the PNG of the page's first chart, which Hugo publishes too (og:image,
    baseof.html)."""
    folder = public / "campaigns" / campaign
    return {p.relative_to(folder): p.stat().st_ino for p in folder.rglob("*")
            if p.is_file() and p.suffix not in (".html", ".png")}


def _embeds(public: Path, campaign: str) -> dict:
    """The embed pages of a campaign's charts (render/embeds.py: Papercuts', not Hugo's), with their inodes."""
    folder = public / "embed" / "campaigns" / campaign
    return {p.relative_to(folder): p.stat().st_ino for p in folder.rglob("index.html")}


def _drawn_pages(paths: Paths) -> dict[str, int]:
    """The investigations' and the calibration page in the content tree, with their inodes: a kept
    unit's is linked from the last build's copy (render/reuse.py), a page made again is a new file."""
    return {p.parent.name: p.stat().st_ino for pattern in ("investigations/*/index.md", "calibration/index.md")
            for p in paths.generated.glob(pattern)}


def _rebuild(paths: Paths, said: list[str]) -> tuple[Timings, set[str]]:
    """A build after a change: its timings, and which of those pages it made again."""
    before = _drawn_pages(paths)
    said.clear()
    t = Timings(say=said.append)
    build(paths, t)
    after = _drawn_pages(paths)
    assert len(before) == len(after) == 7
    return t, {k for k in before if after[k] != before[k]}


def _inodes(*roots: Path, skip: Path | None = None) -> set[tuple[int, int]]:
    return {(st.st_dev, st.st_ino) for root in roots for p in root.rglob("*")
            if p.is_file() and not (skip and p.is_relative_to(skip)) for st in [p.stat()]}


def test_pages_of_servers_and_campaigns_a_change_does_not_reach_are_kept_and_the_site_is_a_clean_builds(
        data_copy, tmp_path):
    """Issue 16.3: a new campaign rewrites its own page, its server's pages and the site-wide ones;
    every other server's and campaign's pages come from the last build. A catalog change reaches
    every page. Each time the site is byte for byte a clean build's. The project's investigations
    are built with the copy of its data: their pages are kept too."""
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public",
                       content=PROJECT / "content")
    said: list[str] = []
    build(paths, Timings(say=said.append))
    kept, total = _units(said)
    assert kept == 0 and total > 10

    def clean(name: str) -> tuple[dict, int]:
        other = Paths.make(data=data_copy, build=tmp_path / f"{name}-build", out=tmp_path / name,
                           content=PROJECT / "content")
        t = Timings()
        build(other, t)
        # The database too, table by table and row by row, each campaign's rows in order: rows
        # taken from the last build's database (ingest/previous.py) are a clean build's.
        assert _tables(paths.db) == _tables(other.db)
        # It says how many pages it built: a page is a bundle's index.md or a section's _index.md.
        assert t.pages == sum(1 for f in other.generated.rglob("*index.md") if f.name in ("index.md", "_index.md")
                              and f.relative_to(other.generated).parts[0] != "_verbatim")
        return tree(other.public), t.pages  # and so does this build

    # A new campaign on dell32, of variants the site has: the 2024 one measured again, 1 % faster.
    campaign_again(data_copy, "2026-11-01-busy-wait-dell32-again", "2026-11-01", 1.01)
    elsewhere = _placed(paths.public, "2014-04-16-itc-vs-threads")
    embeds = _embeds(paths.public, "2014-04-16-itc-vs-threads")
    t, remade = _rebuild(paths, said)
    kept, written = _units(said)
    # Its contributed files and its charts' files are the last site's very files, not written
    # again (publish/placed.py): the change does not reach that campaign.
    assert len(elsewhere) > 3 and _placed(paths.public, "2014-04-16-itc-vs-threads") == elsewhere
    # and so are its charts' embed pages, which that campaign's page unit wrote
    assert embeds and _embeds(paths.public, "2014-04-16-itc-vs-threads") == embeds
    # and the site shares no file with the build's own (content tree, kept pages, images: the
    # last site, in the trash, does): an edit of a published file cannot reach a later build
    assert not _inodes(paths.public) & _inodes(paths.build, paths.image_cache, skip=paths.trash)
    # Investigations are kept but the one whose charts name nothing (its date is the site's newest),
    # and so is the calibration page, which draws no campaign.
    assert remade == {"myrocks-2x-less-slow"}
    # its page, dell32's page, ladders and explorer files, that investigation; nothing of the other servers
    assert 0 < written <= 5 and kept + written == total + 1, said
    campaigns = len(list((data_copy / "campaigns").iterdir()))
    # dated before the last campaign: the others' rows stay in a copy, its own are appended
    assert f"the rows of {campaigns - 1} unchanged campaign(s) kept in a copy of the last build's database" in (
        "".join(said))
    assert (tree(paths.public), t.pages) == clean("after-new-campaign")
    assert "2026-11-01-busy-wait-dell32-again" in (paths.public / "servers" / "dell32" / "index.html").read_text()

    # Two campaigns with measured results change, apart in folder order: one's raw README (its
    # repetitions are averaged), one QPS of the other. Their rows of measured_qps, rqps and
    # ladder_values are made over them alone, the others' copied (derive/models.py PER_CAMPAIGN).
    readme = data_copy / "campaigns" / "2026-11-22-mariadb-spin-wait" / "raw" / "README.md"
    readme.write_text(readme.read_text() + "\nRead again.\n")
    results = data_copy / "campaigns" / "2014-04-16-itc-vs-threads" / "results.csv"
    header, first, *rest = results.read_text().splitlines()
    key, value = first.rsplit(",", 1)
    results.write_text("\n".join([header, f"{key},{float(value) * 1.01:.2f}", *rest]) + "\n")
    t, remade = _rebuild(paths, said)
    # the investigations whose charts draw them are made again, and the one that names nothing
    assert remade == {"mariadb-spin-wait-delay-vm", "kernel-mutex-thread-concurrency", "myrocks-2x-less-slow"}
    assert f"the rows of {campaigns - 2} unchanged campaign(s) kept in a copy of the last build's database" in (
        "".join(said))
    assert (tree(paths.public), t.pages) == clean("after-measured-change")

    # A catalog row's text changed: every unit may show it, so every one is written again.
    builds = data_copy / "builds.csv"
    text = builds.read_text()
    assert "Upstream MySQL 8.0.28." in text
    builds.write_text(text.replace("Upstream MySQL 8.0.28.", "Upstream MySQL 8.0.28 (a release build).", 1))
    t, remade = _rebuild(paths, said)
    kept, written = _units(said)
    assert kept == 0 and written == total + 1 and len(remade) == 7, said
    assert not any("copied from the last build's database" in line for line in said), said
    assert (tree(paths.public), t.pages) == clean("after-catalog")


def test_a_site_made_from_campaign_rows_stored_in_any_order_is_a_clean_builds(data_copy, tmp_path, monkeypatch):
    """ingest/previous.py: once a build has appended a changed campaign's rows, a table's campaigns
    come in any order, so nothing a build reads may depend on it. The last database's campaigns
    reversed in every table of campaign rows and no page kept, a rebuild after one campaign's change
    reads every table through them (the models over every campaign, the ladders' known matches,
    every page): its database and its site are a clean build's."""
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    con = duckdb.connect(str(paths.db))
    for (t,) in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall():
        columns = [d[0] for d in con.execute(f"SELECT * FROM {t} LIMIT 0").description]
        if not _blocks(t, columns):
            continue
        of = "x.campaign" if "campaign" in columns else "(SELECT l.campaign FROM ladders l WHERE l.ladder = x.ladder)"
        con.execute(f"CREATE TEMP TABLE reversed AS SELECT x.* FROM {t} x ORDER BY {of} DESC, x.rowid")
        con.execute(f"DELETE FROM {t}")
        con.execute(f"INSERT INTO {t} SELECT * FROM reversed ORDER BY rowid")
        con.execute("DROP TABLE reversed")
    first, last = con.execute("SELECT first(campaign), last(campaign) FROM results").fetchone()
    con.close()
    assert first > last  # reversed
    for unit in (paths.build / "pages-reused").glob("*/unit.json"):  # no page kept: every one made again
        unit.write_text(unit.read_text().replace('"key": "', '"key": "not '))
    results = data_copy / "campaigns" / "2014-04-16-itc-vs-threads" / "results.csv"
    header, row, *rest = results.read_text().splitlines()
    key, value = row.rsplit(",", 1)
    results.write_text("\n".join([header, f"{key},{float(value) * 1.01:.2f}", *rest]) + "\n")
    said: list[str] = []
    # copied from it, in their order there: any free space the reversal left is too much
    # (previous.MAX_FREE; the tables of campaign rows have no index a reversal would leave free)
    monkeypatch.setattr(previous, "MAX_FREE", 0.0)
    build(paths, Timings(say=said.append))
    campaigns = len(list((data_copy / "campaigns").iterdir()))
    assert any(f"the rows of {campaigns - 1} unchanged campaign(s) copied" in line for line in said), said
    assert _units(said)[0] == 0, said
    clean = Paths.make(data=data_copy, build=tmp_path / "clean-build", out=tmp_path / "clean")
    build(clean)
    assert _tables(paths.db) == _tables(clean.db)
    assert tree(paths.public) == tree(clean.public)


def test_rows_copied_from_the_last_database_keep_its_order_on_every_thread(tmp_path):
    """ingest/previous.copy_rows: a large table's row groups, read on several threads, may come in
    another order unless asked for (x100: a campaign from the middle of results came first)."""
    from papercuts.ingest import previous

    last = tmp_path / "last.duckdb"
    with duckdb.connect(str(last)) as con:  # SYNTHETIC: 8 campaigns of 60,000 rows, several row groups
        con.execute("CREATE TABLE results AS SELECT 'c' || (i // 60000) AS campaign, i AS n FROM range(480000) t(i)")
    con = duckdb.connect()
    con.execute("SET threads = 4")
    con.execute(f"ATTACH '{last}' AS {previous.ALIAS} (READ_ONLY)")
    con.execute("CREATE TABLE results (campaign VARCHAR, n BIGINT)")
    previous.copy_rows(con, "results", [f"c{k}" for k in range(1, 8)])
    assert [n for (n,) in con.execute("SELECT n FROM results").fetchall()] == list(range(60000, 480000))


def test_a_build_keeps_the_unchanged_campaigns_rows_in_a_copy_of_the_last_database(data_copy, tmp_path):
    """Issue 16.3, ingest/previous.py: when most campaigns are unchanged, the build starts from a
    copy of the last database, whose unchanged rows stay in place, the changed ones' appended
    wherever they come in folder order; each time the database, row by row, and the site are a
    clean build's. The new campaign is dated in the future, which Hugo leaves out unless told
    (site/hugo.toml buildFuture)."""
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    before = tree(paths.public)
    campaigns = sorted(p.name for p in (data_copy / "campaigns").iterdir())
    old = data_copy / "campaigns" / "2024-10-23-busy-wait-dell32"
    new = data_copy / "campaigns" / "2099-11-30-busy-wait-dell32-again"
    assert new.name > campaigns[-1]
    header, *rows = (old / "relative.csv").read_text().splitlines()

    def measured(factor: float) -> None:
        faster = [f"{key},{float(value) * factor:.2f}" for key, value in (r.rsplit(",", 1) for r in rows)]
        (new / "relative.csv").write_text("\n".join([header, *faster]) + "\n")

    def rebuilt(name: str, unchanged: int) -> None:
        said: list[str] = []
        build(paths, Timings(say=said.append))
        kept = f"the rows of {unchanged} unchanged campaign(s) kept in a copy of the last build's database"
        assert any(line.strip() == kept for line in said), said
        clean = Paths.make(data=data_copy, build=tmp_path / f"{name}-build", out=tmp_path / name)
        build(clean)
        assert _tables(paths.db) == _tables(clean.db)
        assert tree(paths.public) == tree(clean.public)
        sizes.append((paths.db.stat().st_size, clean.db.stat().st_size))

    sizes: list[tuple[int, int]] = []
    new.mkdir()
    measured(1.01)
    (new / "campaign.toml").write_text((old / "campaign.toml").read_text().replace("date = 2024-10-23",
                                                                                   "date = 2099-11-30"))
    rebuilt("added", len(campaigns))
    assert (paths.public / "campaigns" / new.name / "index.html").is_file()
    # the last campaign measured again: its rows are deleted from the copy and made again
    measured(1.02)
    rebuilt("changed", len(campaigns))
    # and removed: the copy's rows of it are deleted, and the site is the first build's
    for f in new.iterdir():
        f.unlink()
    new.rmdir()
    rebuilt("removed", len(campaigns))
    assert tree(paths.public) == before
    # a campaign among the others removed: its rows are deleted from the copy, the rest stay in order
    shutil.rmtree(data_copy / "campaigns" / "2025-05-25-ax162-s-postgres-18beta1")
    rebuilt("middle-removed", len(campaigns) - 1)
    # a campaign among the others measured again (one QPS 1 % higher): the others' rows stay in
    # place, its own are made again after them
    gtid = data_copy / "campaigns" / "2025-12-17-ax162-s-mysql-gtid" / "raw" / "qps.abs.my.80plus.csv"
    first, *rest = gtid.read_text().splitlines()
    name, qps, *others = first.split(",")
    gtid.write_text("\n".join([",".join([name, str(round(int(qps) * 1.01)), *others]), *rest]) + "\n")
    assert any(c > gtid.parents[1].name for c in campaigns)  # not the last: its rows move behind the others'
    rebuilt("middle-changed", len(campaigns) - 2)
    # the copy's dropped tables' blocks are reused by the tables made again, and a copy whose file
    # is more than a quarter free space is not taken (previous.MAX_FREE): no file growing each time
    assert all(size <= 1.25 * clean for size, clean in sizes), sizes


def test_a_build_starts_from_a_copy_only_when_its_kept_campaigns_hold_most_rows_of_a_file_with_little_free_space(
        tmp_path):
    """ingest/previous.py: deleting most of a copy's rows costs more than copying the few kept, and
    a copy keeps the blocks its deleted rows left; the rows weigh, not the campaigns. The copy is
    made before the campaigns' digests are known (prepare), and taken or removed once they are."""
    from papercuts.ingest import previous

    last, copy = tmp_path / "last.duckdb", tmp_path / "new.duckdb"
    with duckdb.connect(str(last)) as con:  # SYNTHETIC: what a build's database records
        previous.record(con, "common", {"a": "1", "b": "2", "c": "3"})
        con.execute("CREATE TABLE file_rows AS SELECT * FROM (VALUES ('a', 10), ('b', 10), ('c', 100)) "
                    "v(campaign, rows)")

    def kept(common: str, digests: dict[str, str]) -> tuple[set[str], bool]:
        seed = previous.prepare(copy, last, common, {})
        try:
            assert (seed.con is not None) == copy.is_file()
            return previous._choose(seed, digests)
        finally:
            seed.discard(copy)
            assert not copy.exists()

    assert kept("common", {"a": "1", "b": "2", "c": "new"}) == ({"a", "b"}, False)  # 20 of 120
    assert kept("common", {"a": "new", "b": "new", "c": "3"}) == ({"c"}, True)  # 100 of 120
    assert kept("common", {"c": "3"}) == ({"c"}, True)
    assert kept("common", {"a": "1", "b": "2"}) == ({"a", "b"}, False)  # c removed: its rows too
    assert kept("other code", {"a": "1", "b": "2", "c": "3"}) == (set(), False)
    with duckdb.connect(str(last)) as con:  # the blocks of a large table dropped, before a table after them
        con.execute("CREATE TABLE big AS SELECT range AS n, range::VARCHAR AS s FROM range(2000000)")
        con.execute("CHECKPOINT")
        con.execute("CREATE TABLE after AS SELECT range AS n FROM range(1000)")
        con.execute("CHECKPOINT")
        con.execute("DROP TABLE big")
        con.execute("CHECKPOINT")
    assert kept("common", {"a": "new", "b": "new", "c": "3"}) == ({"c"}, False)


def test_a_database_begun_empty_as_the_campaigns_are_read_is_the_one_the_build_loads(tmp_path):
    """build._Database.prepare: when no copy of the last database can seed the new one (here its
    log is beside it), the new one is begun empty, its tables made, while the campaigns are read;
    once they are, the build loads that very database, the unchanged campaigns' rows copied into it."""
    from papercuts.ingest import tables

    last, db = tmp_path / "last.duckdb", tmp_path / "new.duckdb"
    with duckdb.connect(str(last)) as con:  # SYNTHETIC: what a build's database records
        previous.record(con, "common", {"a": "1", "b": "2"})
        con.execute("CREATE TABLE file_rows AS SELECT * FROM (VALUES ('a', 10), ('b', 10)) v(campaign, rows)")
    (tmp_path / "last.duckdb.wal").write_bytes(b"")  # not closed: never copied
    seed = previous.empty(previous.prepare(db, last, "common", IN_PLACE), db, tables.create)
    assert seed.fresh and db.is_file()
    with duckdb.connect(":memory:") as probe:
        tables.create(probe)
        made = probe.execute("SELECT count(*) FROM duckdb_tables()").fetchone()[0]
    assert seed.con.execute("SELECT count(*) FROM duckdb_tables()").fetchone()[0] == made
    (tmp_path / "last.duckdb.wal").unlink()  # closed again, for the ATTACH
    con, taken = previous.start(db, last, seed, {"a": "1", "b": "new"}, ["a", "b"], IN_PLACE)
    try:
        assert con is seed.con  # the database begun, not another
        assert taken == previous.Last(frozenset({"a"}), frozenset())  # a's rows copied in, none in place
    finally:
        con.close()


def test_another_version_of_a_package_keeps_nothing_of_the_last_build(data_copy, tmp_path, monkeypatch):
    """fingerprint.toolchain: another DuckDB (or Hugo, NumPy...) may sum, order or store otherwise,
    so the site, the campaigns read, the database's rows and the pages are all made again."""
    import importlib.metadata

    from papercuts import fingerprint
    from papercuts.validate import campaign_cache

    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    real = importlib.metadata.distributions

    class Upgraded:
        def __init__(self, d):
            self.metadata, self.version = d.metadata, d.version + (".1" if d.metadata["Name"] == "duckdb" else "")

    monkeypatch.setattr(importlib.metadata, "distributions", lambda: [Upgraded(d) for d in real()])
    fingerprint.toolchain.cache_clear()
    campaign_cache.code_digest.cache_clear()
    said: list[str] = []
    try:
        build(paths, Timings(say=said.append))
    finally:
        fingerprint.toolchain.cache_clear()
        campaign_cache.code_digest.cache_clear()
    campaigns = len(list((data_copy / "campaigns").iterdir()))
    assert not any("nothing changed" in line for line in said), said
    assert any(f"{campaigns} campaigns (0 unchanged since the last build)" in line for line in said), said
    assert not any("copied from the last build's database" in line or "kept in a copy" in line for line in said)
    assert _units(said)[0] == 0  # no page unit kept


def test_a_changed_campaigns_rows_follow_the_kept_ones_wherever_it_comes_in_folder_order():
    """ingest/tables.py _by_campaign: the kept campaigns' rows stay where they are (or are copied
    from the last database first), and the changed ones' are appended, each campaign's rows in the
    order read; a table whose campaign's rows were read apart is inserted whole instead."""
    from papercuts.ingest import previous
    from papercuts.ingest.tables import _by_campaign, _insert

    con = duckdb.connect()
    con.execute("CREATE TABLE t (campaign VARCHAR, n INTEGER)")
    con.execute("INSERT INTO t VALUES ('b', 1), ('b', 2)")  # kept in place from the last database
    rows = [{"campaign": "a", "n": 9}, {"campaign": "a", "n": 8}, {"campaign": "b", "n": 1},
            {"campaign": "b", "n": 2}, {"campaign": "c", "n": 7}]
    seeded = previous.Last(frozenset({"b"}), frozenset({"t"}))
    _by_campaign(con, "t", ["campaign", "n"], rows, _insert, seeded)
    assert con.execute("SELECT campaign, n FROM t").fetchall() == [("b", 1), ("b", 2), ("a", 9), ("a", 8), ("c", 7)]
    # not in place: the kept rows are copied from the last database, in its order, before the others
    con.execute("ATTACH ':memory:' AS previous")
    con.execute("CREATE TABLE previous.t AS SELECT * FROM (VALUES ('z', 5), ('b', 1), ('b', 2)) v(campaign, n)")
    con.execute("DELETE FROM t")
    rows.insert(2, {"campaign": "z", "n": 5})
    _by_campaign(con, "t", ["campaign", "n"], rows, _insert, previous.Last(frozenset({"z", "b"})))
    assert con.execute("SELECT campaign, n FROM t").fetchall() == [
        ("z", 5), ("b", 1), ("b", 2), ("a", 9), ("a", 8), ("c", 7)]
    # a campaign's rows read apart: the table is emptied and every row inserted in the order read
    con.execute("DELETE FROM t WHERE campaign <> 'b'")
    apart = [{"campaign": "a", "n": 9}, {"campaign": "b", "n": 1}, {"campaign": "a", "n": 8}]
    _by_campaign(con, "t", ["campaign", "n"], apart, _insert, seeded)
    assert con.execute("SELECT campaign, n FROM t").fetchall() == [("a", 9), ("b", 1), ("a", 8)]


def test_a_file_is_linked_from_the_last_site_only_while_neither_side_has_changed(tmp_path):
    """publish/placed.py: a file is the last site's when its source and the last site's copy are
    the very files the last build placed; a new source, or the site's copy edited in place, is
    copied afresh."""
    from papercuts.publish.placed import RECORD, Placer

    content, public = tmp_path / "content", tmp_path / "public"
    content.mkdir()
    for name in "abc":
        (content / name).write_text(f"{name} 1\n")

    def publish(n: int) -> Placer:
        staging = tmp_path / f"staging-{n}"
        staging.mkdir()
        placer = Placer(tmp_path / RECORD, public, staging)
        for name in "abc":
            placer.place(str(content / name), name)
        placer.save()
        shutil.rmtree(public, ignore_errors=True)
        staging.rename(public)
        return placer

    first = publish(1)  # no last site: every file copied
    assert (first.linked, first.copied) == (0, 3)
    before = {name: (public / name).stat().st_ino for name in "abc"}
    assert publish(2).linked == 3 and {name: (public / name).stat().st_ino for name in "abc"} == before
    (content / "a").unlink()  # a new source
    (content / "a").write_text("a 2\n")
    with open(public / "b", "r+b") as f:  # the site's copy edited in place, a second later
        f.write(b"B")
    st = (public / "b").stat()
    os.utime(public / "b", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    third = publish(3)
    assert (third.linked, third.copied) == (1, 2)
    assert {name: (public / name).read_text() for name in "abc"} == {"a": "a 2\n", "b": "b 1\n", "c": "c 1\n"}
    assert (public / "c").stat().st_ino == before["c"]


def test_a_kept_units_files_are_linked_into_the_content_tree_and_a_second_writer_is_refused(tmp_path):
    unit, other, tree = tmp_path / "unit", tmp_path / "other", tmp_path / "content"
    for root, text in ((unit, "first"), (other, "second")):
        (root / "servers" / "dell32").mkdir(parents=True)
        (root / "servers" / "dell32" / "index.md").write_text(text)
    (unit / "servers" / "dell32" / "rqps.csv").write_text("a,b\n")
    _place(unit, tree)
    placed = tree / "servers" / "dell32"
    assert sorted(p.name for p in placed.iterdir()) == ["index.md", "rqps.csv"]
    assert placed.joinpath("index.md").stat().st_ino == unit.joinpath("servers", "dell32", "index.md").stat().st_ino
    with pytest.raises(RuntimeError, match=r"two page units wrote .*servers/dell32/index.md"):
        _place(other, tree)
    assert placed.joinpath("index.md").read_text() == "first"  # never over the first unit's


GIVEN: list[Path] = []  # the folders the jobs below were given to write in


def _page(con, root: Path, folder: str, text: str) -> int:
    GIVEN.append(root)
    (root / folder).mkdir(parents=True, exist_ok=True)
    (root / folder / "index.md").write_text(text)
    return 1


def test_a_page_made_at_every_build_is_linked_in_and_never_written_through_a_kept_units_file(tmp_path):
    """A unit that is never kept (the regressions index) is made apart (reuse.start_apart) in a
    scratch folder of its own, then linked into the content tree as a kept unit's files are: made
    on a worker while this process links the kept units in, a page written straight into the tree
    at a path a kept unit holds would be written through that link, into the kept copy, with no
    error."""
    from papercuts.render.reuse import Reuse, start_apart
    from papercuts.render.units import Unit, Workers

    paths = Paths.make(data=tmp_path / "data", build=tmp_path / "build", out=tmp_path / "public")
    reuse = Reuse.__new__(Reuse)  # its key's inputs given, not read from a database
    reuse.cache, reuse.digests, reuse.enabled, reuse.common = tmp_path / "cache", {"c1": "d1"}, True, "common"
    reuse.reused = reuse.written = 0
    reuse.used, reuse.colours, reuse.variants, reuse.by_server = set(), {}, {}, {}
    reuse.held, reuse.placed = {}, {}
    unit = Unit("campaign c1", _page, ("campaigns/c1", "the unit's"), campaign="c1")
    with Workers(duckdb.connect()) as workers:
        out = tmp_path / "content"
        out.mkdir()
        GIVEN.clear()
        always = start_apart(Unit("ladder index", _page, ("regressions", "always")), paths, workers)
        pages = reuse.run([unit], out, workers, meanwhile=lambda: 1) + always(out)
        assert pages == 3 and reuse.written == 1
        assert out not in GIVEN and (out / "regressions" / "index.md").read_text() == "always"
        assert not list((paths.build / "pages-reused").glob("*.tmp-*"))  # the scratch folder is gone
        again = tmp_path / "again"
        again.mkdir()
        over = start_apart(Unit("ladder index", _page, ("campaigns/c1", "over it")), paths, workers)
        reuse.run([unit], again, workers)
        with pytest.raises(RuntimeError, match=r"two page units wrote .*campaigns/c1/index.md"):
            over(again)
        assert reuse.reused == 1
        kept = next(p for p in reuse.cache.glob("*/files/campaigns/c1/index.md") if ".tmp-" not in str(p))
        assert kept.read_text() == (again / "campaigns" / "c1" / "index.md").read_text() == "the unit's"


def test_an_investigation_is_keyed_by_the_campaigns_its_charts_draw():
    """Its page is kept while they are unchanged (render/reuse.py): a campaign a chart names; a
    ladder's campaign and every campaign of its server, as the ladder pages are; every campaign
    when no chart names one, as its date is then the site's newest."""
    from papercuts.render.investigations import drawn_from

    con = duckdb.connect()
    con.execute("CREATE TABLE ladders AS SELECT * FROM (VALUES ('L1', 's1', 'c2'), ('L2', 's2', 'c4')) "
                "AS t(ladder, server, campaign)")
    by_server, every = {"s1": ["c1", "c2"], "s2": ["c3", "c4"]}, ["c1", "c2", "c3", "c4", "c5"]
    assert drawn_from(con, [{"campaign": "c5"}], by_server, every) == ("c5",)
    assert drawn_from(con, [{"campaign": "c5"}, {"ladder": "L1"}], by_server, every) == ("c1", "c2", "c5")
    assert drawn_from(con, [{"calibrations": ["k1"]}], by_server, every) == ()
    assert drawn_from(con, [], by_server, every) == tuple(every)
    # an unknown ladder names nothing: the page is made, and its chart refuses it
    assert drawn_from(con, [{"ladder": "L9"}], by_server, every) == tuple(every)


def test_the_calibration_page_is_keyed_by_no_campaign_while_it_has_charts(monkeypatch):
    """Its charts name calibrations only (data outside the campaigns, in every key); without one,
    its date is the site's newest, which any campaign may change."""
    from papercuts.render import calibration_pages

    cal = {"id": "k1", "ut_delay_rows": 0, "prng_rows": 0, "draw_cost_rows": 0, "timebase_subjects": 0}
    for held, key in ((["ut_delay_rows"], ()), (["prng_rows"], ()), (["timebase_subjects"], ()), ([], ("c1", "c2"))):
        given = [{**cal, **dict.fromkeys(held, 3)}]
        monkeypatch.setattr(calibration_pages, "_calibrations", lambda con, given=given: given)
        assert calibration_pages.drawn_from(None, ["c1", "c2"]) == key, held
    monkeypatch.setattr(calibration_pages, "_calibrations", lambda con: [])
    assert calibration_pages.drawn_from(None, ["c1", "c2"]) == ("c1", "c2")


def test_papercuts_files_placed_in_the_last_site_but_one_are_a_fresh_placements(tmp_path):
    """publish/own_files.py with a recycled tree (the site before the last, publish/trash.py take):
    a file the placer would link from the last site stays where it is, the very file; everything
    else there goes, a file where a folder must be and a folder where a file must be too; the
    tree is then file for file what placing into an empty one gives."""
    from papercuts.publish.own_files import OwnFiles
    from papercuts.publish.placed import RECORD, Placer

    content, site = tmp_path / "content", tmp_path / "site"
    charts = content / "servers" / "s1"
    charts.mkdir(parents=True)

    def write(path: Path, text: str) -> None:
        path.unlink(missing_ok=True)  # a new file, as render writes one
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def publish(root: Path, recycled: bool = False, save: bool = True) -> OwnFiles:
        if not recycled:
            root.mkdir()
        own = OwnFiles(root, Placer(tmp_path / RECORD, site, root), recycled)
        own.place(content)
        if save:
            own.placer.save()
        return own

    for name in ("a.csv", "b.csv", "d.csv"):
        write(charts / name, f"{name} 1\n")
    write(content / "_verbatim" / "campaigns" / "c1" / "x.txt", "x\n")
    write(content / "servers" / "s2.csv", "s2\n")
    write(charts / "f.csv" / "g.csv", "g\n")
    publish(tmp_path / "one")
    (tmp_path / "one").rename(site)
    write(charts / "b.csv", "b.csv 2\n")  # changed after the first site
    (content / "_verbatim" / "campaigns" / "c1" / "x.txt").unlink()  # gone
    (content / "servers" / "s2.csv").unlink()
    write(content / "servers" / "s2.csv" / "c.csv", "c\n")  # a folder where a file was
    publish(tmp_path / "two")
    site.rename(tmp_path / "old")
    (tmp_path / "two").rename(site)
    (charts / "d.csv").unlink()
    write(charts / "d.csv" / "e.csv", "e\n")  # and again in the third
    shutil.rmtree(charts / "f.csv")
    write(charts / "f.csv", "f\n")  # a file where a folder was
    (tmp_path / "old" / "servers" / "s1" / "stray.csv").write_text("not placed\n")
    (tmp_path / "old").rename(tmp_path / "three")
    recycled = publish(tmp_path / "three", recycled=True, save=False)
    fresh = publish(tmp_path / "fresh", save=False)
    assert tree(tmp_path / "three") == tree(tmp_path / "fresh")
    assert recycled.placer.kept == 1  # a.csv, unchanged since the first site; b.csv changed since
    a = Path("servers", "s1", "a.csv")
    assert (tmp_path / "three" / a).stat().st_ino == (site / a).stat().st_ino
    assert recycled.placer.placed.keys() == fresh.placer.placed.keys()
    assert recycled.clashes == fresh.clashes


def test_a_recycled_tree_with_a_file_that_cannot_go_is_set_aside_and_a_new_one_made(tmp_path):
    """publish/own_files.py: an old site in the trash holding a file no one may unlink (made
    immutable) is handed back to the trash, which tells what it cannot remove, and the files are
    placed in a new tree: the build does not fail for it."""
    import subprocess

    from papercuts.publish.own_files import OwnFiles
    from papercuts.publish.placed import RECORD, Placer

    content, site, old = tmp_path / "content", tmp_path / "site", tmp_path / ".site.staging-1.files"
    (content / "servers").mkdir(parents=True)
    (content / "servers" / "a.csv").write_text("a\n")
    (site / "servers").mkdir(parents=True)
    (old / "servers").mkdir(parents=True)
    stuck = old / "servers" / "stray.csv"
    stuck.write_text("stray\n")
    if subprocess.run(["chattr", "+i", str(stuck)], capture_output=True).returncode != 0:
        pytest.skip("cannot make a file immutable here")
    aside: list[Path] = []
    try:
        own = OwnFiles(old, Placer(tmp_path / RECORD, site, old), recycled=True, discard=aside.append)
        own.place(content)
        assert [p.name for p in aside] == [".stuck-site.staging-1.files"] and not own.recycled
        assert tree(old) == tree(content)  # a.csv alone, copied afresh
        assert (aside[0] / "servers" / "stray.csv").is_file()
    finally:
        subprocess.run(["chattr", "-i", str(aside[0] / "servers" / "stray.csv" if aside else stuck)], check=True)
