"""A plain results.csv held as columns, not as a dict per row (issue 16: with a dict per row the
x100 build's own process peaked at 1.66 GB and validate took 17 s; as columns, 0.92 GB and 6 s).

`read_block` takes the file only when reading it row by row could find nothing wrong: no quote,
every line of the header's width, and every distinct value of every column converted by the same
`fields.convert` the row-by-row reader calls (a distinct id is converted once, not once per row).
Any doubt, and the file is read row by row instead, which reports each problem at its line and
column. So a block holds exactly the typed values, and the lines, that reading it row by row gives.

`Rows` is a table's rows in file order, some as dicts and some as blocks; iterating it gives a
dict per row, made when asked for. Checks that must be fast over every result read the blocks'
columns (`Rows.parts`); the others are unchanged.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..contract import Table
from ..problems import Problems
from .csvfile import _check_header, _lines, decode, split_line
from .fields import FieldError, convert


class Block:
    """Rows i = 0..n-1 of one file, on lines i + 2: each column's typed values."""

    def __init__(self, table: Table, columns: dict[str, list], n: int, campaign: str, file: str,
                 published: str, text: str, header: list[str]) -> None:
        self.names = [c.name for c in table.columns]
        self.columns = columns  # the file's columns; the table's others are None on every row
        self.n = n
        self.campaign, self.file, self.published = campaign, file, published
        self.text = text  # the data lines, joined: where a row's fields start, for a problem's column
        self.header = header
        self._lines: list[str] | None = None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_lines": None}  # split again when a problem needs a column

    def cols(self, i: int) -> dict[str, int]:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return dict(zip(self.header, split_line(self._lines[i])[1], strict=True))

    def column(self, name: str) -> list:
        if name == "campaign":
            return [self.campaign] * self.n
        return self.columns.get(name) or [None] * self.n

    def row(self, i: int) -> dict:
        """Row i as the row-by-row reader gives it (load.load_table)."""
        out = {name: (self.columns[name][i] if name in self.columns else None) for name in self.names}
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
    text = decode(data, rel, quiet)
    lines = None if text is None or '"' in text else _lines(text, rel, table, quiet)
    if not lines or len(lines) < 2 or quiet.items:
        return None
    header = lines[0].split(",")
    if not _check_header(header, split_line(lines[0])[1], rel, table, quiet):
        return None
    fields = [line.split(",") for line in lines[1:]]
    width = len(header)
    if any(len(f) != width for f in fields) or any(not line.strip() for line in lines[1:]):
        return None
    by_name = {c.name: c for c in table.columns}
    columns: dict[str, list] = {}
    for name, texts in zip(header, zip(*fields, strict=True), strict=True):
        col = by_name[name]
        try:
            typed = {text: convert(text, col) for text in set(texts)}
        except FieldError:
            return None
        columns[name] = [typed[t] for t in texts]
    return Block(table, columns, len(fields), campaign, rel, published, "\n".join(lines[1:]), header)


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


def row_at(part: dict | Block, i: int) -> dict:
    return part if i < 0 else part.row(i)


def origin(part: dict | Block) -> tuple[str, str]:
    """(campaign, file) of a row given as entries() gives it."""
    return (part.campaign, part.file) if isinstance(part, Block) else (part["campaign"], part["_file"])
