"""Duplicate rows within one campaign: a campaign's own business, so checked as its folder is
read (in a worker, and kept in the campaign cache with its other problems), not over every
campaign's rows on every build."""
from __future__ import annotations

from ..codes import count_keys
from ..contract import CAMPAIGN_TABLES
from ..problems import Problems
from .rowblock import Block, entries, parts, row_at


def at(problems: Problems, row: dict, column: str, message: str, hint: str = "", warning: bool = False) -> None:
    """A problem at a row's field: its file, line and the column where the field starts."""
    col = row.get("_cols", {}).get(column, 1)
    (problems.warning if warning else problems.error)(row["_file"], row["_line"], col, message, hint)


def check_duplicates(rows: dict[str, list[dict]], problems: Problems) -> None:
    """rows: one campaign's rows by table. Two rows with the same key are one too many."""
    for t in CAMPAIGN_TABLES:
        if distinct(rows.get(t.name, []), t.key):
            continue
        seen: dict[tuple, tuple] = {}
        for key, part, i in entries(rows.get(t.name, []), t.key):
            if key in seen:
                at(problems, row_at(part, i), t.key[0],
                   f"duplicate row: same {', '.join(t.key)} as line {row_at(*seen[key])['_line']}",
                   "remove one, or number them with a repetition column" if t.name == "results"
                   else "remove one of them")
            else:
                seen[key] = (part, i)


def distinct(rows, names: tuple[str, ...]) -> bool:
    """Whether no two rows have the same values of `names`: a set of the keys (a block's filled in
    C, from its columns zipped; rows held as dicts one by one), which holds for nearly every
    campaign, before the loop that says which rows repeat (x100, on one core: 1.65 s of
    validate's 4.9-5.9 s, 0.44 s so)."""
    held = parts(rows)
    if len(held) == 1 and isinstance(held[0], Block):  # one file: its keys counted through its codes
        return count_keys([held[0].codes(c) for c in names]) == held[0].n
    seen: set[tuple] = set()
    n = 0
    for part in held:
        if isinstance(part, Block):
            seen.update(zip(*(part.column(c) for c in names), strict=True))
            n += part.n
        else:
            seen.update(tuple(row[c] for c in names) for row in part)
            n += len(part)
    return len(seen) == n
