"""procps `vmstat` output, columns mapped by header name.

The first sample is the average since boot and is dropped. The header repeats every ~21 rows even
when the output is not a terminal; repeated headers are skipped (mytools' an.sh counts them as
zero-valued samples). Column sets differ between versions (`gu` since procps-ng 4.0.4, `-w`, `-t`
adds a date and time: two tokens under one header word such as `UTC`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import Gap, ParseError, blank, token_columns
from .numbers import decimal_comma, not_a_number, out_of_range

HINT = "vmstat output must be its header lines followed by rows of numbers; regenerate it with `vmstat 1`"
PERCENT = frozenset({"us", "sy", "id", "wa", "st", "gu"})  # shares of CPU time; the rest are counts


@dataclass(frozen=True)
class Sample:
    line: int
    values: tuple[tuple[str, float], ...]  # (column, value) in header order
    timestamp: str | None = None

    def get(self, column: str) -> float | None:
        return dict(self.values).get(column)


@dataclass(frozen=True)
class Vmstat:
    columns: tuple[str, ...]
    samples: tuple[Sample, ...]  # without the since-boot row
    since_boot: Sample | None = None  # the dropped first row
    repeated_headers: int = 0

    def column(self, name: str) -> list[float]:
        if name not in self.columns:
            return []
        return [s.get(name) for s in self.samples]


def _is_header(tokens: list[str]) -> bool:
    return len(tokens) >= 2 and tokens[0] == "r" and tokens[1] == "b"


def parse(text: str, path: str = "<vmstat>") -> Vmstat | Gap:
    if blank(text):
        return Gap(path, "empty")
    columns: list[str] | None = None
    stamped = False
    samples: list[Sample] = []
    since_boot: Sample | None = None
    headers = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split()
        if not tokens:
            continue
        if tokens[0].startswith(("procs", "--procs")):
            continue
        if _is_header(tokens):
            headers += 1
            if columns is None:
                stamped = not re.fullmatch(r"[a-z]+", tokens[-1])  # "UTC", "CET": a -t timestamp
                columns = tokens[:-1] if stamped else tokens
            continue
        if columns is None:
            raise ParseError(path, lineno, "data before the vmstat header line (r b swpd ...)", HINT)
        expected = len(columns) + (2 if stamped else 0)
        if len(tokens) != expected:
            raise ParseError(path, lineno, f"{len(tokens)} fields where the header has {expected}", HINT)
        numbers = [decimal_comma(t) for t in tokens[: len(columns)]]
        for name, token, number, col in zip(columns, tokens, numbers, token_columns(raw), strict=False):
            # vmstat prints no negative, non-finite or huge count, and no share over 100%
            wrong = not_a_number(token) if number is None else out_of_range(number, name, percent=name in PERCENT)
            if wrong:
                raise ParseError(path, lineno, wrong, HINT, col)
        sample = Sample(lineno, tuple(zip(columns, numbers, strict=True)),
                        " ".join(tokens[len(columns):]) if stamped else None)
        if since_boot is None and not samples:
            since_boot = sample
        else:
            samples.append(sample)
    if columns is None:
        raise ParseError(path, 1, "no vmstat header line (r b swpd ...)", HINT)
    return Vmstat(tuple(columns), tuple(samples), since_boot, max(headers - 1, 0))
