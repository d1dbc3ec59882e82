"""`papercuts import mytools SRC`: one server's folder of a Small Datum (mytools) archive becomes a
raw campaign, byte for byte, with the catalog rows its tables name.

Nothing is converted: the files are copied under raw/ and every build reads them again
(validate/archive.py). The import only writes what a build cannot find in the files themselves:
the campaign's provenance, the server, a thread count the tables do not say, and catalog rows for
the builds (DBMS and version parsed from the build name), configs and microbenchmarks it meets.
It never guesses: an unknown server or an unknown thread count is an error with its fix. The data
folder is checked after the import and left as it was when the check fails.
"""
from __future__ import annotations

import csv
import filecmp
import io
import json
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from .contract import MAX_CAMPAIGN_FILES, MAX_FILE_BYTES, MAX_THREADS, dbms_name
from .parsers.errors import Gap, ParseError, file_bytes, read
from .parsers.mytools import (
    BuildName,
    QpsTable,
    cut_header,
    dop_variant,
    names_variants,
    parse_build_name,
    parse_o_met,
    parse_qps_tsv,
    parse_test_file_name,
    table_rows,
)
from .paths import Paths
from .problems import Problem, Problems, UserError, printable
from .validate.archive import (
    _without_sections,
    folder_problem,
    folders_named_as_files,
    summary_folders,
    thread_count,
)
from .validate.csvfile import decode
from .validate.fields import is_date
from .validate.load import CAMPAIGN_DIR

ENGINES = {"mysql": "innodb", "mariadb": "innodb", "percona": "innodb", "postgres": "postgres"}
EDITIONS = {  # as bench/sysbench.lua/all_small.sh in mdcallag/mytools runs them
    "pre": "run before the write-heavy tests (all_small.sh in mytools' bench/sysbench.lua)",
    "warm": "a warm-up pass (all_small.sh in mytools' bench/sysbench.lua)",
    "warmpre": "a 60-second warm-up pass before the .pre tests (all_small.sh in mytools' bench/sysbench.lua)",
}
_NAME_THREADS = re.compile(r"(?:^|\.)(\d+)u(?=\.|$)")
_SYSBENCH = re.compile(r"^sysbench (\d\S*)", re.M)  # the banner of a sysbench run's output


@dataclass
class Found:
    """What the archive's tables name: builds, configs, tests, and each table's thread count."""

    builds: dict[str, BuildName] = field(default_factory=dict)
    configs: set[str] = field(default_factory=set)
    tests: set[str] = field(default_factory=set)
    threads: list[tuple[str, int, str]] = field(default_factory=list)  # (file, threads, where)
    missing_threads: list[str] = field(default_factory=list)
    met_files: list[str] = field(default_factory=list)
    block_threads: set[int] = field(default_factory=set)  # thread counts of o.met blocks and rows
    unnamed_config: bool = False  # sum_met_dop.sh tables: the config is not in the files
    given_config: str | None = None  # ... so --config names it
    runs: int = 0  # sysbench outputs (x.<build>.<config>.pk<N>/sb.o.*) in per-run trees
    sysbench: set[str] = field(default_factory=set)  # the versions those outputs print


def _read_csv(path: Path) -> list[dict]:
    if not path.is_file():
        raise UserError(f"{path}: missing; --data must name a Papercuts data folder (with servers.csv, ...)")
    return list(csv.DictReader(io.StringIO(_catalog_text(path))))


def _catalog_text(path: Path) -> str:
    """A catalog's text as papercuts check reads it: a spreadsheet's BOM dropped, nothing guessed."""
    problems = Problems()
    text = decode(path.read_bytes(), _shown(path), problems)
    if text is None:
        raise UserError(f"{path.name} cannot be read; fix it (papercuts check says the same) and import again; "
                        "nothing was changed", problems.sorted())
    return text


def _ids(rows: list[dict], key: str = "id") -> set[str]:
    return {r[key] for r in rows}


