"""Render the whole content tree for Hugo into build/content, swapped in when complete."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb

from ..contract import dbms_name
from ..db import fetch_dicts, query
from ..paths import Paths, campaign_url, server_url
from ..problems import UserError
from ..publish.swap import replace_path
from ..publish.trash import Trash
from . import calibration_pages, content_tree
from . import reuse as reuse_module
from .campaigns import campaign_units, render_campaign_index
from .charts import KINDS
from .embeds import embed_url, for_site, image_stem, site_settings
from .explore import explore_units, render_explore
from .frontmatter import page, split
from .investigations import drawn_from, render_investigation
from .jinja import render_template
from .ladder_pages import ladder_units, render_ladder_index
from .reuse import Reuse
from .servers import server_units
from .units import Unit, Workers


def render_site(db: Path | duckdb.DuckDBPyConnection, ds, paths: Paths, reused: list | None = None,
                progress=None, trash: Trash | None = None) -> int:
    """Write the content tree from the derived database (a file: its units are made on every core,
    render/units.py); `reused`, if given, receives (units kept, units written); progress(what,
    done, total), if given, is told as units are made; the old tree goes to `trash`, if given."""
    with for_site(paths.site), Workers(db) as workers:
        return _render(workers, ds, paths, reused, progress, trash)


def _render(workers: Workers, ds, paths: Paths, reused: list | None, progress, trash: Trash | None) -> int:
    con = workers.con
    # The investigations written for this data only (paths.pages): none for another data folder.
    sources = sorted((paths.pages / "investigations").glob("*.md")) if paths.pages else []
    # The regressions index first of all, on a worker: it reads every campaign, so it is made at
    # every build, and it was a rebuild's longest job, started after this process's own 0.3 s of
    # keys, kept tree and lists of units (x100, one campaign added: 0.25-0.39 s).
    regressions = reuse_module.start_apart(
        Unit("ladder index", render_ladder_index, (tuple(src.stem for src in sources),)), paths, workers)
    reuse = Reuse(con, ds, paths)
    home = paths.content / "_index.md"
    if not home.is_file():
        raise UserError(f"{paths.rel(home)} is missing: the home page's text")

    investigations, drawn = _investigations(con, sources, reuse, paths)

    # Campaign pages before server pages: a server page shows its campaigns' comparison charts from
    # their pages; and the explorer's files before this process's explorer page, which lists them.
    # Everything else reads no other unit's files and is made beside them, on the same cores: the
    # investigations and the calibration page after the campaign pages (x100, one campaign added:
    # its page began after an investigation's, on the way to its server's page), the ladders after
    # those (its server's page waited for its ladders when they came first).
    first = (campaign_units(con, paths, investigations)
             + [Unit(f"investigation {src.stem}", render_investigation, (src, paths), reads=reads)
                for src, reads in zip(sources, drawn, strict=True)]
             + [Unit("calibration page", calibration_pages.render_calibration_page, (paths,),
                     reads=calibration_pages.drawn_from(con, sorted(reuse.digests)))]
             + explore_units(con, paths.blobs))
    # Made while the content tree is readied (_tree, into which nothing is written before it is)
    started = reuse.start(first, workers, progress, "campaign pages, explorer files")
    out, reuse.held = _tree(paths, ds, reuse.common)
    pages = 0

    meta, body = split(home.read_text(), paths.rel(home))
    meta["campaigns_by_server"] = campaigns_by_server(con)
    (out / "_index.md").write_text(page(meta, body))
    pages += 1

    # The ladder pages read no other unit's files: handed out now, they are made as the campaign
    # pages end, while this process places those and hands out the server pages (x100, a full
    # build: both workers had waited 0.1-0.2 s for it there).
    ladders = ladder_units(con)
    ladders_started = reuse.start(ladders, workers, progress, "ladder pages")
    servers = server_units(con, investigations, out)
    reuse.unplace_others(first + ladders + servers, out)
    pages += reuse.run(first, out, workers, progress, "campaign pages, explorer files", started=started)
    pages += regressions(out)
    # While the workers make the server pages: the pages of the whole site, and the ladder pages,
    # handed out before them, placed (x100, a full build: placed after the server pages, render
    # ended 0.2 s after the workers' last unit; 0.06 s so).
    pages += reuse.run(servers, out, workers, progress, "server pages", meanwhile=lambda: (
        render_campaign_index(out) + render_explore(con, out)
        + reuse.run(ladders, out, workers, progress, "ladder pages", started=ladders_started)))
    reuse.forget_others()

    for section, title, outputs in (("investigations", "Investigations", ["html", "atom"]),
                                    ("servers", "Servers", ["html"])):
        (out / section).mkdir(exist_ok=True)
        (out / section / "_index.md").write_text(page({"title": title, "outputs": outputs}, ""))
        pages += 1

    # The contract is Papercuts' own documentation (shipped beside its example data), not the
    # --data folder's: a site built from other data documents the same contract.
    contract = paths.project / "data" / "README.md"
    text = contract.read_text() if contract.is_file() else ""
    body = text.split("\n", 1)[1] if text.startswith("# ") else text
    (out / "contract").mkdir()
    (out / "contract" / "index.md").write_text(page({"title": "The data contract"}, body + kinds_section()))
    pages += 1

    # The contributors' guide, so the home page links it whether or not a repository URL is set;
    # its one link into data/ goes to the contract page, which publishes that file.
    guide = paths.project / "CONTRIBUTING.md"
    if guide.is_file():
        text = guide.read_text().replace("](data/README.md)", "](/contract/)")
        body = text.split("\n", 1)[1] if text.startswith("# ") else text
        (out / "contributing").mkdir()
        (out / "contributing" / "index.md").write_text(page({"title": "Contributing results"}, body))
        pages += 1

    (out / "embed").mkdir(exist_ok=True)
    (out / "embed" / "_index.md").write_text(page({"title": "Embed a chart"},
                                                  render_template("embed.md.j2", **embed_example(paths, out))))
    pages += 1

    if out != paths.generated:
        replace_path(out, paths.generated, trash)
    if reuse.enabled:
        content_tree.write_record(paths.build, reuse.placed, reuse.common)
    if reused is not None:
        reused[:] = [reuse.reused, reuse.written]
    return pages


def _investigations(con, sources: list[Path], reuse: Reuse, paths: Paths) -> tuple[list[dict], list[tuple[str, ...]]]:
    """What the campaign and server pages link to of each investigation, from its front matter
    alone, and the campaigns each one's charts draw (its page's key)."""
    investigations, drawn = [], []
    for src in sources:
        meta, _ = split(src.read_text(), paths.rel(src))
        drawn.append(drawn_from(con, meta.get("charts") or [], reuse.by_server, sorted(reuse.digests)))
        investigations.append({"slug": src.stem, "title": meta["title"],
                               "servers": [str(s) for s in meta.get("servers") or []],
                               "campaigns": sorted({str(d["campaign"]) for d in meta.get("charts") or []
                                                    if d.get("campaign")})})
    return investigations, drawn


def _tree(paths: Paths, ds, common: str) -> tuple[Path, dict[str, str]]:
    """The content tree to write, and the units it holds already: the last build's, pruned to the
    units it holds (render/content_tree.py), when made of the same code and inputs outside the
    campaigns (`common`: a page may take another unit's path only after such a change), or else a
    new tree beside it, swapped in when done."""
    held = content_tree.take_record(paths.build, common)
    if held and paths.generated.is_dir() and reuse_module.enabled(ds):
        return paths.generated, content_tree.prune(paths.generated, reuse_module.cache(paths), held,
                                                   reuse_module.saved_key)
    out = paths.generated.with_name(paths.generated.name + ".tmp")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    return out, {}


# Where the /embed/ page looks for its example chart, in this order: a chart an author would quote.
_EXAMPLE_SECTIONS = ("investigations", "servers", "ladders", "campaigns")
_SAFE = re.compile(r"[A-Za-z0-9/_.-]+")  # the page is markdown: nothing but path characters of the data
_SITE_URL = re.compile(r"https?://[A-Za-z0-9.:\[\]-]+(?:/[A-Za-z0-9_.~-]+)*")


def embed_example(paths: Paths, out: Path) -> dict:
    """The chart the /embed/ page shows as its example, and the script every snippet holds
    (layouts/_partials/chart.html reads the same file): the first chart of the first page of the
    content tree `out`, investigations first (the shipped site's: the busy-wait investigation's
    dell32-rqps). It was that chart whatever the data, a 404 on a site built from other data
    (`papercuts build --data DIR`). The page is the pipeline's own text: the example names the
    chart by its page's path and its id alone (ids and page paths of letters, digits, '-', '_'
    and '.'), never by its title; None when the site has no chart."""
    # Before each address, the site's own (an absolute baseURL: HUGO_BASEURL in production), as in
    # the snippets beside the charts; "https://<this site>" with a root-relative one.
    site = site_settings()
    url = site["origin"] + site["path"].rstrip("/")
    common = {"host_script": (paths.site / "static" / "js" / "embed-host.js").read_text().strip(),
              "site_url": url if site["origin"] and _SITE_URL.fullmatch(url) else ""}
    for page_url, chart in _charts(out):
        files = str(chart.get("from") or page_url)
        png = files + str(chart["png"]) if chart.get("png") else page_url + image_stem(page_url, chart["id"]) + ".png"
        if not all(_SAFE.fullmatch(part) for part in (page_url, files, str(chart["id"]), png)):
            continue
        return {**common, "example": embed_url(page_url, chart["id"]), "example_id": chart["id"],
                "example_page": page_url, "example_anchor": f"{page_url}#chart-{chart['id']}",
                "example_png": png}
    return {**common, "example": None}


def _charts(out: Path):
    """(page path, chart front matter) of the pages Papercuts wrote in the content tree, by section
    (_EXAMPLE_SECTIONS), then page path, then the page's order."""
    for section in _EXAMPLE_SECTIONS:
        for index in sorted((out / section).glob("*/index.md")):
            text = index.read_text()
            if not text.startswith("{"):  # a generated page's JSON front matter only
                continue
            for chart in split(text, str(index))[0].get("charts") or []:
                yield f"/{section}/{index.parent.name}/", chart


