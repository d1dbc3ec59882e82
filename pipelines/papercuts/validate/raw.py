"""Stage 1a for raw campaigns: the tool outputs under data/campaigns/<id>/raw/, parsed on every build.

Nothing in raw/ is converted by hand: each file is read by its parser (parsers/) into rows of
results (with per-operation costs), counters, profiles and raw_files. Two layouts:

  papercuts  <build>.<config>/<test>.t<threads>.r<rep>.{sysbench,vmstat,iostat,perf-stat}.txt
             <build>.<config>/<test>.t<threads>.profile.{perf.folded,perf-script.txt,perf-report.txt}
             (what raw/run.sh in the MariaDB campaign writes)
  mytools    [<folder>/]x.<build>.<config>.pk<N>/sb.{o,vm,io,perf.hw,perf.rep.f}.<test>.range<R>.pk<N>.dop<T>
             (Mark Callaghan's mytools result trees; perf files ending in .<k> instead of .dop<T>
             belong to the variant's only thread count for that test)

A run's expected file that is missing or empty is a gap (raw_files), shown on the campaign page;
a malformed file is an error at its file and line. Other files (my.cnf, run.sh, ...) are evidence.
"""
from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..contract import MAX_FILE_BYTES, RAW_LAYOUTS
from ..parsers import folded, iostat, metrics, perf_report, perf_script, perf_stat, sysbench, vmstat
from ..parsers.errors import Gap, ParseError, read
from ..parsers.mytools import SbMet, parse_build_name, parse_sb_met, parse_test_file_name
from ..paths import Paths
from ..problems import Problems
from . import raw_samples
from .archive import load_archive
from .tomlfile import value_at

# Tables filled from rows that hold every column under its name (evidence: every campaign file).
RAW_TABLES = ("counters", "profiles", "profile_stacks", "profile_report", "raw_files", "evidence",
              "calibration_evidence", "reproductions", "tree_checks", "known")  # "known": data/known/*.toml, same rule


def _iostat(text: str, path: str, meta: dict):
    if not meta.get("iostat_device"):
        raise ParseError(path, 1, "iostat output needs the device to read",
                         'add iostat_device = "<device>" to campaign.toml')
    parse = iostat.parse_json if text.lstrip().startswith("{") else iostat.parse  # iostat -o JSON
    return parse(text, path, device=meta["iostat_device"], since_boot=since_boot(meta))


def since_boot(meta: dict) -> bool:
    """Whether iostat's first report is the average since boot: iostat_command without -y (both
    layouts' run.sh use `iostat -y -kx 1`, the default when campaign.toml does not say)."""
    words = str(meta.get("iostat_command") or "iostat -y").split()
    return not any(w.startswith("-") and not w.startswith("--") and "y" in w[1:] for w in words[1:])


def _plain(parse):
    return lambda text, path, meta: parse(text, path)


def _stacks(text: str, path: str, meta: dict):
    """Folded stacks, or raw `perf script` output folded as stackcollapse-perf.pl folds it."""
    return (perf_script.parse if perf_script.looks_like(text) else folded.parse)(text, path)


@dataclass(frozen=True)
class RawFormat:
    """One raw output format: adding a format is one entry here and a parser in parsers/."""

    suffix: str | None  # papercuts layout: <test>.t<threads>.(r<rep>|profile).<suffix>; None: mytools only
    tool: str  # what the run's file is: sysbench, vmstat, iostat, perf-stat, folded, perf-report
    parse: Callable  # (text, path, campaign meta) -> parsed file, a Gap, or raises ParseError
    mytools: str | None = None  # the same output in a mytools tree: sb.<mytools>.<test>...
    expected: tuple[str, ...] = ()  # layouts where every run should have this tool's file