def resolve_server(servers: list[dict], name: str, catalog: Path) -> str:
    for row in servers:
        if name == row["id"] or name in (row.get("aliases") or "").split(";"):
            return row["id"]
    known = f"known: {', '.join(sorted(r['id'] for r in servers))}" if servers else "it has no server yet"
    raise UserError(f"unknown server '{name}' ({known}); add it to {_shown(catalog)} "
                    "(with the archive's name for it in aliases) and pass --server ID")


def _server_names(servers: list[dict]) -> dict[str, str]:
    """Every id and alias of servers.csv, and the server it names."""
    names = {}
    for row in servers:
        for name in (row["id"], *(row.get("aliases") or "").split(";")):
            if name:
                names[name] = row["id"]
    return names


def _check_folder_names(src: Path, servers: list[dict], server_id: str, given: str) -> None:
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
        raise UserError(f"{_shown(folder)}: the folder is named for server '{part}'{alias}, not for {server_id} "
                        f"(--server {given}); pass --server {other} if the archive ran there, or, if it ran on "
                        f"{server_id}, copy it under a name that does not name another server; nothing was changed")
    for folder in sorted(p for p in src.rglob("*") if p.is_dir()):
        rel = folder.relative_to(src)
        if any(part.startswith((".", "x.")) for part in rel.parts):
            continue  # hidden (not copied), or a run folder x.<build>.<config>.pk<N> (names a build)
        for part, other in named(folder.name):
            if other != server_id:
                alias = f" (an alias of {other} in servers.csv)" if part != other else ""
                raise UserError(f"{_shown(folder)}: a folder named for server '{part}'{alias} inside the archive "
                                f"folder imported for {server_id} (--server {given}); SRC is one server's folder: "
                                f"import each server's folder as a campaign of its own, e.g. {_shown(folder)} "
                                f"with --server {other}; nothing was changed")


def scan(raw: Path, meta: dict, say=print, src: Path | None = None) -> Found:
    """Parse the copied tables once to learn what they name (the build parses them again). A file's
    problem names it in src, the folder the user gave, when given: the copy is gone by then."""
    found = Found()

    def shown(path: Path) -> str:
        return _shown(src / path.relative_to(raw)) if src else path.relative_to(raw).as_posix()

    def names(table: QpsTable) -> None:
        for n in (*table.columns, *([table.relative_to] if table.relative_to else [])):
            found.builds.setdefault(n.build_id, n)
            if n.config:
                found.configs.add(n.config)
        found.tests.update(r.test for r in table.rows)

    # The folder the user gave: an empty folder is not copied, and is as wrong as a full one.
    for folder, what in folders_named_as_files(src or raw):
        raise ParseError(_shown(folder) if src else folder.relative_to(raw).as_posix(), 1,
                         *folder_problem(folder, what))
    for folder in summary_folders(raw):
        mets = {}
        for path in folder.met.values():
            blocks = _parse(path, shown, parse_o_met)
            mets[shown(path)] = (path, blocks)  # thread_count names the one it reads a dop<T> in
            found.met_files.append(path.relative_to(raw).as_posix())
            _met_names(blocks, found)
        for files in (*folder.abs.values(), *folder.rel.values()):
            for ext, path in sorted(files.items()):
                if ext == "csv" or ext == "tsv.edit" and "tsv" in files:
                    continue  # its .tsv names the same columns and tests; an edit is checked against it
                text = path.read_text(encoding="utf-8", errors="replace")
                if not names_variants(text):
                    rows = table_rows(files["csv"].read_text(encoding="utf-8", errors="replace")) \
                        if ext == "tsv" and "csv" in files else table_rows(text)
                    if cut := cut_header(text, shown(path), rows):
                        raise cut
                    say(f"{printable(shown(path))}: its columns do not name builds; kept as evidence")
                    continue
                text_fix = _without_sections if ext == "tsv.edit" else (lambda t: t)
                table = _parse(path, shown, lambda t, at, fix=text_fix: parse_qps_tsv(fix(t), at))
                names(table)
                rel = shown(path)
                t = thread_count(raw, path, mets, meta)
                if t is None:
                    found.missing_threads.append(rel)
                else:
                    found.threads.append((rel, *t))
    _run_names(raw, found, shown)
    return found


