"""Campaign pages: provenance, the servers measured, and the data files themselves to download."""
from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

from ..db import fetch_dicts, query
from ..paths import Paths, server_url
from .frontmatter import page

PROVENANCE = ("contributor", "sysbench", "tables", "rows_per_table", "duration_read_s",
              "duration_write_s", "base_build", "base_config", "notes")


def render_campaigns(con: duckdb.DuckDBPyConnection, paths: Paths, out_root: Path) -> int:
    campaigns = fetch_dicts(con, query("campaign_pages"))
    for c in campaigns:
        folder = out_root / "campaigns" / c["id"]
        folder.mkdir(parents=True)
        files = []
        contributed = fetch_dicts(con, query("campaign_files"), {"campaign": c["id"]})
        body = ""
        if c["raw_layout"]:  # every raw output and its evidence (run.sh, my.cnf, ...), as committed
            raw = paths.data / "campaigns" / c["id"] / "raw"
            contributed = [{"file": paths.published(p), "rows": None}
                           for p in sorted(raw.rglob("*")) if p.is_file() and p.suffix != ".md"]
            # Markdown in a bundle is a page, not a download: the run's README is the page body.
            if (raw / "README.md").is_file():
                body = (raw / "README.md").read_text(encoding="utf-8", errors="replace")
        for f in contributed + [{"file": c["file"], "rows": None}]:
            source = paths.data / Path(f["file"]).relative_to(paths.data.name)
            name = source.relative_to(paths.data / "campaigns" / c["id"]).as_posix()
            # The contributed file, byte for byte, as the evidence behind every chart.
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, folder / name)
            files.append({"name": name, "path": f["file"], "rows": f["rows"]})
        servers = [r["server"] for r in fetch_dicts(con, query("campaign_servers"), {"campaign": c["id"]})]
        meta = {
            "title": c["title"], "date": c["date"],
            "campaign": {"id": c["id"], **{k: ("" if c[k] is None else c[k]) for k in PROVENANCE}},
            "source": {"id": c["source_id"], "title": c["source_title"], "author": c["source_author"],
                       "date": c["source_date"] or "", "publication": c["source_publication"] or "",
                       "url": c["source_url"] or ""},
            "servers": [{"id": s, "url": server_url(s)} for s in servers],
            "files": files,
        }
        if c["raw_layout"]:
            outcome = fetch_dicts(con, query("raw_outcome"), {"campaign": c["id"]})
            meta["raw"] = {"layout": c["raw_layout"], "server": {"id": c["server"], "url": server_url(c["server"])},
                           "parsed": [r for r in outcome if r["status"] == "parsed"],
                           "gaps": [r for r in outcome if r["status"] != "parsed"]}
        (folder / "index.md").write_text(page(meta, body))
    (out_root / "campaigns" / "_index.md").write_text(page({"title": "Campaigns"}, ""))
    return len(campaigns) + 1
