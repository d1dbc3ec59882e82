"""Filesystem helpers for atomic outputs."""
from __future__ import annotations

import shutil
from pathlib import Path


def replace_path(new: Path, final: Path) -> None:
    """Swap a finished output into place; the old one is removed only after the swap."""
    old = final.with_name(final.name + ".old")
    if old.exists():
        shutil.rmtree(old) if old.is_dir() else old.unlink()
    if final.exists():
        final.rename(old)
    new.rename(final)
    if old.exists():
        shutil.rmtree(old) if old.is_dir() else old.unlink()
