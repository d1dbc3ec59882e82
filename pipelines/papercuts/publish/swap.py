"""Putting a finished output in place so that, at every moment, the old or the new one is there.

On Linux the swap is one renameat2(RENAME_EXCHANGE) system call: the new tree takes the final
name and the old tree takes the new one's, atomically; the old tree is removed only afterwards
(or put in a trash, publish/trash.py, and removed beside later work). Elsewhere (or on a file
system without it) the old tree is renamed aside under a name no one else uses, the new one
renamed in, then the old one removed or put in the trash: a kill between the two renames leaves
the old tree beside the final name, never deleted. Nothing is removed that a build did not
create.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # trash.py removes what it cannot take with this module's remove()
    from .trash import Trash

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
_renameat2 = getattr(_libc, "renameat2", None)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths atomically; False if this system cannot."""
    if _renameat2 is None:
        return False
    rc = _renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def replace_path(new: Path, final: Path, trash: Trash | None = None) -> None:
    """Swap a finished output (built beside `final`, on its file system) into place; the old one
    is removed, or put in `trash` to be removed beside later work."""
    discard = remove if trash is None else trash.put
    if not final.exists() and not final.is_symlink():
        new.rename(final)
        return
    if _exchange(new, final):
        discard(new)  # it now holds the old output
        return
    aside = final.with_name(f".{final.name}.old-{os.getpid()}")
    final.rename(aside)
    new.rename(final)
    discard(aside)
