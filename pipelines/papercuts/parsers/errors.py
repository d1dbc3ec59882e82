"""What a parser returns when it cannot give rows: a ParseError (malformed text) or a Gap (no text).

A malformed file is the contributor's to fix, so ParseError is a UserError carrying one Problem with
file and line, shown like every other data problem. A missing or empty file is not an error: mytools
archives commit zero-length files and leave large blobs out, so the caller records a Gap and shows it.
"""
from __future__ import annotations

import io
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from isal import igzip, igzip_lib

from ..problems import Problem, UserError, place

T = TypeVar("T")

# mytools gzips some outputs, and large per-run outputs are kept gzipped in data/ (a 3.2 MB EXPLAIN
# output is 40 KB): a .gz file is read as its decompressed bytes, up to this size, never more.
MAX_GUNZIPPED_BYTES = 64 * 1024 * 1024


class ParseError(UserError):
    """Malformed raw output: one problem at path:line, with a hint on how to fix or regenerate it."""

    def __init__(self, path: str, line: int, message: str, hint: str = "", column: int = 1) -> None:
        self.problem = Problem(path, max(line, 1), max(column, 1), "error", message, hint)
        super().__init__(self.problem.render(), [self.problem])
        self.path, self.line = path, max(line, 1)


@dataclass(frozen=True)
class Gap:
    """A raw file that should be there and is not (or holds nothing): a value shown as missing."""

    path: str
    reason: str  # "missing" or "empty"

    def __bool__(self) -> bool:  # `if result:` reads as "did we get rows?"
        return False


def token_columns(line: str) -> list[int]:
    """The 1-based column of each whitespace-separated token of a line, as split() cuts it."""
    return [m.start() + 1 for m in re.finditer(r"\S+", line)]


def blank(text: str) -> bool:
    return not text.strip()


def read(path: str | Path, parse: Callable[[str, str], T], display: str | None = None) -> T | Gap:
    """The one file-reading edge: a Gap for a missing or empty file, else parse(text, path)."""
    p = Path(path)
    shown = display or str(path)
    if not p.is_file():
        return Gap(shown, "missing")
    raw = file_bytes(p, shown)
    if not raw.strip():
        return Gap(shown, "empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        # Never guessed as latin-1: a wrong guess changes names silently. The contributor knows
        # the locale the tool ran in and can convert the file.
        line, col = place(raw, e.start)
        raise ParseError(shown, line, f"invalid UTF-8 byte 0x{raw[e.start]:02x}",
                         f"convert the file to UTF-8, e.g. iconv -f latin1 -t utf-8 {Path(shown).name}", col) from None
    return parse(text, shown)


def file_bytes(p: Path, shown: str) -> bytes:
    """A file's bytes; a .gz file's decompressed bytes (its CRC checked), or a ParseError."""
    raw = p.read_bytes()
    if p.suffix != ".gz":
        return raw
    try:  # ISA-L's reader (isal, pinned): the same bytes and checks as gzip's, in 0.6 of its time
        # (the shipped corpus's largest campaign: 775 .gz files, 90 MB inflated, 0.131 -> 0.082 CPU s)
        with igzip.IGzipFile(fileobj=io.BytesIO(raw)) as g:
            data = g.read(MAX_GUNZIPPED_BYTES + 1)
    except (OSError, EOFError, zlib.error, igzip_lib.IsalError) as e:
        raise ParseError(shown, 1, f"not a complete gzip file ({e})",
                         "compress the output again with gzip -n, or commit it uncompressed") from None
    if len(data) > MAX_GUNZIPPED_BYTES:
        raise ParseError(shown, 1, f"decompresses to more than {MAX_GUNZIPPED_BYTES >> 20} MB",
                         "commit a shorter output: this is not one sysbench or perf run")
    return data