def _run_names(raw: Path, found: Found, shown) -> None:
    """The builds, configs, tests and thread counts the per-run trees name: x.<build>.<config>.pk<N>
    folders of sb.o.<test>.range<R>.pk<N>.dop<T> files (the build parses them again)."""
    for vdir in sorted(p for p in raw.rglob("x.*") if p.is_dir()):
        name = parse_build_name(vdir.name)
        if not name.config:
            continue  # validate names the folder at its path
        threads = set()
        for f in vdir.iterdir():
            tf = parse_test_file_name(f.name)
            if f.is_file() and tf is not None and tf.kind == "o" and tf.threads is not None:
                found.tests.add(tf.test)
                threads.add(tf.threads)
                found.runs += 1
                head = "\n".join(file_bytes(f, shown(f))[:4096].decode("utf-8", "replace").splitlines()[:8])
                found.sysbench.update(_SYSBENCH.findall(head))
        if threads:
            found.builds.setdefault(name.build_id, name)
            found.configs.add(name.config)
            found.threads += [(shown(vdir), t, "dop<T> in its sb.o file names") for t in sorted(threads)]


def _met_names(blocks, found: Found) -> None:
    """The builds, configs, tests and thread counts an o.met file names."""
    for b in blocks:
        if b.prepare or b.threads is None:
            continue
        found.tests.add(b.test)
        for row in b.absolute:
            variant, threads = row.variant, b.threads
            if dop := dop_variant(variant):  # sum_met_dop.sh rows: a build and threads, no config
                variant, threads = dop
                found.unnamed_config = True
            found.block_threads.add(threads)
            found.builds.setdefault(variant.build_id, variant)
            if variant.config:
                found.configs.add(variant.config)


def _shown(path: Path) -> str:
    """A path as papercuts check prints one: relative to the working directory when inside it."""
    return Paths.make().rel(path)


def _parse(path: Path, shown, parse):
    parsed = read(path, parse, shown(path))
    if isinstance(parsed, Gap):
        raise UserError(f"{parsed.path}: {parsed.reason} file; remove it from the archive folder or regenerate it")
    return parsed


def _append(path: Path, rows: list[dict]) -> None:
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


def _toml(values: dict) -> str:
    lines = []
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, int) or re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(value)) and key == "date":
            lines.append(f"{key} = {value}")
        else:
            lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


def _copy_tree(src: Path, dst: Path) -> tuple[list[str], dict[str, int]]:
    """The files copied, and the hidden ones not copied: papercuts check allows no name starting
    with '.' under raw/ (.git/, .DS_Store), so they are left out, and named (with a file count).
    What the check would refuse for its kind or size (a link, a pipe, a file over its limit, more
    files than a campaign may hold) is refused here, before one byte is copied: a hostile archive's
    sparse file of terabytes was copied whole into the data folder first."""
    kept: list[tuple[Path, Path, bool]] = []  # (file, its path under src, a folder?)
    hidden: dict[str, int] = {}
    for f in sorted(src.rglob("*")):
        rel = f.relative_to(src)
        dot = next((i for i, part in enumerate(rel.parts) if part.startswith(".")), None)
        if dot is not None:
            name = Path(*rel.parts[:dot + 1]).as_posix() + ("/" if dot + 1 < len(rel.parts) or f.is_dir() else "")
            hidden[name] = hidden.get(name, 0) + (not f.is_dir())
            continue
        mode = f.lstat()
        if stat.S_ISLNK(mode.st_mode):
            raise UserError(f"{f}: a symbolic link; copy the file it points to into the archive folder; "
                            "nothing was changed")
        if not stat.S_ISDIR(mode.st_mode) and not stat.S_ISREG(mode.st_mode):
            raise UserError(f"{f}: not a regular file (a named pipe, socket or device); leave it out of the "
                            "archive folder; nothing was changed")
        if mode.st_size > MAX_FILE_BYTES and stat.S_ISREG(mode.st_mode):
            raise UserError(f"{f}: {mode.st_size} bytes, over the limit of {MAX_FILE_BYTES} a contributed file "
                            "may have (papercuts check refuses it); leave it out of the archive folder, or shorten it; "
                            "nothing was changed")
        kept.append((f, rel, stat.S_ISDIR(mode.st_mode)))
        if len(kept) > MAX_CAMPAIGN_FILES - 2:  # raw/ and campaign.toml are two more
            raise UserError(f"{src}: more than {MAX_CAMPAIGN_FILES - 2} files and folders, over the "
                            f"{MAX_CAMPAIGN_FILES} a campaign may hold with its campaign.toml and raw/ (papercuts "
                            "check refuses more); keep the outputs the site reads, or split the archive folder; "
                            "nothing was changed")
    copied: list[str] = []
    for f, rel, folder in kept:
        if folder:
            continue
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, dst / rel)
        copied.append(rel.as_posix())
    return copied, hidden


