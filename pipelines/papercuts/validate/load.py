"""Stage 1a: read every file in data/ into typed rows, collecting problems (no database yet)."""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from ..contract import ALL_TABLES, CAMPAIGN_KEYS, CAMPAIGN_TABLES, CATALOGS, ID_PATTERN, MAX_README_BYTES, Table
from ..paths import Paths
from ..problems import Problems, place
from .calibrations import load_calibrations
from .campaign_cache import load_campaigns
from .csvfile import parse_csv
from .duplicates import check_duplicates
from .fields import FieldError, check_chars, convert, is_date
from .files import SHEETS, check_campaign_files, check_sheet_cells, read_limited
from .known import load_known
from .raw import load_raw
from .rowblock import Rows, read_block
from .tomlfile import int_problem, read_toml, value_at

CAMPAIGN_DIR = re.compile(r"(\d{4}-\d{2}-\d{2})-[a-z0-9][a-z0-9_+-]{0,79}")


@dataclass
class Dataset:
    """Typed rows per table; each row keeps its file and line for later messages."""

    # results (10^6 rows at x100) as Rows: plain files held as columns (rowblock.py)
    rows: dict[str, list[dict]] = field(default_factory=lambda: {t.name: Rows() if t.name == "results" else []
                                                                 for t in ALL_TABLES})
    campaigns: list[dict] = field(default_factory=list)
    alias_of: dict[str, str] = field(default_factory=dict)
    broken: dict[str, set[str]] = field(default_factory=dict)  # ids of catalog rows that failed
    reused: int = 0  # campaigns restored from the last build's reading (campaign_cache.py)
    digests: dict[str, str] = field(default_factory=dict)  # campaign folder -> its bytes' hash (render/reuse.py)
    checked: Path | None = None  # the last build's checks of each campaign (plausibility.py)
    flagged: list[tuple] = field(default_factory=list)  # results 10x from their peers (plausibility.FLAGGED)


def load_table(data: bytes, rel: str, table: Table, problems: Problems, extra: dict,
               published: str = "") -> list[dict]:
    rows = parse_csv(data, rel, table, problems)
    out: list[dict] = []
    for row in rows or []:
        typed = {c.name: None for c in table.columns}
        ok = True
        for name, text in row.values.items():
            try:
                typed[name] = convert(text, table.column(name))
            except FieldError as e:
                problems.error(rel, row.line, row.columns[name], str(e), e.hint)
                ok = False
        if not ok:
            # Remember the id of a broken catalog row so its users do not cascade into
            # "unknown id" errors: the row's own error is the one to fix.
            key = row.values.get(table.key[0], "")
            if not table.per_campaign and key:
                extra.setdefault("_broken", set()).add(key)
        if ok:
            if table.name == "observations":
                typed["value_text"] = row.values["value"]  # keep the printed precision
            typed.update(extra, _file=rel, _published=published or rel, _line=row.line,
                         _cols=row.columns)
            out.append(typed)
    return out


# A build id, or build.config: ids as builds.csv and configs.csv write them.
_VARIANT = re.compile(rf"{ID_PATTERN}(?:\.{ID_PATTERN})?")


def load_campaign_toml(data: bytes, rel: str, problems: Problems) -> dict | None:
    read = read_toml(data, rel, problems)
    if read is None:
        return None
    doc, positions = read
    out = {"_file": rel, "_lines": {}, "_at": positions}
    for key, value in doc.items():
        line, col = positions[key]
        out["_lines"][key] = line
        if key not in CAMPAIGN_KEYS:
            problems.error(rel, line, 1, f"unknown key '{key}'",
                           f"known keys: {', '.join(CAMPAIGN_KEYS)}")
            continue
        kind, _ = CAMPAIGN_KEYS[key]
        if kind == "int":
            if wrong := int_problem(key, value):
                problems.error(rel, line, col, wrong, f"write {key} = 16")
                continue
        elif kind == "date":
            value = str(value)
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) or not is_date(value):
                problems.error(rel, line, col, f"{key} must be a calendar date, not {value!r}",
                               f"write it as YYYY-MM-DD, e.g. {key} = 2024-10-23")
                continue
        elif kind == "variants":
            if not (isinstance(value, list) and value and all(isinstance(v, str) and _VARIANT.fullmatch(v)
                                                              for v in value)):
                problems.error(rel, line, col, f"{key} must be a list of builds or build.config variants",
                               f'write {key} = ["my8040_rel_o2nofp_patched"]: ids from builds.csv, '
                               'or build.config for one config of a build')
                continue
        elif not isinstance(value, str) or not value.strip():
            problems.error(rel, line, col, f"{key} must be a non-empty string", f'write {key} = "..."')
            continue
        out[key] = value
    for key, (_, required) in CAMPAIGN_KEYS.items():
        if required and key not in positions:
            problems.error(rel, 1, 1, f"required key '{key}' is missing",
                           f"add {key} = ... to campaign.toml; data/README.md describes each key")
    return out


