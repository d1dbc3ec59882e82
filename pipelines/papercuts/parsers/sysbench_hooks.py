"""sysbench's Lua report hooks (1.0+): intermediate reports as CSV or JSON instead of `[ 1s ]` lines.

A wrapper script sets `sysbench.hooks.report_intermediate = sysbench.report_csv` (or `report_json`):
CSV lines have no header (`time,threads,tps,qps,reads/s,writes/s,other/s,latency_pct_ms,errors/s,
reconnects/s`); JSON is one array of objects (`"qps": {"total", "reads", "writes", "other"}`) printed
over many lines between the human text, and two arrays come back to back when both hooks are set.
Each object or line gives the fields of one sysbench.Interval.
"""
from __future__ import annotations

import json
import re

from .errors import ParseError
from .numbers import out_of_range

HINT = "a sysbench report hook's output was cut or mixed with other text; rerun the test"
_CSV = re.compile(r"^\d+(?:\.\d+)?(?:,\d+(?:\.\d+)?){9}$")
_CSV_FIELDS = ("time_s", "threads", "tps", "qps", "reads_per_s", "writes_per_s", "other_per_s", "latency_ms",
               "errors_per_s", "reconnects_per_s")


def csv_interval(lineno: int, line: str, path: str = "<sysbench>", raw: str | None = None) -> dict | None:
    """The Interval fields of a report_csv line, or None if the line is not one; a ParseError at a
    value no sysbench prints (inf from 400 digits, over numbers.MAX_PLAUSIBLE)."""
    if not _CSV.match(line):
        return None
    values = dict(zip(_CSV_FIELDS, (float(v) for v in line.split(",")), strict=True))
    raw = raw if raw is not None else line
    lead = len(raw) - len(raw.lstrip())
    for i, (name, value) in enumerate(values.items()):
        if wrong := out_of_range(value, name):
            column = lead + sum(len(v) + 1 for v in line.split(",")[:i]) + 1
            raise ParseError(path, lineno, f"{wrong} in a report_csv line", HINT, column)
    return {**values, "threads": int(values["threads"]), "line": lineno}


def _interval(obj: dict, lineno: int, path: str, where) -> dict:
    """One report_json object's Interval fields; a ParseError at a value no sysbench prints
    (negative, inf from 1e999, NaN, over numbers.MAX_PLAUSIBLE): `where(key)` is its line and column."""
    try:
        qps = obj["qps"]
        fields = {"line": lineno, "time_s": float(obj["time"]), "threads": int(obj["threads"]),
                "tps": float(obj["tps"]), "qps": float(qps["total"]), "reads_per_s": float(qps["reads"]),
                "writes_per_s": float(qps["writes"]), "other_per_s": float(qps["other"]),
                "latency_ms": float(obj["latency"]), "errors_per_s": float(obj["errors"]),
                "reconnects_per_s": float(obj["reconnects"])}
    except (KeyError, TypeError, ValueError, OverflowError) as e:
        raise ParseError(path, lineno, f"a report_json object without a valid {e}", HINT) from None
    keys = {"time_s": "time", "threads": "threads", "tps": "tps", "qps": "total", "reads_per_s": "reads",
            "writes_per_s": "writes", "other_per_s": "other", "latency_ms": "latency", "errors_per_s": "errors",
            "reconnects_per_s": "reconnects"}
    for name, key in keys.items():
        if wrong := out_of_range(fields[name], f'"{key}"'):
            at, column = where(key)
            raise ParseError(path, at, f"{wrong} in a report_json object", HINT, column)
    return fields


class JsonReports:
    """Collects report_json arrays line by line; other lines go on being read as they come."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.start: int | None = None  # the line of an open array's `[`
        self.lines: list[str] = []
        self.objects: list[int] = []  # the line each object starts on
        self.raws: dict[int, str] = {}  # each line of the open array as written, by number

    def take(self, lineno: int, line: str, raw: str | None = None) -> list[dict] | None:
        """None if the line is not the hook's; else the intervals of an array it closes ([] if open)."""
        if self.start is None:
            if line != "[":
                return None
            self.start, self.lines, self.objects, self.raws = lineno, ["["], [], {}
            return []
        if not re.match(r'^[{}\]"]', line):
            return None  # prose printed while the array is open
        if line.startswith("{"):
            self.objects.append(lineno)
        self.lines.append(line)
        self.raws[lineno] = raw if raw is not None else line
        if line != "]":
            return []
        try:
            objects = json.loads("\n".join(self.lines))
        except json.JSONDecodeError as e:
            raise ParseError(self.path, self.start + e.lineno - 1, f"the report_json array is not JSON: {e.msg}",
                             HINT) from None
        self.start = None
        return [_interval(obj, line, self.path, lambda key, first=line: self._value_at(first, key))
                for obj, line in zip(objects, self.objects, strict=False)]

    def _value_at(self, first: int, key: str) -> tuple[int, int]:
        """The line and column of `"key": value` in the object starting at line `first`."""
        for lineno in sorted(n for n in self.raws if n >= first):
            if m := re.search(rf'"{re.escape(key)}":\s*', self.raws[lineno]):
                return lineno, m.end() + 1
        return first, 1

    def close(self) -> None:
        if self.start is not None:
            raise ParseError(self.path, self.start, "the report_json array that starts here is never closed", HINT)
