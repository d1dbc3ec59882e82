"""Pinned embeds: a chart as drawn from `data/` as committed on a date, at
/embed/<page path>/<chart id>@<date>/, so a blog post keeps showing the numbers it quoted when
later results land.

Pins are listed in content/snapshots.toml:

    [[pin]]
    embed = "/embed/investigations/innodb-busy-wait-8030/dell32-rqps/"
    date = 2026-11-22

A pin is not a kept copy: each build takes the newest commit that touched the data folder on or
before the end of that date (UTC), `git log -1 --before=<date>T23:59:59Z -- <data>`, reads the data
and pages of that commit with `git archive`, builds that state's content tree with the current
pipeline, and publishes the one chart's spec and CSV (and its images) beside an embed page that
says "pinned to the data of <date>", names the commit and the date of the chart's data then. Anyone
can do the same by hand: check out that commit and run `papercuts build`. A later commit cannot
change what the pin shows, since the commit a date names never changes. ('@' is not allowed in a
chart id, so a pin never takes a chart's name; it is a bundle folder of its own,
`<chart id>@<date>/`, beside the live embed pages, since it holds the chart's files.)
"""
from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import tarfile
import tomllib
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import duckdb

from ..paths import EMBEDS, Paths
from ..problems import UserError
from .embeds import credited, embed_html, embed_meta, for_site, page_path, site_settings
from .frontmatter import split, write_json
from .images import enabled as images_enabled

FILE = "snapshots.toml"
# /embed/<page path>/<chart id>/: no segment '.' or '..' ('/embed/../../etc/x/passwd/' found no page,
# after its build had drawn every other pin: said at its line instead)
EMBED = re.compile(r"/embed((?:/(?!\.\.?/)[^/]+)+/)([A-Za-z0-9][A-Za-z0-9_.-]*)/")
_ORIGIN = re.compile(r"https?://[^/?#]+", re.IGNORECASE)


@dataclass(frozen=True)
class Pin:
    page: str  # '/servers/dell32/'
    chart: str
    date: date
    where: str  # file:line, for errors


def read_pins(path: Path, rel: str) -> list[Pin]:
    if not path.is_file():
        return []
    text = path.read_text()
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{rel}: invalid TOML: {e}") from None
    pins = []
    for n, entry in enumerate(doc.get("pin") or [], start=1):
        embed = str(entry.get("embed", ""))
        line = next((i for i, t in enumerate(text.splitlines(), 1) if embed and embed in t), 1)
        where = f"{rel}:{line}"
        m = EMBED.fullmatch(_embed_path(embed))
        if not m:
            raise UserError(f"{where}: pin {n}: embed {embed!r} is not an embed page's address "
                            "(/embed/<page path>/<chart id>/, as in the snippet beside each chart)")
        if not isinstance(entry.get("date"), date):
            raise UserError(f"{where}: pin {n}: date must be a TOML date, e.g. date = 2026-11-22")
        pins.append(Pin(m.group(1), m.group(2), entry["date"], where))
    return pins


def _embed_path(embed: str) -> str:
    """The path of an embed page's address: as the snippet beside each chart gives it, with the
    site's origin and its baseURL's path (https://<site>/embed/servers/dell32/rqps-1/), or
    without (/embed/servers/dell32/rqps-1/). Which origin does not matter: a pin draws this
    site's data. An author pasting the snippet's address was refused: 'is not an embed page's
    address'."""
    origin = _ORIGIN.match(embed)
    if not origin:
        return embed
    path, base = embed[origin.end():], site_settings()["path"]
    return path[len(base) - 1:] if base != "/" and path.startswith(base) else path


def _git(repo: Path, *args: str, binary: bool = False):
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=not binary)
    if proc.returncode != 0:
        err = proc.stderr if not binary else proc.stderr.decode(errors="replace")
        raise UserError(f"git {' '.join(args[:2])} in {repo}: {err.strip()}")
    return proc.stdout