FORMATS = (
    RawFormat("sysbench.txt", "sysbench", _plain(sysbench.parse), "o", ("papercuts", "mytools")),
    RawFormat("vmstat.txt", "vmstat", _plain(vmstat.parse), "vm", ("papercuts", "mytools")),
    RawFormat("iostat.txt", "iostat", _iostat, "io", ("papercuts", "mytools")),
    # perf stat's three output formats: human (-o), CSV (-x,) and JSON (-j); mytools writes -o.
    # mytools' run.sh writes perf files only when asked to, so their absence there is no gap.
    RawFormat("perf-stat.txt", "perf-stat", _plain(perf_stat.parse), "perf.hw", ("papercuts",)),
    RawFormat("perf-stat.csv", "perf-stat", _plain(perf_stat.parse_csv)),
    RawFormat("perf-stat.json", "perf-stat", _plain(perf_stat.parse_json)),
    RawFormat("perf.folded", "folded", _stacks),
    RawFormat("perf-script.txt", "folded", _stacks),
    RawFormat("perf-report.txt", "perf-report", _plain(perf_report.parse), "perf.rep.f"),
    # an.sh's per-op costs: used where a run's vmstat/iostat files are absent (nov25 trees keep
    # only sb.o and sb.met), never in place of samples Papercuts can average itself.
    RawFormat(None, "sb.met", _plain(parse_sb_met), "met"),
)
BY_SUFFIX = {f.suffix: f for f in FORMATS if f.suffix}
BY_MYTOOLS = {f.mytools: f for f in FORMATS if f.mytools}
EXPECTED = {layout: tuple(f.tool for f in FORMATS if layout in f.expected) for layout in RAW_LAYOUTS}
PROFILE_KINDS = ("folded", "perf-report")

_PAPERCUTS_RUN = re.compile(
    r"(?P<test>[a-z][a-z0-9.-]*?)\.t(?P<threads>\d+)\.(?:r(?P<rep>\d+)|(?P<profile>profile))\."
    rf"(?P<kind>{'|'.join(re.escape(suffix) for suffix in BY_SUFFIX)})")
_VARIANT_DIR = re.compile(r"(?P<build>[A-Za-z0-9][A-Za-z0-9_+-]*)\.(?P<config>[A-Za-z0-9][A-Za-z0-9_+-]*)")
_LAYOUT_HINT = {
    "papercuts": "name raw files <test>.t<threads>.r<rep>.<tool>.txt inside <build>.<config>/ folders",
    "mytools": "mytools archives hold qps.abs.<tag>.csv/.tsv, qps.rel.*, o.met.* summary tables and/or "
               "x.<build>.<config>.pk<N>/ folders of sb.<kind>.<test>.range<R>.pk<N>.dop<T> files",
}


@dataclass
class Run:
    """One test of one variant at one thread count (and repetition): its raw files by kind."""

    build: str
    config: str
    test: str
    range: int | None
    threads: int
    repetition: int | None
    files: dict[str, Path] = field(default_factory=dict)
    formats: dict[str, RawFormat] = field(default_factory=dict)
    samples: dict[str, dict[int, Path]] = field(default_factory=dict)  # mytools' numbered perf files


@dataclass
class Profile:
    """One sampled profile of a test: keyed by its range parameter too (random-points at range
    10, 100 and 1000 are three tests)."""

    build: str
    config: str
    test: str
    range: int | None
    threads: int
    files: dict[str, Path] = field(default_factory=dict)
    formats: dict[str, RawFormat] = field(default_factory=dict)
    samples: dict[str, dict[int, Path]] = field(default_factory=dict)  # mytools' numbered perf files