def _same_tree(a: Path, b: Path) -> bool:
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    return files_a == files_b and all(filecmp.cmp(a / f, b / f, shallow=False) for f in files_a)


def import_mytools(src: Path, data: Path, server: str, campaign: str, source: str | None = None,
                   threads: int | None = None, title: str | None = None, engine: str | None = None,
                   notes: str | None = None, config: str | None = None, say=print) -> Problems:
    """Import one archive folder into data/campaigns/<campaign>/; returns the check's problems.

    Everything it says reaches a terminal as printable text, each message on one line: the archive's
    file names and lines (a folder x.<build>..., a row of o.met) are a stranger's, and held terminal
    escape codes (ESC ]0; sets the window's title, ESC [2J clears the screen) or a newline (a line of
    its own, 'imported 7 file(s) ...'), printed as they were in its errors. Its problems are
    printable as they are printed (Problem.render)."""
    try:
        return _import(src, data, server, campaign, source, threads, title, engine, notes, config,
                       lambda line: say(printable(line)))
    except OSError as e:  # a file that cannot be read or written (a full disk, no permission): put back already
        name = str(e.filename or "")
        # the staging copy's name means nothing to the user: the data folder is where it failed
        where = (f"{_shown(data)} (writing the campaign's copy): " if "/.import-" in name
                 else f"{_shown(Path(name))}: " if name else "")
        said = f"{where}{e.strerror or e}; the import stopped there and nothing was changed"
        raise UserError(printable(said)) from None
    except UserError as e:
        raise UserError(printable(str(e)), e.problems) from e


def _arguments(src: Path, data: Path, campaign: str, threads: int | None) -> tuple[Path, Path, re.Match]:
    """SRC and the data folder as the import uses them, and the --campaign's match; refused before
    anything is read when they cannot be right."""
    if threads is not None and not 1 <= threads <= MAX_THREADS:  # else campaign.toml or the build would fail on it
        raise UserError(f"--threads {threads}: the thread count must be a whole number from 1 to {MAX_THREADS:_} "
                        "(the sysbench --threads of the run)")
    # SRC as the user wrote it, made absolute but not resolved: a folder reached through a link
    # (~/arc -> /mnt/backup/arc) is named in every message as they know it, not by the link's target.
    src, data = Path(os.path.abspath(src)), data.resolve()
    if not src.is_dir():
        raise UserError(f"{src}: not a folder; SRC is one server's folder of a mytools archive")
    real = src.resolve()
    if data.is_relative_to(real) or real.is_relative_to(data):
        # it copied the data folder's own files (its campaigns' raw/ too) into a campaign of it
        where = ("is the data folder" if real == data else "holds the data folder" if data.is_relative_to(real)
                 else "is inside the data folder")
        raise UserError(f"{_shown(src)}: SRC {where} {_shown(data)}; SRC is one server's folder of a mytools "
                        "archive, kept outside the data folder (what is inside is imported already); nothing "
                        "was changed")
    m = CAMPAIGN_DIR.fullmatch(campaign)
    if not m:
        raise UserError(f"--campaign '{campaign}' is not YYYY-MM-DD-name (lower-case letters, digits, '_', '-')")
    if not is_date(m.group(1)):  # else the archive is copied and papercuts check refuses the folder's name
        raise UserError(f"--campaign '{campaign}' starts with {m.group(1)}, not a calendar date; "
                        "begin it with the date the archive was run or published, YYYY-MM-DD")
    if (data / "campaigns").exists() and not (data / "campaigns").is_dir():
        raise UserError(f"{_shown(data / 'campaigns')}: a file where the data folder's folder of campaigns is "
                        "expected; move it away and import again; nothing was changed")
    return src, data, m


