"""Embed pages: one page per chart at /embed/<page path>/<chart id>/, the chart alone (title,
source line, link back to its page) for a blog post to frame from any origin.

The embed id is the chart's page path and its front-matter id: `/embed/servers/dell32/rqps-1/`
for chart `rqps-1` on `/servers/dell32/`. Front-matter ids are unique within a page only (checked
by `papercuts check` for investigations, and here for every page), and page paths are unique on
the site, so the pair is unique by construction. A flat `<page-slug>-<chart-id>` would not be:
both parts may contain '-' (server `a` + chart `b-c` and server `a-b` + chart `c` collide), and
slugs of different sections may be equal. The image files keep the flat, readable name
`<page-slug>-<chart-id>.svg` for downloads; their folder makes them unique.

An embed page is HTML this module writes (templates/embed.html.j2), not a Hugo page: it is the
chart alone, with nothing of the site's layout, and Hugo making 1,099 of them was a third of its
stage at x100 (0.5-0.9 s, mostly creating their files and folders anew on every build). Written by
the page unit that draws the chart, a kept unit's embed pages are the last site's files, linked
(publish/placed.py). So "Data as of" is the newest date of the data the page draws (a campaign's
page: its campaign's; a server's pages: its campaigns' and calibrations'; an investigation and
the calibration page: the campaigns' and calibrations' their charts name), which the unit's key
holds, not the newest of the whole site: that changed every unit's pages with each new campaign,
and told a reader of a chart of 2025 that its data was of today.
"""
from __future__ import annotations

import os
import re
import tomllib
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from ..db import query
from ..paths import EMBED_SUFFIX, EMBEDS, PROJECT
from ..problems import UserError
from .jinja import render_template
from .site_rows import rows_of

_HTTP = re.compile(r"https?://", re.IGNORECASE)  # not urlsplit: it raises on some links validation takes


def page_path(page_folder: str) -> str:
    """'servers/dell32' → '/servers/dell32/'."""
    return "/" + page_folder.strip("/") + "/"


def embed_url(page: str, chart_id: str) -> str:
    """In lower case, as Hugo writes every path (a chart `Rqps` has its embed page at `…/rqps/`)."""
    return f"/embed{page}{chart_id}/".lower()


def embed_file(root: Path, page: str, chart_id: str) -> Path:
    """The file of a chart's embed page in the content tree: `<chart id>.embed.html` beside its
    page's other embeds (paths.embed_published_as), not a folder each: they would be half the
    content tree's folders, each created by every build."""
    return root / EMBEDS / page.strip("/").lower() / f"{chart_id.lower()}{EMBED_SUFFIX}"  # in lower case, as its URL


def page_as_of(con, campaign: str | None = None, server: str | None = None, charts: list[dict] | None = None) -> str:
    """The newest date of the data a page draws (sql/queries/as_of.sql): a campaign's page, a
    server's pages, or a page whose charts name what they draw (`charts`, their definitions: an
    investigation, the calibration page; a chart: charts.data_as_of): the newest of the campaigns
    and calibrations they name, a ladder's being its campaign. The site's newest only when none
    names any: it told a reader of a 2014 chart embedded from an investigation that its data was
    of the newest campaign of all (2026-11-22), and changed with every campaign that lands."""
    dates = _as_of(con)
    if campaign is not None:
        return dates.get(("campaign", campaign)) or ""
    if server is not None:
        return dates.get(("server", server)) or ""
    return named_as_of(con, charts or []) or dates.get(("site", "")) or ""


def named_as_of(con, charts: list[dict]) -> str:
    """The newest date of what chart definitions name (a campaign, calibrations, a ladder), or ""
    when they name none: one chart's date (charts.data_as_of), or a page's (page_as_of)."""
    dates = _as_of(con)
    return max((d for key in _named(con, charts) if (d := dates.get(key))), default="")


def _named(con, charts: list[dict]):
    """The (kind, key) of as_of.sql of what each chart definition draws (render/charts.py KINDS:
    a campaign, calibrations or a ladder, one campaign's builds)."""
    for d in charts:
        if d.get("campaign"):
            yield "campaign", str(d["campaign"])
        for cal in d.get("calibrations") or []:
            yield "calibration", str(cal)
        if d.get("ladder"):
            for r in rows_of(con, "ladder_owners", "ladder", str(d["ladder"])):
                yield "campaign", r["campaign"]


@lru_cache(maxsize=1)  # per process and database: every page's date in one query (x100: a query per
def _as_of(con) -> dict[tuple[str, str], str]:  # page scanned every result row, 204 of 1.8-4.7 ms)
    pairs, dates = (query(name).strip().rstrip(";") for name in ("campaign_server_pairs", "as_of"))
    rows = con.execute(f"WITH pairs AS ({pairs}) SELECT * FROM ({dates})").fetchall()
    return {(kind, key): as_of for kind, key, as_of in rows}


_SITE = [PROJECT / "site"]  # the Hugo site the pages are written for (for_site)


@contextmanager
def for_site(site: Path):
    """Embed pages written within the block show this Hugo site (paths.site, whose hugo.toml Hugo
    reads, not always the project's own): render_site says so before its workers fork."""
    before, _SITE[0] = _SITE[0], site
    try:
        yield
    finally:
        _SITE[0] = before


def site_settings() -> dict:
    return _settings(_SITE[0])


