"""`perf stat` output: the human format, `-x<sep>` CSV and `-j` JSON, into one shape.

Human format: values follow LC_NUMERIC ('2,782.06' en_US, '2.624,89' de_DE, '2782.06' C), so the
decimal separator is read per block from its `msec` and `seconds time elapsed` lines. `<not
supported>` and `<not counted>` are missing values (never 0 or -1). A trailing `(83.39%)` (or
`[31,97%]` from old perf) is the share of time the counter ran (multiplexing); `( +- 0.03% )` is
the `-r` variance. `-o file --append` writes one `# started on` block per event group; `-I` puts a
timestamp first and `-a -A` a CPU name. CSV fields are located per line (optional time, cpu and
variance fields); JSON holds the value as a string.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from .errors import Gap, ParseError, blank
from .numbers import localized, not_a_number, out_of_range, plain

HINT = "regenerate it with perf stat (-o FILE), or remove the file"
MISSING = ("<not supported>", "<not counted>")


@dataclass(frozen=True)
class Counter:
    event: str
    value: float | None  # None when <not supported> or <not counted>
    status: str = "counted"  # "counted", "not supported" or "not counted"
    unit: str = ""  # "msec" for task-clock/cpu-clock
    metric_value: float | None = None
    metric_unit: str = ""
    running_pct: float | None = None  # multiplexing; None means it ran all the time
    variance_pct: float | None = None  # -r N
    time_s: float | None = None  # -I
    cpu: str | None = None  # -a -A
    line: int = 0


@dataclass(frozen=True)
class Block:
    """One `Performance counter stats for ...` report (one `# started on` group with --append)."""

    line: int
    target: str | None = None  # "process id '1212339'", "'sysbench cpu run'", "'system wide'"
    started: str | None = None
    runs: int | None = None
    counters: tuple[Counter, ...] = ()
    elapsed_s: float | None = None
    user_s: float | None = None
    sys_s: float | None = None


@dataclass(frozen=True)
class PerfStat:
    blocks: tuple[Block, ...] = field(default_factory=tuple)

    def counter(self, event: str) -> tuple[Counter, Block] | None:
        """The first counted value of `event` (ignoring `:u`/`:k` suffixes), with its block."""
        for block in self.blocks:
            for c in block.counters:
                if c.event.split(":")[0] == event and c.time_s is None and c.cpu is None:
                    if c.value is not None:
                        return c, block
        return None

    def value(self, event: str) -> float | None:
        found = self.counter(event)
        return found[0].value if found else None


_STARTED = re.compile(r"^# started on (.+)$")
_HEADER = re.compile(r"^Performance counter stats for (.+?)(?: \((\d+) runs\))?:$")
_ELAPSED = re.compile(r"^(\S+)(?: \+- \S+)? seconds (time elapsed|user|sys)")
_VALUE = r"<not supported>|<not counted>|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d[\d.,]*"
_COUNTER = re.compile(
    rf"^(?:(?P<time>\d+\.\d+)\s+)?(?:(?P<cpu>CPU\d+|S\d+(?:-D\d+)?(?:-C\d+)?)\s+(?:\d+\s+)?)?"
    rf"(?P<value>{_VALUE})\s+(?:(?P<unit>msec)\s+)?(?P<event>[A-Za-z_][^\s#]*(?: \(msec\))?)"
    rf"(?P<rest>.*)$")
_RUNNING = re.compile(r"[(\[]\s*(\d+(?:[.,]\d+)?)%\s*[)\]]\s*$")
_VARIANCE = re.compile(r"\(\s*\+-\s*(\d+(?:[.,]\d+)?)%\s*\)")
_METRIC = re.compile(r"#\s*(\S+)\s*(.*?)\s*$")


def _checked(value: float, name: str, path: str, lineno: int, column: int, maximum: float = math.inf) -> float:
    """A counter value or time perf stat can print, else a ParseError at its column: never negative
    or non-finite. A count has no plausible maximum (cycles over an hour of a 192-CPU system-wide run
    pass 1e15, numbers.MAX_PLAUSIBLE); a time has that one."""
    if wrong := out_of_range(value, name, maximum=maximum):
        raise ParseError(path, lineno, wrong, HINT, column)
    return value


def _decimal(lines: list[str]) -> str:
    """',' when this block's msec or elapsed values use a decimal comma, else '.'."""
    for line in lines:
        m = re.search(r"(\d[\d.,\u00a0\u202f ]*)\s+(?:msec|seconds time elapsed)", line)
        if m:
            digits = m[1].strip()
            last = max(digits.rfind("."), digits.rfind(","))
            if last >= 0:
                return digits[last]
    return "."


