"""What a build is made of, as one hash, so that a build of unchanged inputs does nothing.

The inputs are every file the pipeline reads: the data folder, the hand-written pages, the
layouts, the Hugo site (config, CSS, scripts, vendored bundles), Papercuts' own code and SQL and
the versions of Python and of every package installed beside it (DuckDB, Hugo, ...: toolchain),
and, when a chart is pinned to a date, the commit the repository is at (a pin reads the git
history of data/). The same inputs give the same site byte for byte (the build is deterministic),
so when they hash as the last successful build's did, and the site and database it left are
untouched, that site is already the answer.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from .paths import Paths
from .problems import Problem, Problems

RECORD = "last-build.json"


def files_under(root: Path | str, skip: str | None = None, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(path relative to root, in POSIX form; full path) of every file under root, in one fixed
    order: a folder's files by name, then its folders by name. Not the top folder `skip`, nor
    __pycache__, nor a folder reached through a link. os.scandir, not Path.rglob: at x100 the
    site's 6,500 files took 0.19 s through pathlib, 0.07 s so, on every build's first and last
    step (a directory entry knows its type without a stat)."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    folders = []
    for e in entries:
        if _is(e.is_file):  # a link to a file too, not a dangling one
            yield prefix + e.name, e.path
        elif _is(e.is_dir, follow_symlinks=False) and e.name != "__pycache__" and e.name != skip:
            folders.append(e)
    for e in folders:
        yield from files_under(e.path, None, prefix + e.name + "/")


def _is(test, **kwargs) -> bool:
    """A DirEntry's is_file or is_dir, False where it cannot tell (a loop of links: ELOOP), as
    Path.is_file says: validation reports such a file at its path, with how to fix it."""
    try:
        return test(**kwargs)
    except OSError:
        return False


def hash_tree(h, label: str, root: Path, skip: str | None = None) -> None:
    """Every file under root (but the top folder `skip`), by path, size and bytes, into h."""
    for rel, path in files_under(root, skip):
        size, digest = file_digest(path)
        h.update(f"{label}/{rel}\0{size}\0".encode() + digest)


# Each file's (stat identity, size, SHA-256) as this process, or the last build in its build folder
# (recall_digests), hashed it: a build hashes its data for its fingerprint, then each campaign
# folder for the cache of campaigns read, and its code four times (x100: the fingerprint, the
# shared inputs' digest and the campaigns' keys took 0.19-0.24 s with the 73 MB of data read
# twice; 0.12-0.16 s so).
_hashed: dict[str, tuple[tuple[int, ...], int, bytes]] = {}
_asked: set[str] = set()  # the files whose digest this process was asked for
# A file changed this recently is hashed every time: a change within the clock tick of the one
# before (a few ms) keeps its times, and one of the same size would not be seen (as "racy git").
RECENT_NS = 2_000_000_000
DIGESTS = "file-digests.json"


def recall_digests(build: Path) -> None:
    """The files' digests the last build in this build folder took (keep_digests): a file whose
    stat identity is still the recorded one is not read again, as git trusts its index (x100: the
    fingerprint took 0.10-0.16 s of every build, reading 73 MB)."""
    try:
        saved = json.loads((build / DIGESTS).read_text())
        for path, (ident, size, digest) in saved.items():
            _hashed.setdefault(path, (tuple(ident), size, bytes.fromhex(digest)))
    except (OSError, ValueError, TypeError, AttributeError):  # none, or not this code's: read again
        pass


def keep_digests(paths: Paths) -> None:
    """The digests of this build's inputs, for the next build in its folder (recall_digests)."""
    roots = tuple(str(root) + os.sep for root in _roots(paths).values())
    kept = {path: [list(ident), size, digest.hex()] for path, (ident, size, digest) in _hashed.items()
            if path.startswith(roots) and path in _asked}  # not a file gone since
    tmp = paths.build / (DIGESTS + ".tmp")
    tmp.write_text(json.dumps(kept, sort_keys=True))
    tmp.replace(paths.build / DIGESTS)


def file_digest(path: str, st: os.stat_result | None = None) -> tuple[int, bytes]:
    """A file's size and the SHA-256 of its bytes; hashed again unless its stat identity (device,
    inode, size, modification and change times) is the one it had when last hashed here."""
    st = st or os.stat(path)
    _asked.add(path)
    ident = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if (was := _hashed.get(path)) and was[0] == ident:
        return was[1], was[2]
    with open(path, "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).digest()
    if time.time_ns() - st.st_ctime_ns > RECENT_NS:
        _hashed[path] = (ident, len(data), digest)
    return len(data), digest


@lru_cache(maxsize=1)
def toolchain() -> bytes:
    """Python's version and every installed package's (DuckDB, Hugo, NumPy, ...): another version
    may sum, order or store differently, so whatever is kept from a build (the site, the
    database, its campaigns read, its pages) is kept only by the same ones."""
    packages = sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions())
    return "\0".join([f"python {sys.version}", *packages]).encode()


def hugo_environment() -> bytes:
    """Hugo's settings in the environment (HUGO_BASEURL, ...), which the embed pages read too."""
    return repr(sorted((k, v) for k, v in os.environ.items() if k.upper().startswith("HUGO"))).encode()


def _roots(paths: Paths) -> dict[str, Path]:
    return {"data": paths.data, "content": paths.content, "layouts": paths.project / "layouts",
            "site": paths.site, "code": Path(__file__).parent}


def inputs_digest(paths: Paths) -> str:
    h = hashlib.sha256(toolchain())
    for label, root in _roots(paths).items():
        hash_tree(h, label, root)
    h.update(f"public {paths.public}\0images {os.environ.get('PAPERCUTS_IMAGES', '1')}\0".encode())
    h.update(hugo_environment())
    pins = paths.content / "snapshots.toml"
    if pins.is_file() and "[[pin]]" in pins.read_text(encoding="utf-8", errors="replace"):
        head = subprocess.run(["git", "-C", str(paths.data), "rev-parse", "HEAD"], capture_output=True, text=True)
        h.update(f"git {head.stdout.strip()}\0".encode())
    return h.hexdigest()


def outputs_digest(paths: Paths) -> str:
    """What the last build left, as names, sizes and modification times (a stat, no reading): the
    site and the database. A file changed or removed since, by hand or by a crash, is seen."""
    h = hashlib.sha256()
    database = [str(paths.db)] if paths.db.is_file() else []
    for path in [*database, *(path for _, path in files_under(paths.public))]:
        st = os.stat(path)
        h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


def unchanged(paths: Paths, digest: str) -> tuple[Problems, int] | None:
    """The last build's warnings and page count when it was made of these very inputs and left
    its outputs as they are."""
    record = paths.build / RECORD
    if not record.is_file() or not paths.public.is_dir() or not paths.db.is_file():
        return None
    try:
        last = json.loads(record.read_text())
    except ValueError:
        return None
    if last.get("digest") != digest or last.get("outputs") != outputs_digest(paths):
        return None
    problems = Problems()
    problems.items = [Problem(**p) for p in last["problems"]]
    return problems, last["pages"]


def remember(paths: Paths, digest: str, problems: Problems, pages: int) -> None:
    record = paths.build / RECORD
    tmp = record.with_name(RECORD + ".tmp")
    tmp.write_text(json.dumps({"digest": digest, "pages": pages, "outputs": outputs_digest(paths),
                               "problems": [p.__dict__ for p in problems.sorted()]}, sort_keys=True))
    tmp.replace(record)
    keep_digests(paths)


def forget(paths: Paths) -> None:
    (paths.build / RECORD).unlink(missing_ok=True)
