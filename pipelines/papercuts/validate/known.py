"""Stage 1a for known regressions: data/known/<id>.toml, one explained (or open) change each.

A known regression names where it arrived (DBMS, the version it was introduced in), what it hits
(microbenchmarks and/or group medians; servers optionally), why, its bugs and its status. Change
points that match it are labelled with it on ladder pages and in the regressions index, and are
not announced as new in the feed (derive/ladders.py matches them).
"""
from __future__ import annotations

import re
from pathlib import Path

from ..contract import DBMS_NAMES, GROUPS, ID_PATTERN, STATUSES
from ..paths import Paths
from ..problems import Problems
from ..versions import parse_version
from .files import read_limited
from .tomlfile import read_toml

# key -> (kind, required)
KNOWN_KEYS: dict[str, tuple[str, bool]] = {
    "title": ("text", True),
    "status": ("status", True),
    "source": ("text", True),
    "dbms": ("dbms", True),
    "introduced": ("version", True),
    "explanation": ("text", True),
    "microbenchmarks": ("list", False),
    "groups": ("groups", False),
    "servers": ("list", False),
    "bugs": ("urls", False),
    "investigation": ("page", False),
}
_HINTS = {
    "status": f"one of {', '.join(STATUSES)}",
    "dbms": f"one of {', '.join(DBMS_NAMES)}",
    "version": 'a release such as "8.0.30" or "18beta1"',
    "groups": f"a list of {', '.join(GROUPS[:3])}",
    "urls": 'a list of "https://..." links',
    "list": 'a list of names, e.g. ["update-index"]',
    "text": 'a non-empty string, e.g. "..."',
    "page": 'the name of a page of content/investigations/, without .md, e.g. "innodb-busy-wait-8030"',
}
# An investigation page's name, as its file is named: a path segment of the site, never a path.
PAGE = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")
# A bug link: http(s), then no space, quote, angle bracket or backslash (an address as written).
_URL = re.compile(r"https?://[^\s\"'<>\\`]+")


def _valid(kind: str, value) -> bool:
    if kind in ("list", "groups", "urls"):
        ok = isinstance(value, list) and all(isinstance(v, str) and v for v in value)
        if kind == "groups":
            return ok and all(v in GROUPS[:3] for v in value)
        if kind == "urls":
            return ok and all(_URL.fullmatch(v) for v in value)
        return ok
    if not isinstance(value, str) or not value.strip():
        return False
    if kind == "page":
        return PAGE.fullmatch(value) is not None
    if kind == "status":
        return value in STATUSES
    if kind == "dbms":
        return value in DBMS_NAMES
    if kind == "version":
        try:
            parse_version(value)
        except ValueError:
            return False
    return True


def load_known(root: Path, paths: Paths, rows: dict[str, list[dict]], problems: Problems) -> None:
    known = rows.setdefault("known", [])
    for f in sorted(root.iterdir()):
        rel = paths.rel(f)
        if f.is_symlink() or not f.is_file() or f.suffix != ".toml" or not re.fullmatch(ID_PATTERN, f.stem):
            problems.error(rel, 1, 1, "data/known/ holds <id>.toml files only",
                           "name it with letters, digits, '_', '+', '-' and .toml, e.g. bug-116463.toml")
            continue
        data = read_limited(f, rel, problems)
        read = None if data is None else read_toml(data, rel, problems)
        if read is None:
            continue
        doc, positions = read
        ok = True
        for key, value in doc.items():
            line, col = positions[key]
            if key not in KNOWN_KEYS:
                problems.error(rel, line, 1, f"unknown key '{key}'", f"known keys: {', '.join(KNOWN_KEYS)}")
                ok = False
            elif not _valid(KNOWN_KEYS[key][0], value):
                problems.error(rel, line, col, f"{key} is not valid", f"write {_HINTS[KNOWN_KEYS[key][0]]}")
                ok = False
        for key, (_, required) in KNOWN_KEYS.items():
            if required and key not in positions:
                problems.error(rel, 1, 1, f"required key '{key}' is missing",
                               f"add {key} = ... to the file; data/README.md describes each key of data/known/*.toml")
                ok = False
        if ok:
            known.append({"id": f.stem, **{k: doc.get(k) for k in KNOWN_KEYS},
                          "introduced_key": list(parse_version(doc["introduced"])),
                          "_file": rel, "_lines": {k: v[0] for k, v in positions.items()}, "_at": positions})
