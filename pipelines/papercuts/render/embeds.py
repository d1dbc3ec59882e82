"""Embed pages: one page per chart at /embed/<page path>/<chart id>/, the chart alone (title,
source line, link back to its page) for a blog post to frame from any origin.

The embed id is the chart's page path and its front-matter id: `/embed/servers/dell32/rqps-1/`
for chart `rqps-1` on `/servers/dell32/`. Front-matter ids are unique within a page only (checked
by `papercuts check` for investigations, and here for every page), and page paths are unique on
the site, so the pair is unique by construction. A flat `<page-slug>-<chart-id>` would not be:
both parts may contain '-' (server `a` + chart `b-c` and server `a-b` + chart `c` collide), and
slugs of different sections may be equal. The image files keep the flat, readable name
`<page-slug>-<chart-id>.svg` for downloads; their folder makes them unique.
"""
from __future__ import annotations

from pathlib import Path, PurePosixPath

from ..problems import UserError


def page_path(page_folder: str) -> str:
    """'servers/dell32' → '/servers/dell32/'."""
    return "/" + page_folder.strip("/") + "/"


def embed_url(page: str, chart_id: str) -> str:
    """In lower case, as Hugo writes every path (a chart `Rqps` has its embed page at `…/rqps/`)."""
    return f"/embed{page}{chart_id}/".lower()


def embed_file(root: Path, page: str, chart_id: str) -> Path:
    """The content file of a chart's embed page: a leaf page `<chart id>.md` beside its page's
    other embeds, at the address `<chart id>/index.md` would have, not a folder each: they were
    half the content tree's folders (1,078 of 2,078 at x100), each created, placed and removed by
    every build. Two kinds of id keep a folder, where Hugo reads a leaf's name otherwise:
    `index` in any case (`Index.md` makes the folder a bundle, its siblings the bundle's files)
    and any id with a '.' (`rqps.en.md` is page `rqps` in language `en`)."""
    folder, name = root / "embed" / page.strip("/").lower(), chart_id.lower()  # named as Hugo publishes it
    return folder / name / "index.md" if "." in name or name == "index" else folder / f"{name}.md"


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
        "source_url": (chart.get("source") or meta.get("source") or {}).get("url", ""),
        "sitemap": {"disable": True},
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
