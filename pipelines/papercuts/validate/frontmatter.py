"""Stage 1c: the hand-written investigation pages' front matter, checked before anything is built.

Every problem is reported at once with path:line:column (the line of the key in the page), so
`papercuts check` shows an author everything the build would refuse: missing keys, an unknown
status, chart kind or source, a chart without a key its kind needs, charts declared but not
placed (or placed but not declared), ids used twice.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..contract import STATUSES
from ..paths import Paths
from ..problems import Problems
from ..render.registry import KINDS
from .known import PAGE
from .load import Dataset
from .suggest import did_you_mean

REQUIRED = ("title", "date", "status", "verdict", "source")
SHORTCODE = re.compile(r"\{\{<\s*chart\s+id=\"([^\"]+)\"\s*/>\}\}")
CHART_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _node_lines(node: yaml.MappingNode, offset: int) -> dict[str, tuple[int, int]]:
    return {k.value: (v.start_mark.line + offset, v.start_mark.column + 1) for k, v in node.value
            if isinstance(k, yaml.ScalarNode)}


def check_pages(paths: Paths, ds: Dataset, problems: Problems) -> None:
    folder = paths.content / "investigations"
    if not folder.is_dir():
        return
    sources = {r["id"] for r in ds.rows.get("sources", [])} | ds.broken.get("sources", set())
    servers = {r["id"] for r in ds.rows.get("servers", [])} | ds.broken.get("servers", set())
    campaigns = {c["id"] for c in ds.campaigns}
    pages = sorted(folder.glob("*.md"))
    for page in pages:
        _check_page(page, paths.rel(page), sources, servers, campaigns, problems)
    names = [p.stem for p in pages if PAGE.fullmatch(p.stem)]  # (the section's _index is no page to name)
    for known in ds.rows.get("known", []):  # a known regression links the page it names
        if known["investigation"] and known["investigation"] not in names:
            problems.error(known["_file"], *known["_at"]["investigation"],
                           f"investigation '{known['investigation']}' is not a page of {paths.rel(folder)}/",
                           (f"name one of {', '.join(names)}, or leave investigation out" if names
                            else "add that page, or leave investigation out"))


def _check_page(page: Path, rel: str, sources: set, servers: set, campaigns: set, problems: Problems) -> None:
    text = page.read_text(encoding="utf-8")
    if not text.startswith("---\n") or text.find("\n---\n", 4) < 0:
        problems.error(rel, 1, 1, "a page must start with YAML front matter between '---' lines",
                       "see any page in content/investigations/")
        return
    end = text.find("\n---\n", 4)
    head, body = text[4:end], text[end + 5:]
    body_line = head.count("\n") + 4  # the first body line: after ---, the head and ---
    try:
        node = yaml.compose(head, Loader=yaml.CSafeLoader)  # libyaml's parser: render/frontmatter.py
        meta = yaml.load(head, Loader=yaml.CSafeLoader) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problems.error(rel, (mark.line + 2) if mark else 1, (mark.column + 1) if mark else 1,
                       f"invalid YAML front matter: {getattr(e, 'problem', e)}", "check quotes and indentation")
        return
    if not isinstance(meta, dict) or not isinstance(node, yaml.MappingNode):
        problems.error(rel, 2, 1, "front matter must be a mapping of keys", "write key: value lines")
        return
    at = _node_lines(node, 2)
    for key in REQUIRED:
        if not meta.get(key):
            problems.error(rel, 2, 1, f"front matter needs '{key}'", f"add {key}: ... to the front matter")
    if meta.get("status") and meta["status"] not in STATUSES:
        problems.error(rel, *at["status"], f"status '{meta['status']}' is not one of {', '.join(STATUSES)}",
                       did_you_mean(str(meta["status"]), STATUSES))
    if meta.get("source") and meta["source"] not in sources:
        problems.error(rel, *at["source"], f"unknown source '{meta['source']}'",
                       did_you_mean(str(meta["source"]), sources) or "add it to data/sources.csv")
    for sid in meta.get("servers") or []:
        if str(sid) not in servers:
            problems.error(rel, *at["servers"], f"unknown server '{sid}'",
                           did_you_mean(str(sid), servers) or "see data/servers.csv")
    seen = _check_charts(meta, node, SHORTCODE.findall(body), campaigns, rel, problems)
    for i, line_text in enumerate(body.splitlines()):
        for cid in SHORTCODE.findall(line_text):
            if cid not in seen:
                problems.error(rel, body_line + i, line_text.index(cid) + 1,
                               f"the body places chart '{cid}' that the front matter does not declare",
                               "declare it under charts: in the front matter")


def _check_charts(meta: dict, node: yaml.MappingNode, placed: list[str], campaigns: set, rel: str,
                  problems: Problems) -> set[str]:
    """Each chart of the front matter; returns the ids declared."""
    charts = meta.get("charts") or []
    chart_nodes = next((v.value for k, v in node.value if k.value == "charts"), [])
    seen: set[str] = set()
    lowered: dict[str, str] = {}  # id in lower case -> the id
    for d, n in zip(charts, chart_nodes, strict=False):
        where = _node_lines(n, 2) if isinstance(n, yaml.MappingNode) else {}
        line, col = (n.start_mark.line + 2, n.start_mark.column + 1)
        if not isinstance(d, dict):
            problems.error(rel, line, col, "a chart must be a mapping of keys", "write id:, kind:, title: ...")
            continue
        cid = str(d.get("id") or "")
        if not CHART_ID.fullmatch(cid):
            problems.error(rel, line, col, f"chart id '{cid}' is not valid", "use letters, digits, '-', '_' and '.'")
            continue
        if cid in seen:
            problems.error(rel, *where.get("id", (line, col)), f"two charts share the id '{cid}'", "rename one")
        elif cid.lower() in lowered:  # the site's addresses are in lower case
            problems.error(rel, *where.get("id", (line, col)),
                           f"charts '{lowered[cid.lower()]}' and '{cid}' differ only in case: their embed pages "
                           "would have one address", "rename one")
        seen.add(cid)
        lowered.setdefault(cid.lower(), cid)
        kind = KINDS.get(d.get("kind"))
        if kind is None:
            problems.error(rel, *where.get("kind", (line, col)), f"chart '{cid}': unknown kind '{d.get('kind')}'",
                           did_you_mean(str(d.get("kind")), KINDS) or "the kinds are listed on the contract page")
            continue
        for key in ("title", *kind.requires):
            if not d.get(key):
                problems.error(rel, line, col, f"chart '{cid}' ({kind.name}) needs '{key}'",
                               f"add {key}: ... to the chart")
        if d.get("campaign") and str(d["campaign"]) not in campaigns:
            problems.error(rel, *where["campaign"], f"chart '{cid}': unknown campaign '{d['campaign']}'",
                           did_you_mean(str(d["campaign"]), campaigns) or "see data/campaigns/")
        if cid not in placed:
            problems.error(rel, line, col, f"chart '{cid}' is declared but not placed in the body",
                           f'add {{{{< chart id="{cid}" />}}}} where it belongs')
    return seen
