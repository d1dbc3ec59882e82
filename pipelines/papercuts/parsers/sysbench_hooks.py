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

HINT = "a sysbench report hook's output was cut or mixed with other text; rerun the test"
_CSV = re.compile(r"^\d+(?:\.\d+)?(?:,\d+(?:\.\d+)?){9}$")
_CSV_FIELDS = ("time_s", "threads", "tps", "qps", "reads_per_s", "writes_per_s", "other_per_s", "latency_ms",
               "errors_per_s", "reconnects_per_s")


def csv_interval(lineno: int, line: str) -> dict | None:
    """The Interval fields of a report_csv line, or None if the line is not one."""
    if not _CSV.match(line):
        return None
    values = dict(zip(_CSV_FIELDS, (float(v) for v in line.split(",")), strict=True))
    return {**values, "threads": int(values["threads"]), "line": lineno}


def _interval(obj: dict, lineno: int, path: str) -> dict:
    try:
        qps = obj["qps"]
        return {"line": lineno, "time_s": float(obj["time"]), "threads": int(obj["threads"]),
                "tps": float(obj["tps"]), "qps": float(qps["total"]), "reads_per_s": float(qps["reads"]),
                "writes_per_s": float(qps["writes"]), "other_per_s": float(qps["other"]),
                "latency_ms": float(obj["latency"]), "errors_per_s": float(obj["errors"]),
                "reconnects_per_s": float(obj["reconnects"])}
    except (KeyError, TypeError, ValueError) as e:
        raise ParseError(path, lineno, f"a report_json object without a valid {e}", HINT) from None


class JsonReports:
    """Collects report_json arrays line by line; other lines go on being read as they come."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.start: int | None = None  # the line of an open array's `[`
        self.lines: list[str] = []
        self.objects: list[int] = []  # the line each object starts on

    def take(self, lineno: int, line: str) -> list[dict] | None:
        """None if the line is not the hook's; else the intervals of an array it closes ([] if open)."""
        if self.start is None:
            if line != "[":
                return None
            self.start, self.lines, self.objects = lineno, ["["], []
            return []
        if not re.match(r'^[{}\]"]', line):
            return None  # prose printed while the array is open
        if line.startswith("{"):
            self.objects.append(lineno)
        self.lines.append(line)
        if line != "]":
            return []
        try:
            objects = json.loads("\n".join(self.lines))
        except json.JSONDecodeError as e:
            raise ParseError(self.path, self.start + e.lineno - 1, f"the report_json array is not JSON: {e.msg}",
                             HINT) from None
        self.start = None
        return [_interval(obj, line, self.path) for obj, line in zip(objects, self.objects, strict=False)]

    def close(self) -> None:
        if self.start is not None:
            raise ParseError(self.path, self.start, "the report_json array that starts here is never closed", HINT)
