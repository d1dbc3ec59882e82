"""Campaigns read once: a campaign folder whose bytes, place and code are those of the last build
is not read and parsed again; what reading it gave (its rows, its record and its problems) comes
back from the build folder instead.

Reading and parsing the campaigns is nearly all of the validate stage, and a contribution usually
adds or changes one campaign: the others are restored. Campaigns not restored are read on every
core, each folder alone, and added in folder order, as one process reading them in turn would.
Everything after (the checks across campaigns, DuckDB, pages) runs on the whole data as before, so
a build from the cache and a clean build give the same site byte for byte (tests/test_incremental.py).

The key hashes, without following links or opening anything but regular files: every path under
the folder, its kind and its bytes (or a link's target), where the folder is and is published, and
Papercuts' own code. The cache is Papercuts' own output in the build folder, never contributed.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import stat
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache, partial
from multiprocessing import get_context
from pathlib import Path

from .. import fingerprint
from ..children import counted, end_with
from ..problems import Problems

CODE = Path(__file__).resolve().parents[1]  # the papercuts package: its code and SQL
FORMAT = b"papercuts-campaign-cache 3"  # 3: an entry is its key, then what was read


@lru_cache(maxsize=1)
def code_digest() -> bytes:
    h = hashlib.sha256(FORMAT)
    h.update(fingerprint.toolchain())
    for p in sorted(CODE.rglob("*")):
        if p.suffix in (".py", ".sql", ".toml", ".c") and "__pycache__" not in p.parts:
            h.update(f"{p.relative_to(CODE).as_posix()}\0".encode())
            h.update(p.read_bytes())
    return h.digest()


def folder_digest(cdir: Path, where: str) -> str:
    h = hashlib.sha256(code_digest())
    h.update(f"{where}\0".encode())
    top = os.fspath(cdir)
    for root, dirs, files in os.walk(top, followlinks=False):
        dirs.sort()
        # paths relative to the folder, as os.path.relpath gives them, without its cost (keying
        # x100's folders and the shipped ones: 0.036-0.051 s through relpath, 0.021-0.030 s so)
        inner = "." if root == top else root[len(top) + 1:]
        prefix = "" if inner == "." else inner + "/"
        for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(root, d))]):
            p = os.path.join(root, name)
            st = os.lstat(p)
            h.update(f"{prefix}{name}\0{stat.S_IFMT(st.st_mode)}\0{st.st_size}\0".encode())
            if stat.S_ISLNK(st.st_mode):
                h.update(os.readlink(p).encode(errors="surrogateescape"))
            elif stat.S_ISREG(st.st_mode):
                try:
                    h.update(fingerprint.file_digest(p, st)[1])  # hashed already by a build's fingerprint
                except OSError as e:  # unreadable: reading the folder reports it, at its path
                    h.update(f"unreadable {e.errno} {st.st_mtime_ns}\0".encode())
        h.update(f"dirs {inner} {len(dirs)}\0".encode())
    return h.hexdigest()


def load_saved(entry: Path):
    """What store() wrote at `entry`, or None: no entry, or one this code cannot read (an older
    format, a torn or foreign file)."""
    try:
        with open(entry, "rb") as f:
            return pickle.load(f)
    except Exception:  # noqa: BLE001 - unpickling a foreign file can raise anything
        return None


def store(entry: Path, saved) -> None:
    """Written whole or not at all (a build killed meanwhile leaves the last entry)."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    tmp = entry.with_suffix(".tmp")
    _write(tmp, saved)
    os.replace(tmp, entry)


def _write(path: Path, saved) -> None:
    with open(path, "wb") as f:
        pickle.dump(saved, f, protocol=pickle.HIGHEST_PROTOCOL)


def _entry_key(entry: Path) -> str | None:
    """The key an entry was written under (_write_entry), read without what follows it: whether
    the folder is read again is known before any entry is loaded (load_campaigns)."""
    try:
        with open(entry, "rb") as f:
            key = pickle.load(f)
    except Exception:  # noqa: BLE001 - unpickling a foreign file can raise anything
        return None
    return key if isinstance(key, str) else None


def _entry(entry: Path, key: str) -> dict | None:
    """What reading the folder gave, saved at `entry` under `key`, or None."""
    try:
        with open(entry, "rb") as f:
            if pickle.load(f) != key:
                return None
            found = pickle.load(f)
    except Exception:  # noqa: BLE001 - unpickling a foreign file can raise anything
        return None
    return found if isinstance(found, dict) else None


