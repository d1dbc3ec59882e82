"""Pages Hugo need not render again: a kept page unit's pages (render/reuse.py), whose HTML the last
site already holds.

This rests on one rule of the layouts: a leaf page (campaign, server, ladder) reads only its own
bundle, the pages it shows charts from (`from`: chart-files.html) and the fixed section pages of
the site header. A layout that lists other pages on a leaf page (.Parent.Pages, .NextInSection,
related pages) would be stale on pages kept after those others change: it breaks the rule.

A leaf page's HTML is made from its bundle's files (index.md, its charts' files), the pages it
shows charts from (a server page, its campaigns': pages of its own unit's key), the layouts, the
Hugo site (config, static files), Hugo itself and its settings in the environment. A kept unit's
files are the last build's very files (the same inodes), so a page whose bundle files all have the
identities the last build recorded (device, inode, size, modification time), built with the same
layouts, site, toolchain and settings, is the page the last build rendered. Hugo skips it (a render
segment that excludes it: `--renderSegments`; Hugo still reads every page, so lists, links and the
sitemap are whole) and its HTML is linked from the last site, if that file too is the one
recorded. Pages every build writes anew (home, sections, investigations, the regressions page)
never match. The stat is trusted as publish/placed.py trusts it.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

from ..fingerprint import files_under, hash_tree, hugo_environment, toolchain
from ..paths import EMBEDS, VERBATIM, Paths
from ..problems import UserError
from .placed import identity

RECORD = "hugo-pages.json"
FORMAT = "papercuts-hugo-pages 1"  # the record's layout: another is not read
SEGMENT = "changed"
# A page path a segment's glob matches as written: no glob or TOML syntax in it (ids are
# [A-Za-z0-9_+-]; anything else is rendered as usual).
_PLAIN = re.compile(r"[A-Za-z0-9_+.-]+(/[A-Za-z0-9_+.-]+)*")


def hugo_digest(paths: Paths, command: list[str]) -> str:
    """Everything but the content that Hugo's pages are made from."""
    h = hashlib.sha256(FORMAT.encode() + toolchain())
    hash_tree(h, "layouts", paths.project / "layouts")
    hash_tree(h, "site", paths.site)
    h.update(hugo_environment())
    h.update("\0".join(command).encode())
    return h.hexdigest()


def leaf_bundles(content: Path) -> dict[str, str]:
    """Each leaf page of the content tree (a folder with index.md; its path there) -> a digest of
    the identities of its bundle's files (every file below it: a leaf holds no other page)."""
    bundles: dict[str, str] = {}
    for root, dirs, files in os.walk(content):
        if root == str(content):
            dirs[:] = [d for d in dirs if d not in (VERBATIM, EMBEDS)]
        if "index.md" not in files:
            continue
        dirs.clear()  # walked below as the bundle's own files
        h = hashlib.sha256()
        for rel, path in files_under(root):
            h.update(json.dumps([rel, identity(os.stat(path))]).encode())
        bundles[Path(root).relative_to(content).as_posix()] = h.hexdigest()
    return bundles


