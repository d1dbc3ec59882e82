"""Raw `perf script` output folded into stacks exactly as FlameGraph's stackcollapse-perf.pl does
by default (mytools folds its profiles with it), so a profile can be committed as perf printed it.

A sample is a header line (`comm pid[/tid] [cpu] time: [period] event:`) followed by one frame per
line, leaf first (`addr symbol+0xoff (dso)`), and ends at a blank line. As the script does: the
first event seen is the one kept (other events' samples are skipped), the weight is the period
(1 when none is printed), frames lose their `+0x..` offset and their argument list, `[unknown]`
frames take the dso's base name, `a->b` inlined frames split (`_[i]` on the inner ones), the
command (spaces made `_`) is the root frame, a sample without a blank line after it is not
counted, and equal stacks add up. Stacks come out root first, sorted as the script prints them.
"""
from __future__ import annotations

import re

from .errors import Gap, ParseError, blank
from .folded import Folded, Stack

HINT = "perf script output is a header line per sample, its frames, and a blank line; regenerate it"

# The script's patterns, written so that no line costs more than a pass over it: its own
# `(\d+)/*(\d+)*` and `:\s*(\d+)*\s+` nest quantifiers, and a header with a 30-digit number
# took minutes (each added digit doubled it); `\S.+?` before `\s+` retried every run of spaces
# from each of its characters (3 s for a 20,000-character line, quadratic). The same matches:
# the comm (two characters at least) ends at a non-space or is one and a space, runs are
# possessive, and a frame is split in Python at its last " (".
_HEADER = re.compile(r"^(\S(?:\s|.*?\S))\s++(\d++)(?:/++\d*+)?\s")
_EVENT = re.compile(r":(?:\s*+(\d++))?\s++(\S+):\s*+$")
_FRAME_ADDRESS = re.compile(r"\s*+(\w++)\s*+")


def looks_like(text: str) -> bool:
    """A sample header followed by an indented frame line, within the first lines."""
    lines = [line for line in text.splitlines()[:200] if line.strip() and not line.startswith("#")]
    return any(_HEADER.match(a) and _EVENT.search(a) and b[:1].isspace() and _frame(b)
               for a, b in zip(lines, lines[1:], strict=False))


def _frame(line: str) -> tuple[str, str] | None:
    r"""(symbol, dso) of a frame line as the script's /^\s*(\w+)\s*(.+) \((.*)\)/ takes them: the
    symbol ends at the last " (" that a ")" follows, the dso at the last ")"; the symbol starts
    after the address and its spaces, or, when that leaves it empty, where the pattern backtracks
    to (one character before the " (", never before the address's second character)."""
    m = _FRAME_ADDRESS.match(line)
    close = line.rfind(")")
    if not m or close < 0:
        return None
    at = line.rfind(" (", m.start(1) + 2, close)
    return (line[min(m.end(), at - 1):at], line[at + 2:close]) if at >= 0 else None


def _frames(rawfunc: str, mod: str, java: bool) -> list[str]:
    rawfunc = re.sub(r"\+0x[\da-f]+$", "", rawfunc)
    if rawfunc.startswith("("):
        return []  # a process name, not a frame
    out: list[str] = []
    for func in rawfunc.split("->"):
        if func == "[unknown]":
            func = f"[{mod.rsplit('/', 1)[-1]}]" if mod != "[unknown]" else "[unknown]"
        func = func.replace(";", ":")
        if not ((i := func.find(".(")) >= 0 and func.find(").", i + 2) >= 0):  # the script's /\.\(.*\)\./
            func = re.sub(r"\((?!anonymous namespace\)).*", "", func)
        func = func.replace('"', "").replace("'", "")
        if java and "/" in func:
            func = func.removeprefix("L")
        if out and "_[i]" not in func:
            func += "_[i]"
        out.append(func)
    return out


def parse(text: str, path: str = "<perf script>") -> Folded | Gap:
    if blank(text):
        return Gap(path, "empty")
    collapsed: dict[str, float] = {}
    first_line: dict[str, int] = {}
    event_filter = None
    stack: list[str] = []
    pname = None
    start = period = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if raw.startswith("#"):
            continue
        if not raw:
            if pname is not None and (stack := [pname, *stack]):
                key = ";".join(stack)
                collapsed[key] = collapsed.get(key, 0) + period
                first_line.setdefault(key, start)
            stack, pname = [], None
            continue
        if m := _HEADER.match(raw):
            found = 1
            if e := _EVENT.search(raw):
                event_filter = event_filter or e[2]
                if e[2] != event_filter:
                    continue  # another event's sample: its frames are skipped (no pname)
                found = int(e[1]) if e[1] and int(e[1]) else 1  # the script's `$period = 1 if not $period`
            pname, period, start, stack = m[1].replace(" ", "_"), found, lineno, []
        elif frame := _frame(raw):
            if pname is not None:
                stack = _frames(*frame, pname.startswith("java")) + stack
        # anything else the script warns about and skips ("Unrecognized line")
    if not collapsed:
        raise ParseError(path, 1, "no complete perf script sample (header, frames, blank line)", HINT)
    stacks = [Stack(tuple(key.split(";")), weight, first_line[key]) for key, weight in sorted(collapsed.items())]
    return Folded("period", tuple(stacks))