def data_commit(paths: Paths, pin: Pin) -> tuple[Path, str]:
    """(repository, commit) holding the data folder as it was at the end of the pin's date."""
    probe = subprocess.run(["git", "-C", str(paths.data), "rev-parse", "--show-toplevel"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise UserError(f"{pin.where}: a pin needs the git history of {paths.rel(paths.data)}, "
                        "which is not in a git repository")
    repo = Path(probe.stdout.strip())
    commit = _git(repo, "log", "-1", "--format=%H", f"--before={pin.date.isoformat()}T23:59:59Z", "--",
                  paths.data.relative_to(repo).as_posix()).strip()
    if not commit:
        raise UserError(f"{pin.where}: no commit of {paths.rel(paths.data)} on or before {pin.date}")
    return repo, commit


def _extract(repo: Path, commit: str, rel: str, dest: Path) -> None:
    tar = _git(repo, "archive", "--format=tar", commit, rel, binary=True)
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest, filter="data")


def snapshot_content(paths: Paths, repo: Path, commit: str) -> Path:
    """The content tree the pipeline renders from the commit's data (and its pages, when the
    pages are in the same repository), rendered by this build's pipeline."""
    from ..build import validate
    from ..derive.models import derive
    from ..ingest.tables import ingest
    from .site import render_site

    root = paths.build / "snapshots" / commit
    shutil.rmtree(root, ignore_errors=True)
    tree = root / "tree"
    _extract(repo, commit, paths.data.relative_to(repo).as_posix(), tree)
    content = paths.content
    if repo in paths.content.parents:
        _extract(repo, commit, paths.content.relative_to(repo).as_posix(), tree)
        content = tree / paths.content.relative_to(repo)
    snap = Paths(data=tree / paths.data.relative_to(repo), public=root / "public", build=root / "build",
                 project=paths.project, content_root=content)
    ds, problems = validate(snap)
    if problems.errors:
        raise UserError(f"the data of commit {commit[:12]} does not pass today's checks", problems.sorted())
    con = duckdb.connect()
    try:
        ingest(ds, con, snap.blobs)
        derive(con)
        render_site(con, ds, snap)
    finally:
        con.close()
        shutil.rmtree(snap.blobs, ignore_errors=True)  # the bytes are in the content tree now
    return snap.generated


def render_pins(paths: Paths, out: Path) -> int:
    """Write each pinned embed into the content tree `out`; returns how many. Pins name states of
    the data the pages belong to (paths.pages): another data folder without pages has none."""
    if paths.pages is None:
        return 0
    with for_site(paths.site):
        return _render_pins(paths, out)


def _render_pins(paths: Paths, out: Path) -> int:
    pins = read_pins(paths.pages / FILE, paths.rel(paths.pages / FILE))
    rendered: dict[str, Path] = {}
    for pin in pins:
        repo, commit = data_commit(paths, pin)
        if commit not in rendered:
            rendered[commit] = snapshot_content(paths, repo, commit)
        then = rendered[commit]
        meta = _live_embed(then, pin)
        if meta is None:
            raise UserError(f"{pin.where}: chart {pin.chart!r} of {pin.page} did not exist in the data "
                            f"as of {pin.date} (commit {commit[:12]})")
        name = f"{pin.chart}@{pin.date.isoformat()}"
        folder = out / EMBEDS / pin.page.strip("/") / name  # published at /embed/<page>/<name>/ (embeds.py)
        if folder.exists():
            raise UserError(f"{pin.where}: {pin.chart} of {pin.page} is pinned to {pin.date} twice; remove one")
        folder.mkdir(parents=True)
        # the chart's files: its page's, or those of the page it is shown from
        shutil.copyfile(_chart_file(then, meta["chart"]["csv"], ".csv", pin), folder / "chart.csv")
        spec = json.loads(_chart_file(then, meta["chart"]["spec"], ".vl.json", pin).read_text())
        spec["data"]["url"] = "chart.csv"  # the spec reads the CSV beside it, renamed here
        # The date of the chart's data then (embeds.page_as_of: its campaign's, say), which its spec
        # holds (embeds.credited): the pin's date is the state of the repository, not of the data
        # ("Pinned: data as of 2026-11-24" on a chart of a 2014 campaign).
        data_as_of = str((spec.get("usermeta") or {}).get("data_as_of") or "")
        pinned = {"commit": commit, "date": pin.date.isoformat()}
        write_json(folder / "chart.vl.json", credited(spec, f"/embed{pin.page}{name}/", data_as_of,
                                                      meta["source_line"], pinned))
        # the images stage draws chart.svg beside the spec; the path below the site's root, as
        # Hugo's relURL (embeds.site_settings)
        url = f"{site_settings()['path']}embed{pin.page}{name}/"
        (folder / "index.html").write_text(embed_html(meta, pin.date.isoformat(), pinned={
            **pinned, "spec": url + "chart.vl.json", "csv": url + "chart.csv",
            "svg": url + "chart.svg" if images_enabled() else "", "data_as_of": data_as_of}))
    return len(pins)


def _live_embed(tree: Path, pin: Pin) -> dict | None:
    """The live embed page's values (embeds.embed_meta) of the pinned chart in a content tree: its
    page's front matter has the chart. An embed's address is in lower case, its page's folder
    keeps the case of its id (a server Dell99). Only a page Papercuts wrote (_generated_page): a
    campaign's contributed index.md could name any file as the chart's."""
    folder = tree
    for part in pin.page.strip("/").split("/"):
        found = sorted(p for p in folder.iterdir() if p.is_dir() and p.name.lower() == part.lower())
        if not found:
            return None
        folder = found[0]
    meta = _generated_page(tree, folder)
    chart = next((c for c in (meta or {}).get("charts") or [] if str(c["id"]).lower() == pin.chart.lower()), None)
    return embed_meta(page_path(folder.relative_to(tree).as_posix()), meta, chart) if chart else None


def _chart_file(tree: Path, url: str, suffix: str, pin: Pin) -> Path:
    """A chart's file in the snapshot's content tree, from its address: a file beside a page
    Papercuts wrote (JSON front matter), never outside the tree nor among the contributed files
    (_verbatim/, a calibration's files/)."""
    root = tree.resolve()
    path = (root / url.strip("/")).resolve()
    if not (path.name.endswith(suffix) and path.is_file() and _generated_page(root, path.parent) is not None):
        raise UserError(f"{pin.where}: the chart's {suffix} file {url!r} is not a file of a page of the site")
    return path


def _generated_page(tree: Path, folder: Path) -> dict | None:
    """The front matter of the page Papercuts wrote in `folder` of the content tree (JSON, as
    frontmatter.page writes it), or None: a folder outside the tree, or below one whose name
    begins with '_' or '.' (_verbatim/: contributed files, which may hold an index.md)."""
    if not folder.is_relative_to(tree) or any(p.startswith(("_", ".")) for p in folder.relative_to(tree).parts):
        return None
    index = folder / "index.md"
    text = index.read_text() if index.is_file() else ""
    return split(text, str(index))[0] if text.startswith("{") else None
