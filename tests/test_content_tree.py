"""The content tree is updated where it is (render/content_tree.py): a rebuild places only the units
it makes again, removes everything else it does not hold, and gives a clean build's tree."""
from __future__ import annotations

import os
from pathlib import Path

from datadir import campaign_again
from datadir import tree_digest as tree
from papercuts.build import build
from papercuts.paths import Paths
from papercuts.render import content_tree


def _inodes(root: Path) -> dict[str, tuple[int, int]]:
    """Each file's inode and modification time (a file written again may get a freed inode back)."""
    return {p.relative_to(root).as_posix(): (st.st_ino, st.st_mtime_ns) for p in root.rglob("*") if p.is_file()
            for st in [p.stat()]}


def _folders(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir()}


def test_a_rebuild_updates_the_tree_where_it_is_and_gives_a_clean_builds(data_copy, tmp_path):
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    before, folder = _inodes(paths.generated), paths.generated.stat().st_ino
    kept_page = "campaigns/2014-04-16-itc-vs-threads/index.md"  # a unit no change below reaches
    assert kept_page in before and (paths.build / content_tree.RECORD).is_file()
    # By hand, in the tree: a stray file, and a kept unit's file replaced (a new file, not the
    # cache's): the stray goes, and the unit is placed again.
    stray = paths.generated / "campaigns" / "stray.md"
    stray.write_text("---\ntitle: stray\n---\n")
    replaced = paths.generated / "servers" / "pn53" / "index.md"
    text = replaced.read_text()
    replaced.unlink()
    replaced.write_text(text + "edited by hand\n")

    campaign_again(data_copy, "2026-11-01-busy-wait-dell32-again", "2026-11-01", 1.01)
    build(paths)
    after = _inodes(paths.generated)
    assert paths.generated.stat().st_ino == folder  # the same tree
    assert after[kept_page] == before[kept_page]  # not placed again: the same file in place
    assert after["_index.md"] != before["_index.md"]  # the home page is written at every build
    assert not stray.exists()
    assert "edited by hand" not in replaced.read_text()

    other = Paths.make(data=data_copy, build=tmp_path / "clean-build", out=tmp_path / "clean")
    build(other)
    assert tree(paths.generated) == tree(other.generated)
    assert _folders(paths.generated) == _folders(other.generated)  # no folder left empty
    assert tree(paths.public) == tree(other.public)


def test_a_build_stopped_while_the_tree_is_updated_leaves_a_new_tree_to_the_next(data_copy, tmp_path, monkeypatch):
    """The record goes before the tree is touched: after a build stopped in render, the next one
    writes a new tree beside it and swaps it in, not trusting the half-updated one."""
    from papercuts import build as build_module

    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    real = build_module.render_site

    def stopped(*args, **kwargs):
        (paths.build / content_tree.RECORD).unlink()  # as render does first
        (paths.generated / "_index.md").unlink()  # ... and then the tree is half updated
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "render_site", stopped)
    campaign_again(data_copy, "2026-11-01-busy-wait-dell32-again", "2026-11-01", 1.01)
    try:
        build(paths)
    except KeyboardInterrupt:
        pass
    assert not (paths.build / content_tree.RECORD).exists()
    monkeypatch.setattr(build_module, "render_site", real)
    folder = paths.generated.stat().st_ino
    build(paths)
    assert paths.generated.stat().st_ino != folder  # a new tree, swapped in
    other = Paths.make(data=data_copy, build=tmp_path / "clean-build", out=tmp_path / "clean")
    build(other)
    assert tree(paths.generated) == tree(other.generated)


def test_prune_keeps_only_whole_units_as_their_cache_holds_them(tmp_path):
    cache, tree_root = tmp_path / "cache", tmp_path / "tree"
    for entry, files in {"u1": ["a/x.md", "a/b/y.csv"], "u2": ["c/z.md", "c/w.csv"], "u3": ["d/v.md"]}.items():
        for rel in files:
            src = cache / entry / "files" / rel
            src.parent.mkdir(parents=True, exist_ok=True)
            src.write_text(rel)
            (tree_root / rel).parent.mkdir(parents=True, exist_ok=True)
            os.link(src, tree_root / rel)
    (tree_root / "e").mkdir()
    (tree_root / "e" / "page.md").write_text("a page of the whole site")
    (tree_root / "c" / "w.csv").unlink()  # u2 lost a file: placed again, so none of its files stay
    keys = {"u1": "k1", "u2": "k2", "u3": "k3-new"}  # u3's entry was made again since the record
    held = content_tree.prune(tree_root, cache, {"u1": "k1", "u2": "k2", "u3": "k3"}, lambda e: keys[e.name])
    assert held == {"u1": "k1"}
    assert sorted(_inodes(tree_root)) == ["a/b/y.csv", "a/x.md"]
    assert _folders(tree_root) == {"a", "a/b"}

    content_tree.unplace(tree_root, cache / "u1" / "files")
    assert _inodes(tree_root) == {} and _folders(tree_root) == set()


def test_a_tree_of_other_code_or_catalogs_is_not_updated_in_place(tmp_path):
    """Only a change of code, catalogs or pages (reuse.py's common inputs) can give one unit's path
    to another page: a record of other common inputs is not used (a new tree is written)."""
    content_tree.write_record(tmp_path, {"u1": "k1"}, "common-1")
    assert content_tree.take_record(tmp_path, "common-2") == {}
    assert not (tmp_path / content_tree.RECORD).exists()  # taken either way
    content_tree.write_record(tmp_path, {"u1": "k1"}, "common-1")
    assert content_tree.take_record(tmp_path, "common-1") == {"u1": "k1"}


def test_unplace_removes_only_the_units_own_files(tmp_path):
    cache, tree_root = tmp_path / "cache" / "files", tmp_path / "tree"
    for rel in ("a/x.md", "a/y.csv"):
        (cache / rel).parent.mkdir(parents=True, exist_ok=True)
        (cache / rel).write_text(rel)
        (tree_root / rel).parent.mkdir(parents=True, exist_ok=True)
        os.link(cache / rel, tree_root / rel)
    (tree_root / "a" / "y.csv").unlink()
    (tree_root / "a" / "y.csv").write_text("another page's, at that path now")
    content_tree.unplace(tree_root, cache)
    assert sorted(_inodes(tree_root)) == ["a/y.csv"]
    assert (cache / "a" / "y.csv").read_text() == "a/y.csv"