def load_raw(raw: Path, meta: dict, paths: Paths, rows: dict[str, list[dict]], problems: Problems) -> None:
    """Parse one campaign's raw/ folder into rows[...] (results, counters, profiles, raw_files)."""
    for name in RAW_TABLES:
        rows.setdefault(name, [])
    toml = meta["_file"]
    layout = meta.get("raw_layout")
    if layout not in RAW_LAYOUTS:
        problems.error(toml, *value_at(meta, "raw_layout"),
                       f"raw_layout must be one of {', '.join(RAW_LAYOUTS)} when the campaign has a raw/ folder",
                       'add raw_layout = "papercuts" or raw_layout = "mytools" to campaign.toml')
        return
    if not meta.get("server"):
        problems.error(toml, 1, 1, "a campaign with a raw/ folder must name its server",
                       'add server = "<id from data/servers.csv>" to campaign.toml')
        return
    command = meta.get("iostat_command")
    if command is not None and command.split()[0].rsplit("/", 1)[-1] != "iostat":
        problems.error(toml, *value_at(meta, "iostat_command"),
                       f"iostat_command must be the iostat command line the run used, not '{command}'",
                       'write e.g. iostat_command = "iostat -kx 1"')
        return
    if not _safe_tree(raw, paths, problems):
        return
    if layout == "papercuts":
        runs, profiles = _papercuts_runs(raw, paths, problems)
    else:
        runs, profiles = _mytools_runs(raw, paths, problems)
    ctx = _Context(meta, paths, rows, problems)
    first = len(rows["results"])
    for run in runs:
        ctx.run(run)
    for profile in profiles:
        ctx.profile(profile)
    # mytools' summary tables were computed from the runs beside them: where both are here the
    # runs' own numbers are the results and the tables are checked against them.
    trees = {(r["build"], r["config"], r["microbenchmark"], r["range"], r["threads"]): r
             for r in rows["results"][first:]}
    summaries = layout == "mytools" and load_archive(raw, meta, paths, rows, problems, trees)
    if not runs and not profiles and not summaries:
        problems.error(paths.rel(raw), 1, 1, "raw/ holds no raw output Papercuts can read", _LAYOUT_HINT[layout])


def _safe_tree(raw: Path, paths: Paths, problems: Problems) -> bool:
    """No links (they could point outside the repository) and no file over the size limit."""
    ok = True
    found = []
    for top, dirs, files in os.walk(raw):  # never follows links
        found += [Path(top) / name for name in dirs + files]
    for p in sorted(found):
        if p.is_symlink():
            problems.error(paths.rel(p), 1, 1, "symbolic links are not allowed in data/", "commit a regular file")
            ok = False
        elif p.is_file() and p.stat().st_size > MAX_FILE_BYTES:
            problems.error(paths.rel(p), 1, 1, f"file is over the {MAX_FILE_BYTES // (1024 * 1024)} MB limit",
                           "keep raw outputs small: shorter runs, fewer samples, or compress the profile")
            ok = False
    return ok


def _papercuts_runs(raw: Path, paths: Paths, problems: Problems) -> tuple[list[Run], list[Profile]]:
    runs: dict[tuple, Run] = {}
    profiles: dict[tuple, Profile] = {}
    for vdir in sorted(p for p in raw.iterdir() if p.is_dir()):
        m = _VARIANT_DIR.fullmatch(vdir.name)
        if not m:
            problems.error(paths.rel(vdir), 1, 1, f"folder '{vdir.name}' is not <build>.<config>",
                           _LAYOUT_HINT["papercuts"])
            continue
        build, config = m["build"], m["config"]
        for f in sorted(vdir.iterdir()):
            fm = _PAPERCUTS_RUN.fullmatch(f.name)
            if not f.is_file() or not fm:
                if fm and f.is_dir():  # named as a run's output, but a folder: the name is not the problem
                    problems.error(paths.rel(f), 1, 1, "is a folder, expected the tool's output file",
                                   f"replace the folder with the output file {f.name}")
                elif f.name.endswith(tuple("." + suffix for suffix in BY_SUFFIX)):
                    problems.error(paths.rel(f), 1, 1, "raw output name does not say its test, threads and repetition",
                                   _LAYOUT_HINT["papercuts"])
                continue  # my.cnf, variables.txt, ...: evidence, listed on the campaign page
            fmt = BY_SUFFIX[fm["kind"]]
            kind, threads = fmt.tool, int(fm["threads"])
            if fm["profile"]:
                if kind in PROFILE_KINDS:
                    key = (build, config, fm["test"], None, threads)
                    _add(profiles.setdefault(key, Profile(*key)), fmt, f)
                continue  # the profiling run's own sysbench output is evidence, not a result
            if kind in PROFILE_KINDS:
                problems.error(paths.rel(f), 1, 1, "profiles belong to a profile run, not a repetition",
                               f"name it {fm['test']}.t{threads}.profile.{fm['kind']}")
                continue
            key = (build, config, fm["test"], None, threads, int(fm["rep"]))
            _add(runs.setdefault(key, Run(*key)), fmt, f)
    return list(runs.values()), list(profiles.values())


