"""The whole flow: validate → ingest → derive → render → hugo, each stage timed.

Every output is written beside its final place and swapped in only when complete, so a failed
or killed build leaves the previous DuckDB file, content tree and site as they were, and removes
the partial files it made. One build at a time writes a given site (a lock beside it); builds of
different sites share nothing.
"""
from __future__ import annotations

import fcntl
import os
import re
import resource
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import duckdb

from .db import release_arrow_memory
from .derive import models
from .derive.models import derive
from .fingerprint import forget, inputs_digest, recall_digests, remember, unchanged
from .ingest import blobs, previous, tables
from .ingest.previous import common_digest
from .paths import Paths
from .problems import Problem, Problems, UserError
from .publish.hugo import old_sites, run_hugo
from .publish.swap import remove, replace_path
from .publish.trash import Trash
from .render.images import check as check_images
from .render.images import enabled as images_enabled
from .render.images import render_images
from .render.site import render_site
from .render.snapshots import render_pins
from .validate.calibration_checks import check_calibrations
from .validate.checks import check_dataset
from .validate.frontmatter import check_pages
from .validate.load import Dataset, load_dataset

STAGES = ("validate", "ingest", "derive", "render", "images", "hugo")
# The tables of campaign rows a build may keep in a copy of the last database (previous.start).
IN_PLACE = {**tables.IN_PLACE, **models.IN_PLACE}


class Timings(dict):
    """Seconds per stage; with `say`, each stage is announced as it starts and timed as it ends
    (plain lines: readable in CI logs and on a terminal alike). `cpu`: the CPU seconds each stage
    took, on every core (cpu_seconds)."""

    pages = 0
    images = None

    def __init__(self, say=None, bar=None) -> None:
        super().__init__()
        self.cpu: dict[str, float] = {}
        # Of those, the kernel's: mostly file writes, which cost several times more on a disk just
        # after a large removal (x100 full build: 2.3 s, 5.3 s after an rm -rf of two builds)
        self.system: dict[str, float] = {}
        self.say = say
        self.bar = bar  # a terminal (a stream): progress is a bar redrawn in place

    def progress(self, what: str, done: int, total: int) -> None:
        """Counts within a long stage: on a terminal a bar redrawn in place, elsewhere (a CI log)
        a plain line at each tenth. Short loops say nothing."""
        if not self.say or total < 10:
            return
        if self.bar is not None:
            filled = 30 * done // total
            self.bar.write(f"\r    {what}: [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}"
                           + ("\n" if done == total else ""))
            self.bar.flush()
        elif 10 * done // total > 10 * (done - 1) // total:
            self.say(f"    {what}: {done}/{total}")

    @contextmanager
    def stage(self, name: str, what: str = ""):
        if self.say:
            self.say(f"[{STAGES.index(name) + 1}/{len(STAGES)}] {name}{': ' + what if what else ''} ...")
        start, cpu, system = time.perf_counter(), cpu_seconds(), cpu_seconds(system=True)
        yield
        self[name] = time.perf_counter() - start
        self.cpu[name] = cpu_seconds() - cpu
        self.system[name] = cpu_seconds(system=True) - system
        if self.say:
            self.say(f"[{STAGES.index(name) + 1}/{len(STAGES)}] {name} done in {self[name]:.2f} s")

    def summary(self) -> str:
        if not self:
            return "nothing changed: the last build's site is kept"
        total = sum(self.values())
        return ("  ".join(f"{s} {self[s]:.2f} s" for s in STAGES if s in self) + f"  total {total:.2f} s, "
                f"{sum(self.cpu.values()):.1f} CPU s on {os.cpu_count() or 1} cores")


