"""Server pages: hardware, campaigns, and an rQPS heatmap per comparison run on the server.

A comparison's charts (its heatmap, costs beside rQPS) are drawn once, on the campaign's page; the
server page shows those same charts, their spec, CSV and images, by reference (`from` in its front
matter): the data is written once, and the server page's embed pages draw the campaign's files."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import duckdb
import pyarrow.compute as pc

from ..db import fetch_dicts, query
from ..paths import campaign_url, investigation_url
from . import tables
from .bundle import write_bundle
from .calibration_pages import server_sections as calibration_sections
from .charts import make_charts
from .embeds import page_as_of
from .frontmatter import split
from .ladder_links import ladder_links
from .selection import in_order, natural, slug, throughput_rows
from .site_rows import rows_of
from .units import Unit

SHARED_KINDS = ("rqps-heatmap", "op-costs")  # a comparison's charts, drawn on its campaign's page
HARDWARE = ("cpu_model", "sockets", "cores", "smt", "ram_gb", "os", "storage", "notes")


def _comparisons(con, server: str) -> list[dict]:
    """One heatmap per campaign, base and thread count; a campaign that measured a single
    microbenchmark at many thread counts gets one heatmap with a row per thread count."""
    out, merged = [], set()
    for c in rows_of(con, "server_comparisons", "server", server):
        key = (c["campaign"], c["base_build"], c["base_config"])
        if c["microbenchmarks"] == 1 and c["thread_counts"] > 1:
            if key not in merged:
                merged.add(key)
                out.append({**c, "threads": "all"})
        else:
            out.append(c)
    return out


def _cost_charts(con, server: str, c: dict, base: str, threads: str) -> list[dict]:
    """rQPS beside per-operation costs, when the comparison has costs."""
    if c["threads"] == "all":
        return []
    variants = list(_cost_variants(con).get((c["campaign"], server, c["threads"], c["base_build"], c["base_config"]),
                                            ()))
    if not variants:
        return []
    return [{"id": slug("costs", c["campaign"], c["threads"], base), "kind": "op-costs",
             "title": f"rQPS and costs per operation, {threads}, relative to {base}",
             "caption": "Costs per operation relative to the base; for costs, above 1.0 is more work.",
             "campaign": c["campaign"], "server": server, "threads": c["threads"], "base": base,
             "variants": variants}]


@lru_cache(maxsize=1)  # per process and connection: the whole site's, a few hundred rows
def _cost_variants(con) -> dict[tuple, list[str]]:
    """(campaign, server, threads, base build, base config) -> the variants of that comparison with
    per-operation costs beside their rQPS, by version: which a page's cost chart names. Read here,
    not from each comparison's costs (selection.comparison_costs: 3-4 ms a comparison at x100),
    which a server page does not draw: its campaign's page did (SHARED_KINDS)."""
    found: dict[tuple, set[tuple]] = {}
    for r in fetch_dicts(con, query("server_cost_variants")):
        key = (r["campaign"], r["server"], r["threads"], r["base_build"], r["base_config"])
        found.setdefault(key, set()).add((r["version_rank"], r["build"], r["config"], r["variant"]))
    return {k: [v for *_, v in sorted(variants)] for k, variants in found.items()}


def comparison_sections(con, server: str, campaign: str | None = None) -> list[tuple[str, list[dict]]]:
    """The rQPS heatmap (and costs beside rQPS) of every comparison on a server, or of one campaign's."""
    sections = []
    for c in _comparisons(con, server):
        if campaign is not None and c["campaign"] != campaign:
            continue
        base = f"{c['base_build']}.{c['base_config']}"
        threads = ("every thread count" if c["threads"] == "all"
                   else f"{c['threads']} thread{'s' if c['threads'] != 1 else ''}")
        each = c["threads"] != "all"
        sections.append((f"rQPS at {threads}, relative to {base} ({c['campaign']})", [{
            "id": slug("heatmap", c["campaign"], c["threads"], base), "kind": "rqps-heatmap",
            "title": f"rQPS, {threads}: {c['campaign_title']}",
            "caption": f"Each cell is the throughput of the column's variant divided by that of {base}; "
                       "red is below 1.0 (slower), blue above, grey within the noise the chart's subtitle "
                       "states (measured on the campaign's version ladders where it has three versions or more)."
                       + (" Its CSV holds the comparison at every thread count, a column per count "
                          f"(this chart's: rqps_t{c['threads']})." if each else ""),
            "campaign": c["campaign"], "server": server, "threads": c["threads"], "base": base,
            # one data file for the comparison's heatmaps, a thread count each (datafile.share)
            **({"shares": slug("rqps", c["campaign"], base)} if each else {})},
            *_cost_charts(con, server, c, base, threads)]))
    return sections


