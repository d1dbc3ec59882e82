"""sysstat `iostat -x` output for one named device, columns mapped by header name.

Three header layouts occur (ub16 `Device: rrqm/s wrqm/s r/s w/s rkB/s ...`, ub18 and sysstat 12
`Device r/s rkB/s ...`), and without `-k` older versions print `rMB/s`/`wMB/s`: `rkb_per_s` and
`wkb_per_s` normalise. Numbers may use a decimal comma (de_DE). Without `-y` the first report is
the average since boot: the caller says which (`since_boot`), since the text cannot. Devices are
never summed: md arrays would count their members twice. `iostat -o JSON` (parse_json) gives the
same samples: one `statistics` entry per report, a `disk` list with the text header's column names
(`%util` is `util`, `%rrqm` is `rrqm`).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from .errors import Gap, ParseError, blank, token_columns
from .numbers import decimal_comma, not_a_number, out_of_range

HINT = "iostat output must come from `iostat -x` (with -k for kB); regenerate it or remove the file"


@dataclass(frozen=True)
class Sample:
    report: int  # 1-based report number, counted before the since-boot report is dropped
    line: int
    values: tuple[tuple[str, float], ...]

    def get(self, column: str) -> float | None:
        return dict(self.values).get(column)

    def _kb(self, kb: str, mb: str, sectors: str) -> float | None:
        d = dict(self.values)
        if kb in d:
            return d[kb]
        if mb in d:
            return d[mb] * 1024
        if sectors in d:
            return d[sectors] / 2  # 512-byte sectors
        return None

    @property
    def rkb_per_s(self) -> float | None:
        return self._kb("rkB/s", "rMB/s", "rsec/s")

    @property
    def wkb_per_s(self) -> float | None:
        return self._kb("wkB/s", "wMB/s", "wsec/s")


@dataclass(frozen=True)
class Iostat:
    device: str
    columns: tuple[str, ...]
    samples: tuple[Sample, ...]  # the device's rows, since-boot report dropped when asked
    devices: tuple[str, ...]  # every device seen, for messages
    cpus: int | None = None
    dropped_since_boot: bool = False


def _checked(name: str, value: float) -> str | None:
    """Every iostat -x column is a rate, size, time or (%util, %rrqm) share: never negative."""
    return out_of_range(value, name, percent=name.startswith("%") or name in ("util", "rrqm", "wrqm", "drqm"))


def _float(value: int | float) -> float:
    try:
        return float(value)
    except OverflowError:  # a JSON integer of hundreds of digits
        return math.inf


def _device_hint(device: str, devices: list[str]) -> str:
    """What to do when the campaign's device is not in the output: name one it has, or say the
    output holds no device report at all (cut short, or run without -d/-x)."""
    if devices:
        return f"devices present: {', '.join(devices)}; set iostat_device in campaign.toml to one of them"
    return (f"the output holds no device line (cut short?): run iostat -dxm with {device} again "
            "for the whole run, or remove the file")


def _numbers(columns: list[str], tokens: list[str], lineno: int, path: str, raw: str) -> list[float]:
    numbers = [decimal_comma(t) for t in tokens]
    for name, token, number, col in zip(columns, tokens, numbers, token_columns(raw)[1:], strict=True):
        if wrong := not_a_number(token) if number is None else _checked(name, number):
            raise ParseError(path, lineno, wrong, HINT, col)
    return numbers


def parse(text: str, path: str = "<iostat>", *, device: str, since_boot: bool) -> Iostat | Gap:
    """Rows of `device`; `since_boot=True` when iostat ran without -y (first report dropped)."""
    if blank(text):
        return Gap(path, "empty")
    cpus = None
    columns: list[str] | None = None
    report = 0
    in_devices = False
    rows: list[Sample] = []
    devices: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split()
        if not tokens:
            in_devices = False
            continue
        if lineno <= 2 and (m := re.search(r"\((\d+) CPU\)", raw)):
            cpus = int(m[1])
            continue
        if tokens[0] == "avg-cpu:":
            in_devices = False
            continue
        if tokens[0] in ("Device:", "Device"):
            report += 1
            header = [t for t in tokens[1:]]
            if columns is not None and header != columns:
                raise ParseError(path, lineno, "the device header changes within the file", HINT)
            columns, in_devices = header, True
            continue
        if not in_devices:
            continue  # Linux ... banner, avg-cpu numbers, -t timestamps
        assert columns is not None
        if len(tokens) != len(columns) + 1:
            raise ParseError(path, lineno, f"{len(tokens)} fields where the header has {len(columns) + 1}",
                             HINT)
        name = tokens[0]
        if name not in devices:
            devices.append(name)
        if name != device:
            continue
        rows.append(Sample(report, lineno, tuple(zip(columns, _numbers(columns, tokens[1:], lineno, path, raw),
                                                      strict=True))))
    if columns is None:
        raise ParseError(path, 1, "no device report (Device ... r/s ...) in the iostat output", HINT)
    if device not in devices:
        raise ParseError(path, 1, f"device '{device}' is not in the iostat output", _device_hint(device, devices))
    if since_boot:
        rows = [r for r in rows if r.report != 1]
    return Iostat(device, tuple(columns), tuple(rows), tuple(devices), cpus, since_boot)


def parse_json(text: str, path: str = "<iostat -o JSON>", *, device: str, since_boot: bool) -> Iostat | Gap:
    """`iostat -o JSON`: rows of `device`, numbered like the text reports."""
    if blank(text):
        return Gap(path, "empty")
    try:
        host = json.loads(text)["sysstat"]["hosts"][0]
        reports = host["statistics"]
    except json.JSONDecodeError as e:
        raise ParseError(path, e.lineno, f"not JSON: {e.msg} (iostat cut short?)", HINT) from None
    except (KeyError, IndexError, TypeError):
        raise ParseError(path, 1, "no sysstat.hosts[0].statistics in the JSON", HINT) from None
    lines = _object_lines(text)
    columns: tuple[str, ...] = ()
    rows: list[Sample] = []
    devices: list[str] = []
    for number, report in enumerate(reports, start=1):
        for disk in report.get("disk", []) if isinstance(report, dict) else []:
            name = str(disk.get("disk_device"))
            if name not in devices:
                devices.append(name)
            if name != device:
                continue
            values = {k: v for k, v in disk.items() if k != "disk_device"}
            if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values.values()):
                raise ParseError(path, lines.get(number, 1), f"a non-number in {name}'s statistics", HINT)
            # json.loads reads 1e400 as inf and accepts NaN and -Infinity: iostat prints none of them
            if wrong := next(filter(None, (_checked(k, _float(v)) for k, v in values.items())), None):
                raise ParseError(path, lines.get(number, 1), f"{wrong} in {name}'s statistics", HINT)
            columns = tuple(values)
            rows.append(Sample(number, lines.get(number, 1), tuple((k, float(v)) for k, v in values.items())))
    if device not in devices:
        raise ParseError(path, 1, f"device '{device}' is not in the iostat output", _device_hint(device, devices))
    if since_boot:
        rows = [r for r in rows if r.report != 1]
    cpus = host.get("number-of-cpus")
    return Iostat(device, columns, tuple(rows), tuple(devices), cpus if isinstance(cpus, int) else None, since_boot)


def _object_lines(text: str) -> dict[int, int]:
    """Report number -> the line of its `"avg-cpu"` (each report's first key), for messages."""
    found = [i for i, line in enumerate(text.splitlines(), start=1) if '"avg-cpu"' in line]
    return {n: line for n, line in enumerate(found, start=1)}
