"""Stage 1a for mytools summary archives: the tables mytools' scripts write, read from raw/ on every build.

A Small Datum archive keeps, per server, `qps.abs.<tag>.csv|tsv` (QPS per test and build),
`qps.rel.<tag>.csv|tsv` (the same relative to the first build, 2 decimals), hand-edited
`qps.rel.<tag>.tsv.edit` copies, and `o.met.<tag>` / `met.<tag>.txt` per-operation costs. Here:

* abs tables give results rows (one per test, range, thread count and variant, at its file:line);
  overlapping tables (a subset edition such as `84plus` inside `all`) merge when their numbers
  agree and are refused at file:line when they differ;
* o.met / met absolute rows give the per-operation costs of those rows (cpu/o, cs/o, r/o, rKB/o,
  wKB/o, as published, `inf` included), and a results row from `o/s` where no abs table has one
  (not for scan, whose abs tables count Krows/s and o/s counts scans);
* rel tables with an abs table of the same tag are the reproduction check: Papercuts divides the
  abs numbers as mytools does (the printed, possibly rounded, QPS) and compares at 2 decimals;
* rel tables without one are published rQPS (relative rows), kept as printed; `.tsv.edit` copies
  are compared with their rel table, or are published rQPS when they stand alone.

Thread counts are never guessed: a `dop<T>/` folder, `.dop<T>` or `.<T>u` in the file name, the
one `dop<T>` of the o.met files beside the table, or `threads` in campaign.toml (in that order).
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..parsers.errors import Gap, ParseError, read
from ..parsers.mytools import (
    BuildName,
    MetBlock,
    QpsTable,
    cut_header,
    dop_variant,
    names_variants,
    parse_o_met,
    parse_qps,
    parse_qps_tsv,
    table_rows,
)
from ..paths import Paths
from ..problems import Problems

_QPS = re.compile(r"qps\.(?P<kind>abs|rel)\.(?P<tag>.+?)\.(?P<ext>csv|tsv|tsv\.edit)")
_MET = re.compile(r"o\.met(?:\.(?P<tag>.+))?|met\.(?P<tag2>.+)\.txt")
_DOP_DIR = re.compile(r"dop(\d+)")
_NAME_THREADS = re.compile(r"(?:^|\.)(?:dop(\d+)|(\d+)u)(?=\.|$)")
COSTS = {"cpu/o": "cpu_per_op", "cs/o": "cs_per_op", "r/o": "r_per_op", "rKB/o": "rkb_per_op",
         "wKB/o": "wkb_per_op"}
HINT_THREADS = ("add threads = <N> to campaign.toml (papercuts import mytools --threads N), "
                "or keep the table in a dop<N>/ folder")


@dataclass(frozen=True)
class Where:
    """A row's origin: the file as shown in messages, as published, and the line."""

    rel: str
    published: str
    line: int


@dataclass
class Folder:
    """The summary files of one folder of raw/, by tag."""

    path: Path
    abs: dict[str, dict[str, Path]]  # tag -> {"csv": path, "tsv": path}
    rel: dict[str, dict[str, Path]]  # tag -> {"csv", "tsv", "tsv.edit"}
    met: dict[str, Path]  # tag ("" for a bare o.met) -> path


def summary_folders(raw: Path) -> list[Folder]:
    """Folders of raw/ holding summary tables (x.* run trees are the raw layout's, not these)."""
    found: dict[Path, Folder] = {}
    for f in sorted(raw.rglob("*")):
        if not f.is_file() or f.is_symlink() or any(p.startswith("x.") for p in f.relative_to(raw).parts[:-1]):
            continue
        folder = found.get(f.parent) or Folder(f.parent, defaultdict(dict), defaultdict(dict), {})
        if m := _QPS.fullmatch(f.name):
            getattr(folder, m["kind"])[m["tag"]][m["ext"]] = f
        elif m := _MET.fullmatch(f.name):
            folder.met[m["tag"] or m["tag2"] or ""] = f
        else:
            continue
        found[f.parent] = folder
    return list(found.values())


def folders_named_as_files(raw: Path) -> list[tuple[Path, str]]:
    """Folders of raw/ named as a summary file mytools writes (o.met.all, qps.abs.all.tsv), with
    what that file is: its tables would be missing without a word, or read as no table at all."""
    out = []
    for d in sorted(raw.rglob("*")):
        if not d.is_dir() or d.is_symlink() or any(p.startswith("x.") for p in d.relative_to(raw).parts):
            continue
        if _MET.fullmatch(d.name):
            out.append((d, "mytools' metrics file (sum_met.sh's per-operation costs)"))
        elif m := _QPS.fullmatch(d.name):
            out.append((d, f"mytools' qps.{m['kind']} table ({m['ext']})"))
    return out


