"""Typed conversion of one CSV field, with the message a contributor needs when it fails."""
from __future__ import annotations

import datetime as dt
import re
import sys

from ..contract import ID_PATTERN, Column
from ..versions import parse_version

_ID = re.compile(ID_PATTERN)
_INT = re.compile(r"[0-9]+")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_SETTING = re.compile(r"[A-Za-z0-9_.-]+=[^;=]*")
# Control characters, the Unicode line separators that end a JavaScript/Vega expression line, and
# the bidirectional overrides and isolates that make text read differently from what it is: never
# in contributed text.
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# Characters drawn as nothing (Unicode's default-ignorable ones: zero-width spaces and joiners, soft
# hyphen, word joiner, byte-order mark, variation selectors, fillers, tags) and the blank braille
# pattern: never in a cell or a TOML string ('point\u200b-query' would be a second microbenchmark
# reading as the first), but allowed in a README shown as text (an emoji's joiner, a BOM first).
_INVISIBLE = ("\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u206a-\u206f"
              "\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U0001d173-\U0001d17a\U000e0000-\U000e0fff")
_CONTROL = re.compile(f"[{_CONTROLS}{_INVISIBLE}]")
_CONTROL_ONLY = re.compile(f"[{_CONTROLS}]")
# What a spreadsheet runs as a formula (=, @ always; + and - with a call or a DDE link in them).
_FORMULA = re.compile(r"[=@\t\r]|[+-].*[(|!=@\"]", re.S)


class FieldError(ValueError):
    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


def _unknown_value(col: Column) -> str:
    # An empty cell is an error in a required column: do not advise it there.
    return ("drop the row if the run failed; the column cannot be empty" if col.required
            else "leave the cell empty if the value is unknown, or drop the row if the run failed")


def _number(text: str, col: Column) -> float:
    if not _FLOAT.fullmatch(text):
        if re.fullmatch(r"[+-]?[0-9]+,[0-9]+", text):
            raise FieldError(f"'{text}' uses a decimal comma", "write numbers with a decimal dot")
        if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            raise FieldError(f"'{text}' is not a finite number", _unknown_value(col))
        raise FieldError(f"'{text}' is not a number", f"write {col.name} as a plain number like 1234.5")
    value = float(text)
    if col.positive and value <= 0:
        raise FieldError(f"{col.name} must be greater than 0, got {text}", _unknown_value(col))
    if col.minimum is not None and value < col.minimum:
        raise FieldError(f"{col.name} must be at least {col.minimum:g}, got {text}",
                         "check the sign, the unit and the decimal point")
    if col.maximum is not None and value > col.maximum:
        raise FieldError(f"{col.name} is {text}, over the plausible maximum {col.maximum:g}",
                         "check the unit and the decimal point")
    return value


def check_formula(text: str, name: str) -> None:
    """Contributed CSVs are published byte for byte: a cell a spreadsheet would run is refused."""
    if _FORMULA.match(text):
        raise FieldError(f"{name} starts with '{text[0]}' and reads as a spreadsheet formula",
                         "rephrase it so that it starts with a letter or digit")


def check_chars(text: str, name: str, allow_invisible: bool = False) -> None:
    """No control or bidirectional character, nor (unless allowed) one drawn as nothing."""
    if m := (_CONTROL_ONLY if allow_invisible else _CONTROL).search(text):
        raise _control(name, m[0])


def _control(name: str, char: str) -> FieldError:
    return FieldError(f"{name} contains U+{ord(char):04X}, a control, invisible, line-separator or "
                      "bidirectional-override character", "remove it")


def check_text(text: str, name: str, limit: int) -> None:
    """The checks every free-text value gets, in a CSV cell or a TOML string."""
    check_chars(text, name)
    if len(text) > limit:
        raise FieldError(f"{name} is {len(text)} characters, over the limit of {limit}", "shorten it")
    check_formula(text, name)


def convert(text: str, col: Column):
    """Return the typed value of one field, or None when it is empty and optional."""
    if text == "":
        if col.required:
            raise FieldError(f"{col.name} is empty", f"every row needs a {col.name}")
        return None
    check_chars(text, col.name)
    if text != text.strip():
        raise FieldError(f"{col.name} has spaces around '{text.strip()}'", "remove the spaces")
    return _KINDS[col.kind](text, col)


def _id(text: str, col: Column) -> str:
    if not _ID.fullmatch(text):
        raise FieldError(f"'{text}' is not a valid id",
                         "use letters, digits, '_', '+' and '-' only, at most 80 characters")
    return sys.intern(text)  # an id repeats on every row: one string for all (10^6 rows at x100)


def _ids(text: str, col: Column) -> list[str]:
    parts = text.split(";")
    for p in parts:
        if not _ID.fullmatch(p):
            raise FieldError(f"'{p}' in {col.name} is not a valid id", "separate ids with ';'")
    return parts


def _text(text: str, col: Column) -> str:
    if col.kind == "name" and len(text) > 200:
        raise FieldError(f"{col.name} is longer than 200 characters")
    check_formula(text, col.name)
    return text


def _int(text: str, col: Column) -> int:
    if not _INT.fullmatch(text):
        raise FieldError(f"'{text}' is not a whole number", f"write {col.name} as digits only")
    return int(_number(text, col))


def _enum(text: str, col: Column) -> str:
    if text not in col.choices:
        raise FieldError(f"'{text}' is not a valid {col.name}", f"use one of: {', '.join(col.choices)}")
    return text


def _date(text: str, col: Column) -> dt.date:
    try:
        return dt.date.fromisoformat(text) if len(text) == 10 else _bad_date(text)
    except ValueError:
        _bad_date(text)


def _url(text: str, col: Column) -> str:
    if not re.fullmatch(r"https?://[^\s\"'<>]+", text):
        raise FieldError(f"'{text}' is not an http(s) URL", "links must start with https://")
    return text


def _settings(text: str, col: Column) -> str:
    for part in text.split(";"):
        if not _SETTING.fullmatch(part):
            raise FieldError(f"'{part}' is not a name=value setting", "write settings as name=value;name=value")
    return text


def _version(text: str, col: Column) -> str:
    try:
        parse_version(text)
    except ValueError:
        raise FieldError(f"'{text}' is not a version", "write a dotted release such as 8.0.28 or 18beta1") from None
    return text


def is_date(text: str) -> bool:
    """A calendar date written YYYY-MM-DD (2024-02-30 is not one)."""
    try:
        return len(text) == 10 and bool(dt.date.fromisoformat(text))
    except ValueError:
        return False


def _bad_date(text: str):
    raise FieldError(f"'{text}' is not a date", "write dates as YYYY-MM-DD")


# One converter per column kind of the contract (contract.py names the kind of every column).
_KINDS = {"id": _id, "ids": _ids, "text": _text, "name": _text, "int": _int, "float": _number, "ratio": _number,
          "enum": _enum, "date": _date, "url": _url, "settings": _settings, "version": _version}
