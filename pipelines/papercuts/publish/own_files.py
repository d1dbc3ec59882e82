"""Papercuts' own files of the site (contributed files, embed pages, charts' files), placed in a
tree of their own while Hugo writes its pages (Hugo cleans its destination), then moved into the
tree Hugo wrote, never over one of its files: at x100 placing them took 1.2 s of a full build's
2.1 s Hugo stage and 0.4 s of a rebuild's 1.15 s. That tree is the last site but one when the
trash holds it (publish/trash.py take), its unchanged files left where they are."""
from __future__ import annotations

import filecmp
import os
from collections.abc import Callable
from pathlib import Path

from ..paths import EMBEDS, VERBATIM, embed_published_as
from ..problems import UserError
from .placed import Placer
from .swap import remove

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
    publish/placed.py), each with what it is refused as should Hugo have written its path.
    `recycled`: root is an old site (publish/trash.py take), whose files that are the very ones
    the placer would link stay where they are, and whose other files and folders go."""

    def __init__(self, root: Path, placer: Placer, recycled: bool = False,
                 discard: Callable[[Path], None] | None = None) -> None:
        self.root, self.placer = root, placer
        self.clashes: dict[str, str | None] = {}
        self.folders: set[str] = set()  # made already
        self.recycled = recycled
        self.discard = discard  # where a recycled tree that cannot be cleared goes (Trash.put)
        self.there: set[str] = set()  # a recycled tree's files kept in place, not placed yet

    def place(self, content: Path) -> None:
        """Every file of the content tree that Papercuts publishes itself."""
        verbatim = self._tree(content / VERBATIM, lambda rel: rel)
        embeds = self._tree(content / EMBEDS, embed_published_as)
        charts = self._chart_files(content)
        if self.recycled:
            first: dict[str, str] = {}
            for source, rel in verbatim + embeds + charts:
                first.setdefault(rel, source)
            self.folders.add("")
            try:
                self._clear(str(self.root), "", first)
            except OSError:  # a file there that cannot go (made immutable): a new tree instead
                self._afresh()
        self.place_verbatim(content / VERBATIM, verbatim)
        self.place_embeds(content / EMBEDS, embeds)
        self.place_chart_files(content, charts)

    def _afresh(self) -> None:
        """Set the recycled tree aside (to `discard`, which tells what it cannot remove) and place
        every file in a new one."""
        aside = self.root.with_name(f".stuck-{self.root.name.lstrip('.')}")  # never taken again
        self.root.rename(aside)
        (self.discard or remove)(aside)
        self.root.mkdir()
        self.recycled = False
        self.folders.clear()
        self.there.clear()
        self.placer.placed.clear()
        self.placer.kept = 0

    def _clear(self, folder: str, prefix: str, first: dict[str, str]) -> bool:
        """Leave in a recycled tree only the files the placer would link there from the last site
        (`first`: each path's source), and the folders holding them; True if `folder` is empty."""
        empty = True
        for e in os.scandir(folder):
            rel = prefix + e.name
            if e.is_dir(follow_symlinks=False):
                if self._clear(e.path, rel + "/", first):
                    os.rmdir(e.path)
                else:
                    self.folders.add(rel)
                    empty = False
            elif rel in first and not e.is_symlink() and self.placer.already(first[rel], rel, e.inode()):
                self.there.add(rel)
                empty = False
            else:
                os.unlink(e.path)
        return empty

    def place_verbatim(self, src: Path, files: list[tuple[str, str]] | None = None) -> None:
        """Contributed files, byte for byte. Copies, never links into the content tree: its files
        are links to the page units the next build reuses (render/reuse.py), so a published file
        edited in place (an editor keeping links, a deploy step rewriting files) would change what
        later builds publish. (`files`: _tree's of src, when walked already.)"""
        for source, rel in self._tree(src, lambda rel: rel) if files is None else files:
            self._place(source, rel, PAGE_CLASH)

    def place_embeds(self, src: Path, files: list[tuple[str, str]] | None = None) -> None:
        """The embed pages (render/embeds.py) at their addresses below /embed/, never over a file
        there already (another embed page at the same address; a page Hugo made: move_into). A
        kept unit's are the last site's files, as place_verbatim's are."""
        for source, rel in self._tree(src, embed_published_as) if files is None else files:
            self._place(source, rel, EMBED_CLASH)

    def place_chart_files(self, content: Path, files: list[tuple[str, str]] | None = None) -> None:
        """Every chart file of the content tree at its path there; a contributed file of that name
        is refused, as one over a page is. Copies, as place_verbatim says why."""
        for source, rel in self._chart_files(content) if files is None else files:
            self._place(source, rel, None)

    @staticmethod
    def _tree(src: Path, published_as) -> list[tuple[str, str]]:
        """(source, published path) of each file under src, at published_as(its path there)."""
        out = []
        for root, dirs, files in os.walk(src):
            dirs.sort()
            folder = os.path.relpath(root, src)
            for name in sorted(files):
                out.append((os.path.join(root, name), published_as(name if folder == "." else f"{folder}/{name}")))
        return out

    @staticmethod
    def _chart_files(content: Path) -> list[tuple[str, str]]:
        """(source, published path) of each chart file of the content tree: its path there."""
        out = []
        for root, dirs, files in os.walk(content):
            if root == str(content):  # placed by place_verbatim and place_embeds
                dirs[:] = [d for d in dirs if d not in (VERBATIM, EMBEDS)]
            dirs.sort()
            folder = os.path.relpath(root, content)
            for name in sorted(name for name in files if name.endswith(CHART_FILES)):
                out.append((os.path.join(root, name), f"{folder}/{name}" if folder != "." else name))
        return out

    def _place(self, source: str, rel: str, clash: str | None) -> None:
        """source at rel, refused (`clash`, None: a chart's file) where a file of ours is already."""
        if rel in self.there:  # the recycled tree's, which is this file (placer.already); once
            self.there.discard(rel)
            self.clashes[rel] = clash
            return
        folder = os.path.dirname(rel)
        try:
            if folder not in self.folders:  # made once, not asked of the file system for each file
                os.makedirs(os.path.join(self.root, folder), exist_ok=True)
                self.folders.add(folder)
            self.placer.place(source, rel)
        except (FileExistsError, NotADirectoryError):  # a file of ours there, or where its folder goes
            raise UserError(f"{rel}: {clash or CHART_CLASH}") from None
        self.clashes[rel] = clash

    def in_place(self) -> dict[str, str | None]:
        """Papercuts' files moved into Hugo's tree (not those where Hugo's copy was kept), each with
        what it is refused as over another file (None: a chart's file)."""
        return {rel: self.clashes[rel] for rel in self.placer.placed}

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
