"""Ladder pages (/ladders/<server>-<dbms>-<threads>/) and the regressions index (/regressions/).

Each ladder page shows, per ladder of that server, DBMS and thread count (one per campaign and
config family): the group medians and the shared drift along the builds, the change points, and
what the method can detect with this many builds and runs. The index lists the largest changes,
and every change in its CSV.
"""
from __future__ import annotations

import hashlib
import re
from itertools import groupby
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from ..contract import dbms_name
from ..db import fetch_dicts, query
from ..derive.changepoints import SPAN
from ..paths import campaign_url, ladder_slug, ladder_url, server_url
from .bundle import write_bundle
from .charts import explore_url, make_chart
from .columns import Columns, arrow_of
from .embeds import page_as_of
from .frontmatter import page
from .known_list import known_link, known_list
from .ladder_charts import server_changes
from .ladder_links import ladder_title
from .selection import slug
from .site_rows import rows_of
from .tables import escaper, percent, to_csv
from .units import Unit

# The regressions table's rows, beside its page: a page resource Hugo reads as text (.txt), never a
# page or a published file of its own.
CHANGES = "changes.html.txt"
_LINK = re.compile(r"(https?://|/(?!/))", re.IGNORECASE)
FEED_ENTRIES = 200  # the Atom feed: the newest campaigns' changes, largest first within a date
# The rows the index's table shows: the largest changes (the shipped data has 1,509; at x100, 6,490
# were a page of 4.7 MB, 346 KB gzip, more than any chart page fetches on arrival). Every change is
# in CHANGES_CSV beside it, which the page links, and each server's on its ladder pages.
SHOWN_CHANGES = 2000
CHANGES_CSV = "changes.csv"
CSV_COLUMNS = ["change", "direction", "series", "kind", "group", "before", "after", "before_version", "after_version",
               "span_before", "span_after", "server", "dbms", "family", "threads", "campaign", "date", "pvalue",
               "known", "flagged", "ladder"]


def _chart_id(ladder: str) -> str:
    return "ladder-" + re.sub(r"[^A-Za-z0-9_-]+", "-", ladder)


def _between(r: dict) -> dict:
    """Where a change lies: its two builds, and its span when that is wider (derive/changepoints.py),
    by version (a ladder has one build a version: derive/ladders.py one_per_version)."""
    wider = (r["span_before"], r["span_after"]) != (r["before"], r["after"])
    return {"between": f"{r['before_version']} → {r['after_version']}",
            "span": f"{SPAN:.0%} within {r['span_before_version']} → {r['span_after_version']}" if wider else ""}


def flag_note(flagged: list[dict] | None) -> str:
    """What a change is measured on that papercuts check warns of (derive: change_flagged), said
    beside it: a 10x outlier (a misplaced decimal point, a run that stalled) makes a large change."""
    return "; ".join(f"check the data: QPS {f['qps']:g} of {f['variant']} is {f['qps'] / f['median']:.3g}× "
                     f"the median of the other {f['others']} builds' ({f['file']}:{f['line']})"
                     for f in flagged or ())


def _changes(rows: list[dict]) -> list[dict]:
    return [{"series": r["series"], "kind": r["kind"], **_between(r), "flagged": flag_note(r["flagged"]),
             "before": r["before"], "after": r["after"], "change": percent(r["change"]),
             "direction": r["direction"], "pvalue": f"{r['pvalue']:.2g}" if r["pvalue"] >= 1e-16 else "< 1e-16",
             "known": f"{r['known_title']} ({r['known_status']})" if r["known"] else ""}
            for r in rows]