def _import(src: Path, data: Path, server: str, campaign: str, source: str | None, threads: int | None,
            title: str | None, engine: str | None, notes: str | None, config: str | None, say) -> Problems:
    src, data, m = _arguments(src, data, campaign, threads)
    catalogs = {name: _read_csv(data / f"{name}.csv")
                for name in ("sources", "servers", "builds", "configs", "microbenchmarks")}
    server_id = resolve_server(catalogs["servers"], server, data / "servers.csv")
    _check_folder_names(src, catalogs["servers"], server_id, server)
    if source is not None and source not in _ids(catalogs["sources"]):
        raise UserError(f"unknown source '{source}'; add a row to {data / 'sources.csv'} naming where the "
                        "archive comes from (title, author, url), or leave --source out to add a stub")
    source_id = source or f"mytools-{campaign}"
    target = data / "campaigns" / campaign
    # The archive's name: a server's subfolder (dec25.sb.gtid/pn53) is named with its archive.
    label = src.name if "." in src.name else f"{src.parent.name}/{src.name}"
    with tempfile.TemporaryDirectory(prefix=".import-", dir=data) as tmp:
        raw = Path(tmp) / "raw"
        copied, hidden = _copy_tree(src, raw)
        for name, count in hidden.items():
            where = printable(_shown(src / name)) + ("/" if name.endswith("/") else "")
            say(f"{where}: not copied ({count} file(s)): a hidden name (starting with '.'), "
                "which papercuts check allows nowhere under raw/")
        try:
            found = scan(raw, {"_file": "campaign.toml"}, say, src)  # what the tables say alone
        except ParseError as e:  # its message is the problem, printed already: say what follows
            raise UserError(f"{label}: a file cannot be read (above); nothing was changed", e.problems) from None
        written_threads = _thread_counts(found, src, threads)
        if found.unnamed_config and not config:
            raise UserError(f"{label}: its o.met tables (sum_met_dop.sh) name builds and thread counts but no "
                            "config; pass --config ID (a configs.csv id, added if new)")
        if config and not found.unnamed_config:  # it would be dropped without a word
            raise UserError(f"--config {config}: the tables of {label} name the config of each result "
                            f"({', '.join(sorted(found.configs))}); leave --config out (it is for the o.met "
                            "tables of sum_met_dop.sh, which name none); nothing was changed")
        for rel, t, where in found.threads:
            say(f"{printable(rel)}: {t} thread(s), from {printable(where)}")
        toml = _toml({
            "title": title or _title(found, server_id, label),
            "source": source_id,
            "contributor": f"Imported with papercuts import mytools from the archive folder {label}",
            # sysbench: what the runs' outputs print, when they agree; the tables alone do not say
            "date": m.group(1), "sysbench": found.sysbench.pop() if len(found.sysbench) == 1 else "unknown",
            "server": server_id, "raw_layout": "mytools",
            "threads": written_threads,
            "config": config if found.unnamed_config else None,
            "notes": f"The files under raw/ are the archive folder {label} byte for byte"
                     + (f" but for its {sum(hidden.values())} hidden file(s) (names starting with '.'), not copied"
                        if hidden else "") + "; every build reads "
                     + ("its per-run sysbench outputs again (the site's numbers), and checks its tables against them."
                        if found.runs else "its tables again.") + (f" {notes}" if notes else ""),
        })
        if target.exists():
            return _unchanged(target, raw, toml, data, say)
        if found.unnamed_config and config:
            found.configs.add(config)
            found.given_config = config
        additions = _catalog_rows(found, catalogs, source_id, label, engine, copied)
        if source is None and source_id not in _ids(catalogs["sources"]):
            additions["sources"] = [{"id": source_id, "title": f"mytools archive {label}", "author": "unknown",
                                     "notes": f"Added by papercuts import mytools for {campaign}: name the author, "
                                              "date and URL of the archive"}]
        (Path(tmp) / "campaign.toml").write_text(toml, encoding="utf-8")
        problems = _write_and_check(Path(tmp), target, data, additions, say, src)
    say(f"imported {len(copied)} file(s) into {_shown(target)}")
    return problems


