"""Pages kept from the last build: a server's page, a campaign's page, a server's ladder pages and
its explorer files, an investigation's page, the calibration page (each with their charts' specs,
tables, CSVs and embed pages) are written again only when something they are drawn from has
changed (issue 16.3).

A unit's key hashes everything it can read, not what it happens to read:
- Papercuts' own code, SQL and templates;
- every input outside data/campaigns/ (catalogs, calibrations, known regressions) and every
  hand-written page (investigations link servers and campaigns), whether images are drawn, and
  the site's title and address (site/hugo.toml: the embed pages show them);
- the bytes of each campaign with rows on the unit's server, of the unit's campaign, or of the
  campaigns a page's charts draw (an investigation's; none for the calibration page's:
  validate/campaign_cache.folder_digest: files, places and code);
- the colours of those campaigns' variants, which are assigned over the whole site.
A unit's pages are a function of these alone, so a unit whose key is unchanged gives the same
files, which are taken from the last build's. The site is byte for byte a clean build's
(tests/test_incremental.py). Pages of the whole site (home, indexes, regressions) are always
written.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import NamedTuple

import duckdb

from .. import fingerprint
from ..db import query
from ..fingerprint import hash_tree
from ..paths import Paths
from ..publish.swap import remove
from .charts import variant_colours, variant_groups
from .content_tree import unplace
from .embeds import site_settings
from .images import enabled as images_enabled
from .units import Unit, Workers

FORMAT = "papercuts-pages-reused 1"
CODE = Path(__file__).resolve().parents[1]  # the papercuts package: code, SQL, templates


class _Started(NamedTuple):
    """Reuse.start's units: their cache entries, the kept ones' page counts, the ones being made
    (unit, entry, scratch folder, key) and what waits for the workers' page counts."""
    entries: list[Path]
    pages: dict[Path, int]
    made: list[tuple[Unit, Path, Path, str]]
    wait: Callable[[], list[int]]


class Reuse:
    """Units of the content tree, each produced into a folder of its own and kept by its key."""

    def __init__(self, con: duckdb.DuckDBPyConnection, ds, paths: Paths) -> None:
        self.cache = cache(paths)
        self.digests: dict[str, str] = getattr(ds, "digests", {})
        self.enabled = enabled(ds)
        self.reused = self.written = 0
        self.used: set[str] = set()
        # The units (entry -> key) the tree being written holds already, as their entries have
        # them (render/site.py _tree, render/content_tree.py): those kept are not placed again.
        self.held: dict[str, str] = {}
        self.placed: dict[str, str] = {}  # the units in the tree once render is done: entry -> key
        h = hashlib.sha256(FORMAT.encode())
        h.update(fingerprint.toolchain())
        hash_tree(h, "code", CODE)
        hash_tree(h, "data", paths.data, skip="campaigns")
        hash_tree(h, "content", paths.content)
        h.update(f"data at {paths.data.name}\0images {images_enabled()}\0".encode())
        h.update(json.dumps(site_settings(), sort_keys=True).encode())  # the embed pages show them
        self.common = h.hexdigest()
        self.colours = variant_colours(con)
        self.variants = variant_groups(con)
        self.by_server: dict[str, list[str]] = {}
        for campaign, server in con.execute(query("campaign_server_pairs")).fetchall():
            self.by_server.setdefault(server, []).append(campaign)

    def key(self, name: str, campaigns: list[str]) -> str:
        parts = {"unit": name, "campaigns": {c: self.digests.get(c) for c in sorted(campaigns)},
                 "colours": {v: self.colours.get(v) for c in sorted(campaigns) for v in self.variants.get(c, [])}}
        return hashlib.sha256((self.common + json.dumps(parts, sort_keys=True)).encode()).hexdigest()

    def start(self, units: list[Unit], workers: Workers, progress=None, what: str = "") -> _Started | None:
        """Each unit's key, and the units not kept handed to `workers` at once, each made into a
        folder of its own in the cache (telling progress(what, done, total)): nothing is written
        into the content tree, so they are made while this process readies it (_tree: x100, a
        rebuild's new campaign page began after 0.05-0.07 CPU s of pruning). `run` places them.
        None when nothing is kept: each unit writes into the content tree, once `run` is given it."""
        if not self.enabled:
            return None
        progress = partial(progress, what) if progress else None
        entries, pages, made = [], {}, []
        for u in units:
            key = self.key(u.name, list(u.reads) if u.reads is not None else [u.campaign] if u.campaign
                           else self.by_server.get(u.server or "", []))
            entry = self.cache / entry_name(u.name)
            self.used.add(entry.name)
            entries.append(entry)
            self.placed[entry.name] = key
            saved = _saved(entry)
            if saved.get("key") == key:
                self.reused += 1
                pages[entry] = int(saved["pages"])
            else:
                tmp = entry.with_name(f"{entry.name}.tmp-{os.getpid()}")
                remove(tmp)
                (tmp / "files").mkdir(parents=True)
                made.append((u, entry, tmp, key))
        return _Started(entries, pages, made, workers.start([(u.make, tmp / "files", u.args) for u, _, tmp, _ in made],
                                                           progress))

    def run(self, units: list[Unit], out_root: Path, workers: Workers, progress=None, what: str = "",
            meanwhile: Callable[[], int] = lambda: 0, started: _Started | None = None) -> int:
        """Place every unit's files under out_root: a kept unit's from the last build, the others
        made now (by `workers`, on every core, telling progress(what, done, total)) in a folder of
        their own, then linked in; returns their page count. `started`: what start() gave for these
        units, if it was called. `meanwhile()`: this process's own pages (their count added), made
        while the workers make theirs, after the kept units' files are placed (x100, a rebuild:
        placing 0.38 s, and the regressions page 0.29 s, were made after the workers' units, with
        the cores idle)."""
        if not self.enabled:  # nothing to keep: each unit writes into the content tree itself
            wait = workers.start([(u.make, out_root, u.args) for u in units],
                                 partial(progress, what) if progress else None)
            own = meanwhile()
            return own + sum(wait())
        entries, pages, made, wait = started or self.start(units, workers, progress, what)
        for _, entry, _, _ in made:
            if self.held.pop(entry.name, None) is not None:  # its last files, before any is placed
                unplace(out_root, entry / "files")
        for entry in entries:  # the kept units', while the workers make the others
            if entry in pages and entry.name not in self.held:
                _place(entry / "files", out_root)
        own = meanwhile()
        for (u, entry, tmp, key), n in zip(made, wait(), strict=True):
            (tmp / "unit.json").write_text(json.dumps({"key": key, "unit": u.name, "pages": n}))
            remove(entry)
            tmp.rename(entry)
            pages[entry] = n
            self.written += 1
            _place(entry / "files", out_root)
        return own + sum(pages[e] for e in entries)

    def unplace_others(self, units: list[Unit], tree: Path) -> None:
        """Before anything is written: the files of the units the tree holds that this build does
        not have (a campaign or server gone), whose paths another page may take."""
        have = {entry_name(u.name) for u in units}
        for name in [name for name in self.held if name not in have]:
            unplace(tree, self.cache / name / "files")
            del self.held[name]

    def forget_others(self) -> None:
        """Remove the units this build did not have (a campaign or server gone, an old build's)."""
        if self.enabled and self.cache.is_dir():
            for p in self.cache.iterdir():
                if p.name not in self.used:
                    remove(p)


