"""Runs of equal rows in an Arrow table, found by comparing neighbours in Arrow: no Python object
per value (the ladders and the comparison charts read rows in runs, as their queries order them)."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def run_starts(table: pa.Table, columns: tuple[str, ...]) -> np.ndarray:
    """Whether each row begins a run of rows equal over these columns (a null equals a null)."""
    new = np.zeros(table.num_rows, dtype=bool)
    new[:1] = True
    for name in columns if table.num_rows > 1 else ():
        c = table.column(name).combine_chunks()
        after, before = c.slice(1), c.slice(0, len(c) - 1)
        new[1:] |= pc.fill_null(pc.not_equal(after, before), False).to_numpy(zero_copy_only=False)
        new[1:] |= _valid(after) != _valid(before)
    return new


def _valid(a: pa.Array) -> np.ndarray:
    return pc.is_valid(a).to_numpy(zero_copy_only=False)
