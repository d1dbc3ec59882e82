"""Investigation pages: a hand-written narrative plus the charts its front matter defines."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import duckdb

from ..db import fetch_dicts, query
from ..paths import Paths, campaign_url, server_url
from ..problems import UserError
from .bundle import write_bundle
from .calibration_pages import calibration_datafiles
from .charts import make_chart
from .embeds import page_as_of
from .frontmatter import split
from .served import served_name
from .site_rows import columns_of, rows_of


def _source(con, source_id: str, where: str) -> dict:
    rows = rows_of(con, "source", "id", source_id, keep=True)
    if not rows:
        raise UserError(f"{where}: unknown source '{source_id}' (add it to data/sources.csv)")
    return {k: (v or "") for k, v in rows[0].items()}


def _servers(con, ids: list, where: str) -> list[dict]:
    out = []
    for sid in ids:
        rows = fetch_dicts(con, query("server_brief"), {"id": str(sid)})
        if not rows:
            raise UserError(f"{where}: unknown server '{sid}' (see data/servers.csv)")
        out.append({"id": rows[0]["id"], "url": server_url(rows[0]["id"]), "cpu_model": rows[0]["cpu_model"] or ""})
    return out


def datafiles(con, campaigns: list[str]) -> list[dict]:
    out = []
    for cid in campaigns:
        meta = fetch_dicts(con, query("campaign_provenance"), {"id": cid})[0]
        meta = {k: ("" if v is None else v) for k, v in meta.items()}
        counted = columns_of(con, "campaign_file_rows", "campaign", cid)
        files = [{"file": f, "rows": n} for f, n in zip(counted["file"], counted["rows"], strict=True)]
        sizes = dict(con.execute(query("campaign_file_sizes"), {"campaign": cid}).fetchall())
        toml = meta.pop("file")
        if meta.pop("raw_layout"):  # one entry for raw/ beside campaign.toml; its campaign page lists every file
            files = [{"file": f"{toml.rsplit('/', 1)[0]}/raw/", "rows": None}]
        for f in files:
            # Each file is published under its campaign's page, byte for byte or gzipped (render/served.py).
            name = f["file"].split(f"/campaigns/{cid}/", 1)[-1]
            out.append({"path": f["file"], "campaign": cid, "url": campaign_url(cid), "rows": f["rows"],
                        "file_url": campaign_url(cid) + ("" if name.endswith("/") else
                                                         quote(served_name(name, sizes.get(name)))), **meta})
    return out


def compared(con, defs: list[dict]) -> list[dict]:
    """The builds and configs named by the charts' bases and variants, described from data/."""
    builds, configs = set(), set()
    for d in defs:
        for variant in [d.get("base"), *(d.get("variants") or [])]:
            if variant and "." in str(variant):
                b, _, c = str(variant).partition(".")
                builds.add(b)
                configs.add(c)
    rows = fetch_dicts(con, query("compared"), {"builds": sorted(builds), "configs": sorted(configs)})
    return [{k: (r[k] or "") for k in ("kind", "id", "what", "how", "notes")} for r in rows]


def drawn_from(con, defs: list[dict], by_server: dict[str, list[str]], every: list[str]) -> tuple[str, ...]:
    """The campaigns an investigation's page is drawn from (its key, render/reuse.py): those its
    charts name; for a ladder, its campaign and every other of its server (the ladder pages' key:
    a server's changes are read together); every campaign when no chart names one or a ladder, as
    the page's date is then the site's newest (embeds.page_as_of)."""
    named: set[str] = set()
    for d in defs:
        if d.get("campaign"):
            named.add(str(d["campaign"]))
        for r in rows_of(con, "ladder_owners", "ladder", str(d["ladder"])) if d.get("ladder") else ():
            named.update([r["campaign"], *by_server.get(r["server"], [])])
    if not named and not any(d.get("calibrations") for d in defs):
        named.update(every)
    return tuple(sorted(named))


def render_investigation(con: duckdb.DuckDBPyConnection, out_root: Path, src: Path, paths: Paths) -> int:
    """One investigation's page bundle (a page unit's make, kept by what drawn_from names:
    render/units.py); its page count."""
    where = paths.rel(src)
    meta, body = split(src.read_text(), where)
    defs = meta.get("charts") or []  # checked in validate/frontmatter.py
    charts = [make_chart(con, d, where) for d in defs]
    campaigns = list(dict.fromkeys(d["campaign"] for d in defs if d.get("campaign")))
    calibrations = list(dict.fromkeys(c for d in defs for c in d.get("calibrations") or []))
    page_meta = {
        "title": meta["title"], "date": meta["date"], "status": meta["status"],
        "verdict": meta["verdict"], "tldr": meta.get("tldr") or [], "bugs": meta.get("bugs") or [],
        "source": _source(con, meta["source"], where),
        "servers": _servers(con, meta.get("servers") or [], where),
        "datafiles": datafiles(con, campaigns) + calibration_datafiles(con, calibrations),
        "compared": compared(con, defs),
        "charts": [c.front_matter() for c in charts],
    }
    write_bundle(out_root / "investigations" / src.stem, page_meta, body, charts, out_root,
                 page_as_of(con, charts=defs))
    return 1
