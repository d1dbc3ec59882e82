"""sysbench text output (0.5, 1.0 and 1.1; OLTP Lua tests and the cpu/memory/mutex tests).

One statistics report is a run of known `key: value` lines that ends with
`execution time (avg/stddev):`. `--report-checkpoints` prints complete reports first, each counting
only its own interval (the final report too, then: it covers the time since the last checkpoint),
so `SysbenchRun.qps` sums them over the cumulative total time and `latency_avg_ms` takes the same
window (latency sums over events); their percentiles do not combine into the run's. 1.0 says
`General statistics`/`total time`, 1.1 `Throughput`/`time elapsed`; 0.5 has no `queries:` line
(QPS is read/write requests + other operations) and writes `2.04ms`. Intermediate reports come as
`[ 1s ]` lines, or from the Lua report hooks as CSV lines or a JSON array (sysbench_hooks).
EXPLAIN text from custom Lua scripts, histogram bars and warm-up messages are not results and are
kept apart or skipped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import sysbench_hooks
from .errors import Gap, ParseError, blank
from .numbers import not_a_number, out_of_range, plain, strip_unit

HINT = "this does not look like complete sysbench output; rerun the test or remove the file"


@dataclass(frozen=True)
class Interval:
    """One `--report-interval` line."""

    line: int
    time_s: float
    threads: int | None = None
    tps: float | None = None
    qps: float | None = None
    eps: float | None = None
    reads_per_s: float | None = None
    writes_per_s: float | None = None
    other_per_s: float | None = None
    latency_ms: float | None = None
    latency_pct: float | None = None
    errors_per_s: float | None = None
    reconnects_per_s: float | None = None


@dataclass(frozen=True)
class Report:
    """One statistics report: the final one, or a `--report-checkpoints` one (checkpoint_s set)."""

    line: int
    checkpoint_s: float | None = None
    reads: int | None = None
    writes: int | None = None
    other: int | None = None
    queries_total: int | None = None
    transactions: int | None = None
    tps: float | None = None
    queries: int | None = None
    qps: float | None = None
    ignored_errors: int | None = None
    reconnects: int | None = None
    deadlocks: int | None = None
    rw_requests_per_s: float | None = None  # 0.5
    other_operations_per_s: float | None = None  # 0.5
    total_time_s: float | None = None
    events: int | None = None
    events_per_s: float | None = None  # 1.1 "events/s (eps)", cpu "events per second"
    operations_per_s: float | None = None  # memory test
    mib_per_s: float | None = None  # memory test
    latency_min_ms: float | None = None
    latency_avg_ms: float | None = None
    latency_max_ms: float | None = None
    latency_sum_ms: float | None = None
    percentiles: tuple[tuple[float, float], ...] = ()  # (percentile, ms); may be < min (histogram buckets)

    @property
    def query_rate(self) -> float | None:
        """Queries per second of this report (0.5: read/write requests + other operations)."""
        if self.qps is not None:
            return self.qps
        if self.rw_requests_per_s is not None:
            return self.rw_requests_per_s + (self.other_operations_per_s or 0.0)
        return None


@dataclass(frozen=True)
class SysbenchRun:
    version: str | None  # "1.0.20", "1.1.0-3ceba0b", "0.5"
    threads: int | None
    command: str | None  # the command line when a wrapper wrote it first (mytools, run.sh)
    cpus: int | None  # mytools' second line, "8 CPUs"
    test: str | None  # Lua script or built-in test, from the command line
    final: Report
    checkpoints: tuple[Report, ...] = ()
    intervals: tuple[Interval, ...] = ()
    explain: tuple[str, ...] = ()
    histogram: tuple[tuple[float, int], ...] = ()

    def option(self, name: str) -> str | None:
        """`--<name>=<value>` from the command line a wrapper wrote first (mytools' run.sh and
        Papercuts' do): sysbench itself never prints options such as --table-size."""
        if not self.command:
            return None
        values = re.findall(rf"(?:^|\s)--{re.escape(name)}=(\S+)", self.command)
        return values[-1] if values else None  # sysbench takes the last one given

    @property
    def qps(self) -> float | None:
        """Queries/s over the whole run, checkpoints included."""
        if not self.checkpoints:
            return self.final.query_rate
        reports = (*self.checkpoints, self.final)
        if any(r.queries_total is None for r in reports) or not self.final.total_time_s:
            return None
        return sum(r.queries_total for r in reports) / self.final.total_time_s

    @property
    def latency_avg_ms(self) -> float | None:
        """Mean latency over the same window as `qps` (the whole run): with checkpoints, every
        report's latency sum over every report's events."""
        if not self.checkpoints:
            return self.final.latency_avg_ms
        reports = (*self.checkpoints, self.final)
        if any(r.latency_sum_ms is None or r.events is None for r in reports):
            return None
        events = sum(r.events for r in reports)
        return sum(r.latency_sum_ms for r in reports) / events if events else None

    def percentile_ms(self, pct: float) -> float | None:
        """The run's latency percentile; None with checkpoints, whose reports each give their own
        window's percentile and together do not give the run's."""
        if self.checkpoints:
            return None
        return next((ms for p, ms in self.final.percentiles if p == pct), None)

    @property
    def tps(self) -> float | None:
        if not self.checkpoints:
            return self.final.tps
        reports = (*self.checkpoints, self.final)
        if any(r.transactions is None for r in reports) or not self.final.total_time_s:
            return None
        return sum(r.transactions for r in reports) / self.final.total_time_s


_EXPLAINED = ("explain", "for ", "table ", "->")  # prose before the test that is its queries' plans
_VERSION = re.compile(r"^sysbench (\d[\w.\-]*?):?(?:\s|$)")
_COMMAND = re.compile(r"\s(run|prepare|cleanup)(\s|$)")
_CPUS = re.compile(r"(\d+) CPUs")
_THREADS = re.compile(r"Number of threads: (\d+)")
_COUNT_RATE = re.compile(r"^(\d+)\s*\((\d+(?:\.\d+)?) per sec\.\)$")
_CHECKPOINT = re.compile(r"^\[\s*(\d+(?:\.\d+)?)s\s*\] Checkpoint report:$")
_INTERVAL = re.compile(r"^\[\s*(\d+(?:\.\d+)?)s\s*\]\s+(.*)$")
_PERCENTILE = re.compile(r"^(?:(\d+(?:\.\d+)?)th percentile|approx\.\s+(\d+(?:\.\d+)?) percentile)$")
_HISTOGRAM = re.compile(r"^(\d+(?:\.\d+)?) \|\**\s+(\d+)$")
_MEMORY_OPS = re.compile(r"^Total operations: (\d+) \((\d+(?:\.\d+)?) per second\)$")
_MEMORY_MIB = re.compile(r"^(\d+(?:\.\d+)?) MiB transferred \((\d+(?:\.\d+)?) MiB/sec\)$")
_SECTIONS = {"SQL statistics:", "OLTP test statistics:", "General statistics:", "Throughput:",
             "Latency (ms):", "Threads fairness:", "queries performed:", "CPU speed:",
             "response time:", "Latency histogram (values are in milliseconds)"}
# key -> (field, kind): int, float (a time or latency, unit suffix allowed), count_rate, rate
_KEYS = {
    "read": ("reads", "int"), "write": ("writes", "int"), "other": ("other", "int"),
    "total": ("queries_total", "int"), "transactions": ("transactions", "count_rate"),
    "queries": ("queries", "count_rate"), "ignored errors": ("ignored_errors", "count_rate"),
    "reconnects": ("reconnects", "count_rate"), "deadlocks": ("deadlocks", "count_rate"),
    "read/write requests": ("rw_requests_per_s", "rate"),
    "other operations": ("other_operations_per_s", "rate"),
    "total time": ("total_time_s", "float"), "time elapsed": ("total_time_s", "float"),
    "total number of events": ("events", "int"), "events/s (eps)": ("events_per_s", "float"),
    "events per second": ("events_per_s", "float"),
    "min": ("latency_min_ms", "float"), "avg": ("latency_avg_ms", "float"),
    "max": ("latency_max_ms", "float"), "sum": ("latency_sum_ms", "float"),
    "total time taken by event execution": (None, "float"),
    "events (avg/stddev)": (None, "any"), "percentile stats": (None, "any"),
}
_COUNT_RATE_FIELDS = {"transactions": "tps", "queries": "qps"}
_INTERVAL_KEYS = {"thds": "threads", "threads": "threads", "tps": "tps", "qps": "qps", "eps": "eps",
                  "reads/s": "reads_per_s", "reads": "reads_per_s", "writes/s": "writes_per_s",
                  "writes": "writes_per_s", "err/s": "errors_per_s", "errors": "errors_per_s",
                  "reconn/s": "reconnects_per_s", "reconnects": "reconnects_per_s"}


def _interval(lineno: int, time_s: float, rest: str, path: str) -> Interval:
    values: dict = {"line": lineno, "time_s": time_s}
    m = re.search(r"\(r/w/o: ([\d.]+)/([\d.]+)/([\d.]+)\)", rest)
    if m:
        values.update(reads_per_s=float(m[1]), writes_per_s=float(m[2]), other_per_s=float(m[3]))
        rest = rest.replace(m[0], " ")
    m = re.search(r"lat \(ms,([\d.]+)%\):\s*([\d.]+)|response time:\s*([\d.]+)ms \(([\d.]+)%\)", rest)
    if m:
        values["latency_ms"] = float(m[2] or m[3])
        values["latency_pct"] = float(m[1] or m[4])
        rest = rest.replace(m[0], " ")
    # "err/s 0.00" (Lua report_default) and "err/s: 0.00" (built-in) both occur, commas in 0.5.
    for key, value in re.findall(r"([a-z/]+):?\s+(\d+(?:\.\d+)?),?", rest):
        if key not in _INTERVAL_KEYS:
            raise ParseError(path, lineno, f"unknown field '{key}' in an intermediate report", HINT)
        name = _INTERVAL_KEYS[key]
        values[name] = int(value) if name == "threads" else float(value)
    return Interval(**values)


class _Reader:
    """Reads one sysbench output line by line: the header (command, version, threads), the
    prepare/explain prose, intermediate reports, checkpoints and the final statistics."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.version = self.threads = self.command = self.cpus = None
        self.reports: list[Report] = []
        self.intervals: list[Interval] = []
        self.explain: list[str] = []
        self.histogram: list[tuple[float, int]] = []
        self.current: dict | None = None
        self.started = False
        self.fatal: tuple[int, str] | None = None
        self.json = sysbench_hooks.JsonReports(path)

    def close(self) -> None:
        if self.current is not None:
            self.reports.append(Report(**self.current))
            self.current = None

    def open(self, lineno: int) -> dict:
        if self.current is None:
            self.current = {"line": lineno}
        return self.current

    def line(self, lineno: int, raw: str) -> None:
        self.raw = raw  # for the column of a bad value
        line = raw.strip()
        if line and not self._header(lineno, raw, line) and self.started:
            self._body(lineno, line)

    def prose(self, lines: list[str]) -> int:
        """The lines before the test starts, read as line() reads them, in a loop of their own:
        mytools' outputs hold thousands of explain lines there (x100's shipped data: 720,000 of
        its 1.07 million sysbench lines, 1 s of its validate stage's CPU read one call at a time).
        Only a line that can be the header's goes through line(); returns how many were read."""
        explain = self.explain
        for i, raw in enumerate(lines):
            line = raw.strip()
            if not line:
                continue
            if i < 2 or line.startswith(("sysbench ", "Number of threads: ", "Threads started!")):
                self.line(i + 1, raw)
                if self.started:
                    return i + 1
            elif line.startswith(_EXPLAINED) or raw.startswith("\t"):
                explain.append(raw.rstrip())
        return len(lines)

    def _header(self, lineno: int, raw: str, line: str) -> bool:
        """True if the line was the header's (or prose before the test started). A new kind of
        header line must be routed to line() by prose() too (its first two lines and prefixes)."""
        if lineno == 1 and not _VERSION.match(line) and _COMMAND.search(line):
            self.command = line
        elif lineno == 2 and self.command and (m := _CPUS.fullmatch(line)):
            self.cpus = int(m[1])
        elif self.version is None and (m := _VERSION.match(line)):
            self.version = m[1]
        elif line.startswith("Number of threads: ") and (m := _THREADS.fullmatch(line)):
            self.threads = int(m[1])
        elif line == "Threads started!":
            self.started = True
        elif not self.started:
            if line.startswith(_EXPLAINED) or raw.startswith("\t"):
                self.explain.append(raw.rstrip())
        else:
            return False
        return True

    def _body(self, lineno: int, line: str) -> None:
        if line.startswith("FATAL:") and self.fatal is None:
            self.fatal = (lineno, line)
        if (hooked := self.json.take(lineno, line, self.raw)) is not None:
            self.intervals += [Interval(**fields) for fields in hooked]
        elif fields := sysbench_hooks.csv_interval(lineno, line, self.path, self.raw):
            self.intervals.append(Interval(**fields))
        elif m := _CHECKPOINT.match(line):
            self.close()
            self.current = {"line": lineno, "checkpoint_s": float(m[1])}
        elif m := _INTERVAL.match(line):
            self.intervals.append(_interval(lineno, float(m[1]), m[2], self.path))
        elif m := _HISTOGRAM.match(line):
            self.histogram.append((float(m[1]), int(m[2])))
        elif line in _SECTIONS:
            if not line.startswith("Latency histogram"):
                self.open(lineno)
        elif m := _MEMORY_OPS.match(line):
            self.open(lineno)["operations_per_s"] = float(m[2])
        elif m := _MEMORY_MIB.match(line):
            self.open(lineno)["mib_per_s"] = float(m[2])
        else:
            key, sep, value = line.partition(":")
            if sep:  # else prose: warnings, "Running the test with following options", ...
                self._field(lineno, re.sub(r"\s+", " ", key), value.strip())

    def _bad(self, lineno: int, message: str) -> ParseError:
        """A ParseError at the value after the line's first colon."""
        _, _, after = self.raw.partition(":")
        column = len(self.raw) - len(after.lstrip()) + 1
        return ParseError(self.path, lineno, message, HINT, column)

    def _checked(self, lineno: int, key: str, value: float) -> float:
        """sysbench prints no negative count, time or latency (nor one over 1e15): an edited file."""
        if wrong := out_of_range(value, key):
            raise self._bad(lineno, wrong)
        return value

    def _field(self, lineno: int, key: str, value: str) -> None:
        current = self.open(lineno)
        if key == "execution time (avg/stddev)":
            self.close()
            return
        if m := _PERCENTILE.fullmatch(key):
            number = plain(strip_unit(value, "ms"))
            if number is None:
                raise self._bad(lineno, f"{not_a_number(value)}: not a latency")
            current["percentiles"] = (*current.get("percentiles", ()),
                                      (float(m[1] or m[2]), self._checked(lineno, key, number)))
            return
        name, kind = _KEYS.get(key, (None, "any"))
        if kind == "any" or name is None and kind != "float":
            return
        if kind in ("count_rate", "rate"):
            m = _COUNT_RATE.fullmatch(value)
            if not m:
                raise ParseError(self.path, lineno, f"'{key}: {value}' is not 'count (rate per sec.)'", HINT)
            count, rate = int(m[1]), self._checked(lineno, f"{key} per second", float(m[2]))
            self._checked(lineno, key, count)
            if kind == "rate":
                current[name] = rate
            else:
                current[name] = count
                if key in _COUNT_RATE_FIELDS:
                    current[_COUNT_RATE_FIELDS[key]] = rate
            return
        number = plain(strip_unit(value, "ms", "s"))
        if number is None:
            raise self._bad(lineno, f"{not_a_number(strip_unit(value, 'ms', 's'))} in '{key}: {value}'")
        if kind == "int" and not number.is_integer():
            raise self._bad(lineno, f"'{key}: {value}' is not a whole number")
        self._checked(lineno, key, number)
        if name is not None:
            current[name] = int(number) if kind == "int" else number

    def result(self) -> SysbenchRun:
        self.json.close()
        if self.current is not None and len(self.current) > 1:
            self.close()
        if not self.reports:
            where, what = self.fatal or (1, "")
            raise ParseError(self.path, where, "no final statistics in sysbench output"
                             + (f": {what}" if what else ""), HINT)
        test = None
        if self.command:
            words = [w for w in self.command.split() if not w.startswith("-") and "=" not in w]
            names = [w.rsplit("/", 1)[-1].removesuffix(".lua") for w in words[1:]
                     if w not in ("run", "prepare", "cleanup")]
            test = names[0] if names else None
        return SysbenchRun(version=self.version, threads=self.threads, command=self.command, cpus=self.cpus,
                           test=test, final=self.reports[-1], checkpoints=tuple(self.reports[:-1]),
                           intervals=tuple(self.intervals), explain=tuple(self.explain),
                           histogram=tuple(self.histogram))


def parse(text: str, path: str = "<sysbench>") -> SysbenchRun | Gap:
    if blank(text):
        return Gap(path, "empty")
    reader = _Reader(path)
    lines = text.splitlines()
    read = reader.prose(lines)
    for lineno, raw in enumerate(lines[read:], start=read + 1):
        reader.line(lineno, raw)
    return reader.result()
