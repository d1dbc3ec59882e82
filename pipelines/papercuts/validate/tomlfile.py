"""Reading a contributed TOML file (campaign.toml, calibration.toml): one reader for both.

Every string value gets the checks a CSV cell gets (characters, length, spreadsheet formulas),
and each key's problems point at its own line and at the column where its value starts.
"""
from __future__ import annotations

import re
import tomllib

from ..contract import MAX_TOML_CHARS, TOML_INT_MAXIMUM
from ..problems import Problems, place
from .fields import FieldError, check_text


def key_position(text: str, key: str) -> tuple[int, int]:
    """(line, column of the value) of a top-level key; (1, 1) if it cannot be found."""
    for i, line in enumerate(text.splitlines(), start=1):
        m = re.match(rf"(\s*{re.escape(key)}\s*=\s*)", line)
        if m:
            return i, m.end() + 1
    return 1, 1


def value_at(meta: dict, key: str) -> tuple[int, int]:
    """(line, column) where a loaded TOML file's key has its value, for messages about that value."""
    return meta.get("_at", {}).get(key, (1, 1))


def int_problem(key: str, value) -> str | None:
    """What is wrong with a whole-number key's value (TOML integers go up to 2**63 - 1), or None."""
    top = TOML_INT_MAXIMUM[key]
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= top:
        return None
    return f"{key} must be a whole number from 1 to {top:_}, not {value!r}"


def read_toml(data: bytes, rel: str, problems: Problems) -> tuple[dict, dict[str, tuple[int, int]]] | None:
    """The parsed document and each key's (line, column), or None after reporting why not."""
    name = rel.rsplit("/", 1)[-1]
    try:
        text = data.decode("utf-8")
        doc = tomllib.loads(text)
    except UnicodeDecodeError as e:
        problems.error(rel, *place(data, e.start), f"{name} is not UTF-8: invalid byte 0x{data[e.start]:02x}",
                       "save it as UTF-8")
        return None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        what = str(e).split(" (at")[0]
        problems.error(rel, line, col, f"invalid TOML: {what}",
                       "write dates as YYYY-MM-DD, e.g. date = 2024-10-23, with a real day of the month"
                       if "date" in what.lower() else "see the example in data/README.md")
        return None
    positions = {key: key_position(text, key) for key in doc}
    bad = set()
    for key, value in doc.items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                try:
                    check_text(item, key, MAX_TOML_CHARS)
                except FieldError as e:
                    problems.error(rel, *positions[key], str(e), e.hint)
                    bad.add(key)
    return {k: v for k, v in doc.items() if k not in bad}, positions