def load_dataset(paths: Paths, problems: Problems, cache: Path | None = None, progress=None,
                 meanwhile: Callable[[], None] | None = None) -> Dataset:
    """Every file of the data folder read and typed; progress(done, total), if given, is told as
    campaigns not restored from the cache are read; meanwhile(), if given, is called once while
    they are (campaign_cache.load_campaigns), when this process may start a thread."""
    ds = Dataset(checked=None if cache is None else cache / "checked" / "qps-magnitude.pickle")
    root = paths.data
    if not root.is_dir():
        problems.error(str(paths.rel(root)), 1, 1, "is a file, not a data folder" if root.exists()
                       else "data directory does not exist", "pass --data DIR pointing at a Papercuts data folder")
        return ds
    catalog_files = {t.file: t for t in CATALOGS}
    for entry in sorted(root.iterdir()):
        rel = paths.rel(entry)
        if entry.is_symlink():
            problems.error(rel, 1, 1, "symbolic links are not allowed in data/", "commit a regular file")
        elif entry.name in catalog_files:
            table = catalog_files[entry.name]
            broken: dict = {}
            data = read_limited(entry, rel, problems)
            if data is not None:
                ds.rows[table.name] = load_table(data, rel, table, problems, broken, paths.published(entry))
            ds.broken[table.name] = broken.get("_broken", set())
        elif entry.name == "campaigns" and entry.is_dir():
            folders = [(cdir, f"{paths.rel(cdir)}\0{paths.published(cdir)}") for cdir in sorted(entry.iterdir())]
            ds.reused += load_campaigns(folders, cache, ds, problems, partial(_read_campaign, paths=paths),
                                        progress, meanwhile)
        elif entry.name == "calibrations" and entry.is_dir():
            load_calibrations(entry, paths, ds.rows, problems)
        elif entry.name == "known" and entry.is_dir():
            load_known(entry, paths, ds.rows, problems)
        elif entry.name not in ("README.md",) and not entry.name.startswith("."):
            problems.error(rel, 1, 1, "unexpected file or folder in data/",
                           "results go under data/campaigns/<YYYY-MM-DD-name>/")
    for t in CATALOGS:
        if not (root / t.file).exists():
            problems.error(paths.rel(root / t.file), 1, 1, f"{t.file} is missing",
                           "every data folder needs the five catalog files")
    return ds


def _read_campaign(cdir: Path, paths: Paths) -> dict:
    """What reading one campaign folder alone gives (campaign_cache.load_campaigns adds it)."""
    ds, problems = Dataset(), Problems()
    _load_campaign(cdir, paths, ds, problems)
    check_duplicates(ds.rows, problems)
    return {"rows": {t: rows for t, rows in ds.rows.items() if rows}, "campaigns": ds.campaigns,
            "problems": problems.items}