def folder_problem(folder: Path, what: str) -> tuple[str, str]:
    """The message and hint for a folder where a file is expected."""
    return (f"is a folder where {what} is expected",
            f"replace the folder with the file {folder.name} copied from the run's archive, or remove it")


Mets = dict[str, tuple[Path, tuple[MetBlock, ...]]]  # o.met files of a folder: shown path -> (path, blocks)


def thread_count(raw: Path, path: Path, mets: Mets, meta: dict) -> tuple[int, str] | None:
    """The thread count of a table and where it was found, or None."""
    for part in reversed(path.relative_to(raw).parts[:-1]):
        if m := _DOP_DIR.fullmatch(part):
            return int(m[1]), f"folder {part}/"
    name = re.sub(r"^qps\.(abs|rel)\.|\.(csv|tsv|tsv\.edit)$", "", path.name)
    counts = {int(a or b) for a, b in _NAME_THREADS.findall(name)}
    if len(counts) == 1:
        return counts.pop(), f"'{name}' in the file name"
    dops: dict[int, tuple[str, MetBlock]] = {}
    for met_path, (_, blocks) in sorted(mets.items()):
        for b in blocks:
            if b.threads is not None:
                dops.setdefault(b.threads, (met_path, b))
    if len(dops) == 1:
        t, (met_path, block) = next(iter(dops.items()))
        return t, f"{met_path} line {block.line} ({block.name})"
    if meta.get("threads"):
        return meta["threads"], f"threads in {meta['_file']}"
    return None


