"""Stage 1b: domain checks across files: ids that exist, copies across campaigns, bases, consistency."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from itertools import groupby, repeat

import numpy as np

from ..contract import CAMPAIGN_TABLES, CATALOGS, SERIES_RANGE, Table
from ..problems import Problems
from .duplicates import at
from .load import Dataset
from .plausibility import check_plausibility
from .rowblock import Block, origin, parts, row_at
from .suggest import did_you_mean
from .tomlfile import value_at


def check_catalog_keys(ds: Dataset, problems: Problems) -> dict[str, set[str]]:
    """Unique ids per catalog; returns the known ids (server aliases included)."""
    known: dict[str, set[str]] = {}
    for t in CATALOGS:
        first: dict[str, dict] = {}
        for row in ds.rows[t.name]:
            key = row[t.key[0]]
            if key in first:
                at(problems, row, t.key[0], f"duplicate {t.key[0]} '{key}' in {t.file}",
                    f"first defined on line {first[key]['_line']}")
            else:
                first[key] = row
        known[t.name] = set(first) | ds.broken.get(t.name, set())
    alias_of: dict[str, str] = {}
    for row in ds.rows["servers"]:
        for alias in row["aliases"] or []:
            if alias in known["servers"] or alias in alias_of:
                at(problems, row, "aliases", f"alias '{alias}' is already a server id or alias",
                    "each name must name one server")
            else:
                alias_of[alias] = row["id"]
    ds.alias_of = alias_of
    known["servers"] |= set(alias_of)
    return known


def check_series_names(ds: Dataset, problems: Problems) -> None:
    """No microbenchmark is named as another's series at a range ("scan range 100")."""
    for row in ds.rows["microbenchmarks"]:
        if m := SERIES_RANGE.search(row["name"] or ""):
            at(problems, row, "name", f"microbenchmark '{row['name']}' would read as '{row['name'][:m.start()]}' "
               f"at{m.group()}: a ladder's series and a known regression name a range that way",
               "rename it without the trailing ' range N'; a range belongs in results.csv's range column")


def check_references(ds: Dataset, known: dict[str, set[str]], problems: Problems) -> None:
    for t in CATALOGS + CAMPAIGN_TABLES:
        refs = [c for c in t.columns if c.refers]
        for row in _suspect_rows(ds.rows[t.name], refs, known):
            for c in refs:
                if c.name == "server" and row.get("_raw"):
                    continue  # from campaign.toml: check_raw reports it there, once
                value = row[c.name]
                if value is not None and value not in known[c.refers]:
                    at(problems, row, c.name, f"unknown {c.refers[:-1]} '{value}'",
                        did_you_mean(value, known[c.refers]) or f"add it to data/{c.refers}.csv first")
    check_known(ds, known, problems)
    for meta in ds.campaigns:
        for key, table in (("source", "sources"), ("base_build", "builds"), ("base_config", "configs"),
                           ("config", "configs")):
            if key in meta and meta[key] not in known[table]:
                problems.error(meta["_file"], *value_at(meta, key),
                               f"unknown {table[:-1]} '{meta[key]}'",
                               did_you_mean(meta[key], known[table]) or f"add it to data/{table}.csv")


def _suspect_rows(rows, refs, known: dict[str, set[str]]):
    """The rows that may name an unknown id: every dict row, and a block's rows only when one of
    its columns holds a value its catalog lacks (checked on the column's distinct values)."""
    for part in parts(rows):
        if not isinstance(part, Block):
            yield from part
        elif any(part.distinct(c.name) - known[c.refers] - {None} for c in refs):
            yield from part.rows()