def _title(found: Found, server: str, archive: str) -> str:
    """What the tables hold, from the files alone: DBMS and version span, server, thread counts."""
    from .versions import parse_version

    spans = []
    for dbms in sorted({b.dbms for b in found.builds.values() if b.dbms}):
        versions = sorted({b.version for b in found.builds.values() if b.dbms == dbms and b.version},
                          key=parse_version)
        name = dbms_name(dbms)
        spans.append(f"{name} {versions[0]}" if len(versions) == 1 else f"{name} {versions[0]} to {versions[-1]}")
    threads = sorted({t for _, t, _ in found.threads} | found.block_threads)
    counts = ", ".join(map(str, threads))
    return f"{', '.join(spans)} on {server}, {counts} thread{'s' if threads != [1] else ''} ({archive})"


def _thread_counts(found: Found, src: Path, threads: int | None) -> int | None:
    """The thread count to write to campaign.toml for tables that do not say theirs, or None."""
    if not found.threads and not found.missing_threads and not found.met_files:
        raise UserError(f"{src}: no qps.abs/qps.rel tables, o.met files or x.*/sb.o.* run outputs; SRC is one "
                        "server's folder of a mytools archive (or one of its dop<T>/ folders)")
    if not found.missing_threads:  # every table says its own: --threads is not needed and not written
        if threads is not None:  # ... nor taken over what the tables say
            said = sorted({t for _, t, _ in found.threads} | found.block_threads)
            raise UserError(f"--threads {threads}: every table of {_shown(src)} says its own thread count "
                            f"({', '.join(map(str, said))}; without --threads the import prints where each comes "
                            "from): leave --threads out (it is for tables that do not say theirs); nothing was changed")
        return None
    hint = set(_NAME_THREADS.findall(src.name))
    if threads is not None:
        count, where = threads, "--threads"
    elif len(hint) == 1:
        count = int(hint.pop())
        where = f"'{count}u' in the folder name {src.name}"
    else:
        raise UserError(f"cannot tell the thread count of {', '.join(found.missing_threads)}: no dop<T> in "
                        "its o.met files, folder or name; pass --threads N (the sysbench --threads of the run)")
    found.threads += [(f, count, where) for f in found.missing_threads]
    return count


def _unchanged(target: Path, raw: Path, toml: str, data: Path, say) -> Problems:
    from .build import validate

    if (target / "campaign.toml").is_file() and (target / "campaign.toml").read_text() == toml \
            and (target / "raw").is_dir() and _same_tree(raw, target / "raw"):
        say(f"{target}: already imported from these files; nothing changed")
        return validate(Paths.make(data=str(data)))[1]
    raise UserError(f"{_shown(target)} exists, {_difference(target, raw, toml)}: this import would change it; "
                    "choose another --campaign, or remove the folder to import it again; nothing was changed")


def _difference(target: Path, raw: Path, toml: str) -> str:
    """What makes an existing campaign folder other than this import would write it."""
    kept = target / "raw"
    if not kept.is_dir():
        return "a campaign of its own (it has no raw/ folder: not an import)"
    if not _same_tree(raw, kept):
        return "and its raw/ is not a copy of these archive files (another archive's, or changed since)"
    path = target / "campaign.toml"
    old = path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []
    new = toml.splitlines()
    for key in dict.fromkeys(line.split(" = ", 1)[0] for line in old + new):
        there = next((line for line in old if line.startswith(f"{key} = ")), None)
        here = next((line for line in new if line.startswith(f"{key} = ")), None)
        if there != here:
            return (f"imported from these files with other options: its campaign.toml has "
                    f"{there or f'no {key}'} where this import writes {here or f'no {key}'}")
    return "and its campaign.toml is not the one this import writes"


