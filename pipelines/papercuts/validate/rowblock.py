"""A plain results.csv held as columns, not as a dict per row (issue 16: with a dict per row the
x100 build's own process peaked at 1.66 GB and validate took 17 s; as columns, 0.92 GB and 6 s).

`read_block` takes the file only when reading it row by row could find nothing wrong: no quote,
every line of the header's width, and every value typed as `fields.convert` would type it: a number
column checked against the same pattern and bounds and converted in Arrow, any other column by
`fields.convert` itself, once per distinct value (x100, 54 files of 10^6 rows: 3.3 s in Python
per row and column, 0.9 s so).
Any doubt, and the file is read row by row instead, which reports each problem at its line and
column. So a block holds exactly the typed values, and the lines, that reading it row by row gives.

`Rows` is a table's rows in file order, some as dicts and some as blocks; iterating it gives a
dict per row, made when asked for. Checks that must be fast over every result read the blocks'
columns (`Rows.parts`); the others are unchanged.

A block keeps its number and text columns as Arrow arrays, which ingest hands to DuckDB as they
are, and gives a column as a Python list only to a check that asks for one (x100: turning 10^6
rows' lists back into Arrow arrays was about 0.7 s of ingest's 2.2 s).
"""
from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ..codes import codes_of
from ..contract import MAX_LINE_CHARS, MAX_ROWS, Column, Table
from ..problems import Problems
from .csvfile import _check_header, decode, split_line
from .fields import _FLOAT, FieldError, convert


class Block:
    """Rows i = 0..n-1 of one file, on lines i + 2: each column's typed values."""

    def __init__(self, table: Table, columns: dict[str, pa.Array | list], n: int, campaign: str, file: str,
                 published: str, data: bytes, body: int, header: list[str]) -> None:
        self.names = [c.name for c in table.columns]
        # The file's columns (the table's others are None on every row), as _typed gives them:
        # an Arrow array, or a list when a value is neither a number nor a text (a list of ids).
        self.columns = columns
        self.n = n
        self.campaign, self.file, self.published = campaign, file, published
        # The file's bytes as read (the campaign's evidence holds the same object, so a pickle of
        # the campaign holds them once) and where its data lines start: a row's fields' columns,
        # for a problem, are read off its line when asked for.
        self.data, self.body = data, body
        self.header = header
        self._lines: list[str] | None = None
        self._lists: dict[str, list] = {}  # the Arrow columns a check asked for as lists

    def __getstate__(self) -> dict:
        # split again when a problem needs a column; lists made again when a check asks
        return {**self.__dict__, "_lines": None, "_lists": {}}

    def cols(self, i: int) -> dict[str, int]:
        if self._lines is None:
            self._lines = self.data[self.body:].decode("utf-8").split("\n")
        return dict(zip(self.header, split_line(self._lines[i].removesuffix("\r"))[1], strict=True))

    def column(self, name: str) -> list:
        """A column's values as a list (a file's column: the same list each time; do not change it,
        replace() does)."""
        if name == "campaign":
            return [self.campaign] * self.n
        found = self.columns.get(name)
        if found is None:
            return [None] * self.n
        if isinstance(found, list):
            return found
        if name not in self._lists:
            self._lists[name] = as_list(found)
        return self._lists[name]

    def distinct(self, name: str) -> set:
        """The column's distinct values (a text column's from its dictionary, with no list made)."""
        found = self.columns.get(name)
        if isinstance(found, pa.DictionaryArray):
            return set(found.dictionary.to_pylist())
        if isinstance(found, pa.Array) and pa.types.is_integer(found.type):
            return set(pc.unique(found).to_pylist())
        return {self.campaign} if name == "campaign" else set(self.column(name))

    def numbers(self, name: str) -> np.ndarray:
        """A number column as doubles, null as NaN: what np.asarray(column(name), float64) gives,
        with no list made."""
        found = self.columns.get(name)
        if isinstance(found, pa.Array) and (pa.types.is_integer(found.type) or pa.types.is_floating(found.type)):
            return pc.cast(found, pa.float64()).to_numpy(zero_copy_only=False)
        return np.asarray(self.column(name), dtype=np.float64)

    def take(self, name: str, rows: list[int]) -> list:
        """A column's values at these rows, as column(name) gives them there, with no list of the
        whole column made (a check that compares a few rows of 20,000)."""
        found = self.columns.get(name)
        if isinstance(found, pa.Array) and name not in self._lists:
            return as_list(found.take(pa.array(rows, pa.int64())))
        column = self.column(name)
        return [column[i] for i in rows]

    def codes(self, name: str) -> tuple[np.ndarray, list]:
        """(each row's value as its place in the list, the column's distinct values; codes.py),
        with no list of the rows made. The values are hashable (a key's)."""
        found = self.columns.get(name)
        if name == "campaign" or found is None:
            return np.zeros(self.n, dtype=np.int64), [self.campaign if name == "campaign" else None]
        if isinstance(found, list) or name in self._lists:
            places: dict = {}
            return np.fromiter((places.setdefault(v, len(places)) for v in self.column(name)),
                               dtype=np.int64, count=self.n), list(places)
        return codes_of(found)

    def replace(self, name: str, column: list) -> None:
        """Replace a column's values in place (with_column leaves the block as it is)."""
        self.columns[name] = column
        self._lists.pop(name, None)

    def with_column(self, name: str, column: pa.Array | list) -> Block:
        """A copy with a column's values replaced (ingest/canonical.py: a server alias by its id),
        this block unchanged: validate's checks may be reading it meanwhile (build._Database)."""
        block = copy.copy(self)  # __getstate__: no lists of the columns shared
        block.columns = {**self.columns, name: column}
        return block

    def arrow(self, name: str) -> pa.Array:
        """A column as Arrow (ingest): as held, or from its list (pa.array may refuse it)."""
        if name == "campaign":
            return pa.repeat(pa.scalar(self.campaign, pa.string()), self.n)
        found = self.columns.get(name)
        if found is None:
            return pa.nulls(self.n)
        return found if isinstance(found, pa.Array) else pa.array(found)

    def row(self, i: int) -> dict:
        """Row i as the row-by-row reader gives it (load.load_table)."""
        out = {name: (self.column(name)[i] if name in self.columns else None) for name in self.names}
        out.update(campaign=self.campaign, _file=self.file, _published=self.published, _line=i + 2,
                   _cols=self.cols(i))
        return out

    def rows(self) -> Iterator[dict]:
        return map(self.row, range(self.n))