def check_known(ds: Dataset, known: dict[str, set[str]], problems: Problems) -> None:
    """data/known/*.toml: its source, microbenchmarks (or series) and servers exist."""
    for k in ds.rows.get("known", []):
        for key, table in (("source", "sources"),):
            if k[key] not in known[table]:
                problems.error(k["_file"], *value_at(k, key), f"unknown {table[:-1]} '{k[key]}'",
                               did_you_mean(k[key], known[table]) or f"add it to data/{table}.csv")
        for name in k.get("microbenchmarks") or []:  # a name, or one series: "random-points range 1000"
            if SERIES_RANGE.sub("", name) not in known["microbenchmarks"]:
                problems.error(k["_file"], *value_at(k, "microbenchmarks"),
                               f"unknown microbenchmark '{name}'",
                               did_you_mean(name, known["microbenchmarks"]) or "use a name from microbenchmarks.csv")
        for name in k.get("servers") or []:
            if name not in known["servers"]:
                problems.error(k["_file"], *value_at(k, "servers"), f"unknown server '{name}'",
                               did_you_mean(name, known["servers"]) or "use an id from servers.csv")


RAW_REFS = (("build", "builds"), ("config", "configs"), ("microbenchmark", "microbenchmarks"))
RAW = tuple(column for column, _ in RAW_REFS)


def check_raw(ds: Dataset, known: dict[str, set[str]], problems: Problems) -> None:
    """A raw campaign's server (campaign.toml) and the ids in its folder and file names exist.

    Results parsed from raw files are checked with every other result (but for the server, which
    is campaign.toml's and reported there once); profiles are checked here, once per id."""
    for meta in ds.campaigns:
        server = meta.get("server")
        if server is not None and server not in known["servers"]:
            problems.error(meta["_file"], *value_at(meta, "server"), f"unknown server '{server}'",
                           did_you_mean(server, known["servers"]) or "add it to data/servers.csv")
    check_cpus(ds, problems)
    # An id already reported at a results row of the campaign is not reported again.
    reported = set()
    for part in ds.rows["results"].parts():
        if isinstance(part, Block):  # the distinct values of its columns
            reported |= {(part.campaign, value) for column in RAW for value in part.distinct(column)}
        else:
            reported |= {(r["campaign"], r[column]) for r in part for column in RAW}
    for row in ds.rows.get("profiles", []):  # counters belong to results, checked with them
        for column, catalog in RAW_REFS:
            value = row[column]
            if value not in known[catalog] and (row["campaign"], value) not in reported:
                reported.add((row["campaign"], value))
                at(problems, row, column, f"unknown {catalog[:-1]} '{value}' (from the raw file's path)",
                    did_you_mean(value, known[catalog]) or f"add it to data/{catalog}.csv first")


def check_cpus(ds: Dataset, problems: Problems) -> None:
    """The machine a raw campaign's sysbench outputs ran on is its server: mytools writes the host's
    processor count on each output's second line ("48 CPUs", from /proc/cpuinfo), which must be what
    the server's cores and SMT give. An archive imported under the wrong --server was published as
    another machine's numbers, caught only where a folder name gave the machine away."""
    servers = {row["id"]: row for row in ds.rows["servers"]}
    servers |= {alias: servers[server] for alias, server in ds.alias_of.items() if server in servers}
    said: dict[str, list[dict]] = defaultdict(list)  # campaign -> its raw results that give a count
    for part in ds.rows["results"].parts():
        if not isinstance(part, Block):  # a block is a results.csv's: no raw output behind it
            for row in part:
                if row.get("_cpus") is not None:
                    said[row["campaign"]].append(row)
    for rows in said.values():
        server = servers.get(rows[0]["server"])
        if server is None or not server.get("cores"):
            continue  # an unknown server is reported with the campaign; unknown cores: nothing to hold
        cores, smt = server["cores"], server.get("smt")
        fits = {"on": {2 * cores}, "off": {cores}}.get(smt, {cores, 2 * cores})
        wrong = [r for r in rows if r["_cpus"] not in fits]
        if not wrong:
            continue
        first = min(wrong, key=lambda r: r["_file"])
        threads = "SMT on" if smt == "on" else "SMT off" if smt == "off" else "SMT not stated"
        problems.error(first["_file"], 2, 1,
                       f"sysbench ran on a machine with {first['_cpus']} CPUs ({said_so(len(wrong), len(rows))}); "
                       f"server '{rows[0]['server']}' has {cores} cores, {threads}: "
                       f"{' or '.join(map(str, sorted(fits)))} CPUs",
                       "name the server these outputs ran on: campaign.toml's server, papercuts import's --server; "
                       "or correct its cores and smt in data/servers.csv")


