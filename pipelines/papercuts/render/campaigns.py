"""Campaign pages: provenance, the servers measured, and the data files themselves to download."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

import duckdb

from ..db import fetch_dicts, query
from ..ingest import blobs
from ..paths import VERBATIM, Paths, campaign_url, investigation_url, server_url
from .bundle import write_bundle
from .charts import make_charts
from .embeds import page_as_of
from .frontmatter import page
from .known_list import known_by_campaign
from .ladder_links import ladder_links
from .served import gzipped, served_name
from .servers import comparison_sections
from .site_rows import columns_of, rows_of
from .units import Unit

PROVENANCE = ("contributor", "sysbench", "tables", "rows_per_table", "duration_read_s",
              "duration_write_s", "base_build", "base_config", "notes")


def campaign_units(con: duckdb.DuckDBPyConnection, paths: Paths, investigations: list[dict]) -> list[Unit]:
    return [Unit(f"campaign {c['id']}", render_campaign, (c, paths, investigations), campaign=c["id"])
            for c in fetch_dicts(con, query("campaign_pages"))]


def render_campaign_index(out_root: Path) -> int:
    (out_root / "campaigns").mkdir(parents=True, exist_ok=True)
    (out_root / "campaigns" / "_index.md").write_text(page({"title": "Campaigns"}, ""))
    return 1


@lru_cache(maxsize=1)  # per process: a worker fetches them once, for every campaign it writes
def _evidence(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, str, int]]]:
    """campaign -> its files (name, SHA-256, size), fetched in one query and only when a campaign
    page is written."""
    out: dict[str, list[tuple[str, str, int]]] = {}
    for cid, name, sha256, size in con.execute(query("campaign_evidence")).fetchall():
        out.setdefault(cid, []).append((name, sha256, size))
    return out


def render_campaign(con: duckdb.DuckDBPyConnection, out_root: Path, c: dict, paths: Paths,
                    investigations: list[dict]) -> int:
    """One campaign's page bundle, its files published verbatim, and its charts' embed pages."""
    folder = out_root / "campaigns" / c["id"]
    folder.mkdir(parents=True)
    rows = dict(zip(*columns_of(con, "campaign_file_rows", "campaign", c["id"]).values(), strict=True))
    prefix = f"{paths.data.name}/campaigns/{c['id']}/"
    files = []
    made = set()  # the folders made: most of a raw tree's files share theirs (x100: 2,071 files, 290 folders)
    for name, sha256, size in _evidence(con).get(c["id"], []):
        # Published verbatim, outside Hugo's content (a .md or .html file is never a page);
        # the raw tree is served as inert text by the headers in netlify.toml.
        served = served_name(name, size)
        dest = out_root / VERBATIM / "campaigns" / c["id"] / served
        if dest.parent not in made:
            dest.parent.mkdir(parents=True, exist_ok=True)
            made.add(dest.parent)
        packed = None
        if served == name:  # as committed: the stored file itself
            blobs.link(paths.blobs, sha256, size, dest)
        else:
            packed = gzipped(blobs.get(paths.blobs, sha256, size))
            dest.write_bytes(packed)
        files.append({"name": name, "url": campaign_url(c["id"]) + quote(served),
                      "path": prefix + name, "rows": rows.get(prefix + name),
                      **({"gzip": len(packed)} if packed is not None else {})})
    servers = columns_of(con, "campaign_servers", "campaign", c["id"])["server"]
    meta = {
        "title": c["title"], "date": c["date"],
        "campaign": {"id": c["id"], **{k: ("" if c[k] is None else c[k]) for k in PROVENANCE}},
        "source": {"id": c["source_id"], "title": c["source_title"], "author": c["source_author"],
                   "date": c["source_date"] or "", "publication": c["source_publication"] or "",
                   "url": c["source_url"] or ""},
        "servers": [{"id": s, "url": server_url(s)} for s in servers],
        "files": files,
        "investigations": [{"title": i["title"], "url": investigation_url(i["slug"])}
                           for i in investigations if c["id"] in i["campaigns"]],
        # Shown as preformatted text, escaped by the template: never Markdown or shortcodes.
        "readme": c["readme"] or "",
        "ladders": ladder_links(con, campaign=c["id"]),
        "known": known_by_campaign(con, c["id"]),
    }
    if c["raw_layout"]:
        outcome = rows_of(con, "raw_outcome", "campaign", c["id"])
        meta["raw"] = {"layout": c["raw_layout"], "server": {"id": c["server"], "url": server_url(c["server"])},
                       "parsed": [r for r in outcome if r["status"] == "parsed"],
                       "gaps": [r for r in outcome if r["status"] != "parsed"]}
    score = {r["status"]: r["n"] for r in rows_of(con, "reproduction", "campaign", c["id"])}
    if score:
        meta["reproduction"] = {
            "total": sum(score.values()), "equal": score.get("equal", 0), "rounding": score.get("rounding", 0),
            "misses": fetch_dicts(con, query("reproduction_misses"), {"campaign": c["id"]})}
    check = rows_of(con, "tree_check", "campaign", c["id"])
    if check and check[0]["checked"]:
        meta["tree_check"] = {"checked": int(check[0]["checked"]), "agreed": int(check[0]["agreed"])}
    # The campaign's own comparisons against its base: every contributed campaign gets its chart.
    sections = [sec for server in servers for sec in comparison_sections(con, server, c["id"])]
    charts = make_charts(con, [d for _, defs in sections for d in defs], f"campaign page {c['id']}")
    meta["charts"] = [chart.front_matter() for chart in charts]
    meta["sections"] = [{"heading": heading, "charts": [d["id"] for d in defs]} for heading, defs in sections]
    write_bundle(folder, meta, "", charts, out_root, page_as_of(con, campaign=c["id"]))
    return 1
