"""Mark Callaghan's mytools sysbench result trees and summary files.

* build names `x.<build>.<config>.pk<N>` -> DBMS and version (`my8028` mysql 8.0.28, `pg1023`
  postgres 10.23, `pg110` 11.0, `ma100434` mariadb 10.4.34, `fbmy5635_...` fbmysql 5.6.35); order
  them with `order_key` (by parsed version), never as strings;
* per-test file names in `x.*/`: `sb.<kind>.<test>.range<R>.pk<N>.dop<threads>`;
* `qps.abs|rel.<tag>.csv` (no header; `<test>_range=<R>` first) + `.tsv` (column names, and the
  base as `Relative to:` in rel files);
* `sb.met.*` (an.sh) and `o.met.*` (sum_met.sh; three column editions, a double TAB after cpu/o
  in the header and in relative rows only, `inf` when only the base is 0).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..versions import parse_version
from .errors import Gap, ParseError, blank, read
from .numbers import not_a_number, out_of_range, plain

HINT = "this file does not have the shape mytools writes; regenerate it or remove it"
DBMS_PREFIXES = (("fbmy", "fbmysql"), ("my", "mysql"), ("ma", "mariadb"), ("pg", "postgres"))


@dataclass(frozen=True)
class BuildName:
    text: str  # as written, e.g. "x.my8028_rel_o2nofp.z11a_c32r128.pk1"
    build: str  # "my8028_rel_o2nofp"
    config: str | None  # "z11a_c32r128"
    pk: int | None
    dbms: str | None  # None when the prefix is not a known DBMS ("sh", "v4")
    version: str | None  # "8.0.28"
    tag: str  # what follows the version digits: "_rel_o2nofp", "_202203072101"
    rerun: str | None = None  # a suffix after .pk<N>: "v2" in x.ma110803_ent.z12b_c32r128.pk1.v2

    @property
    def build_id(self) -> str:
        """The catalog id: a rerun suffix is kept in it (with "-", as ids have no dots), so a
        re-run build never merges with the first run."""
        return f"{self.build}-{self.rerun}" if self.rerun else self.build

    def order_key(self) -> tuple:
        """DBMS, then version as a version, then the text: unknown versions last."""
        known = self.version is not None
        return (self.dbms or "~", 0 if known else 1, parse_version(self.version) if known else (),
                self.text)


def dop_variant(name: BuildName) -> tuple[BuildName, int] | None:
    """`pg180_48u` in sum_met_dop.sh tables (one build at two thread counts): the build and the
    thread count; None for any other name. These tables do not name the config."""
    m = re.fullmatch(r"(?P<build>[a-z]+\d[a-z0-9_]*?)_(?P<threads>\d+)u", name.text.strip())
    if name.config or not m:
        return None
    return parse_build_name(m["build"]), int(m["threads"])


def _version(dbms: str, digits: str, pre: str) -> str | None:
    if dbms == "mariadb":  # two digits each: 100434 -> 10.4.34, 110803 -> 11.8.3
        if len(digits) not in (4, 6):
            return None
        parts = [digits[i:i + 2] for i in range(0, len(digits), 2)]
    elif dbms == "postgres":  # 10 and later: major.minor; 9.x: 9.6.24
        if digits[0] == "1" and len(digits) >= 2:
            parts = [digits[:2], digits[2:]] if len(digits) > 2 else [digits]
        elif len(digits) >= 2:
            parts = [digits[0], digits[1], digits[2:]] if len(digits) > 2 else [digits[0], digits[1]]
        else:
            parts = [digits]
    else:  # mysql, fbmysql: 8028 -> 8.0.28, 5651 -> 5.6.51, 9500 -> 9.5.0
        if len(digits) < 3:
            return None
        parts = [digits[0], digits[1], digits[2:]]
    return ".".join(str(int(p)) for p in parts if p) + pre


@lru_cache(maxsize=4096)  # a name per row of an o.met file: the shipped data names 185 variants 21,030 times
def parse_build_name(text: str) -> BuildName:
    """`x.<build>.<config>.pk<N>`, `<build>.<config>` or a bare build name (a frozen value: the
    same one is given for the same text)."""
    name = text.strip().rstrip("/").rsplit("/", 1)[-1]
    core = name[2:] if name.startswith("x.") else name
    pk = rerun = None
    if m := re.search(r"\.pk(\d+)(?:\.(v\d+))?$", core):
        pk, rerun, core = int(m[1]), m[2], core[: m.start()]
    build, _, config = core.partition(".")
    dbms = version = None
    tag = ""
    for prefix, candidate in DBMS_PREFIXES:
        # "b1" is how some build names write beta1 (pg18b1git_o2nofp is PostgreSQL 18beta1 from git)
        if m := re.match(rf"^{prefix}(\d+)((?:alpha|beta|rc|b)\d*)?(.*)$", build):
            pre = re.sub(r"^b(?=\d|$)", "beta", m[2] or "")
            dbms, version, tag = candidate, _version(candidate, m[1], pre), m[3]
            break
    if version is None:
        dbms = None
    return BuildName(text, build, config or None, pk, dbms, version, tag, rerun)


@dataclass(frozen=True)
class TestFile:
    """One per-test file of a result tree, named `sb.<kind>.<test>.range<R>.pk<N>[.dop<T>|.<k>]`."""

    kind: str  # "o", "met", "vm", "io", "time", "perf.hw", "perf.rep.f", "prepare.o", ...
    test: str  # "point-query", "point-query.pre", "scan.warm"
    range: int
    pk: int
    threads: int | None
    repeat: int | None  # the trailing .<k> of perf files


_TEST_FILE = re.compile(
    r"^sb\.(?P<kind>prepare\.[a-z]+|perf\.rep\.g\.(?:graph|flat)|perf\.rep\.[a-z]|perf\.[a-z]+|[a-z]+)\.(?P<test>[a-z][a-z0-9-]*(?:\.[a-z]+)?)"
    r"\.range(?P<range>\d+)\.pk(?P<pk>\d+)(?:\.dop(?P<dop>\d+)|\.(?P<k>\d+))?(?:\.gz)?$")


def parse_test_file_name(name: str) -> TestFile | None:
    m = _TEST_FILE.match(name.rsplit("/", 1)[-1])
    if not m:
        return None
    return TestFile(m["kind"], m["test"], int(m["range"]), int(m["pk"]),
                    int(m["dop"]) if m["dop"] else None, int(m["k"]) if m["k"] else None)


@dataclass(frozen=True)
class QpsRow:
    line: int
    test: str  # "point-query", "scan.warm"
    range: int | None
    values: tuple[float, ...]  # one per column (Krows/s for scan: see formats)


@dataclass(frozen=True)
class QpsTable:
    columns: tuple[BuildName, ...]
    rows: tuple[QpsRow, ...]
    relative_to: BuildName | None = None  # rel files: the base left out of the columns

    def long(self) -> list[tuple[str, int | None, BuildName, float]]:
        return [(r.test, r.range, c, v) for r in self.rows for c, v in zip(self.columns, r.values, strict=True)]


def _cell_columns(line: str, sep: str) -> list[int]:
    """The 1-based column where each cell of line.split(sep) starts."""
    columns, at = [], 1
    for cell in line.split(sep):
        columns.append(at)
        at += len(cell) + len(sep)
    return columns


def _values(cells: list[str], columns: list[int], names: list[str], path: str, lineno: int,
            inf: bool = False) -> tuple[float, ...]:
    """A table row's numbers: finite and never negative (mytools prints 0 for a test that did not
    run; sum_met.sh a literal `inf`, allowed with `inf`, where only the base is 0), else a
    ParseError at the cell."""
    values = []
    for cell, column, name in zip(cells, columns, names, strict=True):
        value = math.inf if inf and cell == "inf" else plain(cell)
        wrong = not_a_number(cell) if value is None else None if value == math.inf else out_of_range(value, name)
        if wrong:
            raise ParseError(path, lineno, wrong, f"{HINT}; a value mytools could not measure is 0", column)
        values.append(value)
    return tuple(values)


def _test_range(label: str, path: str, lineno: int) -> tuple[str, int | None]:
    m = re.fullmatch(r"(.+?)(?:_range=(\d+))?", label.strip())
    if not m or not m[1]:
        raise ParseError(path, lineno, f"'{label}' is not a test name like point-query_range=100", HINT)
    return m[1], int(m[2]) if m[2] else None


def parse_qps(csv_text: str, tsv_text: str, csv_path: str = "<qps.csv>",
              tsv_path: str = "<qps.tsv>") -> QpsTable | Gap:
    """A `qps.abs|rel.<tag>.csv` with the column names taken from its sibling `.tsv`."""
    if blank(csv_text):
        return Gap(csv_path, "empty")
    if blank(tsv_text):
        return Gap(tsv_path, "empty")
    names: dict[int, str] = {}
    base = None
    for line in tsv_text.splitlines():
        if m := re.fullmatch(r"Relative to: (\S+)", line.strip()):
            base = parse_build_name(m[1])
        elif m := re.fullmatch(r"col-(\d+) : (\S+)", line.strip()):
            names[int(m[1])] = m[2]
    if not names or sorted(names) != list(range(1, len(names) + 1)):
        raise ParseError(tsv_path, 1, "no 'col-N : name' lines numbered 1..N", HINT)
    columns = tuple(parse_build_name(names[i]) for i in range(1, len(names) + 1))
    rows: list[QpsRow] = []
    for lineno, line in enumerate(csv_text.splitlines(), start=1):
        if not line.strip():
            continue
        label, *cells = line.strip().split(",")
        if len(cells) != len(columns):
            raise ParseError(csv_path, lineno, f"{len(cells)} values where {tsv_path} names "
                             f"{len(columns)} columns", "the .csv and .tsv must come from one sum_qps_csv.sh run")
        lead = len(line) - len(line.lstrip())
        at = [lead + c for c in _cell_columns(line.strip(), ",")[1:]]
        values = _values(cells, at, [f"{'rQPS' if base else 'QPS'} of {c.text}" for c in columns], csv_path, lineno)
        test, rng = _test_range(label, csv_path, lineno)
        rows.append(QpsRow(lineno, test, rng, values))
    return QpsTable(columns, tuple(rows), base)


def parse_qps_tsv(text: str, path: str = "<qps.tsv>") -> QpsTable | Gap:
    """A `qps.abs|rel.<tag>.tsv` (or its hand-edited `.tsv.edit` copy) read alone: the column
    names, then a `col-1 ... col-N` header and one row per test with its label last."""
    if blank(text):
        return Gap(path, "empty")
    names, base, rows, header = _tsv_names(text, path), None, [], False
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if m := re.fullmatch(r"Relative to: (\S+)", stripped):
            base = parse_build_name(m[1])
            continue
        if not stripped or re.fullmatch(r"col-\d+ : .*", stripped):
            continue
        cells = line.rstrip().split("\t")
        if all(re.fullmatch(r"col-\d+", c) for c in cells):
            header = True
            continue
        if not header or len(cells) != len(names) + 1:
            raise ParseError(path, lineno, f"{len(cells)} fields where a row has {len(names)} values and a test name",
                             HINT)
        what = [f"{'rQPS' if base else 'QPS'} of {names[i]}" for i in range(1, len(names) + 1)]
        values = _values(cells[:-1], _cell_columns(line.rstrip(), "\t")[:-1], what, path, lineno)
        test, rng = _test_range(cells[-1], path, lineno)
        rows.append(QpsRow(lineno, test, rng, values))
    columns = tuple(parse_build_name(names[i]) for i in range(1, len(names) + 1))
    return QpsTable(columns, tuple(rows), base)


def names_variants(tsv_text: str) -> bool:
    """Whether a qps tsv's columns name x.<build>.<config> variants (some hand-made tables name
    thread counts or products instead: they are evidence, not results)."""
    names = re.findall(r"^(?:col-\d+ :|Relative to:) (\S+)\s*$", tsv_text, re.M)
    return bool(names) and all(
        (b := parse_build_name(n)).dbms is not None and b.version is not None and b.config for n in names)


def cut_header(tsv_text: str, path: str, rows: int) -> ParseError | None:
    """A ParseError at a column name that was cut short (a build name without its version or
    config: 'x.ma1003' where mytools wrote 'x.ma100339_rel_withdbg.z12a_c8r32.pk1') when the table
    has `rows` rows that name therefore loses, else None. A name that does not start like a build
    ('24', a thread count) is a hand-made table's, kept as evidence."""
    for lineno, line in enumerate(tsv_text.splitlines(), start=1):
        m = re.fullmatch(r"\s*(?:col-(\d+) :|Relative to:) (\S+)\s*", line)
        if not m:
            continue
        name = parse_build_name(m[2])
        starts_like_a_build = m[2].startswith("x.") or any(re.match(rf"{p}\d", name.build) for p, _ in DBMS_PREFIXES)
        if starts_like_a_build and (name.version is None or not name.config) and rows:
            which = f"col-{m[1]}'s name" if m[1] else "the 'Relative to:' name"
            return ParseError(path, lineno, f"{which} '{m[2]}' is cut short: it does not name a build and config "
                              f"as x.<build>.<config>.pk<N>, so the table's {rows} row(s) cannot be read",
                              "the file was cut short when it was copied: copy it again, whole, from the run's "
                              "archive, or remove it from raw/", m.start(2) + 1)
    return None