class _Archive:
    """Rows of one campaign's summary tables; every row keeps its file and line."""

    def __init__(self, raw: Path, meta: dict, paths: Paths, rows: dict[str, list[dict]], problems: Problems,
                 trees: dict[tuple, dict] | None = None):
        self.raw, self.meta, self.paths, self.rows, self.problems = raw, meta, paths, rows, problems
        self.results: dict[tuple, dict] = {}  # (build, config, test, range, threads) -> row
        self.costs_from: dict[tuple, Where] = {}
        # Results the per-run trees (x.*/sb.o.*) beside the tables gave: the original lines win,
        # and the tables, which mytools computed from them, are checked against them.
        self.trees = trees or {}
        self.checked = self.agreed = 0

    def where(self, path: Path, line: int) -> Where:
        return Where(self.paths.rel(path), self.paths.published(path), line)

    def parse(self, path: Path, parse) -> object | None:
        try:
            parsed = read(path, parse, self.paths.rel(path))
        except ParseError as e:
            self.problems.items.append(e.problem)
            return None
        if isinstance(parsed, Gap):
            self.problems.warning(parsed.path, 1, 1, f"{parsed.reason} summary file", "remove it or regenerate it")
            self.outcome(path, parsed.reason)
            return None
        self.outcome(path, "parsed")
        return parsed

    def outcome(self, path: Path, status: str) -> None:
        """What became of each summary file, listed on the campaign page like raw outputs."""
        tool = next((t for t in ("qps.abs", "qps.rel", "o.met") if path.name.startswith(t)), "met")
        if path.name.endswith(".tsv.edit"):
            tool = "qps.rel (hand-edited copy)"
        self.rows["raw_files"].append({"campaign": self.meta["id"], "file": self.paths.published(path),
                                       "tool": tool, "status": status, "detail": None})

    def variant(self, name: BuildName, at: Where) -> tuple[str, str] | None:
        if name.dbms is None or name.version is None or not name.config:
            self.problems.error(at.rel, at.line, 1, f"'{name.text}' does not name a build and config "
                                "as x.<build>.<config>.pk<N> (with a DBMS and version in the build)",
                                "regenerate the table with mytools' sum scripts, or remove it from raw/")
            return None
        return name.build_id, name.config

    def result(self, key: tuple, qps: float, at: Where, origin: str) -> None:
        build, config, test, rng, threads = key
        if (run := self.trees.get(key)) is not None:
            if origin == "QPS":
                self.check_tree(key, qps, run, at)
            return
        if (old := self.results.get(key)) is not None:
            if old["qps"] != qps:
                there = f"{old['_file']}:{old['_line']}"
                self.problems.error(at.rel, at.line, 1, f"{build}.{config} {test} range {rng} at {threads} "
                                    f"thread(s): {origin} {qps:g} here, {old['qps']:g} at {there}",
                                    "overlapping tables must agree; keep the table of the run you publish")
            return
        self.results[key] = {
            "campaign": self.meta["id"], "server": self.meta["server"], "build": build, "config": config,
            "microbenchmark": test, "range": rng, "threads": threads, "repetition": None, "qps": qps,
            "tps": None, "latency_avg_ms": None, "latency_p95_ms": None,
            **{c: None for c in COSTS.values()},
            "_file": at.rel, "_published": at.published, "_line": at.line, "_cols": {}, "_raw": True}

    def table(self, files: dict[str, Path], label: str) -> tuple[QpsTable, Path] | None:
        """A qps table from its csv (numbers) and tsv (names), or from its tsv alone."""
        csv, tsv = files.get("csv"), files.get("tsv")
        if tsv is None:
            self.problems.error(self.paths.rel(csv), 1, 1, f"{label} .csv without its .tsv: the columns are not named",
                                "copy the .tsv that sum_qps_csv.sh wrote beside it")
            return None
        text = read(tsv, lambda t, _: t, self.paths.rel(tsv))
        tsv_text = "" if isinstance(text, Gap) else text
        if tsv_text and not names_variants(tsv_text):
            rows = table_rows(csv.read_bytes().decode("utf-8", "replace") if csv else tsv_text)
            if cut := cut_header(tsv_text, self.paths.rel(tsv), rows):
                self.problems.items.append(cut.problem)
                return None
            self.problems.warning(self.paths.rel(tsv), 1, 1, "its columns do not name x.<build>.<config> "
                                  "variants: kept as evidence, not read as results",
                                  "name the columns as mytools' sum scripts do to publish its numbers")
            return None
        if csv is not None:
            parsed = self.parse(csv, lambda t, shown: parse_qps(t, tsv_text, shown, self.paths.rel(tsv)))
            return (parsed, csv) if isinstance(parsed, QpsTable) else None
        parsed = self.parse(tsv, parse_qps_tsv)
        return (parsed, tsv) if isinstance(parsed, QpsTable) else None

    def load(self, folders: list[Folder]) -> None:
        """Every abs table first (their QPS win over o/s), then the costs, then the ratios."""
        mets = {f.path: self.mets(f) for f in folders}
        abs_tables: dict[tuple[Path, str], tuple[QpsTable, Path, int]] = {}
        for folder in folders:
            for tag, files in sorted(folder.abs.items()):
                if got := self._threads_and_table(files, "qps.abs", mets[folder.path]):
                    abs_tables[(folder.path, tag)] = got
                    self.abs_rows(*got)
        for folder in folders:
            for path, blocks in mets[folder.path].values():
                self.met_rows(blocks, path)
        for folder in folders:
            for tag, files in sorted(folder.rel.items()):
                main = {k: v for k, v in files.items() if k in ("csv", "tsv")}
                rel = self._threads_and_table(main, "qps.rel", mets[folder.path]) if main else None
                if rel and (folder.path, tag) in abs_tables:
                    self.reproduce(rel, abs_tables[(folder.path, tag)])
                elif rel:
                    self.published(*rel)
                if "tsv.edit" in files:
                    self.edit(files["tsv.edit"], rel, mets[folder.path])
        self.rows["results"] += self.results.values()

    def mets(self, folder: Folder) -> dict[str, tuple[Path, tuple[MetBlock, ...]]]:
        out = {}
        for _, path in sorted(folder.met.items()):
            parsed = self.parse(path, parse_o_met)
            if parsed is not None:
                out[self.paths.rel(path)] = (path, parsed)
        return out

    def _threads_and_table(self, files: dict[str, Path], label: str, mets) -> tuple[QpsTable, Path, int] | None:
        got = self.table(files, label)
        if got is None:
            return None
        table, path = got
        threads = thread_count(self.raw, path, mets, self.meta)
        if threads is None:
            self.problems.error(self.paths.rel(path), 1, 1, "cannot tell the thread count of this table", HINT_THREADS)
            return None
        return table, path, threads[0]

    def abs_rows(self, table: QpsTable, path: Path, threads: int) -> None:
        at = self.where(path, 1)
        variants = [self.variant(c, at) for c in table.columns]
        if None in variants:
            return
        for row in table.rows:
            for (build, config), qps in zip(variants, row.values, strict=True):
                if qps <= 0:
                    continue  # mytools prints 0 for a test that did not run
                self.result((build, config, row.test, row.range, threads), qps,
                            Where(at.rel, at.published, row.line), "QPS")  # the file's names once, not per row

    def met_rows(self, blocks: tuple[MetBlock, ...], path: Path) -> None:
        file = self.where(path, 1)  # its names once, not per row
        for block in blocks:
            if block.prepare or block.threads is None:
                continue  # the load step (sb.prepare.met.*): not a microbenchmark result
            for row in block.absolute:
                at = Where(file.rel, file.published, row.line)
                threads = block.threads
                if dop := dop_variant(row.variant):  # sum_met_dop.sh: pg180_1u, pg180_48u
                    name, threads = dop
                    if not self.meta.get("config"):
                        self.problems.error(at.rel, at.line, 1, f"'{row.variant.text}' names a build and a thread "
                                            "count but no config", 'add config = "<id from configs.csv>" to '
                                            "campaign.toml (papercuts import mytools --config ID)")
                        return
                    variant = (name.build_id, self.meta["config"])
                else:
                    variant = self.variant(row.variant, at)
                if variant is None:
                    continue
                key = (*variant, block.test, block.range, threads)
                if key in self.trees:
                    continue  # the run's own sb.met gave its costs; o.met sums the same files
                if key not in self.results:
                    ops = row.get("o/s")
                    if block.test.split(".")[0] == "scan" or not ops or ops <= 0 or math.isinf(ops):
                        continue
                    self.result(key, ops, at, "o/s")
                self.costs(key, row.values, at)

    def check_tree(self, key: tuple, printed: float, run: dict, at: Where) -> None:
        """A qps.abs value against the rate sysbench printed in its run's sb.o file, at the
        precision the table prints (an.sh writes the rate rounded to an integer)."""
        self.checked += 1
        decimals = 0 if printed == int(printed) else len(repr(printed).split(".")[1])
        if abs(run["qps"] - printed) <= 0.5 * 10 ** -decimals + 1e-9:
            self.agreed += 1
            return
        build, config, test, rng, threads = key
        self.problems.warning(at.rel, at.line, 1, f"{build}.{config} {test} range {rng} at {threads} thread(s): "
                              f"the table prints {printed:g}, the run's output {run['_file']}:{run['_line']} gives "
                              f"{run['qps']:g}", "the site shows the run's own number; regenerate the table with "
                              "mytools' scripts if it is stale")

    def costs(self, key: tuple, values: tuple[tuple[str, float], ...], at: Where) -> None:
        target = self.results[key]
        for column, value in values:
            name = COSTS.get(column)
            if name is None:
                continue
            old = target[name]
            if old is not None and old != value:
                first = self.costs_from[key]
                self.problems.error(at.rel, at.line, 1, f"{column} {value:g} here, {old:g} at {first.rel}:{first.line}",
                                    "overlapping o.met files must agree; keep the one of the run you publish")
                return
            target[name] = value
        self.costs_from.setdefault(key, at)

    def reproduce(self, rel: tuple[QpsTable, Path, int], abs_table: tuple[QpsTable, Path, int]) -> None:
        """Each published ratio against the one Papercuts derives from the abs table, as mytools
        computes it: the printed QPS divided, rounded to 2 decimals."""
        table, path, threads = rel
        numbers, abs_path, _ = abs_table
        if table.relative_to is None:
            self.problems.error(self.paths.rel(path), 1, 1, "a qps.rel table without its 'Relative to:' line",
                                "copy the .tsv that mytools wrote")
            return
        index = {c.text.removeprefix("x."): i for i, c in enumerate(numbers.columns)}
        by_test = {(r.test, r.range): r for r in numbers.rows}
        base = index.get(table.relative_to.text.removeprefix("x."))
        for row in table.rows:
            source = by_test.get((row.test, row.range))
            for col, (name, published) in enumerate(zip(table.columns, row.values, strict=True), start=1):
                i = index.get(name.text.removeprefix("x."))
                derived, status = None, "no abs value"
                if source is not None and base is not None and i is not None and source.values[base] > 0:
                    q, b = source.values[i], source.values[base]
                    derived = q / b
                    status = _agreement(published, q, b)
                self.rows["reproductions"].append({
                    "campaign": self.meta["id"], "file": self.paths.published(path), "line": row.line,
                    "column": col, "abs_file": self.paths.published(abs_path),
                    "abs_line": source.line if source else None, "threads": threads,
                    "microbenchmark": row.test, "range": row.range, "base": table.relative_to.text,
                    "variant": name.text, "published": published, "derived": derived, "status": status})
                if status != "equal" and status != "rounding":
                    shown = "none" if derived is None else f"{derived:.4f}"
                    source_rel = self.paths.rel(abs_path)
                    self.problems.warning(self.paths.rel(path), row.line, 1,
                                          f"{row.test} range {row.range}, {name.text}: published rQPS "
                                          f"{published:.2f}, derived from {source_rel} {shown} ({status})",
                                          "the published table and the QPS it was computed from disagree; "
                                          "the site shows the derived value and lists this on the campaign page")

    def published(self, table: QpsTable, path: Path, threads: int) -> None:
        """A rel table with no abs table: published rQPS, kept as printed."""
        if table.relative_to is None:
            self.problems.error(self.paths.rel(path), 1, 1, "a qps.rel table without its 'Relative to:' line",
                                "copy the .tsv that mytools wrote")
            return
        base = self.variant(table.relative_to, self.where(path, 1))
        variants = [self.variant(c, self.where(path, 1)) for c in table.columns]
        if base is None or None in variants:
            return
        for row in table.rows:
            for (build, config), rqps in zip(variants, row.values, strict=True):
                if rqps <= 0:
                    continue
                self.rows["relative"].append({
                    "campaign": self.meta["id"], "server": self.meta["server"], "threads": threads,
                    "base_build": base[0], "base_config": base[1], "build": build, "config": config,
                    "microbenchmark": row.test, "range": row.range, "rqps": rqps,
                    "_file": self.paths.rel(path), "_published": self.paths.published(path), "_line": row.line,
                    "_cols": {}, "_raw": True})

    def edit(self, path: Path, rel: tuple[QpsTable, Path, int] | None, mets) -> None:
        """A hand-edited copy of a rel table: checked against it row by row (labels may have lost
        their range, and section lines such as '- point queries' were added)."""
        edited = self.parse(path, lambda text, shown: parse_qps_tsv(_without_sections(text), shown))
        if not isinstance(edited, QpsTable):
            return
        if rel is None:
            threads = thread_count(self.raw, path, mets, self.meta)
            if threads is None:
                self.problems.error(self.paths.rel(path), 1, 1, "cannot tell the thread count of this table",
                                    HINT_THREADS)
            elif any(r.range is None for r in edited.rows if r.test.split(".")[0] in _RANGED):
                self.problems.warning(self.paths.rel(path), 1, 1, "an edited table whose labels lost their range "
                                      "parameters, with no qps.rel table to take them from: kept as evidence only",
                                      "copy the qps.rel table it was edited from beside it")
            else:
                self.published(edited, path, threads[0])
            return
        table = rel[0]
        seen: dict[str, int] = defaultdict(int)
        by_label: dict[tuple[str, int], tuple] = {}
        for r in table.rows:
            by_label[(r.test, seen[r.test])] = r.values
            seen[r.test] += 1
        seen.clear()
        for r in edited.rows:
            original = by_label.get((r.test, seen[r.test]))
            seen[r.test] += 1
            if original != r.values:
                self.problems.warning(self.paths.rel(path), r.line, 1,
                                      f"{r.test}: the edited copy prints {', '.join(f'{v:.2f}' for v in r.values)}, "
                                      f"{self.paths.rel(rel[1])} "
                                      + ("has no such row" if original is None
                                         else f"prints {', '.join(f'{v:.2f}' for v in original)}"),
                                      "the site publishes the qps.rel table; fix the edited copy if it is wrong")


