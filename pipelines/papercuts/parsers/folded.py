"""Folded stacks, every flavour normalised to root-first frames with a weight.

  perf       `mariadbd;__send;...;finish_task_switch.isra.0 29`  root first, sample count
             (`perf script report stackcollapse`; unknown frames `[unknown]`)
  period     the same shape from FlameGraph's stackcollapse-perf.pl, where the weight is the event
             period when perf script printed one (`... 292929290` = 29 x 10101010 ns)
  percent    `5.41% leaf;caller;...;root`  leaf first (perf report -g folded)
  pmp        `    520 leaf,caller,...,root`  count first, comma-separated, leaf first (mytools .hier)
Weights only mean something relative to their total, so shares are fractions of it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import reduce

from .errors import Gap, ParseError, blank
from .numbers import out_of_range

HINT = "folded stacks are one 'frame;frame;... weight' per line; regenerate them or remove the file"
FLAVOURS = ("perf", "period", "percent", "pmp")

# The stack ends at a non-space and runs are possessive: one pass a line, not one per space.
_ROOT_FIRST = re.compile(r"^(\S(?:.*?\S)?)\s++(\d++(?:\.\d++)?)$")
_PERCENT = re.compile(r"^\s*(\d+(?:\.\d+)?)%\s+(\S.*)$")
_PMP = re.compile(r"^\s*(\d+)\s+(\S.*)$")


@dataclass(frozen=True)
class Stack:
    frames: tuple[str, ...]  # root first
    weight: float
    line: int


@dataclass(frozen=True)
class Folded:
    flavour: str
    stacks: tuple[Stack, ...]

    @property
    def total(self) -> float:
        return math.fsum(s.weight for s in self.stacks)

    def self_share(self) -> dict[str, float]:
        """Fraction of all weight whose leaf frame is each function (perf report's Self)."""
        out: dict[str, float] = {}
        total = self.total
        for s in self.stacks:
            out[s.frames[-1]] = out.get(s.frames[-1], 0.0) + s.weight / total
        return out

    def total_share(self) -> dict[str, float]:
        """Fraction of all weight under each function, counted once per stack (Children)."""
        out: dict[str, float] = {}
        total = self.total
        for s in self.stacks:
            for frame in set(s.frames):
                out[frame] = out.get(frame, 0.0) + s.weight / total
        return out


def detect(text: str) -> str:
    """The flavour of folded text, from its first data line and its weights."""
    lines = [line for line in text.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if _PERCENT.match(first):
        return "percent"
    if (m := _PMP.match(first)) and ";" not in first and ("," in m[2] or first[:1].isspace()):
        return "pmp"
    weights = [int(m[2]) for line in lines if (m := _ROOT_FIRST.match(line.strip())) and m[2].isdigit()]
    # Periods are multiples of one sampling period (10101010 ns at 99 Hz); counts are small and coprime.
    if weights and min(weights) >= 1000 and reduce(math.gcd, weights) >= 1000:
        return "period"
    return "perf"


def parse(text: str, path: str = "<folded>", flavour: str = "auto") -> Folded | Gap:
    if blank(text):
        return Gap(path, "empty")
    if flavour == "auto":
        flavour = detect(text)
    if flavour not in FLAVOURS:
        raise ValueError(f"unknown folded flavour {flavour!r}; one of {', '.join(FLAVOURS)}")
    stacks: list[Stack] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if flavour == "percent":
            m = _PERCENT.match(line)
            frames = m and tuple(f for f in m[2].split(";") if f)[::-1]
        elif flavour == "pmp":
            m = _PMP.match(line)
            frames = m and tuple(f for f in m[2].split(",") if f)[::-1]
        else:
            m = _ROOT_FIRST.match(line.strip())
            frames = m and tuple(f for f in m[1].split(";") if f)
            if m and not frames:
                m = None
        if not m:
            raise ParseError(path, lineno, f"not a {flavour} folded stack: {line.strip()[:80]!r}", HINT)
        weight = float(m[1] if flavour in ("percent", "pmp") else m[2])  # digits too many for a float: inf
        # No plausible maximum: a period profile's weights are sums of nanoseconds or cycles.
        if wrong := out_of_range(weight, "weight", percent=flavour == "percent", maximum=math.inf):
            raise ParseError(path, lineno, wrong, HINT)
        stacks.append(Stack(frames, weight, lineno))
    if not stacks:
        return Gap(path, "empty")
    if not any(s.weight for s in stacks):
        raise ParseError(path, stacks[0].line, "every stack's weight is 0: the profile holds no samples", HINT)
    return Folded(flavour, tuple(stacks))
