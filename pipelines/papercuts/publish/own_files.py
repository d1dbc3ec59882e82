"""Papercuts' own files of the site (contributed files, embed pages, charts' files), placed in a
tree of their own while Hugo writes its pages (Hugo cleans its destination), then moved into the
tree Hugo wrote, never over one of its files: at x100 placing them took 1.2 s of a full build's
2.1 s Hugo stage and 0.4 s of a rebuild's 1.15 s."""
from __future__ import annotations

import filecmp
import os
from pathlib import Path

from ..paths import EMBEDS, VERBATIM, embed_published_as
from ..problems import UserError
from .placed import Placer

# What a file of each kind is refused as when its place is taken already (None: a chart's file,
# which Hugo publishes too where a page shows its image: the same bytes).
PAGE_CLASH = "a contributed file has the name of a page file"
EMBED_CLASH = "an embed page has the address of another page"
CHART_CLASH = "a contributed file has the name of a chart's file"

# A chart's files, in its page's bundle: linked from the page at their folder's path
# (layouts/_partials/chart.html) and published here, not by Hugo, which took 1.8 ms a chart.
CHART_FILES = (".vl.json", ".csv", ".svg", ".png")


class OwnFiles:
    """The tree `root` of Papercuts' files, placed by `placer` (copies, or the last site's copies:
    publish/placed.py), each with what it is refused as should Hugo have written its path."""

    def __init__(self, root: Path, placer: Placer) -> None:
        self.root, self.placer = root, placer
        self.clashes: dict[str, str | None] = {}
        self.folders: set[str] = set()  # made already

    def place(self, content: Path) -> None:
        """Every file of the content tree that Papercuts publishes itself."""
        self.place_verbatim(content / VERBATIM)
        self.place_embeds(content / EMBEDS)
        self.place_chart_files(content)

    def place_verbatim(self, src: Path) -> None:
        """Contributed files, byte for byte. Copies, never links into the content tree: its files
        are links to the page units the next build reuses (render/reuse.py), so a published file
        edited in place (an editor keeping links, a deploy step rewriting files) would change what
        later builds publish."""
        self._place_tree(src, lambda rel: rel, PAGE_CLASH)

    def place_embeds(self, src: Path) -> None:
        """The embed pages (render/embeds.py) at their addresses below /embed/, never over a file
        there already (another embed page at the same address; a page Hugo made: move_into). A
        kept unit's are the last site's files, as place_verbatim's are."""
        self._place_tree(src, embed_published_as, EMBED_CLASH)

    def _place_tree(self, src: Path, published_as, clash: str) -> None:
        """Each file under src at published_as(its path there), refused (`clash`) where another of
        Papercuts' files is already."""
        for root, dirs, files in os.walk(src):
            dirs.sort()
            folder = os.path.relpath(root, src)
            for name in sorted(files):
                rel = published_as(name if folder == "." else f"{folder}/{name}")
                self._place(os.path.join(root, name), rel, clash)

    def place_chart_files(self, content: Path) -> None:
        """Every chart file of the content tree at its path there; a contributed file of that name
        is refused, as one over a page is. Copies, as place_verbatim says why."""
        for root, dirs, files in os.walk(content):
            if root == str(content):  # placed by place_verbatim and place_embeds
                dirs[:] = [d for d in dirs if d not in (VERBATIM, EMBEDS)]
            dirs.sort()
            chart_files = sorted(name for name in files if name.endswith(CHART_FILES))
            if not chart_files:
                continue
            folder = os.path.relpath(root, content)
            for name in chart_files:
                self._place(os.path.join(root, name), f"{folder}/{name}" if folder != "." else name, None)

    def _place(self, source: str, rel: str, clash: str | None) -> None:
        """source at rel, refused (`clash`, None: a chart's file) where a file of ours is already."""
        folder = os.path.dirname(rel)
        try:
            if folder not in self.folders:  # made once, not asked of the file system for each file
                os.makedirs(os.path.join(self.root, folder), exist_ok=True)
                self.folders.add(folder)
            self.placer.place(source, rel)
        except (FileExistsError, NotADirectoryError):  # a file of ours there, or where its folder goes
            raise UserError(f"{rel}: {clash or CHART_CLASH}") from None
        self.clashes[rel] = clash

    def move_into(self, staging: Path, prefix: str = "") -> None:
        """The placed files into the tree Hugo wrote: a folder Hugo made none of in one rename, a
        file where Hugo wrote none. Where Hugo did write one, a chart's file of the same bytes is
        Hugo's copy of it (a page's first chart image, its og:image: baseof.html), kept; anything
        else is refused (`clashes`) and nothing is published."""
        self.folders.clear()  # moved away: a file placed after this makes its folder again
        for entry in sorted(os.scandir(self.root / prefix), key=lambda e: e.name):
            rel = prefix + entry.name
            dest = staging / rel
            if entry.is_dir(follow_symlinks=False):
                if dest.is_dir():
                    self.move_into(staging, rel + "/")
                elif dest.exists():
                    first = next(r for r in sorted(self.clashes) if r.startswith(rel + "/"))
                    raise UserError(f"{first}: {self.clashes[first] or CHART_CLASH}")
                else:
                    os.rename(entry.path, dest)
            elif not dest.exists():
                os.rename(entry.path, dest)
            elif self.clashes[rel] is None and not dest.is_dir() and filecmp.cmp(entry.path, dest, shallow=False):
                del self.placer.placed[rel]  # Hugo's file is published; this one is not
            else:
                raise UserError(f"{rel}: {self.clashes[rel] or CHART_CLASH}")