def table_rows(text: str) -> int:
    """How many rows of numbers a qps .csv (every non-blank line) or .tsv (the lines after its
    `col-1 ... col-N` header) holds."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    header = next((i for i, ln in enumerate(lines) if all(re.fullmatch(r"col-\d+", c) for c in ln.split())), None)
    if header is None:
        return 0 if any(re.match(r"\s*(?:col-\d+ :|Relative to:)", ln) for ln in lines) else len(lines)
    return len(lines) - header - 1


def _tsv_names(text: str, path: str) -> dict[int, str]:
    names = {int(m[1]): m[2] for m in re.finditer(r"^col-(\d+) : (\S+)\s*$", text, re.M)}
    if not names or sorted(names) != list(range(1, len(names) + 1)):
        raise ParseError(path, 1, "no 'col-N : name' lines numbered 1..N", HINT)
    return names


@dataclass(frozen=True)
class SbMet:
    """`sb.met.*`: iostat and vmstat averages normalised by the test's rate (an.sh)."""

    io: tuple[tuple[str, float], ...]
    vm: tuple[tuple[str, float], ...]

    def get(self, column: str) -> float | None:
        """A per-op column; `samp` is in both parts, read it from `io` or `vm`."""
        return dict(self.io + self.vm).get(column) if column != "samp" else None


