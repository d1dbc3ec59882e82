"""The whole flow: validate → ingest → derive → render → hugo, each stage timed.

Every output is written beside its final place and swapped in only when complete, so a failed
build leaves the previous DuckDB file, content tree and public/ site untouched.
"""
from __future__ import annotations

import time
from contextlib import contextmanager

import duckdb

from .derive.models import derive
from .ingest.tables import ingest
from .paths import Paths
from .problems import Problems, UserError
from .publish.hugo import run_hugo
from .publish.swap import replace_path
from .render.site import render_site
from .validate.calibration_checks import check_calibrations
from .validate.checks import check_dataset
from .validate.load import Dataset, load_dataset

STAGES = ("validate", "ingest", "derive", "render", "hugo")


class Timings(dict):
    pages = 0

    @contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        yield
        self[name] = time.perf_counter() - start


def validate(paths: Paths) -> tuple[Dataset, Problems]:
    problems = Problems()
    ds = load_dataset(paths, problems)
    check_dataset(ds, problems, complete=not problems.errors)
    check_calibrations(ds, problems)
    return ds, problems


def build(paths: Paths, timings: Timings | None = None) -> Problems:
    """Build the site; raise UserError (and keep every previous output) on any problem."""
    timings = Timings() if timings is None else timings
    with timings.stage("validate"):
        ds, problems = validate(paths)
    if problems.errors:
        raise UserError(f"{len(problems.errors)} error(s) in {paths.rel(paths.data)}", problems.sorted())
    paths.build.mkdir(parents=True, exist_ok=True)
    db_tmp = paths.db.with_name(paths.db.name + ".tmp")
    db_tmp.unlink(missing_ok=True)
    con = duckdb.connect(str(db_tmp))
    try:
        with timings.stage("ingest"):
            ingest(ds, con)
        with timings.stage("derive"):
            derive(con)
        with timings.stage("render"):
            timings.pages = render_site(con, ds, paths)
    except BaseException:
        con.close()
        db_tmp.unlink(missing_ok=True)
        raise
    con.close()
    with timings.stage("hugo"):
        run_hugo(paths)
    replace_path(db_tmp, paths.db)
    return problems