# Tests that mytools runs at several ranges (their edited labels are ambiguous without it).
_RANGED = ("random-points", "read-only", "read-write")


def _without_sections(text: str) -> str:
    """Drop the section lines an edited copy adds ("- point queries")."""
    return "\n".join("" if line.startswith("- ") else line for line in text.splitlines())


def _agreement(published: float, q: float, b: float) -> str:
    """`equal` when the printed QPS reproduce the printed ratio; `rounding` when QPS that print
    as q and b (an integer printed is within 0.5 of the value divided) can; else `differs`."""
    if f"{q / b:.2f}" == f"{published:.2f}":
        return "equal"
    lo, hi = (q - 0.5) / (b + 0.5), (q + 0.5) / (b - 0.5) if b > 0.5 else math.inf
    return "rounding" if lo <= published + 0.005 and published - 0.005 <= hi else "differs"


def load_archive(raw: Path, meta: dict, paths: Paths, rows: dict[str, list[dict]], problems: Problems,
                 trees: dict[tuple, dict] | None = None) -> bool:
    """Parse the summary tables under raw/ into rows; False when there are none. trees: the
    results of the per-run outputs beside them, which the tables are checked against."""
    for folder, what in folders_named_as_files(raw):
        problems.error(paths.rel(folder), 1, 1, *folder_problem(folder, what))
    folders = summary_folders(raw)
    if not folders:
        return False
    rows.setdefault("reproductions", [])
    archive = _Archive(raw, meta, paths, rows, problems, trees)
    archive.load(folders)
    if archive.checked:
        rows.setdefault("tree_checks", []).append({"campaign": meta["id"], "checked": archive.checked,
                                                   "agreed": archive.agreed})
    return True
