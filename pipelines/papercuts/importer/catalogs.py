"""The data folder's catalogs as an import reads and extends them: the server it names, the rows
its archive needs, added under each catalog's own header and bytes.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

from ..paths import shown
from ..problems import Problems, UserError
from ..validate.csvfile import decode
from .scan import Found

ENGINES = {"mysql": "innodb", "mariadb": "innodb", "percona": "innodb", "postgres": "postgres"}
EDITIONS = {  # as bench/sysbench.lua/all_small.sh in mdcallag/mytools runs them
    "pre": "run before the write-heavy tests (all_small.sh in mytools' bench/sysbench.lua)",
    "warm": "a warm-up pass (all_small.sh in mytools' bench/sysbench.lua)",
    "warmpre": "a 60-second warm-up pass before the .pre tests (all_small.sh in mytools' bench/sysbench.lua)",
}


def read_catalog(path: Path) -> list[dict]:
    if not path.is_file():
        raise UserError(f"{path}: missing; --data must name a Papercuts data folder (with servers.csv, ...)")
    return list(csv.DictReader(io.StringIO(_catalog_text(path))))


def _catalog_text(path: Path) -> str:
    """A catalog's text as papercuts check reads it: a spreadsheet's BOM dropped, nothing guessed."""
    problems = Problems()
    text = decode(path.read_bytes(), shown(path), problems)
    if text is None:
        raise UserError(f"{path.name} cannot be read; fix it (papercuts check says the same) and import again; "
                        "nothing was changed", problems.sorted())
    return text


def ids(rows: list[dict], key: str = "id") -> set[str]:
    return {r[key] for r in rows}


def resolve_server(servers: list[dict], name: str, catalog: Path) -> str:
    for row in servers:
        if name == row["id"] or name in (row.get("aliases") or "").split(";"):
            return row["id"]
    known = f"known: {', '.join(sorted(r['id'] for r in servers))}" if servers else "it has no server yet"
    raise UserError(f"unknown server '{name}' ({known}); add it to {shown(catalog)} "
                    "(with the archive's name for it in aliases) and pass --server ID")


def _server_names(servers: list[dict]) -> dict[str, str]:
    """Every id and alias of servers.csv, and the server it names."""
    names = {}
    for row in servers:
        for name in (row["id"], *(row.get("aliases") or "").split(";")):
            if name:
                names[name] = row["id"]
    return names


def check_folder_names(src: Path, servers: list[dict], server_id: str, given: str) -> None:
    """Refuse SRC when its name, or a folder inside it, names another server of servers.csv.

    mytools archives name their machine in folder names (dec25.sb.gtid/pn53, oct25.sb.ma.hetz48,
    a '.'-separated part), never in a file: a folder named for another server is the wrong --server
    or a folder of several servers' runs, whose results would all be put on this one. (Config names
    such as z12a_c32r128 are no evidence: the same my.cnf was used on other machines.)"""
    names = _server_names(servers)

    def named(name: str) -> list[tuple[str, str]]:
        return [(part, names[part]) for part in name.split(".") if part in names]

    # A server's or a thread count's subfolder (dec25.sb.gtid/pn53, mar25.sb.in.c48/dop8) is named
    # with its archive's folder too.
    own = [(src, *n) for n in named(src.name)]
    if "." not in src.name:
        own += [(src.parent, *n) for n in named(src.parent.name)]
    if own and server_id not in {s for _, _, s in own}:
        folder, part, other = own[0]
        alias = f" (an alias of {other} in servers.csv)" if part != other else ""
        raise UserError(f"{shown(folder)}: the folder is named for server '{part}'{alias}, not for {server_id} "
                        f"(--server {given}); pass --server {other} if the archive ran there, or, if it ran on "
                        f"{server_id}, copy it under a name that does not name another server; nothing was changed")
    for folder in sorted(p for p in src.rglob("*") if p.is_dir()):
        rel = folder.relative_to(src)
        if any(part.startswith((".", "x.")) for part in rel.parts):
            continue  # hidden (not copied), or a run folder x.<build>.<config>.pk<N> (names a build)
        for part, other in named(folder.name):
            if other != server_id:
                alias = f" (an alias of {other} in servers.csv)" if part != other else ""
                raise UserError(f"{shown(folder)}: a folder named for server '{part}'{alias} inside the archive "
                                f"folder imported for {server_id} (--server {given}); SRC is one server's folder: "
                                f"import each server's folder as a campaign of its own, e.g. {shown(folder)} "
                                f"with --server {other}; nothing was changed")


def catalog_rows(found: Found, catalogs: dict[str, list[dict]], source: str, archive: str,
                  engine: str | None, copied: list[str]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {"builds": [], "configs": [], "microbenchmarks": []}
    builds, configs = ids(catalogs["builds"]), ids(catalogs["configs"])
    told: dict[str, str] = {}  # the new builds whose names tell their engine
    for build_id, name in sorted(found.builds.items()):
        if build_id in builds:
            continue
        # --engine is for the builds whose name does not tell (fbmysql runs InnoDB or MyRocks): it
        # made every new build of the archive that engine, a MySQL beside them too, without a word.
        own = "myrocks" if "rocks" in name.build else ENGINES.get(name.dbms or "")
        dbms_engine = own or engine
        if own:
            told[build_id] = own
        if name.dbms is None or name.version is None or dbms_engine is None:
            raise UserError(f"'{name.text}' in {archive}: cannot tell the DBMS, version or engine from the build "
                            "name; add the build to builds.csv first (or pass --engine for fbmysql builds)")
        rerun = f" The archive suffixes it .{name.rerun}: a run apart from .pk{name.pk}." if name.rerun else ""
        out["builds"].append({"id": build_id, "dbms": name.dbms, "engine": dbms_engine, "version": name.version,
                              "notes": f"Parsed from the mytools build name {name.text} in {archive}.{rerun}",
                              "source": source})
        builds.add(build_id)
    if engine and len(told) == len(out["builds"]):  # it would be dropped without a word
        why = (f"every new build of {archive} names its engine ({', '.join(f'{b}: {e}' for b, e in told.items())})"
               if told else f"every build of {archive} is in builds.csv already, with its engine")
        raise UserError(f"--engine {engine}: {why}; leave --engine out (it is for builds whose name does not "
                        "tell, such as fbmysql's); nothing was changed")
    for config in sorted(found.configs - configs):
        cnf = [f for f in copied if f.endswith(config) or f".{config}_" in f]
        kept = f" Its my.cnf is kept under raw/ ({', '.join(cnf)})." if cnf else " Its settings are not in the archive."
        said = (f"Named with --config when {archive} was imported: its tables do not name the configuration "
                "used." if config == found.given_config else f"The configuration named {config} in {archive}.{kept}")
        out["configs"].append({"id": config, "notes": said,
                               "source": source})
    known = {r["name"]: r for r in catalogs["microbenchmarks"]}
    unknown = [t for t in sorted(found.tests - set(known))
               if t.partition(".")[0] not in known or t.partition(".")[2] not in EDITIONS]
    if unknown:  # every one at once, not one per try
        raise UserError(f"{len(unknown)} microbenchmark(s) of {archive} are not in microbenchmarks.csv, nor an "
                        f"edition ({', '.join('.' + e for e in EDITIONS)}) of one that is: {', '.join(unknown)}; "
                        "add a row for each first (Papercuts' own data/microbenchmarks.csv describes every "
                        "mytools test, with its group and unit); nothing was changed")
    for test in sorted(found.tests - set(known)):
        base, _, edition = test.partition(".")
        row = dict(known[base])
        row.update(name=test, description=f"{known[base]['description']} The .{edition} edition: {EDITIONS[edition]}.")
        out["microbenchmarks"].append(row)
    return {k: v for k, v in out.items() if v}


def append_rows(path: Path, rows: list[dict]) -> None:
    """Add rows to a catalog under its own header, keeping its bytes (and line ends) as they are."""
    if not rows:
        return
    data = path.read_bytes()
    header = next(csv.reader(io.StringIO(_catalog_text(path))))
    newline = "\r\n" if b"\r\n" in data else "\n"
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=header, lineterminator=newline, extrasaction="ignore")
    for r in rows:
        w.writerow(r)
    prefix = b"" if data.endswith(b"\n") or not data else newline.encode()
    path.write_bytes(data + prefix + out.getvalue().encode("utf-8"))