def _write_and_check(staged: Path, target: Path, data: Path, additions: dict[str, list[dict]], say,
                     src: Path) -> Problems:
    """Move the staged campaign in, add the catalog rows, check; put everything back on failure."""
    from .build import validate

    backups = {name: (data / f"{name}.csv").read_bytes() for name in additions}
    made_campaigns = not target.parent.exists()
    try:
        for name, rows in additions.items():
            _append(data / f"{name}.csv", rows)
        target.parent.mkdir(exist_ok=True)
        shutil.move(str(staged), str(target))
        staged.mkdir()  # TemporaryDirectory removes it on exit
        _, problems = validate(Paths.make(data=str(data)))
    except BaseException:
        _put_back(data, target, backups, made_campaigns)
        raise
    if problems.errors:
        _put_back(data, target, backups, made_campaigns)
        raise _failed(problems, validate(Paths.make(data=str(data)))[1], data, target, src)
    for name, rows in additions.items():  # only now are they added: a failed check puts them back
        for r in rows:
            say(f"added to {name}.csv: {r.get('id') or r.get('name')}")
    return problems


def _put_back(data: Path, target: Path, backups: dict[str, bytes], made_campaigns: bool) -> None:
    for name, content in backups.items():
        (data / f"{name}.csv").write_bytes(content)
    shutil.rmtree(target, ignore_errors=True)
    if made_campaigns:
        shutil.rmtree(target.parent, ignore_errors=True)


def _failed(problems: Problems, before: Problems, data: Path, target: Path, src: Path) -> UserError:
    """The check's refusal, said of the files the user has: the campaign's copy is gone again, so
    each of its files is named in SRC, where it can be opened and fixed; and errors the data folder
    had before the import (the same again once it is put back) are said to be its own."""
    own = set(before.errors)
    if not [p for p in problems.errors if p not in own]:
        return UserError(f"{_shown(data)} has {len(own)} error(s) of its own, not from this import (above; "
                         f"papercuts check --data {_shown(data)} lists them): fix them and import again; "
                         "nothing was changed", before.sorted())
    copy, given = _shown(target / "raw") + "/", _shown(src) + "/"
    toml = _shown(target / "campaign.toml")

    def in_src(text: str) -> str:
        return text.replace(copy, given)

    def said(p: Problem) -> Problem:
        if p in own:
            return p
        if p.path == toml:  # written from the flags: the flag is what to fix
            key = p.message.split(" ", 1)[0]
            flag = _FLAG_OF.get(key)
            return replace(p, path="campaign.toml (as this import writes it)",
                           hint=p.hint + (f"; {key} is written from {flag}: give it again, fixed" if flag else ""))
        return replace(p, path=in_src(p.path), message=in_src(p.message), hint=in_src(p.hint))
    shown = [said(p) for p in problems.sorted()]
    where = f": the archive's files named in {_shown(src)}" if any(p.path.startswith(given) for p in shown) else ""
    return UserError(f"the imported campaign does not pass papercuts check (above{where}); nothing was changed",
                     shown)


_FLAG_OF = {"title": "--title", "notes": "--notes, after the import's own sentence", "source": "--source",
            "config": "--config"}


def _catalog_rows(found: Found, catalogs: dict[str, list[dict]], source: str, archive: str,
                  engine: str | None, copied: list[str]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {"builds": [], "configs": [], "microbenchmarks": []}
    builds, configs = _ids(catalogs["builds"]), _ids(catalogs["configs"])
    for build_id, name in sorted(found.builds.items()):
        if build_id in builds:
            continue
        dbms_engine = engine or ("myrocks" if "rocks" in name.build else ENGINES.get(name.dbms or ""))
        if name.dbms is None or name.version is None or dbms_engine is None:
            raise UserError(f"'{name.text}' in {archive}: cannot tell the DBMS, version or engine from the build "
                            "name; add the build to builds.csv first (or pass --engine for fbmysql builds)")
        rerun = f" The archive suffixes it .{name.rerun}: a run apart from .pk{name.pk}." if name.rerun else ""
        out["builds"].append({"id": build_id, "dbms": name.dbms, "engine": dbms_engine, "version": name.version,
                              "notes": f"Parsed from the mytools build name {name.text} in {archive}.{rerun}",
                              "source": source})
        builds.add(build_id)
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