def cpu_seconds(system: bool = False) -> float:
    """User and system CPU seconds (`system`: system alone) of this process (its threads) and of
    the children it has waited for: a stage's forked workers and Hugo, each waited for within its
    stage. On a shared machine a stage's CPU seconds vary less than its wall time, and say how
    much of the cores it used."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    user = 0.0 if system else own.ru_utime + children.ru_utime
    return user + own.ru_stime + children.ru_stime


def validate(paths: Paths, cache: Path | None = None, progress=None,
             read: Callable[[Dataset], None] | None = None,
             meanwhile: Callable[[], None] | None = None) -> tuple[Dataset, Problems]:
    """Every problem of the data folder; with a cache folder, campaigns unchanged since the build
    that filled it are not read again (validate/campaign_cache.py). `read`, if given, is called
    with the dataset once its files are read and its ids known without an error, before the
    checks across them (check_dataset's `ready`); `meanwhile` once the campaigns are being read,
    when this process may start a thread (load_dataset)."""
    problems = Problems()
    ds = load_dataset(paths, problems, cache, progress, meanwhile)
    check_dataset(ds, problems, complete=not problems.errors, ready=read)
    check_calibrations(ds, problems)
    if paths.pages is not None:  # the pages written for this data, checked against it (paths.pages)
        check_pages(paths, ds, problems)
    return ds, problems


def check_places(paths: Paths) -> None:
    """Refuse an output that would overwrite or swallow the data, the project or the build folder
    (the swap replaces the whole output folder)."""
    out = paths.public

    def within(a: Path, b: Path) -> bool:
        return a == b or b in a.parents

    clash = ("is the data folder or inside it" if within(out, paths.data) else
             "contains the data folder" if within(paths.data, out) else
             "contains the project" if within(paths.project, out) else
             "overlaps the build folder" if within(out, paths.build) or within(paths.build, out) else None)
    if clash:
        raise UserError(f"--out {out} {clash}", [Problem(
            str(out), 1, 1, "error", f"publishing there would replace what it {clash.split(' ', 1)[0]}",
            "publish into a folder of its own, e.g. --out public")])


@contextmanager
def site_lock(paths: Paths):
    """One build at a time per published folder; a second one is told, not made to wait."""
    paths.lock.parent.mkdir(parents=True, exist_ok=True)
    with open(paths.lock, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(f"another build is writing {paths.rel(paths.public)} right now; "
                            "wait for it to finish, or build into another --out") from None
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def remove_stale_staging(paths: Paths) -> None:
    """The staging trees a killed build left beside the site (.public.staging-<its pid>, and its
    .files): under the site's lock no other build writes one, so every one there is stale."""
    for stale in sorted(paths.public.parent.glob(f".{paths.public.name}.staging-*")):
        remove(stale)


def build(paths: Paths, timings: Timings | None = None) -> Problems:
    """Build the site; raise UserError (and keep every previous output) on any problem."""
    check_places(paths)
    try:
        with site_lock(paths):
            remove_stale_staging(paths)
            timings = Timings() if timings is None else timings
            recall_digests(paths.build)
            digest = inputs_digest(paths)
            if (same := unchanged(paths, digest)) is not None:
                problems, timings.pages = same
                if timings.say:
                    timings.say(f"nothing changed since the last build (inputs sha256 {digest[:12]}): "
                                f"{paths.rel(paths.public)} is already this build's site")
                return problems
            forget(paths)
            trash = Trash(paths.trash)
            trash.empty(old_sites(paths))  # what the last builds replaced, beside this one's first stages
            try:
                problems = _build(paths, timings, trash)
            finally:
                left = trash.wait()
                if left and timings.say:
                    timings.say(f"    old trees not removed (the next build tries again): {'; '.join(left)}")
            if inputs_digest(paths) == digest:
                remember(paths, digest, problems, timings.pages)
            elif timings.say:  # a file saved while it ran: this site may show either bytes of it
                timings.say("    inputs changed while this build ran: the next build reads them all again")
            return problems
    except OSError as e:  # a read-only or full disk, a vanished folder: the user's to fix
        raise _disk_error(e.filename or paths.rel(paths.public), e.strerror or str(e)) from None
    except duckdb.Error as e:  # DuckDB reports the same disk failures as its own errors
        m = _DISK.search(str(e))
        if not m:
            raise
        raise _disk_error(m.group("file") or paths.rel(paths.db), m.group("why")) from None


# How DuckDB words a failed write: 'Could not write file "<path>": No space left on device'.
_DISK = re.compile(r'(?:file "(?P<file>[^"]+)": )?(?P<why>No space left on device|Read-only file system|'
                   r'Permission denied)')


def _disk_error(where: str, why: str) -> UserError:
    return UserError(f"{where}: {why} (check that the folder is writable and the disk has space; "
                     "the previous site is unchanged)")


class _Database:
    """The new database, written beside the last one (`db`, with DuckDB's log `wal`) and loaded
    on threads as soon as the campaigns are read and their ids known: previous.start (copying and
    pruning the last database) then tables.load (every row but validate's flagged results) on
    one, blobs.put (the contributed files' bytes) on another. Both wait on DuckDB and the disk
    more than on Python, and run while validate's checks do (x100: the checks took 0.4 s on one
    core, then ingest 0.65-0.85 s; so, validate and ingest 2.06 s -> 1.92 s, the median of 8
    runs on an idle machine, as many CPU seconds; a build whose checks fail waits for the load,
    0.8 s more). load leaves the dataset as the checks read it (ingest/canonical.py). `started`
    joins the threads before ingest's finish; `discard` before validate's error is raised: no
    thread is left when render forks, nor a database no build will use. The files a discarded
    build stored are whole (blobs.put), named by their bytes' SHA-256, and removed by the next
    build that completes (blobs.keep), as those of a build that fails after ingest are."""

    def __init__(self, paths: Paths) -> None:
        self.paths = paths
        self.db = paths.db.with_name(paths.db.name + ".tmp")
        self.wal = self.db.with_name(self.db.name + ".wal")
        self._pool: ThreadPoolExecutor | None = None
        self._seed: Future | None = None
        self._future: Future | None = None
        self._written: Future | None = None

    def prepare(self) -> None:
        """previous.prepare on a thread, as soon as the campaigns are being read (validate's
        `meanwhile`: once its workers are forked, if it forks any): the last database's record
        and the copy it seeds, which no campaign's digest decides (x100, one campaign added: the
        new database's thread took 0.33-0.40 s once the campaigns were read, 0.19-0.20 s so)."""
        self.paths.build.mkdir(parents=True, exist_ok=True)
        for leftover in (self.db, self.wal):  # a build killed outright leaves them; DuckDB refuses a stale log
            leftover.unlink(missing_ok=True)
        self._pool = ThreadPoolExecutor(2, thread_name_prefix="database")
        self._seed = self._pool.submit(self._prepare)

    def _prepare(self) -> tuple[previous.Seed, str]:
        common = common_digest(self.paths)
        seed = previous.prepare(self.db, self.paths.db, common, IN_PLACE)
        # else begun empty, its tables made (x100, a clean build: the database's thread took 0.06 s
        # less after the reading, 0.81 -> 0.75 s)
        return previous.empty(seed, self.db, tables.create), common

    def begin(self, ds: Dataset) -> None:
        if self._pool is None:  # no campaign was read
            self.prepare()
        # the files first: the load waits for prepare, on the thread that ran it
        self._written = self._pool.submit(blobs.put, self.paths.blobs, blobs.files(ds.rows))
        self._future = self._pool.submit(self._start, ds, dict(ds.digests), [c["id"] for c in ds.campaigns])

    def _start(self, ds: Dataset, digests: dict[str, str], order: list[str]):
        seed, common = self._seed.result()
        con, last = previous.start(self.db, self.paths.db, seed, digests, order, IN_PLACE)
        try:
            tables.load(ds, con, last)
        except BaseException:
            con.close()
            raise
        return con, last, common

    def started(self):
        """(connection, Last, common digest) of the threads begun (begin), the rows loaded and the
        files stored; a failed load is raised before a failed write (as ingest does)."""
        try:
            started = self._future.result()
            try:
                self._written.result()
            except BaseException:
                started[0].close()
                raise
            return started
        finally:
            self._pool.shutdown()

    def discard(self) -> None:
        """The threads joined and the database removed; their errors, if any, are not the build's
        to say (validate's is)."""
        if self._pool is not None:
            try:
                if self._future is not None:
                    self._future.result()[0].close()
                else:
                    self._seed.result()[0].discard(self.db)
            except Exception:  # noqa: BLE001 - any: validate's error is the one reported
                pass
            self._pool.shutdown()
        self.remove()

    def remove(self) -> None:
        for leftover in (self.db, self.wal):
            remove(leftover)


def _load(ds: Dataset, paths: Paths, database: _Database, timings: Timings) -> set[str]:
    """Ingest and derive into the new database, closed when done (the render stage reads the
    file, on every core: render/units.py); returns the contributed files' digests it names."""
    con = None
    try:
        with timings.stage("ingest", "loading DuckDB"):
            con, last, common = database.started()
            tables.finish(ds, con, common)
            stored = {f["sha256"] for f in blobs.files(ds.rows)}
            ds.rows.clear()  # what is left to read is in the database
            release_arrow_memory()
        if timings.say and last.kept:
            how = "kept in a copy of" if last.placed else "copied from"
            timings.say(f"    the rows of {len(last.kept)} unchanged campaign(s) {how} the last build's database")
        with timings.stage("derive", "rQPS, summaries, costs, ladders and change points"):
            derive(con, last)
            previous.detach(con)
        return stored
    finally:
        if con is not None:
            con.close()


def _build(paths: Paths, timings: Timings, trash: Trash) -> Problems:
    if images_enabled():
        check_images()  # pyvips missing or not the pinned libvips: said now, not after the stages before it
    database = _Database(paths)
    try:
        with timings.stage("validate", f"checking {paths.rel(paths.data)}"):
            ds, problems = validate(paths, paths.build / "campaigns-read",
                                    partial(timings.progress, "campaigns read"), database.begin, database.prepare)
        if problems.errors:
            raise UserError(f"{len(problems.errors)} error(s) in {paths.rel(paths.data)}", problems.sorted())
    except BaseException:
        database.discard()
        raise
    if timings.say:
        timings.say(f"    {len(ds.campaigns)} campaigns ({ds.reused} unchanged since the last build), "
                    f"{len(ds.rows['results'])} results, "
                    f"{len(ds.rows['relative'])} published ratios, {len(problems.items) - len(problems.errors)} "
                    "warning(s)")
    try:
        stored = _load(ds, paths, database, timings)
        release_arrow_memory()
        with timings.stage("render", "pages, specs, tables and CSVs"):
            units: list[int] = []
            timings.pages = render_site(database.db, ds, paths, units, timings.progress, trash)
            if timings.say and units:
                timings.say(f"    {units[0]} page unit(s) unchanged since the last build, {units[1]} written")
            timings.pages += render_pins(paths, paths.generated)
        if images_enabled():
            with timings.stage("images", "SVG and PNG of every chart (cached by the hash of its spec and CSV)"):
                timings.images = render_images(paths.generated, paths.image_cache)
        elif timings.say:
            timings.say("    images: not drawn (PAPERCUTS_IMAGES=0, --no-images)")
        if timings.say and timings.images:
            timings.say(f"    {timings.images.rendered} chart image(s) drawn, {timings.images.reused} from the cache")
        if timings.say and timings.images and timings.images.rendered and not timings.images.librsvg:
            timings.say("    images: neither Liberation Sans nor Arial is installed, so their PNGs were drawn by "
                        "vl-convert's renderer, about 4x slower (install Debian's fonts-liberation)")
        trash.empty(old_sites(paths))  # an old content tree (render/content_tree.py), while Hugo runs
        with timings.stage("hugo", "the pinned Hugo writes the site"):
            kept = run_hugo(paths, trash=trash)
        if timings.say and kept:
            timings.say(f"    {kept} page(s) of unchanged units taken from the last site, not rendered again")
    except BaseException:
        database.remove()
        for leftover in (paths.staging, paths.generated.with_name(paths.generated.name + ".tmp")):
            remove(leftover)
        raise
    replace_path(database.db, paths.db)
    blobs.keep(paths.blobs, stored)  # the files the database in place names
    return problems