def _human_counter(line: str, lineno: int, decimal: str, path: str, lead: int = 0) -> Counter | None:
    """One counter line (stripped; `lead` characters of indentation cut from it)."""
    m = _COUNTER.match(line)
    if not m:
        return None
    text = m["value"]
    status = {"<not supported>": "not supported", "<not counted>": "not counted"}.get(text, "counted")
    value = None if status != "counted" else localized(text, decimal)
    if status == "counted" and value is None:
        raise ParseError(path, lineno, f"{not_a_number(text)}: not a counter value", HINT, lead + m.start("value") + 1)
    if value is not None:
        _checked(value, m["event"], path, lineno, lead + m.start("value") + 1)
    rest, event, unit = m["rest"], m["event"], m["unit"] or ""
    if event.endswith(" (msec)"):  # perf <= 4.x: "1249.500900      task-clock (msec)"
        event, unit = event[: -len(" (msec)")], "msec"
    running = variance = None
    if r := _RUNNING.search(rest):
        running = plain(r[1].replace(",", "."))  # a percentage: a comma is decimal
        rest = rest[: r.start()]
    if v := _VARIANCE.search(rest):
        variance = plain(v[1].replace(",", "."))
        rest = rest[: v.start()] + rest[v.end():]
    metric_value, metric_unit = None, ""
    if mm := _METRIC.search(rest):
        token, metric_unit = mm[1], mm[2].strip()
        if token.endswith("%"):  # "4.99% of all branches"
            token, metric_unit = token[:-1], f"% {metric_unit}"
        metric_value = localized(token, decimal)
    return Counter(event=event, value=value, status=status, unit=unit, metric_value=metric_value,
                   metric_unit=metric_unit, running_pct=running, variance_pct=variance,
                   time_s=float(m["time"]) if m["time"] else None, cpu=m["cpu"], line=lineno)


def _split_blocks(lines: list[str]) -> list[tuple[int, list[tuple[int, str]]]]:
    """Group numbered lines into blocks at `# started on` or a second stats header."""
    blocks: list[tuple[int, list[tuple[int, str]]]] = []
    current: list[tuple[int, str]] = []
    seen_header = False
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        starts = bool(_STARTED.match(line)) or (bool(_HEADER.match(line)) and seen_header)
        if starts and current:
            blocks.append((current[0][0], current))
            current, seen_header = [], False
        seen_header = seen_header or bool(_HEADER.match(line))
        if line:
            current.append((lineno, line))
    if current:
        blocks.append((current[0][0], current))
    return blocks


def parse(text: str, path: str = "<perf stat>") -> PerfStat | Gap:
    """The human format (stderr of perf stat, or its -o file)."""
    if blank(text):
        return Gap(path, "empty")
    blocks: list[Block] = []
    raws = text.splitlines()

    def lead(lineno: int) -> int:  # the indentation _split_blocks cut from a line
        return len(raws[lineno - 1]) - len(raws[lineno - 1].lstrip())

    for first, numbered in _split_blocks(raws):
        decimal = _decimal([line for _, line in numbered])
        info: dict = {"line": first}
        counters: list[Counter] = []
        for lineno, line in numbered:
            if m := _STARTED.match(line):
                info["started"] = m[1].strip()
            elif m := _HEADER.match(line):
                info["target"], info["runs"] = m[1], int(m[2]) if m[2] else None
            elif m := _ELAPSED.match(line):
                key = {"time elapsed": "elapsed_s", "user": "user_s", "sys": "sys_s"}[m[2]]
                seconds = localized(m[1], decimal)
                if seconds is None:
                    raise ParseError(path, lineno, f"{not_a_number(m[1])} in 'seconds {m[2]}'", HINT, lead(lineno) + 1)
                info[key] = _checked(seconds, f"seconds {m[2]}", path, lineno, lead(lineno) + 1, maximum=1e15)
            elif line.startswith("#"):
                continue  # "#           time             counts unit events" (-I header)
            elif (c := _human_counter(line, lineno, decimal, path, lead(lineno))) is not None:
                counters.append(c)
            elif "#" in line:
                continue  # metric-only line (TopdownL1 ...), no value of its own
            else:
                raise ParseError(path, lineno, f"unrecognised perf stat line: {line[:80]!r}", HINT)
        if counters or "target" in info:
            blocks.append(Block(counters=tuple(counters), **info))
    if not blocks:
        raise ParseError(path, 1, "no perf stat counters found", HINT)
    return PerfStat(tuple(blocks))