class Rows:
    """A table's rows in order: dicts, and blocks standing for theirs."""

    def __init__(self, items: Iterable = ()) -> None:
        self._parts: list[list[dict] | Block] = []
        self._n = 0
        self.extend(items)

    def append(self, row: dict) -> None:
        if not self._parts or isinstance(self._parts[-1], Block):
            self._parts.append([])
        self._parts[-1].append(row)
        self._n += 1

    def extend(self, items: Iterable | Block) -> None:
        if isinstance(items, Block):
            self.add_block(items)
            return
        if isinstance(items, Rows):
            for part in items._parts:
                self.add_block(part) if isinstance(part, Block) else self.extend(part)
            return
        for row in items:
            self.append(row)

    def __iadd__(self, items: Iterable) -> Rows:
        self.extend(items)
        return self

    def add_block(self, block: Block) -> None:
        self._parts.append(block)
        self._n += block.n

    def parts(self) -> list[list[dict] | Block]:
        """The rows as they are held, in order: lists of dicts and blocks."""
        return self._parts

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return self._n > 0

    def __iter__(self) -> Iterator[dict]:
        for part in self._parts:
            yield from (part.rows() if isinstance(part, Block) else part)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._n
        for part in self._parts:
            n = part.n if isinstance(part, Block) else len(part)
            if 0 <= index < n:
                return part.row(index) if isinstance(part, Block) else part[index]
            index -= n
        raise IndexError("row index out of range")

    def __eq__(self, other) -> bool:
        """The same rows in the same order, however they are held."""
        return isinstance(other, (Rows, list)) and len(self) == len(other) and list(self) == list(other)