def parse_sb_met(text: str, path: str = "<sb.met>") -> SbMet | Gap:
    if blank(text):
        return Gap(path, "empty")
    parts: list[tuple[tuple[str, float], ...]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("samp\t"):
            if i + 1 >= len(lines):
                raise ParseError(path, i + 1, "a header line without its values", HINT)
            header, values = line.split("\t"), lines[i + 1].split("\t")
            if len(values) != len(header):
                raise ParseError(path, i + 2, f"expected {len(header)} numbers under '{line}'", HINT)
            numbers = _values(values, _cell_columns(lines[i + 1], "\t"), header, path, i + 2)
            parts.append(tuple(zip(header, numbers, strict=True)))
    if len(parts) != 2:
        raise ParseError(path, 1, f"expected an iostat and a vmstat part, found {len(parts)}", HINT)
    return SbMet(parts[0], parts[1])


@dataclass(frozen=True)
class MetRow:
    line: int
    variant: BuildName
    values: tuple[tuple[str, float], ...]  # relative rows: inf when only the base is 0

    def get(self, column: str) -> float | None:
        return dict(self.values).get(column)


@dataclass(frozen=True)
class MetBlock:
    line: int
    name: str  # "sb.met.point-query.pre.range100.pk1.dop40"
    test: str
    range: int | None
    threads: int | None
    prepare: bool  # the load step (sb.prepare.met.*)
    columns: tuple[str, ...]  # the edition: with or without cs/o and r/o
    absolute: tuple[MetRow, ...]
    relative: tuple[MetRow, ...]  # "relative to first result": the first absolute row is the base


_BLOCK = re.compile(r"^sb\.(prepare\.)?met\.(?P<test>.+?)\.range(?P<range>\d+)\.pk\d+(?:\.dop(?P<dop>\d+))?$")


def parse_o_met(text: str, path: str = "<o.met>") -> tuple[MetBlock, ...] | Gap:
    """`o.met.*`: one block per test; columns read from each block's header line."""
    if blank(text):
        return Gap(path, "empty")
    blocks: list[MetBlock] = []
    current: dict | None = None
    section = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        if m := _BLOCK.match(line.strip()):
            if current:
                blocks.append(MetBlock(**current))
            current = {"line": lineno, "name": line.strip(), "test": m["test"], "range": int(m["range"]),
                       "threads": int(m["dop"]) if m["dop"] else None, "prepare": bool(m[1]),
                       "columns": (), "absolute": (), "relative": ()}
            section = None
            continue
        if current is None:
            raise ParseError(path, lineno, "text before the first block name (sb.met....)", HINT)
        if line.startswith("base1 "):
            continue  # sum_met_dop.sh: "base1 <file> and base2 <file>"
        if line.startswith("--- "):
            section = "absolute" if "absolute" in line else "relative"
            continue
        cells = [(f, c) for f, c in zip(line.split("\t"), _cell_columns(line, "\t"), strict=True) if f != ""]
        fields = [f for f, _ in cells]
        if "dbms" in fields:
            current["columns"] = tuple(fields[:-1])
            continue
        if section is None or not current["columns"]:
            raise ParseError(path, lineno, "a row before its '--- absolute' header", HINT)
        if len(fields) != len(current["columns"]) + 1:
            raise ParseError(path, lineno, f"{len(fields)} fields where the header has "
                             f"{len(current['columns']) + 1}", HINT)
        numbers = _values(fields[:-1], [c for _, c in cells[:-1]], list(current["columns"]), path, lineno, inf=True)
        row = MetRow(lineno, parse_build_name(fields[-1]), tuple(zip(current["columns"], numbers, strict=True)))
        current[section] = (*current[section], row)
    if current:
        blocks.append(MetBlock(**current))
    return tuple(blocks)


@dataclass(frozen=True)
class TreeEntry:
    variant: BuildName
    file: TestFile
    path: str  # relative to the tree root
    result: object  # the parsed file, or a Gap


EXPECTED = ("o", "met", "vm", "io")  # what run.sh writes for every test and thread count


def load_tree(root: str | Path, device: str | None = None) -> tuple[TreeEntry, ...]:
    """Every per-test file under `x.*` folders of a mytools result tree, parsed; an expected file
    that is absent or empty is a Gap (sb.io needs the iostat `device` to be parsed at all)."""
    from . import iostat, perf_report, perf_stat, sysbench, vmstat

    root = Path(root)
    parsers = {"o": sysbench.parse, "met": parse_sb_met, "vm": vmstat.parse,
               "perf.hw": perf_stat.parse, "perf.rep.f": perf_report.parse}
    if device is not None:
        parsers["io"] = lambda text, path: iostat.parse(text, path, device=device, since_boot=False)
    entries: list[TreeEntry] = []
    for vdir in sorted(p for p in root.rglob("x.*") if p.is_dir()):
        variant = parse_build_name(vdir.name)
        seen: dict[tuple, set[str]] = {}
        names = {f.name for f in vdir.iterdir()}
        for f in sorted(vdir.iterdir()):
            tf = parse_test_file_name(f.name)
            if tf is None or tf.kind not in parsers or (f.suffix == ".gz" and f.name[:-3] in names):
                continue  # a gzipped output is read like a plain one, but not both of one run
            rel = f.relative_to(root).as_posix()
            entries.append(TreeEntry(variant, tf, rel, read(f, parsers[tf.kind], rel)))
            seen.setdefault((tf.test, tf.range, tf.pk, tf.threads), set()).add(tf.kind)
        for (test, rng, pk, threads), kinds in sorted(seen.items(), key=str):
            if "o" not in kinds or threads is None:
                continue
            for kind in EXPECTED:
                if kind not in kinds and kind in parsers:
                    name = f"sb.{kind}.{test}.range{rng}.pk{pk}.dop{threads}"
                    rel = (vdir / name).relative_to(root).as_posix()
                    entries.append(TreeEntry(variant, TestFile(kind, test, rng, pk, threads, None), rel,
                                             Gap(rel, "missing")))
    return tuple(sorted(entries, key=lambda e: (e.variant.order_key(), e.path)))
