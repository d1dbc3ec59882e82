"""Calibration on the site: a section per calibration on its server's page, the /calibration/
page comparing every calibrated server, and the calibration files behind an investigation.
"""
from __future__ import annotations

from pathlib import Path

import duckdb

from ..db import fetch_dicts, query
from ..ingest import blobs
from ..paths import Paths, calibration_url, server_url
from .bundle import write_bundle
from .charts import make_chart
from .embeds import page_as_of
from .jinja import render_template
from .selection import slug
from .site_rows import rows_of

PROVENANCE = ("contributor", "method", "cpu_model", "cores", "arch", "kernel", "compiler", "campaign",
              "measure", "notes")
SOURCE = ("id", "title", "author", "date", "publication", "url")


def _calibrations(con, server: str | None = None) -> list[dict]:
    """Every server's calibrations, or one server's."""
    if server is None:
        return fetch_dicts(con, query("calibration_list"))
    return rows_of(con, "calibration_list", "server", server, keep=True)


def _chart(kind: str, cid: str, title: str, caption: str, ids: list[str]) -> dict:
    return {"id": cid, "kind": kind, "title": title, "caption": caption, "calibrations": ids}


def calibration_defs(cal: dict, prefix: str) -> list[dict]:
    """Chart definitions for what one calibration holds, ids starting with prefix."""
    ids, sid = [cal["id"]], cal["server"]
    source = f"Source: {cal['source_title']} ({cal['file'].rsplit('/', 1)[0]}/)."
    defs = []
    if cal["ut_delay_rows"]:
        defs += [
            _chart("calibration-servers", f"{prefix}summary", f"{sid}: calibration summary",
                   f"The least-squares slope of ut_delay time against X, ± one standard error. {source}", ids),
            _chart("ut-delay", f"{prefix}ut-delay", f"{sid}: wall-clock time of one ut_delay(X) call",
                   f"One line per series; the table adds the fitted µs per unit. {source}", ids),
            _chart("spin-wait", f"{prefix}spin-wait", f"{sid}: expected wait per spin by innodb_spin_wait_delay",
                   "X uniform on [0, N) (MySQL up to 8.0.28) or [0, N] (from 8.0.30), times the fitted "
                   f"µs per unit. {source}", ids)]
    if cal["prng_rows"]:
        defs.append(_chart("prng-cost", f"{prefix}prng", f"{sid}: ns per call of the interval functions",
                           f"One bar per compile flag. {source}", ids))
    if cal["draw_cost_rows"]:
        defs.append(_chart("draw-cost", f"{prefix}draw-cost", f"{sid}: drawing X next to the wait it chooses",
                           f"ns per draw over the expected wait for the calibration's innodb_spin_wait_delay. {source}",
                           ids))
    if cal["timebase_subjects"]:
        defs.append(_chart("timebase-runs", f"{prefix}timebase", f"{sid}: timebase ticks per ut_delay call",
                           f"One point per run; the table converts the mean to µs at the timebase rate. {source}",
                           ids))
    return defs


def server_sections(con, server: str) -> list[tuple[str, list[dict]]]:
    """(heading, chart definitions) per calibration of one server, for its page."""
    out = []
    for cal in _calibrations(con, server):
        defs = calibration_defs(cal, f"calibration-{slug(cal['id'])}-")
        if defs:
            out.append((f"Calibration {cal['id']}", defs))
    return out


def calibration_datafiles(con, ids: list[str]) -> list[dict]:
    """The calibration files behind some charts, as investigations.datafiles lists campaign files."""
    out = []
    for cal in _calibrations(con):
        if cal["id"] in ids:
            for f in [{"file": cal["file"], "rows": ""}] + fetch_dicts(
                    con, query("calibration_files"), {"calibration": cal["id"]}):
                out.append({"path": f["file"], "campaign": cal["id"], "url": calibration_url(cal["id"]),
                            "file_url": f"/calibration/files/{cal['id']}/{f['file'].rsplit('/', 1)[-1]}",
                            "rows": f["rows"], "title": cal["title"], "contributor": cal["contributor"],
                            "date": cal["date"], "sysbench": ""})
    return out


