"""The bytes of contributed files (a campaign's, a calibration's), kept beside the build's database
under their SHA-256, not in it; the database names each file's SHA-256 and size.

Render publishes these bytes byte for byte and never reads data/: they are what validate read and
checked. As a column of the database they cost more than as files: at x100, 70 MB in 2,123 files
took 0.9 s to insert and each render worker read them all back, where writing the files took
0.13-0.54 s (as busy as the disk was) and a file an earlier build wrote is not written again.
(DuckDB also took from 0.2 to 8 s to copy that table's rows from the last build's database,
depending on what was inserted before.)

A file is written beside its final name and renamed into place, so a stored file is whole. The
build removes the files its database no longer names only once that database is in place, so the
previous database's files stay while it is the current one.
"""
from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from pathlib import Path

TABLES = ("evidence", "calibration_evidence")  # the tables whose rows name stored files


def files(rows: dict[str, list[dict]]) -> list[dict]:
    """The rows (with bytes, sha256 and size) of every stored file in a dataset's rows."""
    return [f for t in TABLES for f in rows.get(t, [])]


def put(folder: Path, files: Iterable[dict]) -> None:
    """Store each file's bytes (rows with bytes, sha256 and size) unless a file of that SHA-256 and
    size is there: one a crash of the machine left cut short or empty is written again. (No fsync:
    2,100 of them took a second at x100; a file system that orders data before metadata, as ext4
    does by default, gives a renamed file its size only with its bytes.)"""
    folder.mkdir(parents=True, exist_ok=True)
    for f in files:
        path = folder / f["sha256"]
        if not path.is_file() or path.stat().st_size != f["size"]:
            tmp = folder / f".{f['sha256']}.tmp-{os.getpid()}"
            tmp.write_bytes(f["bytes"])
            tmp.replace(path)


def get(folder: Path, sha256: str, size: int) -> bytes:
    """A stored file's bytes; a missing or cut file is this build's fault, never published."""
    try:
        data = (folder / sha256).read_bytes()
    except FileNotFoundError:
        raise RuntimeError(f"{folder / sha256}: a contributed file's bytes are not in the build's store") from None
    if len(data) != size:
        raise RuntimeError(f"{folder / sha256}: {len(data)} bytes stored where the file has {size}")
    return data


def link(folder: Path, sha256: str, size: int, dest: Path) -> None:
    """A stored file at `dest` as a hard link to its stored bytes, which are never changed in place
    (put replaces a cut file by another): a contributed file published as committed is written once,
    not again into each build's content tree (x100: 2,071 files; creating a file took 0.22 ms on
    the benchmark's machine, a link 0.01 ms). Across file systems, a copy; a missing or cut file is
    this build's fault, as get says."""
    source = folder / sha256
    try:
        if source.stat().st_size == size:
            os.link(source, dest)
            return
    except FileNotFoundError:
        pass
    except OSError as e:
        if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
            raise
    dest.write_bytes(get(folder, sha256, size))


def keep(folder: Path, sha256s: set[str]) -> None:
    """Remove every stored file but these (and any half-written one)."""
    if folder.is_dir():
        for path in folder.iterdir():
            if path.name not in sha256s:
                path.unlink(missing_ok=True)
