"""What a build hashes: every file under a folder, once, in one order (fingerprint.files_under)."""
from __future__ import annotations

import hashlib
import os
import time

from papercuts.fingerprint import files_under, hash_tree, inputs_digest
from papercuts.paths import Paths


def tree(root):
    for rel in ("b.txt", "a/z.txt", "a/b/c.txt", "campaigns/x.csv", "a/__pycache__/m.pyc", "sub/campaigns/y.csv"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    (root / "outside").mkdir()
    (root / "outside" / "o.txt").write_text("o")
    os.symlink(root / "outside", root / "a" / "linked-folder")
    os.symlink(root / "nowhere", root / "dangling")
    os.symlink(root / "b.txt", root / "a" / "linked-file")
    os.symlink(root / "a" / "loop", root / "a" / "loop")  # ELOOP: validation says what to do


def test_files_under_lists_each_file_once_in_a_fixed_order(tmp_path):
    tree(tmp_path)
    found = [rel for rel, _ in files_under(tmp_path, skip="campaigns")]
    # a folder's files by name, then its folders; no __pycache__, no dangling link, no folder
    # reached through a link; only the top folder named `skip` is left out
    assert found == ["b.txt", "a/linked-file", "a/z.txt", "a/b/c.txt", "outside/o.txt", "sub/campaigns/y.csv"]
    assert all(path == str(tmp_path / rel) for rel, path in files_under(tmp_path))
    assert list(files_under(tmp_path / "missing")) == []


def test_a_files_bytes_its_name_and_its_place_change_the_hash(tmp_path):
    tree(tmp_path)

    def digest():
        h = hashlib.sha256()
        hash_tree(h, "data", tmp_path)
        return h.hexdigest()

    first = digest()
    assert digest() == first
    (tmp_path / "a" / "z.txt").write_text("a/z.tx!")  # the same size, other bytes
    second = digest()
    assert second != first
    (tmp_path / "a" / "z.txt").rename(tmp_path / "a" / "y.txt")
    assert digest() not in (first, second)


def test_hugos_settings_in_the_environment_are_inputs_of_a_build(tmp_path, monkeypatch):
    """Hugo reads HUGO_BASEURL and the like from the environment, and so do the embed pages: a
    build with another base address is not "nothing changed"."""
    paths = Paths.make(data=tmp_path / "data", out=tmp_path / "public")
    (tmp_path / "data").mkdir()
    monkeypatch.delenv("HUGO_BASEURL", raising=False)
    plain = inputs_digest(paths)
    monkeypatch.setenv("HUGO_BASEURL", "https://example.org/papercuts/")
    assert inputs_digest(paths) != plain


def test_a_file_is_hashed_once_while_its_stat_holds_and_again_after_any_change(tmp_path, monkeypatch):
    """fingerprint.file_digest: a build hashes its data for its fingerprint, then each campaign
    folder; the second is the first's digest unless the file changed since (its change time
    moves whatever is done to its modification time: cp -p, touch -d)."""
    from papercuts import fingerprint

    path = tmp_path / "results.csv"
    path.write_bytes(b"qps\n100\n")
    opened = []
    monkeypatch.setattr(fingerprint, "open", lambda *a: opened.append(a) or open(*a), raising=False)
    monkeypatch.setattr(fingerprint, "RECENT_NS", -1)  # as a file written long before the build
    first = fingerprint.file_digest(str(path))
    assert first == (8, hashlib.sha256(b"qps\n100\n").digest())
    assert fingerprint.file_digest(str(path)) == first and len(opened) == 1  # not read again
    mtime = path.stat().st_mtime_ns
    time.sleep(0.05)  # past the clock tick of the first write
    path.write_bytes(b"qps\n999\n")  # the same size, other bytes, its time put back
    os.utime(path, ns=(mtime, mtime))
    assert fingerprint.file_digest(str(path)) == (8, hashlib.sha256(b"qps\n999\n").digest())


def test_a_file_changed_moments_ago_is_hashed_each_time(tmp_path, monkeypatch):
    """Within one clock tick a second change keeps a file's times: a file changed in the last
    seconds is never taken from what was hashed before."""
    from papercuts import fingerprint

    path = tmp_path / "results.csv"
    path.write_bytes(b"qps\n100\n")
    fingerprint.file_digest(str(path))
    before = path.stat()
    path.write_bytes(b"qps\n999\n")  # in the same tick: its stat as before (given as such here)
    assert fingerprint.file_digest(str(path), before)[1] == hashlib.sha256(b"qps\n999\n").digest()


def test_the_next_build_in_a_folder_reads_only_the_inputs_whose_stat_changed(tmp_path, monkeypatch):
    """fingerprint.keep_digests / recall_digests: a build keeps its inputs' digests in its build
    folder; the next one reads again only a file whose stat identity is not the one kept."""
    from papercuts import fingerprint

    data = tmp_path / "data"
    data.mkdir()
    for name in ("a.csv", "b.csv"):
        (data / name).write_text(f"{name}\n")
    paths = Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public")
    paths.build.mkdir()
    monkeypatch.setattr(fingerprint, "RECENT_NS", -1)  # as files written long before the build
    gone = str(data / "gone.csv")  # recalled from a build before, removed since
    monkeypatch.setattr(fingerprint, "_hashed", {str(tmp_path / "elsewhere"): ((1, 2, 3, 4, 5), 0, b""),
                                                 gone: ((1, 2, 3, 4, 5), 0, b"")})
    monkeypatch.setattr(fingerprint, "_asked", set())
    first = inputs_digest(paths)
    fingerprint.keep_digests(paths)
    kept = (paths.build / fingerprint.DIGESTS).read_text()
    assert str(data / "a.csv") in kept and "elsewhere" not in kept and gone not in kept  # this build's inputs only

    monkeypatch.setattr(fingerprint, "_hashed", {})  # the next build, another process
    fingerprint.recall_digests(paths.build)
    opened = []
    monkeypatch.setattr(fingerprint, "open", lambda p, *a: opened.append(str(p)) or open(p, *a), raising=False)
    assert inputs_digest(paths) == first and opened == []
    time.sleep(0.05)
    (data / "b.csv").write_text("B.csv\n")  # the same size
    assert inputs_digest(paths) != first and opened == [str(data / "b.csv")]

    (paths.build / fingerprint.DIGESTS).write_text('{"x": 1}')  # not this code's: nothing recalled
    monkeypatch.setattr(fingerprint, "_hashed", {})
    fingerprint.recall_digests(paths.build)
    assert fingerprint._hashed == {}