@cache
def _settings(site: Path) -> dict:
    """What an embed page shows of the site (its hugo.toml, which Hugo reads too, and Hugo's
    overrides of it in the environment, HUGO_BASEURL and HUGO_TITLE): its title and language,
    and where its root is: `path` for the site's own files (Hugo's relURL), `origin` before a
    page's absolute path (absURL: empty for the root-relative baseURL "/")."""
    config = tomllib.loads((site / "hugo.toml").read_text())
    url = os.environ.get("HUGO_BASEURL") or config.get("baseURL", "/")
    try:
        base = urlsplit(url)
    except ValueError:
        raise UserError(f"the site's baseURL {url!r} (HUGO_BASEURL or site/hugo.toml) is not a URL") from None
    return {"title": os.environ.get("HUGO_TITLE") or config.get("title", ""), "locale": config.get("locale", "en"),
            "origin": f"{base.scheme}://{base.netloc}" if base.scheme and base.netloc else "",
            "path": base.path.rstrip("/") + "/"}


def embed_html(meta: dict, as_of: str, pinned: dict | None = None) -> str:
    """The embed page of embed_meta(), its data as of `as_of`; `pinned` ({"commit", "spec", "csv",
    "svg", "data_as_of"}): a pinned snapshot's, drawing the files beside it, `as_of` the pin's
    date and "data_as_of" the chart's data's then."""
    chart = {**meta["chart"], **({k: pinned[k] for k in ("spec", "csv", "svg")} if pinned else {})}
    url = meta["source_url"]
    # The CSV's name when downloaded: its own, or a pinned copy's (chart.csv) named after its chart
    # and date, as the images are, so two pinned charts' files are not both chart.csv.
    csv_name = (f"{image_stem(meta['page']['url'], chart['id'])}@{as_of}.csv" if pinned
                else PurePosixPath(chart["csv"]).name)
    return render_template("embed.html.j2", site=site_settings(), title=meta["title"], caption=meta["caption"],
                           chart=chart, csv_name=csv_name, page=meta["page"], source_line=meta["source_line"],
                           source_url=url if _HTTP.match(url) else "",
                           as_of=as_of, pinned=bool(pinned), commit=(pinned or {}).get("commit", ""),
                           data_as_of=(pinned or {}).get("data_as_of", ""))


def image_stem(page: str, chart_id: str) -> str:
    """The readable file name of a chart's images: `<page slug>-<chart id>`."""
    return f"{PurePosixPath(page).name or 'home'}-{chart_id}"


def source_line(meta: dict) -> str:
    """Where the page's numbers come from, in one line of plain text (escaped by the layout)."""
    src = meta.get("source") or {}
    if not src.get("title"):
        return ""
    who = f", {src['author']}" if src.get("author") else ""
    when = f" ({src['date']})" if src.get("date") else ""
    return f"Source: {src['title']}{who}{when}"


def credited(spec: dict, page: str, as_of: str, cited: str, pinned: dict | None = None) -> dict:
    """The chart's spec with what its static images say of it (render/images.py draws the lines
    under its title): an SVG or PNG pasted into a blog post or a bug report showed a title and no
    word of where it came from nor of when its data is, which its embed page says. Held in the
    spec's usermeta, which Vega-Lite keeps and draws nothing of: the page's chart is unchanged.
    `cited`: the source line its embed page shows (embed_meta); `pinned` ({"commit", "date"}): a
    pinned snapshot's, at its own page."""
    site = site_settings()
    address = site["origin"] + site["path"].rstrip("/") + page
    when = f"Data as of {as_of}" if as_of else ""
    if pinned:
        then = f"pinned to the data of {pinned['date']} (commit {pinned['commit'][:12]})"
        when = f"{when}, {then}" if when else then[0].upper() + then[1:]
    lines = [" · ".join(part for part in (site["title"], address, when) if part)] + ([cited] if cited else [])
    return {**spec, "usermeta": {"data_as_of": as_of, "credit": lines}}


def embed_meta(page: str, meta: dict, chart: dict) -> dict:
    """Front matter of one embed page; every string is data the layout escapes. The chart's files
    are its page's, or those of the page it is shown from."""
    files = chart.get("from") or page
    return {
        "title": chart["title"],
        "caption": chart.get("caption", ""),
        "chart": {"id": chart["id"], "rows": chart["rows"],
                  "spec": files + chart["spec"], "csv": files + chart["csv"],
                  **{k: files + chart[k] if chart[k] else "" for k in ("svg", "png")}},
        "page": {"url": page, "title": str(meta.get("title", "")), "anchor": f"{page}#chart-{chart['id']}"},
        # a chart of one campaign cites that campaign's source; others, the page's
        "source_line": source_line({"source": chart.get("source") or meta.get("source")}),
        "source_url": str((chart.get("source") or meta.get("source") or {}).get("url") or ""),
    }


def check_unique(page: str, charts: list[dict]) -> None:
    seen: dict[str, str] = {}
    for c in charts:
        key = str(c["id"]).lower()
        if key in seen:
            same = "share the id" if seen[key] == c["id"] else f"have the ids '{seen[key]}' and"
            raise UserError(f"{page}: two charts {same} '{c['id']}': their embed pages would collide "
                            "(addresses are in lower case)")
        seen[key] = c["id"]
