"""Trees a build replaces are renamed into its trash and removed beside later work: only what the
trash held when emptying began, never what was put there after."""
from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

import pytest

from papercuts.publish.trash import Trash


def _tree(where, name: str):
    (where / name / "a" / "b").mkdir(parents=True)
    (where / name / "a" / "b" / "page.html").write_text(name)
    return where / name


def test_a_tree_put_in_the_trash_is_kept_until_emptied_and_later_ones_are_left(tmp_path):
    trash = Trash(tmp_path / "trash")
    old = _tree(tmp_path, "site")
    trash.put(old)
    assert not old.exists()
    held = [p for p in (tmp_path / "trash").rglob("page.html")]
    assert [p.read_text() for p in held] == ["site"]
    trash.empty()
    trash.put(_tree(tmp_path, "content"))  # put while the first is being removed
    assert trash.wait() == []
    assert [p.read_text() for p in (tmp_path / "trash").rglob("page.html")] == ["content"]
    trash.empty()
    trash.wait()
    assert list((tmp_path / "trash").iterdir()) == []


def test_two_trees_of_one_name_are_both_kept(tmp_path):
    trash = Trash(tmp_path / "trash")
    trash.put(_tree(tmp_path, "site"))
    trash.put(_tree(tmp_path, "site"))
    assert len(list((tmp_path / "trash").rglob("page.html"))) == 2


@pytest.mark.parametrize("why", [errno.EXDEV, errno.ENOSPC, errno.EACCES])
def test_a_tree_that_cannot_be_renamed_into_the_trash_is_removed_at_once(tmp_path, monkeypatch, why):
    """Another file system (EXDEV), a full disk, no permission: the new tree is in place already,
    so the old one is removed as before the trash, and nothing is left in the trash."""
    def refused(self, target):
        raise OSError(why, "refused", str(self))

    monkeypatch.setattr(Path, "rename", refused)
    old = _tree(tmp_path, "site")
    Trash(tmp_path / "trash").put(old)
    assert not old.exists() and list((tmp_path / "trash").iterdir()) == []


def test_what_rm_cannot_remove_is_told(tmp_path):
    trash = Trash(tmp_path / "trash")
    trash.put(_tree(tmp_path, "site"))
    stuck = next((tmp_path / "trash").rglob("page.html"))
    # An immutable file: not even root may unlink it (ext4 and others; not every file system).
    if subprocess.run(["chattr", "+i", str(stuck)], capture_output=True).returncode != 0:
        pytest.skip("cannot make a file immutable here")
    try:
        trash.empty()
        left = trash.wait()
    finally:
        subprocess.run(["chattr", "-i", str(stuck)], check=True)
    assert len(left) == 1 and "page.html" in left[0] and "not permitted" in left[0], left


def test_the_newest_old_site_is_left_by_emptying_and_taken_back(tmp_path):
    """publish/trash.py: emptying leaves the newest tree named as an old site (the next Hugo stage
    places its files in it: take); every other tree goes, the old site before it too."""
    trash = Trash(tmp_path / "trash")
    names = (".public.staging-",)
    trash.put(_tree(tmp_path, ".public.staging-1"))
    trash.put(_tree(tmp_path, "content.tmp"))
    trash.put(_tree(tmp_path, ".public.staging-2"))
    boxes = {p.parent.name: p.parent for p in (tmp_path / "trash").glob("*/*")}
    for n, name in enumerate([".public.staging-1", "content.tmp", ".public.staging-2"]):  # put in this order
        os.utime(next(b for b in boxes.values() if (b / name).exists()), ns=(n, n))
    trash.empty(names)
    assert trash.wait() == []
    assert [p.read_text() for p in (tmp_path / "trash").rglob("page.html")] == [".public.staging-2"]
    assert trash.take(names, tmp_path / "recycled")
    assert (tmp_path / "recycled" / "a" / "b" / "page.html").read_text() == ".public.staging-2"
    assert list((tmp_path / "trash").iterdir()) == []
    assert not trash.take(names, tmp_path / "again")  # none left
    trash.put(_tree(tmp_path, "content.tmp"))
    assert not trash.take(names, tmp_path / "again") and not (tmp_path / "again").exists()