def start_apart(unit: Unit, paths: Paths, workers: Workers) -> Callable[[Path], int]:
    """Make a unit that is never kept (made at every build) at once, on a worker, in a scratch
    folder of the cache; the function returned waits for it, links its files into the content
    tree given, as a kept unit's are (a path another unit holds is refused, never written through
    its link), and gives its page count."""
    tmp = cache(paths) / f"{entry_name(unit.name)}.tmp-{os.getpid()}"
    remove(tmp)
    (tmp / "files").mkdir(parents=True)
    wait = workers.start([(unit.make, tmp / "files", unit.args)])

    def place(out_root: Path) -> int:
        pages = sum(wait())
        _place(tmp / "files", out_root)
        remove(tmp)
        return pages
    return place


def entry_name(unit: str) -> str:
    """A unit's folder in the cache of units."""
    return hashlib.sha256(unit.encode()).hexdigest()[:32]


def cache(paths: Paths) -> Path:
    return paths.build / "pages-reused"


def enabled(ds) -> bool:
    """Units are kept with every campaign's digest (not in a build without the campaign cache)."""
    digests = getattr(ds, "digests", {})
    return bool(digests) and len(digests) == len(ds.campaigns)


def _saved(entry: Path) -> dict:
    """What a cache entry says it holds (its key, its page count), or nothing."""
    try:
        saved = json.loads((entry / "unit.json").read_text())
    except (OSError, ValueError):
        return {}
    return saved if isinstance(saved, dict) and (entry / "files").is_dir() else {}


def saved_key(entry: Path) -> str | None:
    return _saved(entry).get("key")


def _place(src: Path, dest: Path) -> None:
    """Put a unit's files into the content tree as hard links (copies across file systems): no
    later stage writes into a file it did not create (images and pins add files beside them, and
    the next build removes every file before it writes one: render/content_tree.py), so the kept
    copy cannot change. A file already there is a collision (two units wrote one path), which is
    this code's bug, not the data's: the link itself finds it (x100: 0.29 s with a stat of each of
    5,800 files first, as pathlib.Path)."""
    for root, _, files in os.walk(src):
        target = os.path.join(dest, os.path.relpath(root, src))
        os.makedirs(target, exist_ok=True)
        for name in files:
            source, out = os.path.join(root, name), os.path.join(target, name)
            try:
                os.link(source, out)
            except OSError as e:  # another file system: copied, but never over a file there
                if isinstance(e, FileExistsError) or os.path.lexists(out):
                    raise RuntimeError(f"two page units wrote {out}") from None
                shutil.copyfile(source, out)