def campaigns_by_server(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """[{server, url, dbms: [{name, campaigns: [{id, title, date, url}]}]}], servers by id, newest first."""
    out: list[dict] = []
    for r in fetch_dicts(con, query("campaigns_by_server")):
        if not out or out[-1]["server"] != r["server"]:
            out.append({"server": r["server"], "url": server_url(r["server"]), "dbms": []})
        groups = out[-1]["dbms"]
        name = dbms_name(r["dbms"])
        if not groups or groups[-1]["name"] != name:
            groups.append({"name": name, "campaigns": []})
        groups[-1]["campaigns"].append({"id": r["id"], "title": r["title"], "date": str(r["date"]),
                                        "url": campaign_url(r["id"])})
    return out


def kinds_section() -> str:
    """The chart kinds an investigation page can use, generated from the registry."""
    rows = "\n".join(f"| `{k.name}` | {', '.join(f'`{r}`' for r in k.requires)} | {k.doc} |"
                     for k in sorted(KINDS.values(), key=lambda k: k.name))
    return ("\n\n## Chart kinds for investigation pages\n\n"
            "Each entry under `charts:` in an investigation's front matter needs `id`, `title`, `kind` and "
            "the keys its kind lists here; `papercuts check` reports any that are missing.\n\n"
            "| kind | needs | draws |\n|---|---|---|\n" + rows + "\n")
