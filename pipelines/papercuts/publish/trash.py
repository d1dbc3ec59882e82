"""Old trees removed beside the next build's work, not inside it.

A rebuild replaces the published site and the content tree; removing the old ones took about
1.1 s of a one-file-added rebuild at x100 (rmtree of 5,000 files and 2,000 folders on this
machine's disk). A replaced tree is renamed into the build folder's trash instead, and `rm -rf`
runs on it beside the work that follows: the old content tree while Hugo writes the site, the
old site at the start of the next build, beside its validate stage. Another process, not a
thread: the render stage forks its workers only while no other thread runs (render/units.py).

Only trees the build itself replaced are put here, renamed inside one file system; a tree on
another one (an --out on another mount than the build folder) is removed at once, as before.
"""
from __future__ import annotations

import errno
import subprocess
import tempfile
from pathlib import Path

from .swap import remove


class Trash:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._removing: list[subprocess.Popen] = []

    def put(self, path: Path) -> None:
        """Take `path` out of the way: renamed into the trash, or removed now."""
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            path.rename(Path(tempfile.mkdtemp(dir=self.folder)) / path.name)
        except OSError as e:
            if e.errno != errno.EXDEV:
                raise
            remove(path)

    def empty(self) -> None:
        """Start removing what the trash holds now (not what is put there later)."""
        held = sorted(self.folder.iterdir()) if self.folder.is_dir() else []
        if held:
            self._removing.append(subprocess.Popen(["rm", "-rf", "--", *map(str, held)],
                                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL))

    def wait(self) -> None:
        """Until every removal started has ended (one that failed said why on stderr; what it
        left is tried again by the next build)."""
        for proc in self._removing:
            proc.wait()
        self._removing.clear()