def _load_campaign(cdir: Path, paths: Paths, ds: Dataset, problems: Problems) -> None:
    rel = paths.rel(cdir)
    if cdir.is_symlink() or not cdir.is_dir():
        problems.error(rel, 1, 1, "expected a campaign folder (not a file or link)",
                       "put campaign files in data/campaigns/<YYYY-MM-DD-name>/")
        return
    m = CAMPAIGN_DIR.fullmatch(cdir.name)
    if not m:
        problems.error(rel, 1, 1, f"campaign folder name '{cdir.name}' is not YYYY-MM-DD-name",
                       "use lower-case letters, digits, '_', '-' after the date")
        return
    if not is_date(m.group(1)):
        problems.error(rel, 1, 1, f"campaign folder name '{cdir.name}' starts with {m.group(1)}, not a calendar date",
                       "rename the folder to the campaign's date, YYYY-MM-DD, then its name")
        return
    toml_path = cdir / "campaign.toml"
    if not toml_path.exists() and not toml_path.is_symlink():
        problems.error(paths.rel(toml_path), 1, 1, "campaign.toml is missing",
                       "add the campaign's provenance, as data/README.md describes")
        return
    data = read_limited(toml_path, paths.rel(toml_path), problems)
    meta = None if data is None else load_campaign_toml(data, paths.rel(toml_path), problems)
    if meta is None:
        return
    # Every file of the campaign is published byte for byte, from this record (render never
    # reads data/): names and types checked here, bytes read once, limits checked first.
    contents = _record_files(cdir, toml_path, data, paths, ds, problems)
    readme = cdir / "raw" / "README.md"
    if readme.is_file() and not readme.is_symlink():
        meta["readme"] = _readme(readme, paths.rel(readme), problems)
    meta["id"] = cdir.name
    meta["_published"] = paths.published(toml_path)
    if meta.get("date") and meta["date"] != m.group(1):
        problems.error(meta["_file"], *value_at(meta, "date"),
                       f"date {meta['date']} disagrees with the folder name's {m.group(1)}",
                       f"make them the same date: rename the folder to {meta['date']}-{cdir.name[11:]}, "
                       f"or write date = {m.group(1)}")
    tables = {t.file: t for t in CAMPAIGN_TABLES}
    found = 0
    for f in sorted(cdir.iterdir()):
        frel = paths.rel(f)
        if f.name == "campaign.toml":
            continue
        if f.name == "raw" and f.is_dir() and not f.is_symlink():
            found += 1
            load_raw(f, meta, paths, ds.rows, problems)
        elif f.is_symlink() or not f.is_file():
            problems.error(frel, 1, 1, "not a regular file", "commit a regular file, not a link or folder")
        elif f.name in tables:
            found += 1
            if f in contents:  # else its problem (name, size) is reported already
                _load_file(contents[f], frel, tables[f.name], cdir.name, paths.published(f), ds, problems)
        else:
            problems.error(frel, 1, 1, "unexpected file in a campaign folder",
                           f"campaign files are: {', '.join(sorted(tables))} and a raw/ folder")
    if not found:
        problems.error(meta["_file"], 1, 1, "campaign has no data file",
                       "add results.csv, relative.csv, summaries.csv, observations.csv or a raw/ folder")
    ds.campaigns.append(meta)


def _load_file(data: bytes, rel: str, table: Table, campaign: str, published: str, ds: Dataset,
               problems: Problems) -> None:
    """A campaign's CSV file into its table: a plain results file as columns (rowblock.py)."""
    block = read_block(data, rel, table, campaign, published) if table.name == "results" else None
    if block is not None:
        ds.rows[table.name].add_block(block)
    else:
        ds.rows[table.name] += load_table(data, rel, table, problems, {"campaign": campaign}, published)


def _record_files(cdir: Path, toml_path: Path, toml: bytes, paths: Paths, ds: Dataset,
                  problems: Problems) -> dict[Path, bytes]:
    """Read every publishable file of the campaign once; record its bytes as evidence."""
    evidence = ds.rows.setdefault("evidence", [])
    contents: dict[Path, bytes] = {toml_path: toml}
    for f in check_campaign_files(cdir, paths.rel, problems):
        content = contents[f] if f in contents else read_limited(f, paths.rel(f), problems)
        if content is not None:
            contents[f] = content
            if f.suffix.lower() in SHEETS and f.relative_to(cdir).parts[0] == "raw":
                check_sheet_cells(content, paths.rel(f), problems)
            evidence.append({"campaign": cdir.name, "name": f.relative_to(cdir).as_posix(), "bytes": content,
                             "sha256": hashlib.sha256(content).hexdigest(), "size": len(content)})
    return contents


def _readme(path: Path, rel: str, problems: Problems) -> str | None:
    """A raw campaign's README, shown on its page as Markdown without raw HTML or shortcodes."""
    data = read_limited(path, rel, problems, MAX_README_BYTES)
    if data is None:
        return None
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")  # an editor's byte-order mark
    except UnicodeDecodeError as e:
        body = data.removeprefix(b"\xef\xbb\xbf")  # columns count characters after a byte-order mark
        at = e.start - (len(data) - len(body))
        problems.error(rel, *place(body, at), f"README.md is not UTF-8: invalid byte 0x{data[e.start]:02x}",
                       "save it as UTF-8")
        return None
    for i, line in enumerate(text.splitlines(), start=1):
        try:
            check_chars(line, "README.md", allow_invisible=True)  # shown as text: an emoji may join
        except FieldError as e:
            problems.error(rel, i, 1, str(e), e.hint)
            return None
    return text

