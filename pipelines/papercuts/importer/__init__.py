"""`papercuts import mytools SRC`: one server's folder of a Small Datum (mytools) archive becomes a
raw campaign, byte for byte, with the catalog rows its tables name.

Nothing is converted: the files are copied under raw/ and every build reads them again
(validate/archive.py). The import only writes what a build cannot find in the files themselves:
the campaign's provenance, the server, a thread count the tables do not say, and catalog rows for
the builds (DBMS and version parsed from the build name), configs and microbenchmarks it meets.
It never guesses: an unknown server or an unknown thread count is an error with its fix. The data
folder is checked after the import and left as it was when the check fails.

The flow is here; what the archive's files name is read in scan.py, the catalogs' rows in
catalogs.py, and the copy is written, checked and put back in place.py.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from ..contract import MAX_THREADS
from ..parsers.errors import ParseError
from ..paths import shown
from ..problems import Problems, UserError, printable
from ..validate.fields import is_date
from ..validate.load import CAMPAIGN_DIR
from .catalogs import catalog_rows, check_folder_names, ids, read_catalog, resolve_server
from .place import copy_tree, unchanged, write_and_check
from .scan import campaign_title, scan, thread_counts


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
        where = (f"{shown(data)} (writing the campaign's copy): " if "/.import-" in name
                 else f"{shown(Path(name))}: " if name else "")
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
        raise UserError(f"{shown(src)}: SRC {where} {shown(data)}; SRC is one server's folder of a mytools "
                        "archive, kept outside the data folder (what is inside is imported already); nothing "
                        "was changed")
    m = CAMPAIGN_DIR.fullmatch(campaign)
    if not m:
        raise UserError(f"--campaign '{campaign}' is not YYYY-MM-DD-name (lower-case letters, digits, '_', '-')")
    if not is_date(m.group(1)):  # else the archive is copied and papercuts check refuses the folder's name
        raise UserError(f"--campaign '{campaign}' starts with {m.group(1)}, not a calendar date; "
                        "begin it with the date the archive was run or published, YYYY-MM-DD")
    if (data / "campaigns").exists() and not (data / "campaigns").is_dir():
        raise UserError(f"{shown(data / 'campaigns')}: a file where the data folder's folder of campaigns is "
                        "expected; move it away and import again; nothing was changed")
    return src, data, m


def _import(src: Path, data: Path, server: str, campaign: str, source: str | None, threads: int | None,
            title: str | None, engine: str | None, notes: str | None, config: str | None, say) -> Problems:
    src, data, m = _arguments(src, data, campaign, threads)
    catalogs = {name: read_catalog(data / f"{name}.csv")
                for name in ("sources", "servers", "builds", "configs", "microbenchmarks")}
    server_id = resolve_server(catalogs["servers"], server, data / "servers.csv")
    check_folder_names(src, catalogs["servers"], server_id, server)
    if source is not None and source not in ids(catalogs["sources"]):
        raise UserError(f"unknown source '{source}'; add a row to {data / 'sources.csv'} naming where the "
                        "archive comes from (title, author, url), or leave --source out to add a stub")
    source_id = source or f"mytools-{campaign}"
    target = data / "campaigns" / campaign
    # The archive's name: a server's subfolder (dec25.sb.gtid/pn53) is named with its archive.
    label = src.name if "." in src.name else f"{src.parent.name}/{src.name}"
    with tempfile.TemporaryDirectory(prefix=".import-", dir=data) as tmp:
        raw = Path(tmp) / "raw"
        copied, hidden = copy_tree(src, raw)
        for name, count in hidden.items():
            where = printable(shown(src / name)) + ("/" if name.endswith("/") else "")
            say(f"{where}: not copied ({count} file(s)): a hidden name (starting with '.'), "
                "which papercuts check allows nowhere under raw/")
        try:
            found = scan(raw, {"_file": "campaign.toml"}, say, src)  # what the tables say alone
        except ParseError as e:  # its message is the problem, printed already: say what follows
            raise UserError(f"{label}: a file cannot be read (above); nothing was changed", e.problems) from None
        written_threads = thread_counts(found, src, threads)
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
            "title": title or campaign_title(found, server_id, label),
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
            return unchanged(target, raw, toml, data, say)
        if found.unnamed_config and config:
            found.configs.add(config)
            found.given_config = config
        additions = catalog_rows(found, catalogs, source_id, label, engine, copied)
        if source is None and source_id not in ids(catalogs["sources"]):
            additions["sources"] = [{"id": source_id, "title": f"mytools archive {label}", "author": "unknown",
                                     "notes": f"Added by papercuts import mytools for {campaign}: name the author, "
                                              "date and URL of the archive"}]
        (Path(tmp) / "campaign.toml").write_text(toml, encoding="utf-8")
        problems = write_and_check(Path(tmp), target, data, additions, say, src)
    say(f"imported {len(copied)} file(s) into {shown(target)}")
    return problems


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
