"""The files Papercuts publishes beside Hugo's pages (contributed files, charts' files), linked from
the last site when neither side has changed since the last build placed them.

At x100 these are 3,451 files, 95 MB; written again at every build they were a rebuild's largest
cost after Hugo itself (1.94 s; 0.20 s when linked). A file is linked from the last site only
when its source in the content tree and the last site's file are the very files the last build
recorded (device, inode, size and modification time): a kept page unit's files are the same inodes
build after build (render/reuse.py), and so are chart images (render/images.py). A published file
edited in place or replaced no longer matches and is copied again. The published tree never shares
a file with the content tree or the build's caches: an edit there cannot reach a later build.
Placed into the last site but one (publish/trash.py take), a file there that is the very file a
link would give stays where it is (`already`).

What is trusted is the stat, as make and git trust it: an edit in place that also restores the
file's size and modification time (cp -p or rsync --inplace -t over the site) is not seen, and
stays published until its source changes or the site is built afresh (rm -r the site).
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import stat
from pathlib import Path

RECORD = "published-files.json"


def identity(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]


class Placer:
    """Places files into the staging tree, from the last site (`public`) when it can; `save`
    records what it placed, before the staging tree becomes the site (a rename keeps each file's
    inode and time; if the swap never happens, the record matches no file of the site there)."""

    def __init__(self, record: Path, public: Path, staging: Path) -> None:
        self.record, self.public, self.staging = record, public, staging
        try:
            self.last: dict[str, list] = json.loads(record.read_text())["files"]
        except (OSError, ValueError, KeyError, TypeError):
            self.last = {}
        self.placed: dict[str, list] = {}
        self.linked = self.copied = self.kept = 0

    def place(self, source: str, rel: str) -> None:
        """The file `source` at `rel` in the staging tree, in a folder that exists; FileExistsError
        if it is there. Linked with a stat of each side and the link; copied with one open of each
        side and no stat of a path: at x100 a full build copies 4,478 files while Hugo runs, and
        shutil.copyfile's checks (a stat of each side, the caller's stat of dest) made placing
        them take 0.50-0.55 s on a quiet machine, where this takes 0.33-0.35 s. Paths are text,
        not pathlib's: a rebuild links 4,600 files, and each system call counts."""
        dest = os.path.join(self.staging, rel)
        st = os.stat(source)
        if not stat.S_ISREG(st.st_mode):  # a named pipe refused, never opened and waited on
            raise shutil.SpecialFileError(f"{source} is not a regular file")
        if self._link(rel, identity(st), dest):
            return
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK)
        try:
            src = identity(os.fstat(fd))
            out = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # as open(dest, "x")
            try:
                _copy(fd, out)
                self.placed[rel] = [src, identity(os.fstat(out))]
            except OSError as e:  # a full disk: said of this file (build.py words it for the user)
                e.filename = e.filename or dest
                raise
            finally:
                os.close(out)
            self.copied += 1
        finally:
            os.close(fd)

    def already(self, source: str, rel: str, inode: int) -> bool:
        """Whether the file `inode` at `rel` of a recycled tree (publish/trash.py take) is the
        very file `place` would link from the last site; if so it is recorded as placed."""
        was = self.last.get(rel)
        if not was:
            return False
        try:
            if identity(os.stat(source)) != was[0]:
                return False
            old = os.stat(os.path.join(self.public, rel))
        except OSError:
            return False
        if old.st_ino != inode or identity(old) != was[1]:
            return False
        self.placed[rel] = was
        self.kept += 1
        return True

    def _link(self, rel: str, src: list[int], dest: str) -> bool:
        was = self.last.get(rel)
        if not was or was[0] != src:
            return False
        old = os.path.join(self.public, rel)
        try:
            if identity(os.stat(old)) != was[1]:
                return False
            os.link(old, dest)
        except OSError:  # gone, or another file system: copied
            return False
        self.placed[rel] = was  # a link is the very file, its identity the one just read
        self.linked += 1
        return True

    def save(self) -> None:
        tmp = self.record.with_name(RECORD + ".tmp")
        tmp.write_text(json.dumps({"files": self.placed}, sort_keys=True))
        tmp.replace(self.record)


def _copy(src: int, dest: int) -> None:
    """Every byte of the open file src into dest, in the kernel (sendfile, as shutil.copyfile
    does on Linux), else (a file system that refuses it) through a buffer."""
    offset = 0
    try:
        while sent := os.sendfile(dest, src, offset, 1 << 30):
            offset += sent
    except OSError as e:
        if offset or e.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise
        with os.fdopen(src, "rb", closefd=False) as a, os.fdopen(dest, "wb", closefd=False) as b:
            shutil.copyfileobj(a, b)