def what_it_can_see(builds: int, repetitions: int, noise: float, series: int = 2) -> str:
    """An honest sentence on detection power for this ladder (from `make bench` on synthetic
    ladders with 2 % noise: 8 builds find 10 % steps between the right builds 90 % of the time with
    one run, 5 % steps 80 % with three; smaller steps mostly not). A ladder whose noise is 0 is not
    searched at all (derive/changepoints.segment_all tests only series of noise > 0): one
    microbenchmark is its own shared drift, and nothing is left after it to measure a noise on."""
    runs = f"{repetitions} run{'s' if repetitions != 1 else ''} per build"
    if not noise > 0:
        why = ("its one microbenchmark is the shared drift itself, so nothing is left after the drift to "
               "estimate a noise from" if series == 1 else
               "nothing is left after the shared drift to estimate a noise from")
        return f"{builds} builds, {runs}; {why}, and without a noise no step can be tested."
    floor = 2.5 * noise * (2 / max(builds // 2, 1)) ** 0.5  # a step at mid-ladder at ~2.5 sigma
    return (f"{builds} builds, {runs}; noise per point ≈ {noise:.1%} (estimated from the successive "
            f"differences of every microbenchmark after the shared drift). Steps smaller than about "
            f"{max(floor, noise):.0%} are unlikely to be found here; a change not listed is not shown to be absent.")


def ladder_units(con: duckdb.DuckDBPyConnection) -> list[Unit]:
    """A unit per server: its ladder pages."""
    return [Unit(f"ladders {server}", _server_ladders, (list(rows),), server=server)
            for server, rows in groupby(fetch_dicts(con, query("ladder_pages")), key=lambda r: r["server"])]


def render_ladder_index(con: duckdb.DuckDBPyConnection, out_root: Path, investigations: tuple[str, ...] = ()) -> int:
    """The ladders' section page and the regressions index."""
    (out_root / "ladders").mkdir(parents=True, exist_ok=True)
    (out_root / "ladders" / "_index.md").write_text(page({"title": "Version ladders"}, ""))
    return 1 + render_regressions(con, out_root, investigations)


def _server_ladders(con: duckdb.DuckDBPyConnection, out_root: Path, rows: list[dict]) -> int:
    """The ladder pages of one server: one per DBMS and thread count."""
    pages = 0
    as_of = page_as_of(con, server=rows[0]["server"]) if rows else ""
    left_out = _left_out(con, rows[0]["server"]) if rows else {}
    for (server, dbms, threads), ladders in groupby(rows, key=lambda r: (r["server"], r["dbms"], r["threads"])):
        ladders = list(ladders)
        charts, sections = [], []
        for lad in ladders:
            # its campaign named: the chart (and its embed) cites that campaign's source
            chart = make_chart(con, {"id": _chart_id(lad["ladder"]), "kind": "ladder", "ladder": lad["ladder"],
                                     "title": _chart_title(lad), "campaign": lad["campaign"]},
                               f"ladder page {lad['ladder']}")
            charts.append(chart)
            sections.append({
                "id": chart.id, "campaign": lad["campaign"], "campaign_url": campaign_url(lad["campaign"]),
                "campaign_title": lad["campaign_title"], "family": lad["family"], "engine": lad["engine"],
                "series": lad["series"], "incomplete": lad["incomplete"],
                "left_out": left_out.get(lad["ladder"], []),
                "power": what_it_can_see(lad["builds"], lad["repetitions"], lad["noise"], lad["series"]),
                "searched": lad["noise"] > 0,
                "changes": _changes(server_changes(con, server).get(lad["ladder"], [])),
            })
        title = ladder_title(server, dbms, threads)
        meta = {"title": title, "server": {"id": server, "url": server_url(server)}, "dbms": dbms_name(dbms),
                # the ladders' index lists them by server, DBMS and thread count, in numeric order
                "order": f"{server}\t{dbms_name(dbms)}\t{threads:09d}",
                "threads": threads, "ladders": sections, "charts": [c.front_matter() for c in charts]}
        write_bundle(out_root / "ladders" / ladder_slug(server, dbms, threads), meta, "", charts, out_root, as_of)
        pages += 1
    return pages


def _chart_title(lad: dict) -> str:
    """The campaign's title, then the ladder's config family and thread count: a campaign of several
    thread counts names them all in its title ("..., 8, 40 threads"), so its 8-thread ladder's chart,
    embedded alone, said 40 too."""
    n = lad["threads"]
    return f"{lad['campaign_title']} ({lad['family']}, {n} thread{'' if n == 1 else 's'})"


def _left_out(con: duckdb.DuckDBPyConnection, server: str) -> dict[str, list[dict]]:
    """ladder -> the builds it leaves out: at a version it has another build of (one_per_version:
    `kept` names it), or as its campaign names them comparison_only (`kept` empty)."""
    rows = rows_of(con, "ladder_left_out", "server", server)
    return {lid: [{k: r[k] or "" for k in ("version", "variant", "kept")} for r in group]
            for lid, group in groupby(rows, key=lambda r: r["ladder"])}


def _evidence(r: dict) -> list[dict]:
    """Where to see a change for oneself: the two builds side by side in the explorer (that
    microbenchmark, or that group), their per-op costs when both have them, the test's profile."""
    query = {"server": r["server"], "campaign": r["campaign"], "threads": r["threads"], "base": r["before"],
             "v": r["after"]}
    if r["kind"] == "series":
        query["q"] = f'"{r["label"]}"'  # in quotes: exactly this microbenchmark
    elif r["group"]:
        query["groups"] = r["group"]
    out = [{"text": "compare", "url": explore_url(query)}]
    if r["has_costs"]:
        out.append({"text": "costs", "url": explore_url({**query, "metric": "cpu_per_op"})})
    if r["has_profile"]:
        out.append({"text": "profile", "url": server_url(r["server"]) + "#chart-" +
                    slug("profile", r["campaign"], r["label"], r["threads"])})
    return out


def render_regressions(con: duckdb.DuckDBPyConnection, out_root: Path, investigations: tuple[str, ...] = ()) -> int:
    """The regressions index, its CSV and its feed; a known regression links its investigation
    when this site has it (`investigations`: the slugs built, none for a data folder without its
    pages: paths.pages), else its first bug."""
    # As Arrow: a dict is made of the rows the page shows and the feed announces alone, and the CSV
    # written from the columns (x100: 6,417 changes, 2,000 shown; every row a dict, then columns
    # again for the CSV, took 0.05 s of the 0.22 s this page took, at every build)
    table = arrow_of(con, query("regressions"), {})
    dates = pc.cast(table.column("date"), pa.string())
    # The feed announces what is new: a change a known regression explains is not announced again.
    new = [i for i, known in enumerate(table.column("known").to_pylist()) if not known]
    date, size = dates.to_pylist(), pc.abs(table.column("change")).to_pylist()
    feed = sorted(new, key=lambda i: (date[i], size[i]), reverse=True)[:FEED_ENTRIES]
    # Entries for the rows the page shows and the feed announces; the CSV has every row (x100:
    # 6,417 changes, 2,000 shown).
    picked = [*range(min(table.num_rows, SHOWN_CHANGES)), *feed]
    rows = table.take(pa.array(picked, pa.int64())).to_pylist()
    items = {i: _entry(r, investigations) for i, r in zip(picked, rows, strict=True)}
    newest = [items[i] for i in feed]
    shown = [items[i] for i in range(min(table.num_rows, SHOWN_CHANGES))]
    meta = {"title": "Regressions", "feed": newest, "outputs": ["html", "atom"],
            # its rows are read into the page, not served; the CSV is published by its link (and
            # placed by publish/own_files.py, as every CSV: the same bytes, Hugo's copy kept)
            "build": {"publishResources": False}, "shown": len(shown), "total": table.num_rows,
            "known": known_list(con, investigations),
            # thread counts in numeric order: 1, 2, 4, 8, 10, not 1, 10, 12, 16, 2
            "filters": {k: sorted({i[k] for i in shown}, key=_in_order)
                        for k in ("dbms", "server", "group", "threads")}}
    folder = out_root / "regressions"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.md").write_text(page(meta, ""))
    (folder / CHANGES).write_text(changes_html(shown))
    (folder / CHANGES_CSV).write_text(to_csv(Columns.of_arrow(_csv_table(table, dates)), CSV_COLUMNS))
    return 1


def _csv_table(table: pa.Table, dates: pa.ChunkedArray) -> pa.Table:
    """The regressions with their CSV_COLUMNS as the CSV writes them: the date as text, what is
    flagged said (flag_note), and the ladder as its page's URL, made once per page (a few hundred)."""
    flagged = table.column("flagged").to_pylist()
    keys = list(zip(*(table.column(k).to_pylist() for k in ("server", "dbms", "threads")), strict=True))
    at = {key: ladder_url(*key) for key in set(keys)}
    made = {"date": dates, "flagged": pa.array([flag_note(f) if f else "" for f in flagged], pa.string()),
            "ladder": pa.array([at[k] for k in keys], pa.string())}  # its page's URL, not its id
    for name, column in made.items():
        table = table.set_column(table.schema.get_field_index(name), name, column)
    return table


def _entry(r: dict, investigations: tuple[str, ...]) -> dict:
    """A change as the regressions page and its feed show it, with a stable anchor (for the feed)
    and its evidence."""
    item = {"change": percent(r["change"]), "size": abs(r["change"]), "direction": r["direction"],
            "series": r["series"], "kind": r["kind"], "group": r["group"] or "",
            **_between(r), "before": r["before"], "after": r["after"],
            "server": r["server"], "dbms": dbms_name(r["dbms"]), "threads": r["threads"],
            "campaign": r["campaign"], "date": str(r["date"]),
            "url": ladder_url(r["server"], r["dbms"], r["threads"]),
            "pvalue": f"{r['pvalue']:.2g}" if r["pvalue"] >= 1e-16 else "< 1e-16",
            "known": f"{r['known_title']} ({r['known_status']})" if r["known"] else "",
            "flagged": flag_note(r["flagged"]),
            "known_url": known_link(r["known_investigation"], r["known_bug"], investigations)}
    key = f"{r['ladder']}|{r['series']}|{r['before']}|{r['after']}"
    item["id"] = "change-" + hashlib.sha256(key.encode()).hexdigest()[:16]
    item["evidence"] = _evidence(r)
    return item


def _in_order(value) -> tuple:
    """A filter's values in order: numbers by value, then text as text."""
    return (0, value, "") if isinstance(value, int | float) else (1, 0, str(value))


def changes_html(items: list[dict]) -> str:
    """The regressions table's rows as HTML, every value escaped (as render/tables.html escapes a
    table's), not a list in the front matter that Hugo's template turned into rows: at x100, 6,490
    changes were Hugo's slowest page (178 ms, at every build). Built here as tables.html builds
    tables: a Jinja template of it took 0.42 s, this 0.27 s. A known regression links only to a web page
    (validate/known.py checks it too)."""
    esc = escaper()

    def link(url: str, text: str) -> str:
        return f'<a href="{esc(url)}">{esc(text)}</a>'

    def row(c: dict) -> str:
        span = f' <span class="span">{esc(c["span"])}</span>' if c["span"] else ""
        flagged = f' <span class="flag-note">{esc(c["flagged"])}</span>' if c["flagged"] else ""
        mark = ' <span class="flagged">flagged</span>' if c["flagged"] else ""
        known = link(c["known_url"], c["known"]) if _LINK.match(c["known_url"]) else esc(c["known"])
        evidence = " · ".join(link(e["url"], e["text"]) for e in c["evidence"])
        return (f'\n  <tr id="{esc(c["id"])}" class="{esc(c["direction"])}" data-dbms="{esc(c["dbms"])}" '
                f'data-server="{esc(c["server"])}" data-group="{esc(c["group"])}" data-threads="{esc(c["threads"])}" '
                f'data-direction="{esc(c["direction"])}"><td class="num">{esc(c["change"])}{mark}</td>'
                f'<td>{link(c["url"], c["series"])}</td><td>{esc(c["between"])}{span}{flagged}</td>'
                f'<td>{esc(c["server"])}</td>'
                f'<td>{esc(c["dbms"])}</td><td class="num">{esc(c["threads"])}</td>'
                f'<td>{esc(c["date"])} <code>{esc(c["campaign"])}</code></td><td class="num">{esc(c["pvalue"])}</td>'
                f'<td>{known}</td><td class="evidence">{evidence}</td></tr>')

    return "".join(map(row, items))