def _mytools_runs(raw: Path, paths: Paths, problems: Problems) -> tuple[list[Run], list[Profile]]:
    runs: dict[tuple, Run] = {}
    profiles: dict[tuple, Profile] = {}
    pending: list[tuple] = []  # perf files without .dop<T>, attached once thread counts are known
    for vdir in sorted(p for p in raw.rglob("x.*") if p.is_dir()):
        name = parse_build_name(vdir.name)
        if not name.config:
            problems.error(paths.rel(vdir), 1, 1, f"folder '{vdir.name}' is not x.<build>.<config>.pk<N>",
                           _LAYOUT_HINT["mytools"])
            continue
        names = {f.name for f in vdir.iterdir()}
        for f in sorted(vdir.iterdir()):
            tf = parse_test_file_name(f.name)
            if not f.is_file() or tf is None or tf.kind not in BY_MYTOOLS:
                continue
            if f.suffix == ".gz" and f.name[:-3] in names:  # read as gzipped text, but once
                problems.error(paths.rel(f), 1, 1, f"{f.name[:-3]} is here too: the run's output twice",
                               "keep one of them, the plain file or the .gz")
                continue
            fmt = BY_MYTOOLS[tf.kind]
            if tf.threads is None:
                pending.append((name.build, name.config, tf.test, tf.range, fmt, f, tf.repeat))
                continue
            key = (name.build, name.config, tf.test, tf.range, tf.threads, None)
            _add(runs.setdefault(key, Run(*key)), fmt, f)
    threads_of: dict[tuple, set[int]] = defaultdict(set)
    for r in runs.values():
        threads_of[(r.build, r.config, r.test, r.range)].add(r.threads)
    for build, config, test, rng, fmt, f, sample in pending:
        counts = threads_of.get((build, config, test, rng), set())
        if len(counts) != 1:
            problems.warning(paths.rel(f), 1, 1, "cannot tell which thread count this perf file belongs to",
                             "keep one thread count per result tree (mytools writes one tree per dop)")
            continue
        threads = next(iter(counts))
        if fmt.tool == "perf-stat":
            _add(runs[(build, config, test, rng, threads, None)], fmt, f, sample)
        else:
            key = (build, config, test, rng, threads)
            _add(profiles.setdefault(key, Profile(*key)), fmt, f, sample)
    return list(runs.values()), list(profiles.values())


def _add(run: Run | Profile, fmt: RawFormat, f: Path, sample: int | None = None) -> None:
    run.formats[fmt.tool] = fmt
    if sample is None:
        run.files[fmt.tool] = f
        return
    found = run.samples.setdefault(fmt.tool, {})
    found[sample] = f
    run.files[fmt.tool] = found[min(found)]  # the first sample, by number, stands for them all


