"""The content tree kept from one build to the next and updated where it is.

A kept page unit's files (render/reuse.py) are hard links to its entry in the cache of units; a
new tree each build linked them all again (x100, one campaign added: 5,800 files, 0.3-0.5 s) and
removed the old one's. Instead, when the last build's record names the units its tree holds, the
tree is pruned to those units' files as their cache entries hold them (the same inodes): every
other file goes (the pages of the whole site, units never kept, chart images, pins), and so does
every file of a unit one of whose files was replaced or removed since (an edit in place, through
the link, reaches the unit's cache entry too, as it always did). Render then places
only the units it makes again, and the tree is a new one's, file for file (tests/test_incremental.py).

The record is removed before the tree is touched, and written once render has placed every unit:
a build stopped between leaves none, and the next one writes a new tree. So does a build of other
code, catalogs or pages (the units' common inputs), the only change that can give one unit's path
to another page.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

RECORD = "content-tree.json"
FORMAT = "papercuts-content-tree 2"


def take_record(build: Path, common: str) -> dict[str, str]:
    """The units (cache entry -> key) the tree held when the last build wrote the record, if that
    build's units had this one's `common` inputs (render/reuse.py: code, catalogs, pages), else
    none: only such a change can give one unit's path to another page. The record is removed:
    from here on the tree may be half updated."""
    path = build / RECORD
    try:
        record = json.loads(path.read_text())
        units = record["units"] if record["format"] == FORMAT and record["common"] == common else {}
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in units.items()):
            units = {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        units = {}
    path.unlink(missing_ok=True)
    return units


def write_record(build: Path, units: dict[str, str], common: str) -> None:
    tmp = build / (RECORD + ".tmp")
    tmp.write_text(json.dumps({"format": FORMAT, "common": common, "units": units}, sort_keys=True))
    tmp.replace(build / RECORD)


def prune(tree: Path, cache: Path, held: dict[str, str], key_of) -> dict[str, str]:
    """Leave in `tree` only the files of the `held` units whose cache entry still has the key the
    record gives (key_of(entry folder)) and whose every file is there as that entry's; returns
    those units. Folders left empty go, but those a unit's files hold (a new tree has them)."""
    units: dict[str, str] = {}
    folders: dict[str, set[str]] = {}
    files: dict[str, tuple[int, str]] = {}  # path in the tree -> (inode, unit)
    for entry, key in held.items():
        if key_of(cache / entry) == key:
            units[entry], folders[entry] = key, set()
            for rel, inode in _files(os.path.join(cache, entry, "files"), "", folders[entry]):
                files[rel] = (inode, entry)
    there: set[str] = set()
    # Empty folders go in the same walk (x100, a rebuild: one walk of 1,000 folders, not two).
    _sweep(str(tree), "", files, there, set().union(*folders.values()))
    broken = {entry for rel, (_, entry) in files.items() if rel not in there}
    if broken:  # a unit's file replaced or removed since (rare): all its files go
        for rel in there:
            if files[rel][1] in broken:
                os.unlink(tree / rel)
        _empty_folders(tree, "", set().union(*(folders[e] for e in units if e not in broken)))
    return {entry: key for entry, key in units.items() if entry not in broken}


def unplace(tree: Path, files: Path) -> None:
    """Remove from `tree` a unit's files (those that are still its cache entry `files`' own), and
    the folders that leaves empty."""
    folders: set[str] = set()
    for rel, inode in _files(str(files), "", folders):
        try:
            if os.lstat(tree / rel).st_ino == inode:
                os.unlink(tree / rel)
        except FileNotFoundError:
            pass
    for rel in sorted(folders, key=lambda f: -f.count("/")):  # the deepest first
        try:
            (tree / rel).rmdir()
        except OSError:  # not empty (another unit's, or a page's), or gone
            pass


def _files(root: str, prefix: str, folders: set[str]):
    """(path below root, inode) of each file under root; each folder's path into `folders`."""
    try:
        entries = list(os.scandir(root))
    except FileNotFoundError:
        return
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            folders.add(prefix + e.name)
            yield from _files(e.path, prefix + e.name + "/", folders)
        else:
            yield prefix + e.name, e.inode()


def _sweep(folder: str, prefix: str, files: dict[str, tuple[int, str]], there: set[str], keep: set[str]) -> bool:
    """Remove every file below `folder` that is not in `files` as that inode, and the folders
    that leaves empty but those in `keep`; note the files that are. True if `folder` is empty."""
    empty = True
    for e in os.scandir(folder):
        rel = prefix + e.name
        if e.is_dir(follow_symlinks=False):
            if _sweep(e.path, rel + "/", files, there, keep) and rel not in keep:
                os.rmdir(e.path)
            else:
                empty = False
        elif (held := files.get(rel)) is not None and held[0] == e.inode() and not e.is_symlink():
            there.add(rel)
            empty = False
        else:
            os.unlink(e.path)
    return empty


def _empty_folders(folder: Path, prefix: str, keep: set[str]) -> bool:
    """Remove the folders below `folder` left empty but those in `keep`; True if it is empty."""
    empty = True
    for e in os.scandir(folder):
        rel = prefix + e.name
        if e.is_dir(follow_symlinks=False) and _empty_folders(Path(e.path), rel + "/", keep) and rel not in keep:
            os.rmdir(e.path)
        else:
            empty = False
    return empty