def _number_or_missing(text: str, path: str, lineno: int, event: str = "counter value",
                       column: int = 1) -> tuple[float | None, str]:
    text = text.strip()
    if text in MISSING:
        return None, text.strip("<>")
    value = plain(text)
    if value is None:
        raise ParseError(path, lineno, f"{not_a_number(text)}: not a counter value", HINT, column)
    return _checked(value, event, path, lineno, column), "counted"


def parse_csv(text: str, path: str = "<perf stat -x>", sep: str = ",") -> PerfStat | Gap:
    """`perf stat -x<sep>`: [time,][cpu,[n,]]value,unit,event,runtime,pcnt,[variance,]metric,unit."""
    if blank(text):
        return Gap(path, "empty")
    blocks: list[Block] = []
    counters: list[Counter] = []
    info: dict = {"line": 1}

    def flush() -> None:
        if counters:
            blocks.append(Block(counters=tuple(counters), **info))

    def valueish(s: str) -> bool:
        return s.strip() in MISSING or plain(s) is not None

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        if m := _STARTED.match(line.strip()):
            flush()
            counters, info = [], {"line": lineno, "started": m[1].strip()}
            continue
        f = line.split(sep)
        at = next((i for i in range(len(f) - 2) if valueish(f[i]) and plain(f[i + 1]) is None
                   and f[i + 2].strip() and plain(f[i + 2]) is None), None)
        if at is None:
            if f and not f[0].strip():
                continue  # metric-only continuation line
            raise ParseError(path, lineno, f"unrecognised perf stat CSV line: {line[:80]!r}", HINT)
        value, status = _number_or_missing(f[at], path, lineno, f[at + 2].strip(),
                                           sum(len(x) + len(sep) for x in f[:at]) + 1)
        prefix, rest = f[:at], f[at + 3:]
        time_s = plain(prefix[0]) if prefix and plain(prefix[0]) is not None else None
        cpu = next((p.strip() for p in prefix if p.strip() and plain(p) is None), None)
        variance = None
        if rest and rest[0].strip().endswith("%"):  # -r N: the variance comes right after the event
            variance = plain(rest[0].strip().rstrip("%"))
            rest = rest[1:]
        running = plain(rest[1]) if len(rest) > 1 else None
        metric = plain(rest[2]) if len(rest) > 2 else None
        counters.append(Counter(
            event=f[at + 2].strip(), value=value, status=status.replace("-", " "),
            unit=f[at + 1].strip(), metric_value=metric if value is not None else None,
            metric_unit=sep.join(rest[3:]).strip() if len(rest) > 3 else "",
            running_pct=running if running is not None and running < 100 else None,
            variance_pct=variance, time_s=time_s, cpu=cpu, line=lineno))
    flush()
    if not blocks:
        raise ParseError(path, 1, "no perf stat counters found", HINT)
    return PerfStat(tuple(blocks))


def parse_json(text: str, path: str = "<perf stat -j>") -> PerfStat | Gap:
    """`perf stat -j` (perf >= 6.0): one JSON object per line; counter-value is a string."""
    if blank(text):
        return Gap(path, "empty")
    blocks: list[Block] = []
    counters: list[Counter] = []
    info: dict = {"line": 1}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if m := _STARTED.match(line):
            if counters:
                blocks.append(Block(counters=tuple(counters), **info))
            counters, info = [], {"line": lineno, "started": m[1].strip()}
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise ParseError(path, lineno, f"not a JSON object: {e.msg}", HINT) from None
        if not isinstance(obj, dict) or "event" not in obj or "counter-value" not in obj:
            if isinstance(obj, dict) and "metric-value" in obj:
                continue  # metric-only object
            raise ParseError(path, lineno, "a perf stat JSON line needs 'event' and 'counter-value'", HINT)
        at = re.search(r'"counter-value"\s*:\s*', raw)
        value, status = _number_or_missing(str(obj["counter-value"]), path, lineno, str(obj["event"]),
                                           at.end() + 1 if at else 1)
        running = obj.get("pcnt-running")
        variance = obj.get("variance")
        counters.append(Counter(
            event=str(obj["event"]), value=value, status=status.replace("-", " "),
            unit=str(obj.get("unit", "")),
            metric_value=float(obj["metric-value"]) if value is not None and "metric-value" in obj else None,
            metric_unit=str(obj.get("metric-unit", "")) if value is not None else "",
            running_pct=float(running) if running is not None and float(running) < 100 else None,
            variance_pct=float(variance) if variance is not None else None,
            time_s=float(obj["interval"]) if "interval" in obj else None,
            cpu=str(obj["cpu"]) if "cpu" in obj else None, line=lineno))
    if counters:
        blocks.append(Block(counters=tuple(counters), **info))
    if not blocks:
        raise ParseError(path, 1, "no perf stat counters found", HINT)
    return PerfStat(tuple(blocks))
