"""Page units made on every core.

A unit is one campaign's page, one server's page, its ladder pages or its explorer files: a
module-level function called as `make(con, root, *args)` that reads the derived DuckDB through
`con`, writes its files under `root` and nowhere else, and returns its page count. Units of one
batch do not read each other's files, so they can be made in any order and in any process.

With the database in a file and more than one core, the render stage forks its worker processes
once, before this process opens the file. Each worker opens the file read-only, and DuckDB allows
any number of read-only readers. Units are handed out one at a time, so a large server does not
hold up a queue. The files are the ones a single process writes (tests/test_parallel_render.py).
A process with other threads (pytest with Playwright, `papercuts serve`) makes units itself:
a fork copies locks those threads may hold. A database in memory (snapshots) does the same.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

import duckdb

from ..children import counted, end_with
from ..problems import UserError
from . import selection, site_rows


@dataclass(frozen=True)
class Unit:
    name: str  # "server dell32": names its entry among the kept units
    make: Callable[..., int]  # make(con, root, *args) -> pages; module-level, so a worker can run it
    args: tuple = field(default=())
    # What it is drawn from (its key, render/reuse.py): one campaign, every campaign of a server, or
    # the campaigns named (an investigation's: investigations.drawn_from).
    campaign: str | None = None
    server: str | None = None
    reads: tuple[str, ...] | None = None


_con: duckdb.DuckDBPyConnection | None = None  # a worker's own connection


def _open(parent: int, db: str) -> None:
    """A worker's connection, on one thread: the workers are one per core already, and their
    queries are small (a unit's rows), so DuckDB's threads beside each only contended for the
    cores (x100 full builds, alternating: render 8.39-9.58 s against 9.14-9.77 s)."""
    global _con
    end_with(parent)
    _con = duckdb.connect(db, read_only=True, config={"threads": 1})


def _make(make: Callable[..., int], root: Path, args: tuple, many: bool) -> int:
    return _unit(make, _con, root, args, many)


def _unit(make: Callable[..., int], con: duckdb.DuckDBPyConnection, root: Path, args: tuple,
          many: bool = False) -> int:
    if many:  # one of many units: the whole site's rows at once (site_rows.py)
        site_rows.read_whole(con)
    try:
        return make(con, root, *args)
    finally:
        selection.forget()


class Workers:
    """The render stage's connection, and the processes that make its units."""

    def __init__(self, db: Path | duckdb.DuckDBPyConnection, workers: int | None = None) -> None:
        self.path = db if isinstance(db, Path) else None
        self.con = db if isinstance(db, duckdb.DuckDBPyConnection) else None
        self.workers = workers or os.cpu_count() or 1
        self.pool = None

    def __enter__(self) -> Workers:
        if self.path is not None:
            if self.workers > 1 and threading.active_count() == 1:
                # A pool that notices a worker killed (out of memory) instead of waiting for it.
                self.pool = ProcessPoolExecutor(self.workers, mp_context=get_context("fork"),
                                                initializer=_open, initargs=(os.getpid(), str(self.path)))
                # Its workers are forked at the first task, within submit (a forked pool starts
                # them all at once): now, while this process has no database open, so that none
                # inherits one. Not waited for: each opens its connection while this process
                # opens its own and reads the units' keys (x100 rebuild: 0.1-0.35 s waited).
                self.pool.submit(int)
            self.con = duckdb.connect(str(self.path), read_only=True)
        return self

    def __exit__(self, kind, *_) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=kind is not None)
        if self.path is not None and self.con is not None:
            self.con.close()

    def make(self, jobs: list[tuple[Callable[..., int], Path, tuple]], progress=None) -> list[int]:
        """Each job's page count, in the jobs' order; progress(done, total) is told as they end."""
        return self.start(jobs, progress)()

    def start(self, jobs: list[tuple[Callable[..., int], Path, tuple]], progress=None) -> Callable[[], list[int]]:
        """Hand the jobs to the workers and return at once what waits for their page counts (as
        make gives them): this process may do other work meanwhile. Without workers, the jobs are
        made here, before it returns. A single job goes to a worker too: this process's own work
        runs beside it (a rebuild's one server page, beside the whole site's pages)."""
        many = len(jobs) > site_rows.FIRST  # more units than a process reads its key alone for
        if self.pool is None or not jobs:
            done = counted((_unit(make, self.con, root, args, many) for make, root, args in jobs), len(jobs),
                           progress)
            return lambda: done
        try:  # every job submitted now
            results = self.pool.map(_make, *zip(*jobs, strict=True), [many] * len(jobs))
        except BrokenProcessPool:
            raise _killed() from None

        def wait() -> list[int]:
            try:
                return counted(results, len(jobs), progress)
            except BrokenProcessPool:
                raise _killed() from None
        return wait


def _killed() -> UserError:
    return UserError("a process making pages was killed (out of memory?); the previous site is "
                     "unchanged: build again, with more memory free")
