"""What a build hashes: every file under a folder, once, in one order (fingerprint.files_under)."""
from __future__ import annotations

import hashlib
import os

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