def read_block(data: bytes, rel: str, table: Table, campaign: str, published: str) -> Block | None:
    """The file as a block, or None when it must be read row by row (see the module's docstring)."""
    quiet = Problems()  # the row-by-row reader reports anything found here
    text = decode(data, rel, quiet)  # its size, encoding and NUL bytes, as the row-by-row reader checks them
    if text is None or '"' in text:
        return None
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # decode() dropped it
    lines = _lines_in_bulk(data, bom)
    if lines is None:
        return None
    header_end, rows, crlf = lines
    header_line = data[bom:header_end - crlf].decode("utf-8")
    header = header_line.split(",")
    if len(header) < 2 or not _check_header(header, split_line(header_line)[1], rel, table, quiet):
        return None
    texts = _split(data, header_end + 1, header, rows)
    if texts is None:
        return None
    by_name = {c.name: c for c in table.columns}
    columns: dict[str, pa.Array | list] = {}
    for name in header:
        typed = _typed(texts.column(name).combine_chunks(), by_name[name])
        if typed is None:
            return None
        columns[name] = typed
    return Block(table, columns, rows, campaign, rel, published, data, header_end + 1, header)


def _lines_in_bulk(data: bytes, start: int) -> tuple[int, int, int] | None:
    """(where the header line ends, how many data lines follow, 1 if the line ends are CRLF else 0)
    of the file from byte `start`, or None when csvfile._lines could find a problem in its lines,
    or the header is blank or alone: a carriage return but as every line's CRLF, a line longer
    than allowed (counted in bytes, at least its characters), too many rows, an empty line (one
    holding only spaces has one field, which _split refuses). Found over the bytes at once, not
    line by line (x100: 0.35 of read_block's 0.97 CPU s line by line)."""
    cr, lf = data.count(b"\r"), data.count(b"\n")
    if cr and (cr != lf or data.count(b"\r\n") != cr):  # a lone CR, or CRLF and LF mixed
        return None
    crlf = int(cr > 0)
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == ord("\n"))
    if len(ends) == 0 or data.startswith((b"\n", b"\r\n"), start) or b"\n\n" in data or b"\n\r\n" in data:
        return None
    tail = len(data) - int(ends[-1]) - 1  # a last line with no line end (0: there is none)
    longest = max(int((np.diff(ends, prepend=start - 1) - 1 - crlf).max()), tail)
    rows = len(ends) - 1 + (tail > 0)
    if longest > MAX_LINE_CHARS or not 1 <= rows <= MAX_ROWS:
        return None
    return int(ends[0]), rows, crlf


