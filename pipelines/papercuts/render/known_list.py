"""The known regressions (data/known/) as the regressions index lists them: each with its status,
where it arrived, what it hits, its bugs, and where this site shows it: the changes it labels on
the version ladders, or, where no ladder can show it, the comparisons that span it (a campaign of
two versions is a comparison, not a ladder: derive/ladders.py). Without this list a known
regression that labels no change point was on no page at all.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import groupby

import duckdb

from ..contract import dbms_name
from ..db import fetch_dicts, query
from ..paths import campaign_url, investigation_url, ladder_url
from .colours import ratio_class
from .site_rows import rows_of
from .tables import fixed

SHOWN_VARIANTS = 8  # a comparison's variants listed, then "and N more" (its campaign page has them all)


def known_list(con: duckdb.DuckDBPyConnection, investigations: tuple[str, ...]) -> list[dict]:
    """[{title, url, status, dbms, introduced, hits, explanation, bugs, changes, pages, compared}],
    by DBMS and the version each arrived in. `investigations`: the slugs this site built; a known
    regression links its investigation only when it is one of them, else its first bug."""
    compared = {k: list(rows) for k, rows in groupby(fetch_dicts(con, query("known_compared")),
                                                     key=lambda r: r["known"])}
    out = []
    for k in fetch_dicts(con, query("known_seen")):
        bugs = list(k["bugs"] or [])
        out.append({
            "id": k["id"], "title": k["title"], "status": k["status"], "dbms": dbms_name(k["dbms"]),
            "introduced": k["introduced"], "explanation": k["explanation"], "bugs": bugs,
            "url": known_link(k["investigation"], bugs[0] if bugs else None, investigations),
            "hits": hits(k), "changes": k["changes"],
            "pages": [{"text": f"{p['server']}, {p['threads']} thread{'s' if p['threads'] != 1 else ''}",
                       "url": ladder_url(p["server"], p["dbms"], p["threads"])} for p in k["pages"]],
            "compared": _comparisons(compared.get(k["id"], [])),
        })
    return out


def known_link(investigation: str | None, first_bug: str | None, investigations: tuple[str, ...]) -> str:
    """Where a known regression links: its investigation when this site built it (`investigations`,
    the slugs built: none for a data folder without its pages), else its first bug, else nowhere."""
    return investigation_url(investigation) if investigation in investigations else first_bug or ""


def hits(k: dict) -> str:
    """What a known regression names: its microbenchmarks or groups, and servers (none: all)."""
    named = [*(k["microbenchmarks"] or []), *(f"the {g} group" for g in k["groups"] or [])]
    what = ", ".join(named) if named else "every microbenchmark"
    servers = k["servers"] or []
    return f"{what}; on {', '.join(servers)}" if servers else f"{what}; on every server"


def _comparisons(rows: list[dict]) -> list[dict]:
    """A comparison (campaign, server, threads, base) and its variants' rQPS: of the one series a
    known regression names, or the median of several, with their range."""
    out = []
    for (campaign, server, threads, base_build, base_config, base_version), variants in groupby(
            rows, key=lambda r: (r["campaign"], r["server"], r["threads"], r["base_build"], r["base_config"],
                                 r["base_version"])):
        variants = list(variants)
        kinds = {tuple(v["series"]) for v in variants}
        # the one series every variant is measured on, named once; else each variant says what it is
        shared = next(iter(kinds))[0] if len(kinds) == 1 and variants[0]["n"] == 1 else ""
        out.append({
            "campaign": campaign, "url": campaign_url(campaign), "server": server, "threads": threads,
            "base": f"{base_version} ({base_build}.{base_config})",
            "published": all(v["origin"] == "published" for v in variants), "series": shared,
            "variants": [{"variant": f"{v['version']} ({v['build']}.{v['config']})", "rqps": fixed(v["rqps"]),
                          "class": ratio_class(v["rqps"]),
                          "note": "" if shared else _what(v)} for v in variants[:SHOWN_VARIANTS]],
            "more": max(0, len(variants) - SHOWN_VARIANTS),
        })
    return out


def _what(v: dict) -> str:
    if v["n"] == 1:
        return v["series"][0]
    return f"median of {v['n']} series, {fixed(v['lowest'])} to {fixed(v['highest'])}"


def known_by_campaign(con: duckdb.DuckDBPyConnection, campaign: str) -> list[dict]:
    """The known regressions a campaign's results show ({id, title, status, url}: the entry on
    /regressions/), by id: those labelling a change on its ladders, and those its comparisons span
    where no ladder can show them (known_compared.sql). Read as site_rows reads (a rebuild's
    process: the campaign's rows alone; x100, known_compared over every rQPS took 0.04 s)."""
    ids = {r["known"] for r in rows_of(con, "known_labelled_campaigns", "campaign", campaign)}
    ids |= {r["known"] for r in rows_of(con, "known_compared", "campaign", campaign)}
    titles = _titles(con)
    return [{**titles[k], "url": f"/regressions/#known-{k}"} for k in sorted(ids)]


@lru_cache(maxsize=1)  # per process and connection
def _titles(con: duckdb.DuckDBPyConnection) -> dict[str, dict]:
    return {k["id"]: {"id": k["id"], "title": k["title"], "status": k["status"]}
            for k in fetch_dicts(con, query("known_seen"))}