def _server_charts(con, server: str) -> list[tuple[str, list[dict]]]:
    """(section heading, chart definitions) for everything known about one server."""
    sections = comparison_sections(con, server)
    measured = rows_of(con, "server_measured_campaigns", "server", server)
    for m in measured:
        rows = throughput_rows(con, m["campaign"], server)
        variants = in_order(rows.column("variant"))  # by version
        if pc.count_distinct(rows.column("threads")).as_py() > 1:
            # The newest variants, as many as its table shows: a hundred lines in one chart (x100)
            # are read by no one, and were 55 of the 334 MB the x100 site wrote.
            drawn = variants[-tables.SHOWN_COLUMNS:]
            caption = ("A line per variant for one microbenchmark; the menu under the chart picks which."
                       if rows.group_by(["microbenchmark", "range"]).aggregate([]).num_rows > 1 else "")
            if len(drawn) < len(variants):
                caption += (f" It draws the newest {len(drawn)} of the campaign's {len(variants)} variants; "
                            "the campaign's page has the results of them all.")
            sections.append((f"Throughput vs threads: {m['campaign']}", [{
                "id": slug("threads", m["campaign"]), "kind": "throughput-lines",
                "title": f"Throughput vs threads ({m['campaign']})", "caption": caption.strip(),
                "campaign": m["campaign"], "server": server, "variants": drawn}]))
    for p in rows_of(con, "server_profiles", "server", server):
        where = f"{p['microbenchmark']} at {p['threads']} thread{'s' if p['threads'] != 1 else ''}"
        sections.append((f"Profiles: {where} ({p['campaign']})", [{
            "id": slug("profile", p["campaign"], p["microbenchmark"], p["threads"]), "kind": "profile-top",
            "title": f"Symbols with the most self time, {where}",
            "caption": "Share of profile samples whose leaf is the symbol, per variant.",
            "campaign": p["campaign"], "microbenchmark": p["microbenchmark"], "threads": p["threads"],
            "variants": sorted(p["variants"], key=natural)}]))
    summaries = rows_of(con, "server_published_summaries", "server", server)
    for s in summaries:
        sections.append((f"Published summaries: {s['title']}", [{
            "id": slug("summary", s["campaign"]), "kind": "published-summary",
            "title": f"Published rQPS summaries ({s['campaign']})", "caption": "As printed by the source.",
            "campaign": s["campaign"], "server": server}]))
    sections += calibration_sections(con, server)
    return sections


def _drawn_on_campaign_pages(content: Path, defs: list[dict]) -> dict[str, dict]:
    """chart id -> the front matter of that chart on its campaign's page (already rendered under
    `content`), for the charts of `defs` drawn there, each marked with the page it comes from."""
    found: dict[str, dict] = {}
    for campaign in dict.fromkeys(d["campaign"] for d in defs if d["kind"] in SHARED_KINDS):
        page = content / "campaigns" / campaign / "index.md"
        if page.is_file():
            meta, _ = split(page.read_text(), str(page))
            found |= {c["id"]: {**c, "from": campaign_url(campaign)} for c in meta.get("charts") or []
                      if c.get("kind") in SHARED_KINDS}
    return found


def server_units(con: duckdb.DuckDBPyConnection, investigations: list[dict], content: Path) -> list[Unit]:
    """A unit per server; `content` is the content tree, where its campaigns' pages already are."""
    return [Unit(f"server {s['id']}", render_server, (s, investigations, content), server=s["id"])
            for s in fetch_dicts(con, query("servers"))]


def render_server(con: duckdb.DuckDBPyConnection, out_root: Path, server: dict, investigations: list[dict],
                  content: Path) -> int:
    sid = server["id"]
    sections = _server_charts(con, sid)
    chart_defs = [d for _, defs in sections for d in defs]
    shared = _drawn_on_campaign_pages(content, chart_defs)
    shown = {d["id"]: shared[d["id"]] for d in chart_defs if d["id"] in shared}
    charts = make_charts(con, [d for d in chart_defs if d["id"] not in shown], f"server page {sid}")
    made = {c.id: c.front_matter() for c in charts}
    source = rows_of(con, "source", "id", server["source"], keep=True)[0]
    meta = {
        "title": sid,
        "server": {"id": sid, "aliases": server["aliases"] or [],
                   **{k: ("" if server[k] is None else server[k]) for k in HARDWARE}},
        "source": {k: (v or "") for k, v in source.items()},
        "campaigns": [{"id": c["id"], "title": c["title"], "date": str(c["date"]), "url": campaign_url(c["id"])}
                      for c in rows_of(con, "server_campaigns", "server", sid)],
        "investigations": [{"title": i["title"], "url": investigation_url(i["slug"])}
                           for i in investigations if sid in i["servers"]],
        "ladders": ladder_links(con, server=sid),
        "charts": [shown.get(d["id"]) or made[d["id"]] for d in chart_defs],
        # Headings quote contributed titles: data for the layout, never Markdown.
        "sections": [{"heading": heading, "charts": [d["id"] for d in defs]} for heading, defs in sections],
    }
    write_bundle(out_root / "servers" / sid, meta, "", charts, out_root, page_as_of(con, server=sid))
    return 1
