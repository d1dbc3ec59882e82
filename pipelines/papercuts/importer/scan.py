"""What an archive folder's tables and run trees name: builds, configs, tests and thread counts.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..contract import dbms_name
from ..parsers.errors import Gap, ParseError, file_bytes, read
from ..parsers.mytools import (
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
from ..paths import shown
from ..problems import UserError, printable
from ..validate.archive import (
    _without_sections,
    folder_problem,
    folders_named_as_files,
    summary_folders,
    thread_count,
)

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


def scan(raw: Path, meta: dict, say=print, src: Path | None = None) -> Found:
    """Parse the copied tables once to learn what they name (the build parses them again). A file's
    problem names it in src, the folder the user gave, when given: the copy is gone by then."""
    found = Found()

    def as_given(path: Path) -> str:
        return shown(src / path.relative_to(raw)) if src else path.relative_to(raw).as_posix()

    def names(table: QpsTable) -> None:
        for n in (*table.columns, *([table.relative_to] if table.relative_to else [])):
            found.builds.setdefault(n.build_id, n)
            if n.config:
                found.configs.add(n.config)
        found.tests.update(r.test for r in table.rows)

    # The folder the user gave: an empty folder is not copied, and is as wrong as a full one.
    for folder, what in folders_named_as_files(src or raw):
        raise ParseError(shown(folder) if src else folder.relative_to(raw).as_posix(), 1,
                         *folder_problem(folder, what))
    for folder in summary_folders(raw):
        mets = {}
        for path in folder.met.values():
            blocks = _parse(path, as_given, parse_o_met)
            mets[as_given(path)] = (path, blocks)  # thread_count names the one it reads a dop<T> in
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
                    if cut := cut_header(text, as_given(path), rows):
                        raise cut
                    say(f"{printable(as_given(path))}: its columns do not name builds; kept as evidence")
                    continue
                text_fix = _without_sections if ext == "tsv.edit" else (lambda t: t)
                table = _parse(path, as_given, lambda t, at, fix=text_fix: parse_qps_tsv(fix(t), at))
                names(table)
                rel = as_given(path)
                t = thread_count(raw, path, mets, meta)
                if t is None:
                    found.missing_threads.append(rel)
                else:
                    found.threads.append((rel, *t))
    _run_names(raw, found, as_given)
    return found


def _run_names(raw: Path, found: Found, as_given) -> None:
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
                head = "\n".join(file_bytes(f, as_given(f))[:4096].decode("utf-8", "replace").splitlines()[:8])
                found.sysbench.update(_SYSBENCH.findall(head))
        if threads:
            found.builds.setdefault(name.build_id, name)
            found.configs.add(name.config)
            found.threads += [(as_given(vdir), t, "dop<T> in its sb.o file names") for t in sorted(threads)]


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


def _parse(path: Path, as_given, parse):
    parsed = read(path, parse, as_given(path))
    if isinstance(parsed, Gap):
        raise UserError(f"{parsed.path}: {parsed.reason} file; remove it from the archive folder or regenerate it")
    return parsed


def campaign_title(found: Found, server: str, archive: str) -> str:
    """What the tables hold, from the files alone: DBMS and version span, server, thread counts."""
    from ..versions import parse_version

    spans = []
    for dbms in sorted({b.dbms for b in found.builds.values() if b.dbms}):
        versions = sorted({b.version for b in found.builds.values() if b.dbms == dbms and b.version},
                          key=parse_version)
        name = dbms_name(dbms)
        spans.append(f"{name} {versions[0]}" if len(versions) == 1 else f"{name} {versions[0]} to {versions[-1]}")
    threads = sorted({t for _, t, _ in found.threads} | found.block_threads)
    counts = ", ".join(map(str, threads))
    return f"{', '.join(spans)} on {server}, {counts} thread{'s' if threads != [1] else ''} ({archive})"


def thread_counts(found: Found, src: Path, threads: int | None) -> int | None:
    """The thread count to write to campaign.toml for tables that do not say theirs, or None."""
    if not found.threads and not found.missing_threads and not found.met_files:
        raise UserError(f"{src}: no qps.abs/qps.rel tables, o.met files or x.*/sb.o.* run outputs; SRC is one "
                        "server's folder of a mytools archive (or one of its dop<T>/ folders)")
    if not found.missing_threads:  # every table says its own: --threads is not needed and not written
        if threads is not None:  # ... nor taken over what the tables say
            said = sorted({t for _, t, _ in found.threads} | found.block_threads)
            raise UserError(f"--threads {threads}: every table of {shown(src)} says its own thread count "
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