class _Context:
    """Turns parsed runs and profiles into rows, recording every file's fate in raw_files."""

    def __init__(self, meta: dict, paths: Paths, rows: dict[str, list[dict]], problems: Problems) -> None:
        self.meta, self.paths, self.rows, self.problems = meta, paths, rows, problems
        self.campaign, self.server = meta["id"], meta["server"]
        self.device = meta.get("iostat_device")

    def _parse(self, run: Run | Profile, tool: str, label: str, path: Path | None = None):
        """The parsed file, or a Gap (recorded), or None after reporting a malformed file."""
        path = path or run.files.get(tool)
        if path is None:
            return None
        parse = run.formats[tool].parse
        try:
            parsed = read(path, lambda text, shown: parse(text, shown, self.meta), self.paths.rel(path))
        except ParseError as e:
            self.problems.items.append(e.problem)
            return None
        self._file(self.paths.published(path), label, parsed.reason if isinstance(parsed, Gap) else "parsed")
        return parsed

    def _samples(self, run: Run | Profile, tool: str, label: str, kind: type) -> dict[int | None, object]:
        """Each parsed file of a tool, by sample number (None for an unnumbered file), in numeric
        order; absent samples between the first and last are recorded as missing."""
        samples = run.samples.get(tool)
        if not samples:
            parsed = self._parse(run, tool, label)
            return {None: parsed} if isinstance(parsed, kind) else {}
        for path in raw_samples.missing(samples):
            self._file(self.paths.published(path), label, "missing", "a numbered sample is absent")
        out = {}
        for k in sorted(samples):
            parsed = self._parse(run, tool, label, samples[k])
            if isinstance(parsed, kind):
                out[k] = parsed
        return out

    def _perf_stat(self, run: Run) -> perf_stat.PerfStat | None:
        stats = self._samples(run, "perf-stat", "perf stat", perf_stat.PerfStat)
        if not stats:
            return None
        if None not in stats:
            for k, why in raw_samples.truncated(stats).items():
                self._file(self.paths.published(run.samples["perf-stat"][k]), "perf stat", "truncated", why)
        return raw_samples.combine_stats(stats) if len(stats) > 1 else next(iter(stats.values()))

    def _file(self, published: str, tool: str, status: str, detail: str | None = None) -> dict:
        row = {"campaign": self.campaign, "file": published, "tool": tool, "status": status, "detail": detail}
        self.rows["raw_files"].append(row)
        return row

    def _missing(self, run: Run | Profile, kind: str) -> None:
        test = run.test if run.range is None else f"{run.test}_range={run.range}"  # the site's label
        where = f"{run.build}.{run.config}, {test}, {run.threads} thread(s)"
        if isinstance(run, Run) and run.repetition is not None:
            where += f", repetition {run.repetition}"
        return self._file(f"({kind} output for {where})", kind, "missing")

    def run(self, run: Run) -> None:
        gaps = {kind: self._missing(run, kind) for kind in EXPECTED[self.meta["raw_layout"]]
                if kind not in run.files and not (kind == "iostat" and not self.device)}
        sb = self._parse(run, "sysbench", "sysbench")
        vm = self._parse(run, "vmstat", "vmstat")
        io = self._parse(run, "iostat", "iostat") if self.device else None
        stat = self._perf_stat(run)
        if not isinstance(sb, sysbench.SysbenchRun):
            return
        rel = self.paths.rel(run.files["sysbench"])
        if sb.threads is not None and sb.threads != run.threads:
            self.problems.error(rel, 1, 1, f"the file name says {run.threads} thread(s), sysbench ran {sb.threads}",
                                "rename the file or rerun the test")
            return
        qps = sb.qps
        if run.test.split(".")[0] == "scan":  # a full scan per query: thousands of rows/s (formats §1.3)
            rows, latency = self._table_size(sb, rel), sb.latency_avg_ms
            if not rows or not latency:
                self.problems.error(rel, 1, 1, "the scan rate (Krows/s) needs the table size and the average latency",
                                    "add rows_per_table to campaign.toml, or keep sysbench's command line "
                                    "(with --table-size) as the output's first line")
                return
            qps = (rows / 1000) / (latency / 1000)
        if not qps or qps <= 0:
            self.problems.error(rel, sb.final.line, 1, "sysbench output has no query rate",
                                "rerun the test; an OLTP test prints 'queries: N (X per sec.)'")
            return
        if self.meta.get("sysbench") and sb.version and sb.version != self.meta["sysbench"]:
            self.problems.warning(rel, 1, 1, f"sysbench {sb.version} ran, campaign.toml says {self.meta['sysbench']}",
                                  "fix sysbench in campaign.toml")
        cost = self._costs(run, qps, vm, io, gaps)
        p95 = sb.percentile_ms(95)  # None with checkpoints: QPS and latency cover the whole run
        key = {"campaign": self.campaign, "server": self.server, "build": run.build, "config": run.config,
               "microbenchmark": run.test, "range": run.range, "threads": run.threads,
               "repetition": run.repetition}
        origin = {"_file": rel, "_published": self.paths.published(run.files["sysbench"]),
                  "_line": sb.final.line, "_cols": {}, "_raw": True, "_cpus": sb.cpus}
        self.rows["results"].append({
            **key, "qps": qps, "tps": _printed(sb.tps), "latency_avg_ms": _printed(sb.latency_avg_ms),
            "latency_p95_ms": _printed(p95), "cpu_per_op": cost.cpu_per_op, "cs_per_op": cost.cs_per_op,
            "r_per_op": cost.r_per_op, "rkb_per_op": cost.rkb_per_op, "wkb_per_op": cost.wkb_per_op,
            **origin})
        if isinstance(stat, perf_stat.PerfStat):
            self._counters(key, qps, stat, run.files["perf-stat"], sb.final.total_time_s)

    def _table_size(self, sb: sysbench.SysbenchRun, rel: str) -> int | None:
        """Rows per table for the scan rate: --table-size on sysbench's own command line (what ran,
        as run.sh computes Krps from it), checked against campaign.toml's rows_per_table."""
        declared = self.meta.get("rows_per_table")
        text = sb.option("table-size")
        ran = int(text) if text and text.isdigit() else None
        if ran and declared and ran != declared:
            self.problems.warning(rel, 1, 1, f"sysbench ran with --table-size={ran}, campaign.toml says "
                                  f"rows_per_table = {declared}: the scan rate uses {ran}",
                                  f"set rows_per_table = {ran} in campaign.toml")
        return ran or declared

    def _costs(self, run: Run, qps: float, vm, io, gaps: dict[str, dict]) -> metrics.PerOp:
        """vmstat/iostat averages per operation; where a run has no such file, an.sh's sb.met
        values as published (an.sh divides by the same rate: its o/s is checked against qps), which
        the file's gap row then says (`gaps`: the run's missing files' raw_files rows, by tool): the
        campaign page lists the file as missing beside costs it shows."""
        cost = metrics.per_op(qps, vm, io)
        if isinstance(vm, vmstat.Vmstat) and isinstance(io, iostat.Iostat):
            return cost
        met = self._parse(run, "sb.met", "sb.met")
        if not isinstance(met, SbMet):
            return cost
        rel = self.paths.rel(run.files["sb.met"])
        rate = met.get("o/s")
        if rate is None or abs(rate - qps) > max(0.5, 1e-6 * qps):  # o/s is printed to 2 decimals, scan to 0
            self.problems.warning(rel, 3, 1, f"an.sh normalised by {rate} operations/s, the sysbench output "
                                  f"gives {qps:.2f}: its per-operation costs are not used",
                                  "regenerate sb.met with an.sh from this run's sb.o, or remove it")
            return cost
        published = {}
        if not isinstance(vm, vmstat.Vmstat):
            published |= {"cs_per_op": met.get("cs/o"), "cpu_per_op": met.get("cpu/o")}
        if not isinstance(io, iostat.Iostat):
            published |= {"r_per_op": met.get("r/o"), "rkb_per_op": met.get("rKB/o"),
                          "wkb_per_op": met.get("wKB/o")}
        for tool, costs in (("vmstat", "cpu/o and cs/o"), ("iostat", "r/o, rKB/o and wKB/o")):
            if tool in gaps:
                gaps[tool]["detail"] = f"the file: its {costs} are an.sh's, from the run's sb.met"
        return replace(cost, **published)

    def _counters(self, key: dict, qps: float, stat: perf_stat.PerfStat, path: Path,
                  duration_s: float | None) -> None:
        published = self.paths.published(path)
        per = metrics.per_query(qps, stat, window_s=duration_s)
        values = {"cpu_ms_per_query": per.cpu_ms, "cs_per_query": per.context_switches,
                  "instructions_per_query": per.instructions, "cycles_per_query": per.cycles,
                  "bus_cycles_per_query": per.bus_cycles, "ipc": per.ipc}
        for metric, value in values.items():
            if value is not None:
                self.rows["counters"].append({**key, "metric": metric, "value": value, "file": published,
                                              "line": stat.blocks[0].line if stat.blocks else 1,
                                              "_file": self.paths.rel(path), "_line": 1, "_cols": {}})
        missing = sorted({(c.event, c.status) for b in stat.blocks for c in b.counters if c.value is None})
        for event, status in missing:
            self._file(published, "perf stat", status, event)
        counted = sorted({c.event for b in stat.blocks for c in b.counters if c.value is not None})
        clocks = [e for e in counted if e.split(":")[0] in ("task-clock", "cpu-clock")]
        if per.cpu_ms is None and clocks:
            self._file(published, "perf stat", "not used",
                       f"{clocks[0]}: system-wide (-a) counts every CPU's wall time, not the server's")
        if all(v is None for v in values.values()) and counted and not clocks:
            self._file(published, "perf stat", "not used", "no per-query counter among " + ", ".join(counted))

    def profile(self, profile: Profile) -> None:
        key = {"campaign": self.campaign, "build": profile.build, "config": profile.config,
               "microbenchmark": profile.test, "range": profile.range, "threads": profile.threads}
        ids = {"server": self.server, "_file": "", "_line": 1, "_cols": {}}
        if "folded" not in profile.files and "perf-report" not in profile.files:
            self._missing(profile, "folded")
        stacks = self._parse(profile, "folded", "folded stacks")
        if isinstance(stacks, folded.Folded):
            path = profile.files["folded"]
            self.rows["profiles"].append({**key, **ids, "source": "folded", "event": None,
                                          "file": self.paths.published(path), "_file": self.paths.rel(path)})
            self.rows["profile_stacks"] += [{**key, "frames": list(s.frames), "weight": s.weight,
                                             "line": s.line} for s in stacks.stacks if s.weight > 0]
        reports = self._samples(profile, "perf-report", "perf report", perf_report.PerfReport)
        if reports:
            path = profile.files["perf-report"]
            event = next(iter(reports.values())).event
            self.rows["profiles"].append({**key, **ids, "source": "perf report", "event": event,
                                          "file": self.paths.published(path), "_file": self.paths.rel(path)})
            weights = raw_samples.report_weights(reports)
            for k, report in reports.items():
                w = weights[k]
                self.rows["profile_report"] += [
                    {**key, "sample": k, "symbol": r.symbol, "dso": r.dso, "self_pct": r.self_pct * w,
                     "children_pct": None if r.children_pct is None else r.children_pct * w, "line": r.line}
                    for r in report.rows]


def _printed(value: float | None) -> float | None:
    """A tps or latency of sysbench for the results row, where 0 is left empty. sysbench prints them
    to 2 decimals, so 0.00 is a value under 0.005, not an impossible one: a memory test's average
    latency at 7 million events/s (tests/fixtures/raw/sysbench/sb-1.0-memory.txt), or the tps of a run
    whose events outlast it. The parser keeps it as printed (it refuses only negative and non-finite
    values, at their line and column); results.csv's columns hold positive values only."""
    return value if value else None