def _comparison_sections(cals: list[dict]) -> list[tuple[str, list[dict]]]:
    def having(key: str) -> list[str]:
        return [c["id"] for c in cals if c[key]]

    sections = []
    if having("ut_delay_rows"):
        ids = having("ut_delay_rows")
        sections += [
            ("Servers compared", [_chart("calibration-servers", "servers", "µs per ut_delay unit, by server",
                                         "The least-squares slope of ut_delay time against X, ± one standard "
                                         "error; the table adds the expected waits, draw costs and constants.", ids)]),
            ("ut_delay wall-clock time", [_chart("ut-delay", "ut-delay", "Wall-clock time of one ut_delay(X) call",
                                                 "A colour per server, a dash per series.", ids)]),
            ("Expected wait per spin", [_chart("spin-wait", "spin-wait",
                                               "Expected wait per spin by innodb_spin_wait_delay",
                                               "Solid: X in [0, N), MySQL up to 8.0.28. Dashed: X in [0, N], "
                                               "from 8.0.30.", ids)])]
    if having("prng_rows"):
        charts = [_chart("prng-cost", "prng", "ns per call of the interval functions",
                         "Grouped by server and compile flags.", having("prng_rows"))]
        if having("draw_cost_rows"):
            charts.append(_chart("draw-cost", "draw-cost", "Drawing X next to the wait it chooses",
                                 "ns per draw over the expected wait for each calibration's innodb_spin_wait_delay.",
                                 having("draw_cost_rows")))
        sections.append(("Cost of drawing X", charts))
    if having("timebase_subjects"):
        sections.append(("Timebase measurements", [_chart(
            "timebase-runs", "timebase", "Timebase ticks per ut_delay call", "One point per run.",
            having("timebase_subjects"))]))
    return sections


def _entry(con, cal: dict, folder: Path, store: Path) -> dict:
    """One calibration's provenance, with its files (recorded at validation) written beside the page."""
    recorded = fetch_dicts(con, query("calibration_evidence"), {"calibration": cal["id"]})
    content = {r["name"]: blobs.get(store, r["sha256"], r["size"]) for r in recorded}
    files = []
    for f in [{"file": cal["file"], "rows": None}] + fetch_dicts(
            con, query("calibration_files"), {"calibration": cal["id"]}):
        name = Path(f["file"]).name
        dest = folder / "files" / cal["id"] / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(content[name])
        files.append({"name": f"files/{cal['id']}/{name}", "path": f["file"], "rows": f["rows"]})
    return {"id": cal["id"], "title": cal["title"], "date": cal["date"], "server": cal["server"],
            "server_url": server_url(cal["server"]), "missing": cal["missing"] or [],
            **{k: ("" if cal[k] is None else cal[k]) for k in PROVENANCE},
            "source": {k: cal[f"source_{k}"] or "" for k in SOURCE}, "files": files}


def drawn_from(con, every: list[str]) -> tuple[str, ...]:
    """The campaigns the calibration page is drawn from (its key, render/reuse.py): none while it
    has charts, which name calibrations only (data outside the campaigns, in every key); every
    campaign when it has none, as its date is then the site's newest (embeds.page_as_of)."""
    return () if any(defs for _, defs in _comparison_sections(_calibrations(con))) else tuple(every)


def render_calibration_page(con: duckdb.DuckDBPyConnection, out_root: Path, paths: Paths) -> int:
    """The calibration page (a page unit's make: render/units.py); its page count."""
    cals = _calibrations(con)
    sections = _comparison_sections(cals)
    charts = [make_chart(con, d, "calibration page") for _, defs in sections for d in defs]
    folder = out_root / "calibration"
    meta = {"title": "Calibration", "calibrations": [_entry(con, c, folder, paths.blobs) for c in cals],
            "charts": [c.front_matter() for c in charts],
            "sections": [{"heading": heading, "charts": [d["id"] for d in defs]} for heading, defs in sections]}
    body = render_template("calibration.md.j2")
    write_bundle(folder, meta, body, charts, out_root,
                 page_as_of(con, charts=[d for _, defs in sections for d in defs]))
    return 1