def said_so(wrong: int, outputs: int) -> str:
    return "its second line says so" if outputs == 1 else f"{wrong} of the campaign's {outputs} outputs say so"


def check_copies(ds: Dataset, problems: Problems) -> None:
    """Rows repeated within a campaign are checked as it is read (duplicates.py); here, across campaigns."""
    for t in CAMPAIGN_TABLES:
        _cross_campaign_copies(t, ds, problems)


def _cross_campaign_copies(t: Table, ds: Dataset, problems: Problems) -> None:
    """A file whose rows mostly repeat another campaign's (same key, same numbers) is a copy.

    One shared row is normal (a source may print the same measurement in two tables). Only rows
    that could make a file a copy are compared by their whole key (_candidates)."""
    values = [c.name for c in t.columns if c.kind in ("float", "ratio")]
    first: dict[tuple, tuple[str, str]] = {}
    repeats: dict[tuple[str, str], list[tuple]] = defaultdict(list)
    counts: dict[str, int] = defaultdict(int)
    names = (*t.key, *values)
    held = parts(ds.rows[t.name])
    required = next((c.name for c in t.columns if c.name in values and c.required), None)
    candidates = _candidates(held, required)
    if candidates is None:
        return
    for part, rows in zip(held, candidates, strict=True):
        if isinstance(part, Block):
            _block_copies(part, names, rows, first, repeats, counts)
            continue
        for row in part:
            counts[row["_file"]] += 1
        for j in range(len(part)) if rows is None else np.flatnonzero(rows).tolist():  # a key made for those only
            row = part[j]
            campaign, path = origin(row)
            other = first.setdefault(tuple(row[n] for n in names), (campaign, path))
            if other[0] != campaign:
                repeats[(path, other[1])].append((row, -1))
    for (path, other), found in sorted(repeats.items(), key=lambda kv: kv[0]):
        if len(found) >= 2 and 2 * len(found) >= counts[path]:
            row = row_at(*found[0])
            if row.get("_raw"):  # an archive kept byte for byte republishing its author's runs
                at(problems, row, t.key[0], f"{len(found)} of {counts[path]} rows repeat {other}",
                    "the archive republishes earlier runs; both campaigns show them", warning=True)
                continue
            at(problems, row, t.key[0], f"{len(found)} of {counts[path]} rows repeat {other}",
                "remove the copied rows; a campaign holds only its own measurements")


