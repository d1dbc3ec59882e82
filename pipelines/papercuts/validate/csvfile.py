"""Strict CSV reading: every problem with its line and column, nothing guessed.

Text in, rows out: `parse_csv` takes the file's bytes so tests need no files.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

from ..contract import CATALOGS, MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_ROWS, Table
from ..problems import Problems, place
from .suggest import did_you_mean


@dataclass
class Row:
    line: int
    values: dict[str, str]
    columns: dict[str, int]  # 1-based character column where each field starts


def split_line(line: str) -> tuple[list[str], list[int], tuple[str, int] | None]:
    """Split one CSV line (RFC 4180 quoting) into fields and their start columns; a quoting
    error is (what is wrong, its column)."""
    if '"' not in line:  # most lines: str.split, and each start one past the previous field's comma
        fields = line.split(",")
        return fields, list(accumulate((len(f) + 1 for f in fields[:-1]), initial=1)), None
    fields: list[str] = []
    starts: list[int] = []
    i, n = 0, len(line)
    while True:
        starts.append(i + 1)
        if i < n and line[i] == '"':
            j, buf = i + 1, []
            while True:
                if j >= n:
                    return fields, starts, ("unterminated quoted field", i + 1)
                if line[j] == '"':
                    if j + 1 < n and line[j + 1] == '"':
                        buf.append('"')
                        j += 2
                        continue
                    break
                buf.append(line[j])
                j += 1
            fields.append("".join(buf))
            i = j + 1
            if i < n and line[i] != ",":
                return fields, starts, ("unexpected text after a closing quote", i + 1)
        else:
            j = line.find(",", i)
            j = n if j < 0 else j
            value = line[i:j]
            if '"' in value:
                return fields, starts, ("stray quote character", i + value.index('"') + 1)
            fields.append(value)
            i = j
        if i >= n:
            return fields, starts, None
        i += 1  # skip the comma


def decode(data: bytes, path: str, problems: Problems) -> str | None:
    if len(data) > MAX_FILE_BYTES:
        problems.error(path, 1, 1, f"file is {len(data)} bytes, over the limit of {MAX_FILE_BYTES}",
                       "split it into several campaigns")
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # what spreadsheets write for "CSV UTF-8": the same text
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        problems.error(path, 1, 1, "file is UTF-16", "save it as UTF-8")
        return None
    if b"\x00" in data:
        problems.error(path, *place(data, data.index(b"\x00")), "file contains NUL bytes, as binary files do",
                       "data files must be UTF-8 text")
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.error(path, *place(data, e.start), f"invalid UTF-8 byte 0x{data[e.start]:02x}",
                       "save the file as UTF-8")
        return None


def parse_csv(data: bytes, path: str, table: Table, problems: Problems) -> list[Row] | None:
    """Return the rows, or None when the file is unusable (problems say why)."""
    text = decode(data, path, problems)
    lines = None if text is None else _lines(text, path, table, problems)
    if not lines:
        return None
    header, starts, err = split_line(lines[0])
    if err:
        problems.error(path, 1, err[1], f"header: {err[0]}", "fix the quoting")
        return None
    if not _check_header(header, starts, path, table, problems):
        return None
    rows = [row for number, line in enumerate(lines[1:], start=2)
            if (row := _row(number, line, header, path, problems)) is not None]
    if not rows and len(lines) == 1:  # a catalog may not be removed: every data folder has the five
        problems.error(path, 1, 1, "file has a header but no rows",
                       "add its rows (data/README.md has its columns; papercuts import mytools adds builds and "
                       "configs): every data folder needs the five catalog files" if table in CATALOGS
                       else "add rows or remove the file")
    return rows


def _lines(text: str, path: str, table: Table, problems: Problems) -> list[str] | None:
    """The file's lines without their line ends, or None after saying why the file is unusable."""
    if "\r" in text.replace("\r\n", ""):
        line = text[: text.replace("\r\n", "  ").index("\r")].count("\n") + 1
        problems.error(path, line, 1, "file has carriage returns without line feeds, as old Mac files do",
                       "save it with LF or CRLF line ends")
        return None
    crlf = text.count("\r\n")
    if 0 < crlf < text.count("\n"):
        line = next(i for i, ln in enumerate(text.split("\n"), start=1)
                    if ln.endswith("\r") != text.split("\n")[0].endswith("\r"))
        problems.error(path, line, 1, "file mixes CRLF and LF line ends",
                       "save it with one kind of line end")
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    if not lines or not lines[0].strip():
        problems.error(path, 1, 1, "file is empty", f"start with the header line of {table.file}")
        return None
    bad_line = next((i for i, ln in enumerate(lines) if len(ln) > MAX_LINE_CHARS), None)
    if bad_line is not None:
        problems.error(path, bad_line + 1, MAX_LINE_CHARS + 1,
                       f"line is longer than {MAX_LINE_CHARS} characters",
                       "shorten the free-text fields")
        return None
    if len(lines) - 1 > MAX_ROWS:
        problems.error(path, MAX_ROWS + 2, 1, f"more than {MAX_ROWS} rows",
                       "split the results into several campaigns")
        return None
    return lines


def _check_header(header: list[str], starts: list[int], path: str, table: Table, problems: Problems) -> bool:
    known = {c.name for c in table.columns}
    if len(header) == 1 and (";" in header[0] or "\t" in header[0]):
        sep = "semicolons" if ";" in header[0] else "tabs"
        problems.error(path, 1, 1, f"header is separated by {sep}", "use commas as the delimiter")
        return False
    ok = True
    seen: set[str] = set()
    for name, col in zip(header, starts, strict=True):
        if name != name.strip():
            problems.error(path, 1, col, f"column name '{name}' has spaces around it",
                           "remove the spaces")
            ok = False
        elif name in seen:
            problems.error(path, 1, col, f"column '{name}' appears twice", "remove one of them")
            ok = False
        elif name not in known:
            hint = did_you_mean(name, known) or f"known columns: {', '.join(sorted(known))}"
            problems.error(path, 1, col, f"unknown column '{name}'", hint)
            ok = False
        seen.add(name)
    for c in table.columns:
        if c.required and c.name not in seen:
            problems.error(path, 1, 1, f"required column '{c.name}' is missing",
                           f"add a '{c.name}' column; data/README.md lists each file's columns")
            ok = False
    return ok


def _row(number: int, line: str, header: list[str], path: str, problems: Problems) -> Row | None:
    if not line.strip():
        problems.error(path, number, 1, "blank line", "remove it")
        return None
    values, cols, err = split_line(line)
    if err:
        problems.error(path, number, err[1], err[0], "quote fields with double quotes and double any quote inside")
        return None
    if len(values) != len(header):
        # Point at the first extra field, or at the end of a short line.
        col = cols[len(header)] if len(values) > len(header) else len(line) + 1
        problems.error(path, number, col,
                       f"{len(values)} fields where the header has {len(header)}",
                       "quote fields that contain commas; one value per column")
        return None
    return Row(number, dict(zip(header, values, strict=True)), dict(zip(header, cols, strict=True)))
