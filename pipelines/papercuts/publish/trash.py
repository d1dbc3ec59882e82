"""Old trees removed beside the next build's work, not inside it.

A rebuild replaces the published site (and the content tree when it cannot update it where it
is: render/content_tree.py); removing the old ones took about 1.1 s of a one-file-added rebuild
at x100 (rmtree of 5,000 files and 2,000 folders on this machine's disk). A replaced tree is
renamed into the build folder's trash instead, and `rm -rf` runs on it beside the work that
follows: an old content tree while Hugo writes the site, the old site at the start of the next
build, beside its validate stage. Another process, not a
thread: the render stage forks its workers only while no other thread runs (render/units.py).

Only trees the build itself replaced are put here. One that cannot be renamed into the trash
(another file system than the build folder's, a full disk, no permission) is removed at once,
as before: the new tree is already in place, so the build must not fail for the old one.

The newest old site is not removed but taken back (`take`) by the next Hugo stage, as the tree it
places Papercuts' own files in (publish/own_files.py): two sites in a row differ in a few files,
so keeping the old one's folders and files where they are the same spares making about 2,000
folders and linking 5,000 files, and removing as many (x100, one campaign added: 2,641 mkdir at
up to 0.26 ms each beside the rm -rf of the last site, which took 2.8 s on this disk under load).
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from .swap import remove


class Trash:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._removing: list[tuple[subprocess.Popen, list[str]]] = []

    def put(self, path: Path) -> None:
        """Take `path` out of the way: renamed into the trash, or removed now."""
        box = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            box = Path(tempfile.mkdtemp(dir=self.folder))
            path.rename(box / path.name)
        except OSError:
            if box is not None:
                box.rmdir()
            remove(path)

    def empty(self, keep: tuple[str, ...] = ()) -> None:
        """Start removing what the trash holds now (not what is put there later), but the newest
        tree whose name begins with one of `keep` (an old site, for `take`)."""
        kept = self._newest(keep)
        held = [str(p) for p in sorted(self.folder.iterdir()) if p != kept] if self.folder.is_dir() else []
        if held:
            self._removing.append((subprocess.Popen(["rm", "-rf", "--", *held], stdin=subprocess.DEVNULL,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE), held))

    def take(self, names: tuple[str, ...], dest: Path) -> bool:
        """Move the newest tree whose name begins with one of `names` to `dest` (which must not
        exist); False, with nothing moved, if there is none or it cannot be moved there."""
        box = self._newest(names)
        if box is None:
            return False
        tree = next(box.iterdir())
        try:
            tree.rename(dest)
        except OSError:  # another file system: left to be removed
            return False
        box.rmdir()
        return True

    def _newest(self, names: tuple[str, ...]) -> Path | None:
        """The box of the newest tree put here whose name begins with one of `names`."""
        boxes = []
        for box in sorted(self.folder.iterdir()) if names and self.folder.is_dir() else []:
            try:  # (an older box may be going: rm -rf started on it)
                held = list(box.iterdir())
                if len(held) == 1 and held[0].name.startswith(names) and held[0].is_dir():
                    boxes.append((box.stat().st_mtime_ns, box.name, box))
            except OSError:
                pass
        return max(boxes)[2] if boxes else None

    def wait(self) -> list[str]:
        """Until every removal started has ended; returns what rm could not remove, with why
        (the next build tries again)."""
        failed = []
        for proc, held in self._removing:
            _, err = proc.communicate()
            if proc.returncode:
                failed.append(f"{', '.join(held)}: {err.decode(errors='replace').strip()}")
        self._removing.clear()
        return failed
