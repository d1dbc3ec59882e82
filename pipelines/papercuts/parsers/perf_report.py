"""`perf report --stdio`: flat (`Overhead`) and children/self, with or without call graphs.

Columns are named by the `# Children  Self  Command ...` header line and separated by two or more
spaces (a symbol may contain single spaces: `operator new(unsigned long)`). Lines below a row that
are not rows belong to its call graph: the ASCII tree (`|`, `---`, `--NN.NN%--`) is kept as text;
`-g folded` chains (`5.41% leaf;...;root`, or `29 root;...;leaf` with `folded,0,caller,count`)
are parsed into stacks, oriented root first. "Children" adds up to more than 100%: use Self for
"% of CPU in ut_delay", Children for "time under a function".
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import Gap, ParseError, blank

HINT = "regenerate it with `perf report --stdio`, or remove the file"


@dataclass(frozen=True)
class Chain:
    frames: tuple[str, ...]  # root first
    value: float  # percent, or samples with `folded,...,count`
    unit: str  # "%" or "samples"


@dataclass(frozen=True)
class Row:
    line: int
    self_pct: float  # "Overhead" in a flat report
    children_pct: float | None
    command: str | None
    dso: str | None
    kind: str | None  # "." user, "k" kernel, "g" guest kernel, "u" guest user, "H" hypervisor
    symbol: str
    callgraph: tuple[str, ...] = ()
    chains: tuple[Chain, ...] = ()


@dataclass(frozen=True)
class PerfReport:
    event: str | None
    samples: str | None  # as printed: "3K", "927"
    event_count: int | None
    children: bool
    rows: tuple[Row, ...]

    def self_share(self) -> dict[str, float]:
        """Self percent per symbol, summed over commands and DSOs."""
        out: dict[str, float] = {}
        for r in self.rows:
            out[r.symbol] = out.get(r.symbol, 0.0) + r.self_pct
        return out


_PCT = re.compile(r"^\s*(\d+\.\d+)%")
_CHAIN = re.compile(r"^\s*(?:(\d+\.\d+)%|(\d+))\s+(\S.*;.*|\S+)$")


def _chain(line: str, symbol: str) -> Chain | None:
    m = _CHAIN.match(line)
    if not m or ";" not in m[3] and m[3].strip() != symbol:
        return None
    frames = tuple(f for f in m[3].strip().split(";") if f)
    if frames and frames[0] == symbol and frames[-1] != symbol:
        frames = frames[::-1]  # leaf first (callee order, the default) -> root first
    return Chain(frames, float(m[1] or m[2]), "%" if m[1] else "samples")


def _row(rest: str, columns: list[str], pcts: list[str], lineno: int, path: str) -> dict:
    """One symbol row: its percentages (Children, Self) and the named columns after them."""
    names = [c for c in columns if c not in ("Overhead", "Children", "Self", "Samples")]
    fields = re.split(r"\s{2,}", rest, maxsplit=len(names) - 1)
    if len(fields) != len(names):
        raise ParseError(path, lineno, f"{len(fields)} columns where the header has {len(names)}", HINT)
    cols = dict(zip(names, fields, strict=True))
    sym = cols.get("Symbol", "")
    kind = None
    if m := re.match(r"^\[(.)\]\s+(.*)$", sym):
        kind, sym = m[1], m[2]
    values = [float(p) for p in pcts]
    return {"line": lineno, "self_pct": values[-1], "children_pct": values[0] if len(values) == 2 else None,
            "command": cols.get("Command"), "dso": cols.get("Shared Object"),
            "kind": kind, "symbol": sym, "callgraph": [], "chains": []}


def _shares(line: str, npct: int, lineno: int, path: str) -> None:
    """A row's Children and Self are each a share of all samples: over 100% is an edited file."""
    for m in list(re.finditer(r"(\d+\.\d+)%", line))[:npct]:
        if float(m[1]) > 100:
            raise ParseError(path, lineno, f"overhead {m[0]} is over 100% of the samples", HINT, m.start() + 1)


def parse(text: str, path: str = "<perf report>") -> PerfReport | Gap:
    if blank(text):
        return Gap(path, "empty")
    event = samples = None
    event_count = None
    columns: list[str] | None = None
    rows: list[dict] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith("#"):
            body = line[1:].strip()
            if m := re.match(r"Samples:\s+(\S+)\s+of event '([^']+)'", body):
                samples, event = m[1], m[2]
            elif m := re.match(r"Event count \(approx\.\):\s+(\d+)", body):
                event_count = int(m[1])
            elif body.startswith(("Overhead", "Children")):
                columns = re.split(r"\s{2,}", body)
            continue
        if not line.strip():
            continue
        if columns is None:
            raise ParseError(path, lineno, "a report row before the column header (# Overhead ...)", HINT)
        npct = sum(1 for c in columns if c in ("Overhead", "Children", "Self"))
        pcts = re.findall(r"(\d+\.\d+)%", line)
        looks_like_row = re.match(r"^\s+" + r"\s+".join([r"\d+\.\d+%"] * npct) + r"\s{2}", line)
        if looks_like_row and len(pcts) >= npct:
            _shares(line, npct, lineno, path)
            rows.append(_row(line[looks_like_row.end():].strip(), columns, pcts[:npct], lineno, path))
            continue
        if not rows:
            raise ParseError(path, lineno, f"unrecognised perf report line: {line.strip()[:80]!r}", HINT)
        chain = _chain(line, rows[-1]["symbol"])
        if chain is not None:
            rows[-1]["chains"].append(chain)
        else:
            rows[-1]["callgraph"].append(line)
    if columns is None:
        if not any(line.strip() and not line.startswith("#") for line in text.splitlines()):
            return Gap(path, "empty")  # perf report of a perf.data without samples: comments only
        raise ParseError(path, 1, "no column header (# Overhead ... or # Children ...)", HINT)
    return PerfReport(event, samples, event_count, "Children" in columns,
                      tuple(Row(**{**r, "callgraph": tuple(r["callgraph"]), "chains": tuple(r["chains"])})
                            for r in rows))
