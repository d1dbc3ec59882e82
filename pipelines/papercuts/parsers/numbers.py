"""Numbers as tools print them: locale thousands separators, decimal commas, unit suffixes."""
from __future__ import annotations

import math
import re

_SPACES = "\u00a0\u202f "  # perf in fr_FR/ru_RU groups digits with (narrow) no-break spaces
_PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


# No tool prints a sample, rate or per-operation cost this large: 1e15 context switches or KB per
# second is an edited or corrupted file (a 42-digit count would reach the site as 1e41).
MAX_PLAUSIBLE = 1e15


def plain(token: str) -> float | None:
    """A finite C-locale number ('1.5', '-2', '1e3'), else None ('1e400' overflows to inf)."""
    token = token.strip()
    if not _PLAIN.fullmatch(token):
        return None
    value = float(token)
    return value if math.isfinite(value) else None


def not_a_number(token: str) -> str:
    """What is wrong with a token plain() (or a variant) refused."""
    token = token.strip()
    if _PLAIN.fullmatch(token) or token.lower().lstrip("+-") in ("inf", "infinity", "nan"):
        return f"'{token}' is not a finite number"
    return f"'{token}' is not a number"


def out_of_range(value: float, name: str, *, percent: bool = False, maximum: float = MAX_PLAUSIBLE) -> str | None:
    """Why `value` cannot be a count, rate, latency or (percent) share a tool printed, else None."""
    if not math.isfinite(value):
        return f"{name} is {value}, not a finite number"
    if value < 0:
        return f"{name} is {value:g}, negative"
    if percent and value > 100:
        return f"{name} is {value:g}%, over 100%"
    if value > maximum:
        return f"{name} is {value:g}, over the plausible maximum {maximum:g}"
    return None


def localized(token: str, decimal: str = ".") -> float | None:
    """A number written with `decimal` as its decimal separator and any grouping, else None.

    >>> localized("2,782.06"), localized("2.624,89", ","), localized("37 517 364 013")
    (2782.06, 2624.89, 37517364013.0)
    """
    token = token.strip()
    for s in _SPACES:
        token = token.replace(s, "")
    group = "," if decimal == "." else "."
    if decimal == "," and token.count(",") > 1:
        return None
    token = token.replace(group, "").replace(decimal, ".")
    return plain(token)


def decimal_comma(token: str) -> float | None:
    """iostat/sysstat in a de_DE locale: '0,07' is 0.07 (these tools never group thousands)."""
    token = token.strip()
    if re.fullmatch(r"[+-]?\d+,\d+", token):
        token = token.replace(",", ".")
    return plain(token)


def strip_unit(token: str, *units: str) -> str:
    """'10.0016s' -> '10.0016', '2.04ms' -> '2.04' (sysbench 0.5 and 1.0 suffixes)."""
    token = token.strip()
    for unit in units:
        if token.endswith(unit) and token[: -len(unit)][-1:].isdigit():
            return token[: -len(unit)]
    return token
