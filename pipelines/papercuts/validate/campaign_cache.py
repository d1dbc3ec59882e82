"""Campaigns read once: a campaign folder whose bytes, place and code are those of the last build
is not read and parsed again; what reading it gave (its rows, its record and its problems) comes
back from the build folder instead.

Reading and parsing the campaigns is nearly all of the validate stage, and a contribution usually
adds or changes one campaign: the others are restored. Everything after (the checks across
campaigns, DuckDB, pages) runs on the whole data as before, so a build from the cache and a clean
build give the same site byte for byte (tests/test_incremental.py).

The key hashes, without following links or opening anything but regular files: every path under
the folder, its kind and its bytes (or a link's target), where the folder is and is published, and
Papercuts' own code. The cache is Papercuts' own output in the build folder, never contributed.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import stat
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from ..problems import Problems

CODE = Path(__file__).resolve().parents[1]  # the papercuts package: its code and SQL
FORMAT = b"papercuts-campaign-cache 1"


@lru_cache(maxsize=1)
def code_digest() -> bytes:
    h = hashlib.sha256(FORMAT)
    for p in sorted(CODE.rglob("*")):
        if p.suffix in (".py", ".sql", ".toml", ".c") and "__pycache__" not in p.parts:
            h.update(f"{p.relative_to(CODE).as_posix()}\0".encode())
            h.update(p.read_bytes())
    return h.digest()


def folder_digest(cdir: Path, where: str) -> str:
    h = hashlib.sha256(code_digest())
    h.update(f"{where}\0".encode())
    for root, dirs, files in os.walk(cdir, followlinks=False):
        dirs.sort()
        for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(root, d))]):
            p = os.path.join(root, name)
            st = os.lstat(p)
            h.update(f"{os.path.relpath(p, cdir)}\0{stat.S_IFMT(st.st_mode)}\0{st.st_size}\0".encode())
            if stat.S_ISLNK(st.st_mode):
                h.update(os.readlink(p).encode(errors="surrogateescape"))
            elif stat.S_ISREG(st.st_mode):
                try:
                    with open(p, "rb") as f:
                        for block in iter(lambda: f.read(1 << 20), b""):
                            h.update(block)
                except OSError as e:  # unreadable: reading the folder reports it, at its path
                    h.update(f"unreadable {e.errno} {st.st_mtime_ns}\0".encode())
        h.update(f"dirs {os.path.relpath(root, cdir)} {len(dirs)}\0".encode())
    return h.hexdigest()


def load_cached(cdir: Path, where: str, cache: Path | None, ds, problems: Problems,
                load: Callable[[], None]) -> bool:
    """Run load() (which appends this campaign to ds and problems) unless the cache holds what it
    gave for these very bytes; returns whether the cache answered."""
    if cache is None or cdir.is_symlink() or not cdir.is_dir():
        load()
        return False
    key = folder_digest(cdir, where)
    ds.digests[cdir.name] = key
    entry = cache / f"{cdir.name}.pickle"
    try:
        with open(entry, "rb") as f:
            saved = pickle.load(f)
        if saved["key"] == key:
            for table, rows in saved["rows"].items():
                ds.rows.setdefault(table, []).extend(rows)
            ds.campaigns.extend(saved["campaigns"])
            problems.items.extend(saved["problems"])
            return True
    except (OSError, EOFError, KeyError, TypeError, pickle.UnpicklingError):
        pass  # no entry, or one from another version: read the folder
    before = {t: len(rows) for t, rows in ds.rows.items()}
    n_campaigns, n_problems = len(ds.campaigns), len(problems.items)
    load()
    saved = {"key": key,
             "rows": {t: rows[before.get(t, 0):] for t, rows in ds.rows.items() if len(rows) > before.get(t, 0)},
             "campaigns": ds.campaigns[n_campaigns:], "problems": problems.items[n_problems:]}
    cache.mkdir(parents=True, exist_ok=True)
    tmp = entry.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        pickle.dump(saved, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, entry)
    return False
