"""The data contract v1: which files exist, their columns and what each column holds.

data/README.md documents the same contract for people; tests/test_docs.py keeps the two in step.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_+-]{0,79}"
GROUPS = ("point", "range", "write", "other")
# A series of a version ladder, and of a known regression, is named "<microbenchmark> range <range>"
# (derive/ladders.py series_name); so a microbenchmark's own name must not end that way.
SERIES_RANGE = re.compile(r" range -?\d+$")
GROUPS4 = ("point", "range-noagg", "range-agg", "write")
STATUSES = ("open", "explained", "fixed")

# Limits keep a hostile or mistaken file from exhausting the build.
MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_LINE_CHARS = 4096
MAX_ROWS = 200_000
# Files under one campaign folder (raw outputs included): each is published and listed on its page.
MAX_CAMPAIGN_FILES = 10_000
# A string value in a TOML file (title, notes, ...), as a CSV line.
MAX_TOML_CHARS = 4096
# The README of a raw campaign, shown on its page.
MAX_README_BYTES = 256 * 1024


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # id | ids | text | name | int | float | ratio | date | url | enum | settings | version
    required: bool = False
    refers: str | None = None  # catalog the value must exist in
    choices: tuple[str, ...] = ()
    minimum: float | None = None  # inclusive
    positive: bool = False  # strictly > 0
    maximum: float | None = None


@dataclass(frozen=True)
class Table:
    name: str  # DuckDB table name
    file: str  # file name inside data/ or a campaign folder
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    per_campaign: bool = False

    def column(self, name: str) -> Column:
        return self._by_name[name]

    @cached_property  # asked once per field of every row read: a dict, not a scan of the columns
    def _by_name(self) -> dict[str, Column]:
        return {c.name: c for c in self.columns}


def _c(name, kind, required=False, **kw) -> Column:
    return Column(name, kind, required, **kw)


SOURCES = Table("sources", "sources.csv", (
    _c("id", "id", True), _c("title", "text", True), _c("author", "text", True),
    _c("date", "date"), _c("publication", "text"), _c("url", "url"), _c("notes", "text"),
), key=("id",))

SERVERS = Table("servers", "servers.csv", (
    _c("id", "id", True), _c("aliases", "ids"), _c("cpu_model", "text"),
    _c("sockets", "int", minimum=1, maximum=64), _c("cores", "int", minimum=1, maximum=100_000),
    _c("smt", "enum", choices=("on", "off")), _c("ram_gb", "int", minimum=1, maximum=1_000_000),
    _c("os", "text"), _c("storage", "text"), _c("notes", "text"),
    _c("source", "id", True, refers="sources"),
), key=("id",))

# How the site names each DBMS of builds.csv.
DBMS_NAMES = {"mysql": "MySQL", "fbmysql": "FB MySQL", "percona": "Percona Server", "mariadb": "MariaDB",
              "postgres": "Postgres"}


def dbms_name(dbms: str) -> str:
    return DBMS_NAMES.get(dbms, dbms)


BUILDS = Table("builds", "builds.csv", (
    _c("id", "id", True),
    _c("dbms", "enum", True, choices=tuple(DBMS_NAMES)),
    _c("engine", "id", True), _c("version", "version", True), _c("compiler", "text"),
    _c("flags", "text"), _c("git_hash", "text"), _c("notes", "text"),
    _c("source", "id", True, refers="sources"),
), key=("id",))

CONFIGS = Table("configs", "configs.csv", (
    _c("id", "id", True), _c("settings", "settings"), _c("notes", "text"),
    _c("source", "id", True, refers="sources"),
), key=("id",))

MICROBENCHMARKS = Table("microbenchmarks", "microbenchmarks.csv", (
    _c("name", "name", True), _c("group", "enum", True, choices=GROUPS),
    _c("group4", "enum", choices=GROUPS4), _c("unit", "text", True),
    _c("description", "text", True), _c("source", "id", True, refers="sources"),
), key=("name",))

_RUN = (
    _c("server", "id", True, refers="servers"), _c("build", "id", True, refers="builds"),
    _c("config", "id", True, refers="configs"),
)
_MB = (
    _c("microbenchmark", "name", True, refers="microbenchmarks"),
    _c("range", "int", minimum=1, maximum=1_000_000_000),
)
_THREADS = _c("threads", "int", True, minimum=1, maximum=1_000_000)
_BASE = (
    _c("base_build", "id", True, refers="builds"), _c("base_config", "id", True, refers="configs"),
)

RESULTS = Table("results", "results.csv", (
    *_RUN, *_MB, _THREADS, _c("repetition", "int", minimum=1, maximum=100_000),
    _c("qps", "float", True, positive=True, maximum=1e10),
    _c("tps", "float", positive=True, maximum=1e10),
    _c("latency_avg_ms", "float", positive=True, maximum=1e9),
    _c("latency_p95_ms", "float", positive=True, maximum=1e9),
    _c("cpu_per_op", "float", minimum=0, maximum=1e9),
    _c("cs_per_op", "float", minimum=0, maximum=1e9),
    _c("rkb_per_op", "float", minimum=0, maximum=1e9),
    _c("wkb_per_op", "float", minimum=0, maximum=1e9),
    _c("r_per_op", "float", minimum=0, maximum=1e9),
), key=("server", "build", "config", "microbenchmark", "range", "threads", "repetition"),
    per_campaign=True)

RELATIVE = Table("relative", "relative.csv", (
    _c("server", "id", True, refers="servers"), _THREADS, *_BASE,
    _c("build", "id", True, refers="builds"), _c("config", "id", True, refers="configs"),
    *_MB, _c("rqps", "ratio", True, positive=True, maximum=1000),
), key=("server", "threads", "base_build", "base_config", "build", "config",
        "microbenchmark", "range"), per_campaign=True)

SUMMARIES = Table("summaries", "summaries.csv", (
    _c("server", "id", True, refers="servers"), _THREADS, *_BASE,
    _c("build", "id", True, refers="builds"), _c("config", "id", True, refers="configs"),
    _c("group", "enum", True, choices=GROUPS[:3]),
    *(_c(s, "ratio", True, positive=True, maximum=1000) for s in ("min", "max", "avg", "median")),
), key=("server", "threads", "base_build", "base_config", "build", "config", "group"),
    per_campaign=True)

OBSERVATIONS = Table("observations", "observations.csv", (
    _c("measure", "text", True), _c("subject", "text", True), _c("x_label", "text"),
    _c("x", "float", minimum=-1e15, maximum=1e15), _c("value", "float", True, minimum=-1e15, maximum=1e15),
    _c("unit", "text", True), _c("server", "id", refers="servers"), _c("note", "text"),
), key=("measure", "subject", "x"), per_campaign=True)

CATALOGS = (SOURCES, SERVERS, BUILDS, CONFIGS, MICROBENCHMARKS)
CAMPAIGN_TABLES = (RESULTS, RELATIVE, SUMMARIES, OBSERVATIONS)
ALL_TABLES = CATALOGS + CAMPAIGN_TABLES

# campaign.toml: key -> (type, required)
CAMPAIGN_KEYS: dict[str, tuple[str, bool]] = {
    "title": ("text", True),
    "source": ("source", True),
    "contributor": ("text", True),
    "date": ("date", True),
    "sysbench": ("text", True),
    "tables": ("int", False),
    "rows_per_table": ("int", False),
    "duration_read_s": ("int", False),
    "duration_write_s": ("int", False),
    "base_build": ("build", False),
    "base_config": ("config", False),
    "notes": ("text", False),
    # Raw campaigns (a raw/ folder of tool outputs, parsed on every build: load_raw.py)
    "server": ("server", False),
    "raw_layout": ("text", False),
    "iostat_device": ("text", False),
    "iostat_command": ("text", False),  # how iostat ran: without -y its first report is since boot
    # mytools summary tables that do not say their thread count (validate/archive.py)
    "threads": ("int", False),
    # ... and the config of sum_met_dop.sh tables, which name builds and thread counts only
    "config": ("config", False),
    # Builds (or build.config variants) the campaign measured to compare, not as a release of the
    # version ladder: a patched or rebuilt build beside its release (derive/ladders.py).
    "comparison_only": ("variants", False),
}
RAW_LAYOUTS = ("papercuts", "mytools")
# The largest value of each whole-number key of campaign.toml and calibration.toml: beyond any
# real run, and within the DuckDB column it is stored in (INTEGER stops at 2**31 - 1).
# The largest thread count, the one source of it: results.csv's threads column, campaign.toml's
# threads and papercuts import mytools --threads all allow 1 to MAX_THREADS.
MAX_THREADS = int(_THREADS.maximum)
TOML_INT_MAXIMUM: dict[str, int] = {"tables": 1_000_000, "rows_per_table": 10**12, "duration_read_s": 10**7,
                                    "duration_write_s": 10**7, "threads": MAX_THREADS, "cores": 100_000}

# Per-operation costs: metric -> (short name as the seeds write it, what it is, unit, tool).
# The first five are results.csv columns (as mytools' an.sh defines them, q = operations/s);
# the rest come from `perf stat -p <server>` in raw campaigns. Lower is better but for IPC.
OP_COSTS: dict[str, tuple[str, str, str, str]] = {
    "cpu_per_op": ("cpu/o", "CPU per operation: mean(us + sy) / q", "(us+sy)% / (ops/s)", "vmstat"),
    "cs_per_op": ("cs/o", "context switches per operation", "switches", "vmstat"),
    "r_per_op": ("r/o", "reads per operation", "reads", "iostat"),
    "rkb_per_op": ("rKB/o", "KB read per operation", "KB", "iostat"),
    "wkb_per_op": ("wKB/o", "KB written per operation", "KB", "iostat"),
    "cpu_ms_per_query": ("cpu ms/q", "server CPU time (task-clock) per query", "ms", "perf stat"),
    "cs_per_query": ("cs/q", "server context switches per query", "switches", "perf stat"),
    "instructions_per_query": ("instructions/q", "instructions per query", "instructions", "perf stat"),
    "cycles_per_query": ("cycles/q", "cycles per query", "cycles", "perf stat"),
    "bus_cycles_per_query": ("bus-cycles/q", "bus cycles per query", "cycles", "perf stat"),
    "ipc": ("IPC", "instructions per cycle", "instructions/cycle", "perf stat"),
}

# Calibrations (data/calibrations/<YYYY-MM-DD>-<server>-<label>/): what one server's spin-wait
# building blocks cost. Loaded by load_calibrations.py, checked by checks_calibrations.py.
FLAGS = ("O2", "O3", "native")
UPPER_BOUNDS = ("excluded", "included")
INNODB_FUNCTIONS = ("ut_rnd_interval", "ut::random_from_interval", "ut::random_from_interval_fast")
# constants.csv: name -> the unit its value must be written in.
CONSTANT_UNITS: dict[str, str] = {
    "pause_tsc_cycles": "cycles",
    "pause_ns": "ns",
    "tsc_ghz": "GHz",
    "clock_overhead_ns": "ns",
    "pause_multiplier": "pauses",
    "innodb_spin_wait_delay": "delay units",
    "cycle_timer_overhead": "cycles",
    "timebase_mhz": "MHz",
}
_SPREAD = (_c("calls", "int", minimum=1, maximum=1e12), _c("repetitions", "int", minimum=1, maximum=100_000))

UT_DELAY = Table("calibration_ut_delay", "ut_delay.csv", (
    _c("series", "name", True), _c("version", "version"), _c("flags", "enum", choices=FLAGS),
    _c("delay", "int", True, minimum=0, maximum=100_000),
    _c("multiplier", "int", minimum=1, maximum=1_000_000),
    _c("us_per_call", "float", True, minimum=0, maximum=1e7), *_SPREAD,
    *(_c(s, "float", minimum=0, maximum=1e7) for s in ("stddev_us", "min_us", "max_us")),
    _c("note", "text"),
), key=("series", "delay"))

PRNG = Table("calibration_prng", "prng.csv", (
    _c("function", "name", True), _c("innodb_function", "enum", choices=INNODB_FUNCTIONS),
    _c("version", "version"), _c("flags", "enum", True, choices=FLAGS),
    _c("upper_bound", "enum", choices=UPPER_BOUNDS), _c("n", "int", minimum=1, maximum=1_000_000),
    _c("ns_per_call", "float", True, minimum=0, maximum=1e9), *_SPREAD,
    *(_c(s, "float", minimum=0, maximum=1e9) for s in ("stddev_ns", "min_ns", "max_ns")),
    _c("mean_draw", "float", minimum=0, maximum=1e6), _c("note", "text"),
), key=("function", "version", "flags", "upper_bound"))

CALIBRATION_CONSTANTS = Table("calibration_constants", "constants.csv", (
    _c("name", "enum", True, choices=tuple(CONSTANT_UNITS)),
    _c("value", "float", True, minimum=0, maximum=1e12), _c("unit", "text", True),
    _c("repetitions", "int", minimum=1, maximum=100_000),
    *(_c(s, "float", minimum=0, maximum=1e12) for s in ("stddev", "min", "max")),
    _c("note", "text"),
), key=("name",))

CALIBRATION_TABLES = (UT_DELAY, PRNG, CALIBRATION_CONSTANTS)
# The column whose printed text is kept beside its value ("0.00" stays "0.00").
PRINTED = {"calibration_ut_delay": "us_per_call", "calibration_prng": "ns_per_call",
           "calibration_constants": "value"}
CPU_FEATURES = ("pause", "rdtsc", "crc32")

# calibration.toml: key -> (type, required)
CALIBRATION_KEYS: dict[str, tuple[str, bool]] = {
    "title": ("text", True),
    "server": ("server", True),
    "source": ("source", True),
    "contributor": ("text", True),
    "date": ("date", True),
    "method": ("text", True),
    "cpu_model": ("text", False),
    "cores": ("int", False),
    "arch": ("text", False),
    "kernel": ("text", False),
    "compiler": ("text", False),
    "missing": ("features", False),
    "campaign": ("campaign", False),
    "measure": ("text", False),
    "notes": ("text", False),
}
