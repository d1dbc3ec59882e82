"""Rows numbered by the values of their columns: each value a code (its place among the column's
distinct values, read off an Arrow dictionary), and several columns' codes one number per row,
sorted once. A key is made a tuple once per distinct key, never once per row (validate's checks
over 10^6 results, the explorer's tests per row)."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def codes_of(column: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, list]:
    """(each row's value as its place in the list, the distinct values, each once; a null is a
    value of its own)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()  # one dictionary for every chunk
    if not isinstance(column, pa.DictionaryArray):
        column = pc.dictionary_encode(column, null_encoding="encode")
    return distinct_codes(column.indices.to_numpy(zero_copy_only=False).astype(np.int64),
                          column.dictionary.to_pylist())


def distinct_codes(codes: np.ndarray, values: list) -> tuple[np.ndarray, list]:
    """(codes, values) with each value once: two texts a converter made equal (a dictionary's
    entries are distinct texts, not distinct values) share one code."""
    places: dict = {}
    remap = [places.setdefault(v, len(places)) for v in values]
    if len(places) == len(values):
        return codes, values
    return np.asarray(remap, dtype=np.int64)[codes], list(places)


def keys(columns: list[tuple[np.ndarray, list]]) -> tuple[np.ndarray, list[tuple]]:
    """Rows keyed by several columns (codes_of each, values distinct): (each row's key as its
    place in the list, the distinct keys as tuples of values, in the order of their first row).
    One sort of numbers, and a tuple per distinct key, not per row."""
    first, at = _numbered(columns)
    order = np.argsort(first, kind="stable")  # the keys in the order of their first row
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.arange(len(order))
    rows = first[order]  # each key read off its first row
    out = list(zip(*([values[c] for c in codes[rows].tolist()] for codes, values in columns), strict=True))
    return place[at], out


def places(columns: list[tuple[np.ndarray, list]]) -> tuple[np.ndarray, np.ndarray]:
    """keys() with no tuple made: (each row's key as its place, in the order of their first row;
    the first row of each place)."""
    first, at = _numbered(columns)
    order = np.argsort(first, kind="stable")
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.arange(len(order))
    return place[at], first[order]


def count_keys(columns: list[tuple[np.ndarray, list]]) -> int:
    """How many distinct keys the rows hold (as keys(), with no tuple made)."""
    return len(_numbered(columns)[0])


def _numbered(columns: list[tuple[np.ndarray, list]]) -> tuple[np.ndarray, np.ndarray]:
    """(the first row of each distinct key, each row's key as a place among them): the columns'
    codes as one number per row, sorted once."""
    n = len(columns[0][0])
    key, size = np.zeros(n, dtype=np.int64), 1
    for codes, values in columns:
        if size * len(values) >= 2 ** 62:  # renumber what is held so far before it overflows
            _, key = np.unique(key, return_inverse=True)
            size = int(key.max()) + 1 if n else 1
        key, size = key * len(values) + codes, size * len(values)
    _, first, at = np.unique(key, return_index=True, return_inverse=True)
    return first, at.reshape(-1)


def ranks(column: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Each row's value as its rank among the column's distinct values, in ascending order (text
    by its bytes, as DuckDB and Python compare it), a null after every value: numbers that sort as
    the column does, for a sort of several columns or one number per row of a compound key."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        encoded = pc.dictionary_encode(column)
        rank = np.empty(len(encoded.dictionary) + 1, dtype=np.int64)  # the last: a null's
        rank[pc.sort_indices(encoded.dictionary).to_numpy()] = np.arange(len(encoded.dictionary))
        rank[-1] = len(encoded.dictionary)
        return rank[pc.fill_null(encoded.indices, -1).to_numpy()]
    if pa.types.is_integer(column.type):
        if column.null_count == 0:
            return _int_ranks(column.to_numpy())[0]
        given = column.is_valid().to_numpy(zero_copy_only=False)
        at, distinct = _int_ranks(pc.fill_null(column, 0).to_numpy()[given])
        rank = np.full(len(column), distinct, dtype=np.int64)  # a null's
        rank[given] = at
        return rank
    raise TypeError(f"ranks: a column of {column.type}, not text or whole numbers")


def _int_ranks(values: np.ndarray) -> tuple[np.ndarray, int]:
    """(each whole number's rank among the distinct ones, how many there are). Values spanning
    few numbers (thread counts, ranges, a rank of a few hundred builds) are counted, not sorted: a
    comparison's 20,000 rows (x100) took 0.6 ms to sort by version rank, 0.1 ms so."""
    if not values.size:
        return np.zeros(0, dtype=np.int64), 0
    low = values.min()
    if int(values.max()) - int(low) <= 2 * values.size:
        present = np.zeros(int(values.max()) - int(low) + 1, dtype=np.int64)
        offset = (values if values.dtype.kind == "u" else values.astype(np.int64, copy=False)) - low  # int8: no wrap
        present[offset] = 1
        rank = np.cumsum(present) - 1
        return rank[offset], int(rank[-1]) + 1
    distinct, at = np.unique(values, return_inverse=True)
    return at.reshape(-1).astype(np.int64, copy=False), len(distinct)


def sorted_by(table: pa.Table, columns: list[str]) -> pa.Table:
    """The table's rows ordered as DuckDB's ORDER BY of these columns orders them (ascending,
    nulls last, text by its bytes), for text and whole-number columns: each column's ranks, and
    one stable numpy sort of those. DuckDB sorting a unit's 20,000 rows took 12-15 ms of its 20 ms
    query (x100: a server's explorer file, a comparison's rQPS); so, 3 ms. The columns must tell
    every row apart: rows equal in all of them would keep the order the query gave them, which
    without an ORDER BY is not fixed."""
    if not columns or not table.num_rows:
        return table
    # np.lexsort: the last key is the first compared
    return table.take(np.lexsort([ranks(table.column(name)) for name in reversed(columns)]))