def _write_entry(path: Path, key: str, found: dict) -> None:
    with open(path, "wb") as f:
        pickle.dump(key, f, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.dump(found, f, protocol=pickle.HIGHEST_PROTOCOL)


def _read_all(read: Callable[[Path], dict], todo: list[tuple[Path, str | None, Path | None]],
              progress=None, meanwhile: Callable[[], None] | None = None) -> list[tuple[dict, Path | None]]:
    """(read() of each folder of `todo` (folder, its key, where its cache entry goes or None), the
    entry a worker wrote of it or None): on every core when there are several (each folder is
    read alone, so the order of reading changes nothing), in this process for one (the common
    rebuild). A worker writes what it read as the folder's cache entry, next to where it goes, and
    gives that file's path: this process loads it as it comes, while the workers read on (x100:
    the entries took 0.2 s to load once they were done; validate 1.25-1.28 -> 1.17-1.27 s), and
    keeps it by renaming it, instead of receiving the rows through a pipe and writing them again
    (x100: 100 MB of pickled rows, most of them a synthetic campaign's). meanwhile() is called as
    the reading starts, once the workers are forked: it may start a thread."""
    workers = min(len(todo), os.cpu_count() or 1)
    # Forked workers: validate runs before this process opens DuckDB; a process with other threads
    # (a host program's) reads in turn, since a fork copies locks those threads may hold.
    if workers < 2 or threading.active_count() > 1:
        if meanwhile:
            meanwhile()
        return counted(((read(cdir), None) for cdir, _, _ in todo), len(todo), progress)
    # The largest folders first, so that none is left to read last on one core while the others
    # wait (x100: the largest, of raw outputs, is 0.75 of 2.8 CPU s; read in folder order, the cores
    # ended 0.08 s apart); their results in folder order.
    order = sorted(range(len(todo)), key=lambda i: -_size(todo[i][0]))
    with ProcessPoolExecutor(workers, mp_context=get_context("fork"), initializer=end_with,
                             initargs=(os.getpid(),)) as pool:
        mapped = pool.map(partial(_read_into, read), [todo[i] for i in order])  # every worker forked
        if meanwhile:
            meanwhile()
        found = counted(map(_loaded, mapped), len(todo), progress)
    out: list[tuple[dict, Path | None]] = [({}, None)] * len(todo)
    for i, result in zip(order, found, strict=True):
        out[i] = result
    return out


def _loaded(result: dict | Path) -> tuple[dict, Path | None]:
    """A worker's result: what it read, and the entry it wrote of it, if any (_read_into)."""
    if not isinstance(result, Path):
        return result, None
    with open(result, "rb") as f:
        pickle.load(f)  # its key
        return pickle.load(f), result


def _size(cdir: Path) -> int:
    """The bytes of a folder's regular files (links not followed): what reading it costs, roughly."""
    total = 0
    for root, _, files in os.walk(cdir, followlinks=False):
        for name in files:
            st = os.lstat(os.path.join(root, name))
            total += st.st_size if stat.S_ISREG(st.st_mode) else 0
    return total


def _read_into(read: Callable[[Path], dict], item: tuple[Path, str | None, Path | None]) -> dict | Path:
    """In a worker: read(folder), written as its cache entry at `tmp` when it has one."""
    cdir, key, tmp = item
    found = read(cdir)
    if tmp is None:
        return found
    _write_entry(tmp, key, found)
    return tmp


def load_campaigns(folders: list[tuple[Path, str]], cache: Path | None, ds, problems: Problems,
                   read: Callable[[Path], dict], progress=None, meanwhile: Callable[[], None] | None = None) -> int:
    """Append each campaign folder (with `where` it is and is published) to ds and problems, in
    folder order. read(folder) gives what reading one folder alone gives: {"rows": {table: rows},
    "campaigns": [...], "problems": [...]}. A folder whose bytes the cache knows is not read; the
    others are read, in parallel when there are several, and kept. meanwhile(), if given, is
    called as the reading starts (_read_all). Returns how many were reused."""
    plans = []
    for cdir, where in folders:
        if cache is None or cdir.is_symlink() or not cdir.is_dir():
            plans.append((cdir, where, None, False))
            continue
        key = folder_digest(cdir, where)
        ds.digests[cdir.name] = key
        plans.append((cdir, where, key, _entry_key(cache / f"{cdir.name}.pickle") == key))
    todo = [(cdir, key, None if key is None else (cache / f"{cdir.name}.pickle").with_suffix(".tmp"))
            for cdir, _, key, kept in plans if not kept]
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    # read before the kept entries are loaded: meanwhile's thread starts as the reading does
    fresh = dict(zip((cdir for cdir, _, _ in todo), _read_all(read, todo, progress, meanwhile), strict=True))
    reused = 0
    for cdir, where, key, kept in plans:
        found = _entry(cache / f"{cdir.name}.pickle", key) if kept else None
        reused += found is not None
        if found is None:
            # read() here: an entry unreadable past its key; `written` by a worker, as the entry to keep
            found, written = fresh[cdir] if cdir in fresh else (read(cdir), None)
            if key is not None and folder_digest(cdir, where) != key:
                # Saved while it was read: what was read may be neither digest's. Kept under
                # neither, and named by none, so that no later build takes this build's rows, pages
                # or database rows of it for another state of the folder (render/reuse.py and
                # ingest/previous.py keep nothing of a build without every campaign's digest).
                del ds.digests[cdir.name]
                if written is not None:
                    written.unlink()
            elif written is not None:
                os.replace(written, cache / f"{cdir.name}.pickle")
            elif key is not None:
                entry = cache / f"{cdir.name}.pickle"
                _write_entry(entry.with_suffix(".tmp"), key, found)  # whole or not at all
                os.replace(entry.with_suffix(".tmp"), entry)
        for table, rows in found["rows"].items():
            ds.rows.setdefault(table, []).extend(rows)
        ds.campaigns.extend(found["campaigns"])
        problems.items.extend(found["problems"])
    return reused