def _split(data: bytes, body: int, header: list[str], rows: int) -> pa.Table | None:
    """The data lines (data from byte `body`) split into fields, every field as its text (Arrow's
    CSV reader, no quoting, no value read as null); None when a line has another number of fields
    than the header, or when the data lines start with a byte-order mark, which Arrow would drop
    (the row-by-row reader reports it: only the file's own start may hold one, and decode()
    removed that)."""
    if data.startswith(b"\xef\xbb\xbf", body):
        return None
    try:
        texts = pacsv.read_csv(
            pa.py_buffer(memoryview(data)[body:]),
            read_options=pacsv.ReadOptions(column_names=header, use_threads=False),
            parse_options=pacsv.ParseOptions(quote_char=False, escape_char=False, ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(column_types={h: pa.string() for h in header},
                                                 strings_can_be_null=False, quoted_strings_can_be_null=False))
    except pa.ArrowInvalid:
        return None
    return texts if texts.num_rows == rows else None


_NUMBER = "^(?:" + _FLOAT.pattern + ")$"  # fields._number's pattern, anchored for Arrow (RE2)
# fields._int's pattern, [0-9]+, is what Arrow's ascii_is_decimal tells (a non-empty text of ASCII
# digits only), without a regular expression (x100: 0.05 s for the 100 columns, 0.007 s so)
_EXACT_INT = 2 ** 53  # fields._int goes through a float: larger whole numbers are left to it


def _typed(texts: pa.Array, col: Column) -> pa.Array | list | None:
    """The column's values as fields.convert gives them (`as_list` gives them as a list), or None
    when any value might be a problem (the file is then read row by row, which reports it). A
    number column is checked and converted in Arrow (its text to a double is correctly rounded, as
    Python's float() is); any other column converts each distinct text once, with convert itself,
    and is held as a dictionary of those texts, or as a list when a value is not a text."""
    if col.kind in ("float", "ratio", "int"):
        return _numbers(texts, col)
    found = texts.dictionary_encode()
    try:
        converted = [convert(t, col) for t in found.dictionary.to_pylist()]
    except FieldError:
        return None
    if all(type(v) is str for v in converted):
        return pa.DictionaryArray.from_arrays(found.indices, pa.array(converted, pa.string()))
    distinct = np.fromiter(converted, dtype=object, count=len(converted))  # one slot per value, even a list (kind ids)
    return distinct[found.indices.to_numpy(zero_copy_only=False)].tolist()


def as_list(column: pa.Array | list) -> list:
    """A column as _typed gives it, as a list: a text repeated is one str object, as in a column
    typed by convert."""
    if isinstance(column, list):
        return column
    if isinstance(column, pa.DictionaryArray):
        distinct = np.fromiter(column.dictionary.to_pylist(), dtype=object, count=len(column.dictionary))
        return distinct[column.indices.to_numpy(zero_copy_only=False)].tolist()
    return column.to_pylist()


def _numbers(texts: pa.Array, col: Column) -> pa.Array | None:
    empty = pc.equal(texts, "")
    if pc.any(empty).as_py() and col.required:
        return None
    given = pc.filter(texts, pc.invert(empty))
    well_formed = pc.ascii_is_decimal(given) if col.kind == "int" else pc.match_substring_regex(given, _NUMBER)
    if not pc.all(well_formed, min_count=0).as_py():
        return None
    try:  # a text past a double's range: inf or 0.0 in this Arrow, an error in some others
        values = pc.cast(pc.if_else(empty, pa.scalar(None, pa.string()), texts), pa.float64())
    except pa.ArrowInvalid:
        return None
    low, high = (pc.min_max(values)[k].as_py() for k in ("min", "max"))
    if low is not None and ((col.positive and low <= 0) or (col.minimum is not None and low < col.minimum)
                            or (col.maximum is not None and high > col.maximum)
                            or (col.kind == "int" and high >= _EXACT_INT)):
        return None
    return pc.cast(values, pa.int64()) if col.kind == "int" else values


def parts(rows: Rows | list[dict]) -> list[list[dict] | Block]:
    """A table's rows as they are held: Rows' parts, or a plain list as one part."""
    return rows.parts() if isinstance(rows, Rows) else [rows]


def entries(rows, names: tuple[str, ...] | list[str]) -> Iterator[tuple[tuple, dict | Block, int]]:
    """(the values of `names`, where the row is) for every row in order: a dict row is (key, row,
    -1), a block's row i is (key, block, i); `row_at` gives the row itself. A block's keys come
    from its columns, with no row made."""
    for part in parts(rows):
        if isinstance(part, Block):
            yield from ((key, part, i) for i, key in enumerate(zip(*(part.column(n) for n in names), strict=True)))
        else:
            yield from ((tuple(row[n] for n in names), row, -1) for row in part)


def campaign_rows(rows: Rows | list[dict]) -> dict[str, Rows]:
    """Each campaign's rows in order, campaigns in the order of their first row."""
    out: dict[str, Rows] = {}
    for part in parts(rows):
        if isinstance(part, Block):
            out.setdefault(part.campaign, Rows()).add_block(part)
        else:
            for row in part:
                out.setdefault(row["campaign"], Rows()).append(row)
    return out


def row_at(part: dict | Block, i: int) -> dict:
    return part if i < 0 else part.row(i)


def origin(part: dict | Block) -> tuple[str, str]:
    """(campaign, file) of a row given as entries() gives it."""
    return (part.campaign, part.file) if isinstance(part, Block) else (part["campaign"], part["_file"])