def _candidates(held: list, column: str | None) -> list[np.ndarray | None] | None:
    """Per part, which of its rows are compared by their whole key (None: all are); None when no
    file can be a copy. A copied row holds its original's value of `column` (a number every row
    has), so a copy is a file with two rows or more, and half its rows or more, whose value another
    campaign's rows hold too. Only those files' such rows, and every row holding one of their
    values (where a key's first holder is), are compared. One sort of the values finds them all
    (x100: check_copies 0.9 s with a tuple of every row, 0.23 s so; 0.07-0.10 s with every row whose
    value another campaign holds, though no file had half its rows so; 0.06-0.07 s now)."""
    if column is None or not held:
        return [None] * len(held)
    ids: dict[str, int] = {}
    files: dict[str, int] = {}
    try:
        found = [(p.numbers(column), np.full(p.n, ids.setdefault(p.campaign, len(ids))),
                  np.full(p.n, files.setdefault(p.file, len(files))))
                 if isinstance(p, Block) else
                 (np.asarray([r[column] for r in p], dtype=np.float64),
                  np.asarray([ids.setdefault(r["campaign"], len(ids)) for r in p], dtype=np.int64),
                  np.asarray([files.setdefault(r["_file"], len(files)) for r in p], dtype=np.int64))
                 for p in held]
    except (TypeError, ValueError):  # a value that is not a number: compare every row
        return [None] * len(held)
    value = np.concatenate([v for v, _, _ in found]) + 0.0  # -0.0 == 0.0 in a key, so one bit pattern
    bits, campaign = value.view(np.int64), np.concatenate([c for _, c, _ in found])
    file = np.concatenate([f for _, _, f in found])
    # Rows by value alone (an unstable sort of one column: x100, 0.015 s where sorting by value
    # and campaign took 0.07 s): a value is held by two campaigns or more where two neighbours of
    # that value differ in campaign, as a run of one campaign's rows has no such neighbours.
    order = np.argsort(bits)
    b, c = bits[order], campaign[order]
    shared = _rows_of(b, order, np.unique(b[1:][(b[1:] == b[:-1]) & (c[1:] != c[:-1])]))
    rows, held_too = np.bincount(file, minlength=len(files)), np.bincount(file[shared], minlength=len(files))
    suspect = shared & ((held_too >= 2) & (2 * held_too >= rows))[file]
    if not suspect.any():
        return None
    mask = _rows_of(b, order, np.unique(bits[suspect]))
    return np.split(mask, np.cumsum([len(v) for v, _, _ in found])[:-1])