class KeptPages:
    """The leaf pages whose HTML can be linked from the last site (`skip`); once Hugo has run,
    what each leaf page published (`take`), recorded by `save` before the swap (a rename keeps
    every file's inode and time; if the swap never happens, the record matches no file there)."""

    def __init__(self, paths: Paths, content: Path, staging: Path, options: list[str]) -> None:
        self.record, self.public, self.staging = paths.build / RECORD, paths.public, staging
        self.config, self.segment_file = paths.site / "hugo.toml", paths.build / "hugo-segment.toml"
        self.digest = hugo_digest(paths, options)
        self.bundles = leaf_bundles(content)
        # Hugo matches a segment's paths in any case: a page whose path differs from another's
        # only in case is always rendered (the other could be one that changed).
        cased = Counter(page.lower() for page in self.bundles)
        self.skip: dict[str, dict[str, list]] = {
            page: was["outputs"] for page, was in self._last().items()
            if self.bundles.get(page) == was["bundle"] and _PLAIN.fullmatch(page) and cased[page.lower()] == 1
            and f"{page}/index.html" in was["outputs"] and self._intact(was["outputs"])}
        self.pages: dict[str, dict] = {}

    def _last(self) -> dict[str, dict]:
        """The last build's pages, when made with these inputs of Hugo's; nothing from a record
        unreadable or of another shape (a crash, a hand edit)."""
        try:
            last = json.loads(self.record.read_text())
            pages = last["pages"] if last["hugo"] == self.digest else {}
            for was in pages.values():
                if not isinstance(was["bundle"], str) or not all(
                        isinstance(rel, str) and isinstance(ident, list) for rel, ident in was["outputs"].items()):
                    return {}
            return pages
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def _intact(self, outputs: dict[str, list]) -> bool:
        """The last site still has these files as the last build published them."""
        try:
            return all(identity(os.stat(self.public / rel)) == ident for rel, ident in outputs.items())
        except OSError:
            return False

    def options(self) -> list[str]:
        """Hugo's options to render every page but the skipped ones (none when none is skipped)."""
        if not self.skip:
            return []
        excluded = ",".join(f"/{page}" for page in sorted(self.skip))
        self.segment_file.write_text(
            f'[segments.{SEGMENT}]\n  [[segments.{SEGMENT}.includes]]\n    path = "**"\n'
            f'  [[segments.{SEGMENT}.excludes]]\n    path = "{{{excluded}}}"\n')
        return ["--config", f"{self.config},{self.segment_file}", "--renderSegments", SEGMENT]

    def take(self, own: dict[str, str | None] | None = None) -> int:
        """Link the skipped pages' files from the last site where neither Hugo (a page rendered
        may publish a resource of another) nor Papercuts wrote one, then note what every leaf page
        published: call it after Hugo and after Papercuts' own files were moved in (`own`: those
        files, each with what it is refused as over a page's: own_files.OwnFiles.in_place), whose
        folders the skipped pages' files go into (x100, a rebuild: 446 fewer folders made, and
        the own files' folders moved in whole). Returns the links made."""
        own = own or {}
        linked = 0
        for outputs in self.skip.values():
            for rel, ident in outputs.items():
                dest = self.staging / rel
                if dest.exists():
                    if own.get(rel):  # a contributed file or an embed page where a page's file goes
                        raise UserError(f"{rel}: {own[rel]}")
                    continue
                try:
                    dest.parent.mkdir(parents=True, exist_ok=True)
                except (FileExistsError, NotADirectoryError):  # one of Papercuts' files where its folder goes
                    mine = next(p for p in own if rel.startswith(p + "/"))
                    raise UserError(f"{mine}: {own[mine] or 'a chart file has the name of a page folder'}") from None
                source = self.public / rel
                try:
                    try:
                        os.link(source, dest)
                    except OSError as e:
                        if isinstance(e, FileNotFoundError):
                            raise
                        shutil.copyfile(source, dest)  # a file system without links
                    same = identity(os.stat(source)) == ident
                except FileNotFoundError:
                    same = False
                if not same:  # intact before Hugo ran (__init__): changed since, by hand or another tool
                    raise UserError(f"{source} changed while this build ran; build again (the site there "
                                    "is as it was)")
                linked += 1
        for page, bundle in self.bundles.items():
            top = self.staging / page
            if (top / "index.html").is_file():
                self.pages[page] = {"bundle": bundle, "outputs": {
                    f"{page}/{rel}": identity(os.stat(path)) for rel, path in files_under(top)
                    if f"{page}/{rel}" not in own}}
        return linked

    def save(self) -> None:
        tmp = self.record.with_name(RECORD + ".tmp")
        tmp.write_text(json.dumps({"hugo": self.digest, "pages": self.pages}, sort_keys=True))
        tmp.replace(self.record)
