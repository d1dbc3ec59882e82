"""DBMS versions ordered as versions, never as strings (pg110 < pg1023 is wrong)."""
from __future__ import annotations

import re

_VERSION = re.compile(r"^(\d+(?:\.\d+)*)(?:[-.]?(alpha|beta|rc)(\d*))?$")
_PRE_RANK = {"alpha": 0, "beta": 1, "rc": 2}
_FINAL = 3
_WIDTH = 4  # pad so that 8.0 and 8.0.0 compare equal and sort keys have one shape


def parse_version(text: str) -> tuple[int, ...]:
    """Return a sort key: numeric parts, then pre-release rank and number.

    >>> parse_version("18beta1") < parse_version("18") < parse_version("18.1")
    True
    """
    m = _VERSION.match(text.strip())
    if not m:
        raise ValueError(f"not a version: {text!r}")
    parts = [int(p) for p in m.group(1).split(".")]
    if len(parts) > _WIDTH:
        raise ValueError(f"not a version: {text!r} has more than {_WIDTH} parts")
    parts += [0] * (_WIDTH - len(parts))
    pre, num = m.group(2), m.group(3)
    rank = _PRE_RANK[pre] if pre else _FINAL
    return (*parts, rank, int(num) if num else 0)