def _rows_of(b: np.ndarray, order: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Which rows hold one of `values` (sorted, each once), given the rows' values sorted (`b`)
    and the order that sorts them."""
    starts, ends = np.searchsorted(b, values, "left"), np.searchsorted(b, values, "right")
    edges = np.bincount(starts, minlength=len(b) + 1) - np.bincount(ends, minlength=len(b) + 1)
    mask = np.zeros(len(b), dtype=bool)
    mask[order[np.cumsum(edges)[:-1] > 0]] = True  # the rows of those values' runs
    return mask


def _block_copies(block: Block, names: tuple, rows: np.ndarray | None, first: dict, repeats: dict,
                  counts: dict) -> None:
    """_cross_campaign_copies for a block's rows (those `rows` marks), through its columns: one
    owner, the block's."""
    owner = (block.campaign, block.file)
    counts[block.file] += block.n
    at_rows = range(block.n) if rows is None else np.flatnonzero(rows).tolist()
    if not at_rows:
        return
    # each column's values at those rows only (x100: a list of every row of every column was
    # most of check_copies' time, for the few rows compared)
    columns = [block.column(n) for n in names] if rows is None else [block.take(n, at_rows) for n in names]
    keys = list(zip(*columns, strict=True))
    before = {k: first[k] for k in keys if k in first}  # keys another file had first
    first.update(zip(keys, repeat(owner)))
    first.update(before)
    if before:
        for i, key in zip(at_rows, keys, strict=True):
            if key in before and before[key][0] != block.campaign:
                repeats[(block.file, before[key][1])].append((block, i))


def check_units(ds: Dataset, problems: Problems) -> None:
    """One measure, one unit: values of a measure in two units cannot share an axis."""
    first: dict[tuple, dict] = {}
    for row in ds.rows["observations"]:
        other = first.setdefault((row["campaign"], row["measure"]), row)
        if other["unit"] != row["unit"]:
            at(problems, row, "unit", f"measure '{row['measure']}' is in {other['unit']} on line "
                f"{other['_line']} but in {row['unit']} here",
                "convert the values to one unit, or name the measures differently")


def check_summaries(ds: Dataset, problems: Problems) -> None:
    for row in ds.rows["summaries"]:
        lo, hi = row["min"], row["max"]
        if lo > hi:
            at(problems, row, "min", f"min {lo:g} is greater than max {hi:g}", "swap them")
            continue
        for stat in ("avg", "median"):
            if not lo <= row[stat] <= hi:
                at(problems, row, stat, f"{stat} {row[stat]:g} is outside min {lo:g} .. max {hi:g}",
                    "check that the columns are not swapped")


def check_bases(ds: Dataset, problems: Problems) -> None:
    """A named base must have a measurement for every comparison that uses it."""
    named = {meta["id"] for meta in ds.campaigns if "base_build" in meta and "base_config" in meta}
    present: set[str] = set()
    by_campaign = defaultdict(list)  # the rows of campaigns that name a base, the only ones read
    for part in ds.rows["results"].parts():
        for campaign, rows in ([(part.campaign, part)] if isinstance(part, Block) else
                               [(c, list(rs)) for c, rs in groupby(part, key=lambda r: r["campaign"])]):
            present.add(campaign)
            if campaign in named:
                by_campaign[campaign] += rows.rows() if isinstance(rows, Block) else rows
    for meta in ds.campaigns:
        rows = by_campaign.get(meta["id"], [])
        if meta["id"] not in present:
            continue
        if ("base_build" in meta) != ("base_config" in meta):
            problems.error(meta["_file"], 1, 1, "base_build and base_config go together",
                           "name both, or neither to use the oldest build")
            continue
        if "base_build" not in meta:
            continue
        base = (meta["base_build"], meta["base_config"])
        have = {(r["server"], r["threads"], r["microbenchmark"], r["range"])
                for r in rows if (r["build"], r["config"]) == base}
        reported = set()
        for r in rows:
            k = (r["server"], r["threads"], r["microbenchmark"], r["range"])
            if k not in have and k not in reported:
                reported.add(k)
                at(problems, r, "build",
                    f"no result of the base {base[0]}.{base[1]} for {r['server']}, {r['microbenchmark']} "
                    f"at {r['threads']} thread{'' if r['threads'] == 1 else 's'}",
                    "add the base's row, or name another base with base_build and base_config")


def check_comparison_only(ds: Dataset, problems: Problems) -> None:
    """campaign.toml's comparison_only names builds (or build.config variants) of its own results
    or published ratios: a name it has not is a typo that would leave a ladder unchanged."""
    named = {meta["id"]: meta for meta in ds.campaigns if meta.get("comparison_only")}
    if not named:
        return
    variants: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for table in ("results", "relative"):
        for part in parts(ds.rows.get(table, [])):
            if isinstance(part, Block):
                if part.campaign in named:
                    variants[part.campaign] |= set(zip(part.column("build"), part.column("config"), strict=True))
                continue
            for r in part:
                if r["campaign"] in named:
                    variants[r["campaign"]].add((r["build"], r["config"]))
                    if table == "relative":
                        variants[r["campaign"]].add((r["base_build"], r["base_config"]))
    for campaign, meta in named.items():
        have = variants[campaign]
        names = {b for b, _ in have} | {f"{b}.{c}" for b, c in have}
        for name in meta["comparison_only"]:
            if name not in names:
                problems.error(meta["_file"], *value_at(meta, "comparison_only"),
                               f"comparison_only names '{name}', which no result of this campaign has",
                               did_you_mean(name, sorted(names)) or
                               f"name one of its builds, or build.config: {', '.join(sorted(names)[:6])}")


def check_dataset(ds: Dataset, problems: Problems, complete: bool = True,
                  ready: Callable[[Dataset], None] | None = None) -> None:
    """Cross-file checks. When some rows failed to load, the checks that would report their
    absence (bases) are skipped so that one defect gives one problem. `ready`, if given, is
    called with the dataset once its ids and server aliases are known (ds.alias_of) with no
    error found, before the checks across files."""
    known = check_catalog_keys(ds, problems)
    if ready is not None and not problems.errors:
        ready(ds)
    check_series_names(ds, problems)
    check_references(ds, known, problems)
    check_raw(ds, known, problems)
    check_copies(ds, problems)
    check_summaries(ds, problems)
    check_units(ds, problems)
    check_comparison_only(ds, problems)
    if complete:
        check_bases(ds, problems)
        check_plausibility(ds, problems)
