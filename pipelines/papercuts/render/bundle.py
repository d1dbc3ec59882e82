"""Write one Hugo page bundle: index.md plus each chart's spec, table (its HTML) and CSV, and each
chart's embed page (render/embeds.py: HTML, in the content tree's _embeds/). A chart shown from
another page (`from`: its page path) has its files there; its front matter here says so, and its
embed page draws them."""
from __future__ import annotations

from pathlib import Path

from .charts import TABLE_SUFFIX, Chart
from .embeds import check_unique, credited, embed_file, embed_html, embed_meta, embed_url, image_stem, page_path
from .frontmatter import page, write_json
from .images import enabled as images_enabled
from .tables import shown_html


def write_bundle(folder: Path, meta: dict, body: str, charts: list[Chart], root: Path, as_of: str) -> None:
    """`root` is the content tree's root: the page's path on the site is `folder` relative to it;
    `as_of`: the newest date of the data the page draws, which its embed pages and images show
    of a chart that names none (Chart.as_of)."""
    folder.mkdir(parents=True, exist_ok=True)
    url = page_path(folder.relative_to(root).as_posix())
    if meta.get("charts"):
        check_unique(url, meta["charts"])
        # Hugo publishes none of the bundle's files: publish/own_files.py copies its charts' spec, CSV and
        # images after it; the table is read at build time.
        meta = {**meta, "build": {"publishResources": False},
                "charts": [{**d, "embed": embed_url(url, d["id"]), **({} if d.get("from") else _images(url, d["id"]))}
                           for d in meta["charts"]]}
    (folder / "index.md").write_text(page(meta, body))
    embeds = {d["id"]: embed_meta(url, meta, d) for d in meta.get("charts") or []}
    written: dict[str, str] = {}
    for c in charts:  # its images cite what its embed page cites; dated by its data when it names it
        write_json(folder / f"{c.id}.vl.json", credited(c.spec, url, c.as_of or as_of, embeds[c.id]["source_line"]))
        (folder / f"{c.id}.{TABLE_SUFFIX}").write_text(shown_html(c.table))
        name = f"{c.data or c.id}.csv"  # a file charts share is written once
        if name not in written:
            written[name] = c.csv
            (folder / name).write_text(c.csv)
        elif written[name] != c.csv:
            raise ValueError(f"{url}: two charts write {name} with different rows")
    for d in meta.get("charts") or []:
        embed = embed_file(root, url, d["id"])
        embed.parent.mkdir(parents=True, exist_ok=True)
        with open(embed, "x") as f:  # never over another chart's
            f.write(embed_html(embeds[d["id"]], d.get("as_of") or as_of))  # a chart shown from another page too


def _images(url: str, chart_id: str) -> dict:
    """The names of the chart's SVG and PNG (empty when the build draws none)."""
    if not images_enabled():
        return {"svg": "", "png": ""}
    stem = image_stem(url, chart_id)
    return {"svg": stem + ".svg", "png": stem + ".png"}
