"""Contributed files' bytes are stored by SHA-256 beside the build's database (ingest/blobs.py):
each written once and whole, read back only as stored, and kept exactly as long as the database
in place names them."""
from __future__ import annotations

import hashlib
import shutil

import pytest

from papercuts import build as build_module
from papercuts.build import build
from papercuts.ingest import blobs
from papercuts.paths import Paths
from papercuts.problems import UserError


def _file(data: bytes) -> dict:
    return {"bytes": data, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


def test_a_file_is_stored_once_under_its_hash_read_back_whole_and_kept_while_named(tmp_path):
    store = tmp_path / "blobs"
    a, b = _file(b"x\ty\n1\t2\n"), _file(bytes(range(256)) * 3)
    blobs.put(store, [a, b, a])
    assert sorted(p.name for p in store.iterdir()) == sorted([a["sha256"], b["sha256"]])
    assert blobs.get(store, b["sha256"], b["size"]) == b["bytes"]
    inode = (store / a["sha256"]).stat().st_ino
    blobs.put(store, [a])  # there already: not written again
    assert (store / a["sha256"]).stat().st_ino == inode

    (store / b["sha256"]).write_bytes(b["bytes"][:-1])  # cut short behind the build's back
    with pytest.raises(RuntimeError, match=f"{b['size'] - 1} bytes stored where the file has {b['size']}"):
        blobs.get(store, b["sha256"], b["size"])
    with pytest.raises(RuntimeError, match="not in the build's store"):
        blobs.get(store, "0" * 64, 1)
    blobs.put(store, [b])  # a file cut short (a crash before its blocks reached the disk) is written again
    assert blobs.get(store, b["sha256"], b["size"]) == b["bytes"]

    (store / f".{a['sha256']}.tmp-1").write_bytes(b"half")  # a write a killed build left
    blobs.keep(store, {a["sha256"]})
    assert [p.name for p in store.iterdir()] == [a["sha256"]]


def _data_files(data) -> set[str]:
    """The SHA-256 of every file of every campaign and calibration folder."""
    return {hashlib.sha256(p.read_bytes()).hexdigest()
            for folder in ("campaigns", "calibrations") for p in (data / folder).rglob("*") if p.is_file()}


def test_the_store_holds_the_files_of_the_database_in_place_and_no_others(data_copy, tmp_path):
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    assert {p.name for p in paths.blobs.iterdir()} == _data_files(data_copy)
    # A campaign removed: its files leave the store with the database that named them.
    gone = data_copy / "campaigns" / "2025-10-20-gcp-mariadb-enterprise"
    only_there = {hashlib.sha256(p.read_bytes()).hexdigest() for p in gone.rglob("*") if p.is_file()}
    shutil.rmtree(gone)
    build(paths)
    stored = {p.name for p in paths.blobs.iterdir()}
    assert stored == _data_files(data_copy)
    assert only_there - stored  # its own files are gone (others it shared with a campaign stay)
    # A build that fails once its database is made keeps the files the database still in place
    # names: here a campaign removed, then Hugo failing.
    gone = data_copy / "campaigns" / "2025-09-29-socket2-postgres-12-to-18"
    shutil.rmtree(gone)
    assert stored - _data_files(data_copy)  # files only it had

    def hugo_fails(*_, **__):
        raise RuntimeError("hugo was killed")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(build_module, "run_hugo", hugo_fails)
        with pytest.raises(RuntimeError, match="hugo was killed"):
            build(paths)
    assert {p.name for p in paths.blobs.iterdir()} == stored  # the removed campaign's files too


def test_a_build_whose_checks_fail_while_its_files_are_stored_leaves_only_whole_files(data_copy, tmp_path,
                                                                                    monkeypatch):
    """The build stores the files' bytes and loads the database on threads while validate's checks
    run (build._Database): when the checks then fail, the threads are joined before the error is
    raised, the new database is removed, the one in place is untouched, and the store holds only
    whole files under their SHA-256, which the next build that completes keeps only if its
    database names them."""
    import threading
    import time

    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    database = paths.db.read_bytes()
    results = data_copy / "campaigns" / "2014-04-16-itc-vs-threads" / "results.csv"
    good = results.read_text()
    results.write_text(good.replace("percona-2014,", "no-such-server,", 1))  # only the checks see it
    put = blobs.put

    def slow_put(*args):
        time.sleep(1)  # still writing when the checks fail
        put(*args)

    monkeypatch.setattr(blobs, "put", slow_put)
    with pytest.raises(UserError, match="error"):
        build(paths)
    assert not [t for t in threading.enumerate() if t.name.startswith("database")]
    assert paths.db.read_bytes() == database
    assert sorted(p.name for p in paths.db.parent.glob(paths.db.name + "*")) == [paths.db.name]
    stored = {p.name: p.read_bytes() for p in paths.blobs.iterdir()}
    assert hashlib.sha256(results.read_bytes()).hexdigest() in stored  # stored while the checks ran
    assert all(hashlib.sha256(data).hexdigest() == name for name, data in stored.items())
    results.write_text(good)
    build(paths)
    assert {p.name for p in paths.blobs.iterdir()} == _data_files(data_copy)


def test_ingest_writes_the_files_beside_the_rows_and_raises_a_failed_write_with_no_thread_left(tmp_path):
    """ingest stores the files' bytes on a thread while it inserts the rows: when it returns every
    file is whole, a write that failed is raised, and no thread is left (render forks only with
    none)."""
    import threading

    import duckdb

    from papercuts.build import validate
    from papercuts.ingest.tables import ingest
    from papercuts.paths import PROJECT

    ds, problems = validate(Paths.make(data=PROJECT / "data", build=tmp_path / "b", out=tmp_path / "p"))
    assert not problems.errors
    files = blobs.files(ds.rows)
    before = threading.active_count()  # the test session's own (a served site, a browser)
    ingest(ds, duckdb.connect(), tmp_path / "store")
    assert all(blobs.get(tmp_path / "store", f["sha256"], f["size"]) == f["bytes"] for f in files)
    assert threading.active_count() == before
    (tmp_path / "not-a-folder").write_text("")
    with pytest.raises(OSError):
        ingest(ds, duckdb.connect(), tmp_path / "not-a-folder")
    assert threading.active_count() == before


def test_a_stored_file_is_published_as_a_link_to_its_bytes_or_a_copy_and_never_when_cut(tmp_path, monkeypatch):
    """blobs.link: the content tree's copy of a contributed file is the stored file itself (one
    inode, written once); across file systems a copy; a stored file cut short is refused as get
    refuses it, never published."""
    import errno
    import os

    data = b"sysbench 1.0.20\n" * 100
    f = _file(data)
    store = tmp_path / "store"
    blobs.put(store, [f])
    blobs.link(store, f["sha256"], f["size"], tmp_path / "linked")
    assert (tmp_path / "linked").read_bytes() == data
    assert os.stat(tmp_path / "linked").st_ino == os.stat(store / f["sha256"]).st_ino

    def across(*_):
        raise OSError(errno.EXDEV, "cross-device link")

    with monkeypatch.context() as m:
        m.setattr(os, "link", across)
        blobs.link(store, f["sha256"], f["size"], tmp_path / "copied")
    assert (tmp_path / "copied").read_bytes() == data
    assert os.stat(tmp_path / "copied").st_ino != os.stat(store / f["sha256"]).st_ino
    (store / f["sha256"]).write_bytes(data[:10])
    with pytest.raises(RuntimeError, match="bytes stored where the file has"):
        blobs.link(store, f["sha256"], f["size"], tmp_path / "cut")
    assert not (tmp_path / "cut").exists()
