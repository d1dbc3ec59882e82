"""Trees a build replaces are renamed into its trash and removed beside later work: only what the
trash held when emptying began, never what was put there after."""
from __future__ import annotations

import subprocess

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
    trash.wait()
    assert [p.read_text() for p in (tmp_path / "trash").rglob("page.html")] == ["content"]
    trash.empty()
    trash.wait()
    assert list((tmp_path / "trash").iterdir()) == []


def test_two_trees_of_one_name_are_both_kept(tmp_path):
    trash = Trash(tmp_path / "trash")
    trash.put(_tree(tmp_path, "site"))
    trash.put(_tree(tmp_path, "site"))
    assert len(list((tmp_path / "trash").rglob("page.html"))) == 2


def test_a_tree_on_another_file_system_is_removed_at_once(tmp_path):
    other = tmp_path / "tmpfs"
    other.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(other)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        old = _tree(other, "site")
        Trash(tmp_path / "trash").put(old)
        assert not old.exists() and list((tmp_path / "trash").rglob("page.html")) == []
    finally:
        subprocess.run(["umount", "-l", str(other)], check=False)
