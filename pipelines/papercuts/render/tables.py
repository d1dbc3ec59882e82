"""Text tables and CSV files for charts: the same rows a chart draws, for readers and downloads."""
from __future__ import annotations

import csv
import io
import math
import re
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from ..codes import codes_of, keys
from .colours import NOISE, RATIO_CLASSES, STRENGTHS, ratio_class  # tables colour ratios the site's one way
from .columns import Columns

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Text starting with a quote gets one more, so every quoted cell was guarded: a reader of the CSV
# (a spreadsheet, or a chart's spec: datafile.py) drops exactly one and has the text back.
GUARD = "'"
GUARDED_START = (*FORMULA_START, GUARD)


def cell(text: str, cls: str = "") -> dict:
    return {"text": text, "class": cls}


def fixed(value: float, places: int = 2, grouped: bool = False) -> str:
    """The site's one rounding rule, for every number it prints: the double's exact value rounded
    to `places` decimals (below 0: to tens, hundreds...), a tie away from zero. It is what
    JavaScript's toFixed and toPrecision do, and so what Vega's d3-format prints in a chart (.2f,
    ,.3r) and the explorer in its table. Python's format and round send an exact tie to the even
    digit: a median of 0.625 read 0.62 in a page's table and 0.63 in its chart's tooltip."""
    spec = f"{',' if grouped else ''}.{max(0, places)}f"
    if not math.isfinite(value):
        return format(value, spec)
    # An exact tie at `places` >= 0 decimals is an odd multiple of 1 / (2 * 10**places): a double's
    # denominator is a power of 2, so it is 2**(places + 1). Any other value Python's format rounds
    # correctly from its exact value, as JavaScript does.
    if places >= 0 and value.as_integer_ratio()[1] != 2 << places:
        return format(value, spec)
    return format(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), spec)


def signed(value: float, places: int = 2) -> str:
    """`fixed` with its sign always written: +1.25, -0.50."""
    text = fixed(value, places)
    return text if text.startswith("-") else "+" + text


def percent(ratio: float, places: int = 1) -> str:
    """A relative change (0.14 for 14 %) as every page, CSV-less table and feed writes it, signed,
    as a chart's d3 '+.1%' tooltip does: +14.0%, -11.5%."""
    return signed(100 * ratio, places) + "%"


def fmt(value, decimals: int = 2) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return fixed(value, decimals)
    return str(value)


def significant(value: float, digits: int = 3) -> str:
    """A cost to `digits` significant digits, never in exponent notation: 0.00505, 1.20, 12,300
    (Python's .4g wrote a cycles-per-query cost 1.235e+05); rounded by the site's one rule
    (`fixed`), as the explorer's table (site/static/js/explore.js `significant`) and a chart's
    ,.3r tooltip round it."""
    if value == 0 or not math.isfinite(value):
        return fmt(float(value), 0) if value == 0 else str(value)
    places = digits - 1 - math.floor(math.log10(abs(value)))  # below 0: rounded to tens, hundreds...
    return fixed(float(value), places, grouped=True)


# A page's table shows at most this many rows, then links the chart's CSV, which has them all:
# pages stay light, and Hugo reads no more of a table than it shows.
SHOWN_ROWS = 100
# ... and, after its leading label columns, at most this many columns: the last ones (a heatmap's
# variants run oldest to newest, and the newest are what a reader compares). The widest table of
# the shipped data has 14; at x100 a server page's five 100-column heatmap tables were 820 KB of
# its 846 KB.
SHOWN_COLUMNS = 16


def unshown(values: int) -> int:
    """How many of a table's `values` value columns (after its labels) a page leaves out: the
    first ones (_kept_columns keeps the last SHOWN_COLUMNS)."""
    return max(0, values - SHOWN_COLUMNS)


def value_table(labels: list[tuple[str, bool]], variants: list[str], names: list[list[str]],
                columns: list[list[dict]]) -> dict:
    """A table of the `labels` columns, then a number column per variant; a row per `names` (its
    label texts). `columns` are the cells of the variants a page shows (the last len(columns)), a
    cell for each of the first rows (as many as a page shows, or more): every other cell is left
    blank, never printed (shown_html), and the CSV has every value."""
    blank = cell("")
    unfilled = [blank] * (len(variants) - len(columns))
    filled = list(zip(*columns, strict=True)) if columns else [()] * len(names)
    if len(filled) > len(names):
        raise ValueError(f"{len(filled)} rows of cells for {len(names)} table rows")
    rows = [[*map(cell, row), *unfilled, *values] for row, values in zip(names[:len(filled)], filled, strict=True)]
    rows += [[*map(cell, row), *[blank] * len(variants)] for row in names[len(filled):]]
    return table(labels + [(v, True) for v in variants], rows, labels=len(labels))


def table(columns: list[tuple[str, bool]], rows: list[list[dict]], labels: int | None = None) -> dict:
    """labels: how many leading columns name a row (kept when a wide table is cut); by default its
    leading non-numeric columns."""
    out = {"columns": [{"label": label, "numeric": numeric} for label, numeric in columns], "rows": rows}
    if labels is not None:
        out["labels"] = labels
    return out


# A shown table of more cells is laid out by the browser only when it nears the viewport (site.css
# .table-wrap.large): a server page with five tables of 100 variants' columns spent about a second
# laying them out before its first chart. Smaller tables are always laid out.
LARGE_CELLS = 600


def shown(t: dict) -> dict:
    """What the page's table shows: the first SHOWN_ROWS rows and its label columns with the last
    SHOWN_COLUMNS others, with each cell's final class (`num` added in numeric columns: the page
    prints, it does not compute, per cell), and whether what is shown is large. What it leaves out
    is `cut`'s."""
    columns = t["columns"]
    numeric = [c["numeric"] for c in columns]
    keep, _ = _kept_columns(t)
    rows = []
    for row in t["rows"][:SHOWN_ROWS]:
        if len(row) != len(columns):
            raise ValueError(f"a table row of {len(row)} cells under {len(columns)} columns")
        rows.append([{"text": row[i]["text"], "class": _cell_class(row[i]["class"], numeric[i])} for i in keep])
    return {"columns": [columns[i] for i in keep], "rows": rows, "large": len(rows) * len(keep) > LARGE_CELLS}


def _kept_columns(t: dict) -> tuple[list[int], int]:
    """(the columns a page shows, how many of them label a row)."""
    columns = t["columns"]
    labels = t.get("labels", next((i for i, c in enumerate(columns) if c["numeric"]), len(columns)))
    return list(range(labels)) + list(range(max(labels, len(columns) - SHOWN_COLUMNS), len(columns))), labels


def cut(t: dict) -> dict | None:
    """What a page leaves out of a table, for the note under it (layouts/_partials/data-table.html):
    `rows` shown of `total`, and `columns` (`shown` of `of` value columns) when they are cut; None
    when the page shows the whole table."""
    keep, labels = _kept_columns(t)
    total, columns = len(t["rows"]), len(t["columns"])
    if total <= SHOWN_ROWS and len(keep) == columns:
        return None
    return {"rows": min(total, SHOWN_ROWS), "total": total,
            "columns": {"shown": len(keep) - labels, "of": columns - labels} if len(keep) < columns else None}


# Go's html/template escaping of text and of a quoted attribute (htmlEscaper), character for
# character: the table is written here, as Hugo wrote it from a JSON file (1.2 million cells
# at x100 parsed and printed by Hugo took about a second of its run and half its memory).
_HTML = str.maketrans({"\0": "\ufffd", '"': "&#34;", "'": "&#39;", "&": "&amp;", "+": "&#43;",
                       "<": "&lt;", ">": "&gt;"})


def escaper():
    """Text (or a number, as str gives it) as HTML text or a quoted attribute's value, never
    markup; each distinct text escaped once (keyed by the text: 1, 1.0 and True are equal keys)."""
    escaped: dict[str, str] = {}

    def esc(value) -> str:
        text = str(value)
        out = escaped.get(text)
        if out is None:
            out = escaped[text] = text.translate(_HTML)
        return out
    return esc


def html(t: dict) -> str:
    """A shown table (`shown`) as the page prints it: every label and cell escaped, never markup;
    its classes checked by `shown`."""
    esc = escaper()

    def td(c: dict) -> str:
        return f'<td class="{esc(c["class"])}">{esc(c["text"])}</td>' if c["class"] else f"<td>{esc(c['text'])}</td>"

    body = "".join("\n    <tr>" + "".join(map(td, row)) + "</tr>" for row in t["rows"])
    return _html(t["columns"], body, t["large"], esc)


def shown_html(t: dict) -> str:
    """html(shown(t)), written in one pass over the cells shown, with no shown table between: each
    cell's opening tag made once per class and column kind (x100: the campaign pages' 330 tables
    of 1,800 shown cells a heatmap took 0.25 CPU s a build through shown and html)."""
    columns = t["columns"]
    numeric = [c["numeric"] for c in columns]
    keep, _ = _kept_columns(t)
    esc = escaper()
    opening: dict[tuple[str, bool], str] = {}

    def td(c: dict, number: bool) -> str:
        tag = opening.get((c["class"], number))
        if tag is None:
            final = _cell_class(c["class"], number)
            tag = opening[(c["class"], number)] = f'<td class="{esc(final)}">' if final else "<td>"
        return tag + esc(c["text"]) + "</td>"

    rows = t["rows"][:SHOWN_ROWS]
    body = []
    for row in rows:
        if len(row) != len(columns):
            raise ValueError(f"a table row of {len(row)} cells under {len(columns)} columns")
        body.append("\n    <tr>" + "".join([td(row[i], numeric[i]) for i in keep]) + "</tr>")
    return _html([columns[i] for i in keep], "".join(body), len(rows) * len(keep) > LARGE_CELLS, esc)


def _html(columns: list[dict], body: str, large: bool, esc) -> str:
    head = "".join(('<th scope="col" class="num">' if c["numeric"] else '<th scope="col">') + esc(c["label"]) + "</th>"
                   for c in columns)
    return (f'\n<div class="table-wrap{" large" if large else ""}">\n<table class="data-table">\n'
            f"  <thead><tr>{head}</tr></thead>\n  <tbody>{body}\n  </tbody>\n</table>\n</div>")


def _cell_class(cls: str, numeric: bool) -> str:
    if cls not in RATIO_CLASSES:
        raise ValueError(f"table cell class {cls!r} is not a ratio class of colours.ratio_class")
    return f"num {cls}".rstrip() if numeric else cls


def pivot_ratios(rows: Columns, variants: list[str], row_key: str = "microbenchmark") -> dict:
    """Microbenchmarks down, variants across, rQPS in the cells (as the seeds print them). Only
    the columns a page shows (shown: the last SHOWN_COLUMNS variants) have their cells filled:
    the others are written nowhere, and the CSV has every value."""
    drawn = variants[unshown(len(variants)):]
    # Filled column by column: its numbers formatted together (fmt_each). One cell for every
    # missing value: never shown as it is, never changed.
    missing = cell(fmt(None))
    arrow = _pivots_in_arrow(rows, row_key)
    pivoted = _pivot_columns(rows, row_key, drawn, missing) if arrow else None
    if pivoted is None:
        cells = (_pivot_table if arrow else _pivot_lists)(rows, row_key, drawn)
        pivoted = list(cells), [_ratio_cells([found.get(v) for found in cells.values()], missing) for v in drawn]
    names, columns = pivoted
    return value_table([("group", False), ("microbenchmark", False)], variants, [list(n) for n in names], columns)


def _ratio_cells(found: list[tuple | None], missing: dict) -> list[dict]:
    """One column of pivot_ratios: each (rQPS, noise) as its text and ratio class, or `missing`."""
    texts = iter(fmt_each([f[0] for f in found if f is not None]))
    return [missing if f is None else cell(next(texts), ratio_class(*f)) for f in found]


def fmt_each(values: list, decimals: int = 2) -> list[str]:
    """fmt of each value. Of floats and Nones (blank: a missing cell; x100: a heatmap table's 640 a
    chart), the few floats that `fixed` rounds itself, exact ties, are found in numpy (|value| *
    2**(decimals + 1) an odd whole number: exact, a product by a power of 2) and given to it; every
    other is written by format, as `fixed` writes it."""
    floats = [v for v in values if v is not None]
    if not 0 <= decimals < 1000 or not all(type(v) is float for v in floats):
        return [fmt(v, decimals) for v in values]
    with np.errstate(over="ignore", invalid="ignore"):  # inf and NaN: never a tie, as format writes them
        tie = iter((np.abs(np.array(floats, dtype=np.float64)) * 2.0 ** (decimals + 1) % 2.0 == 1.0).tolist())
    spec = f".{decimals}f"
    return [fmt(None) if v is None else fixed(v, decimals) if next(tie) else format(v, spec) for v in values]


def _pivot_lists(rows: Columns, row_key: str, drawn: list[str]) -> dict[tuple, dict]:
    """(group, name) -> {variant: (rQPS, noise)} of the drawn variants: the rows by order
    (stable), a table row per (group, name) as first met, and a cell only for the variants shown
    (x100: 16 of 100, the rows of the others skipped)."""
    wanted = set(drawn)
    noise = rows["noise"] if "noise" in rows else [NOISE] * len(rows)
    group, name, variant, rqps = rows["group"], rows[row_key], rows["variant"], rows["rqps"]
    at = sorted(range(len(rows)), key=rows["order"].__getitem__)
    cells: dict[tuple, dict] = {key: {} for key in dict.fromkeys((group[i], name[i]) for i in at)}
    for i in at:
        if variant[i] in wanted:
            cells[(group[i], name[i])][variant[i]] = (rqps[i], noise[i])
    return cells


def _pivots_in_arrow(rows: Columns, row_key: str) -> bool:
    """Rows held as a table whose order is whole numbers and whose names are text, all given."""
    if rows.table is None:
        return False
    t = rows.table
    text = [t.column(c) for c in ("group", row_key, "variant")]
    return (pa.types.is_integer(t.schema.field("order").type) and t.column("order").null_count == 0
            and all(pa.types.is_string(c.type) and c.null_count == 0 for c in text))


def _pivot_table(rows: Columns, row_key: str, drawn: list[str]) -> dict[tuple, dict]:
    """_pivot_lists of a table's rows: the order and the keys in numpy, and a Python value only for
    the rows of the variants shown (x100: 640 of a heatmap's 4,000 rows)."""
    t = rows.table
    at = pa.array(np.argsort(t.column("order").to_numpy(), kind="stable"))
    place, found = keys([codes_of(t.column(c).take(at)) for c in ("group", row_key)])
    variant = t.column("variant").take(at)
    shown = np.flatnonzero(pc.is_in(variant, value_set=pa.array(drawn, pa.string())).to_numpy(zero_copy_only=False))
    picked = pa.array(at.to_numpy()[shown])
    noise = t.column("noise").take(picked).to_pylist() if "noise" in rows else [NOISE] * len(shown)
    cells: list[dict] = [{} for _ in found]
    for p, v, r, z in zip(place[shown].tolist(), variant.take(pa.array(shown)).to_pylist(),
                          t.column("rqps").take(picked).to_pylist(), noise, strict=True):
        cells[p][v] = (r, z)
    return dict(zip(found, cells, strict=True))


def _pivot_columns(rows: Columns, row_key: str, drawn: list[str], missing: dict) -> tuple[list, list] | None:
    """(the (group, name) of each table row, each drawn variant's column of cells) as pivot_ratios
    fills them from _pivot_table, made a column at a time in numpy with each cell's class from
    ratio_classes (x100: the campaign pages' 297 heatmap tables, 0.46 CPU s through _pivot_table
    and a ratio_class per cell). None (_pivot_table's way then) when a cell would be given twice
    (the later would win), a drawn variant is named twice, or an rQPS or noise is missing."""
    if len(set(drawn)) != len(drawn):
        return None
    t = rows.table
    at = np.argsort(t.column("order").to_numpy(), kind="stable")
    # each row's codes read in that order: the columns are coded as they are, not taken first
    place, found = keys([(codes[at], values) for codes, values in (codes_of(t.column(c)) for c in ("group", row_key))])
    column = pc.fill_null(pc.index_in(t.column("variant"), value_set=pa.array(drawn, pa.string())), -1)
    column = column.to_numpy(zero_copy_only=False)[at]
    shown = np.flatnonzero(column >= 0)
    picked = pa.array(at[shown])
    rqps = t.column("rqps").take(picked)
    noise = t.column("noise").take(picked) if "noise" in rows else pa.array(np.full(len(shown), NOISE))
    if rqps.null_count or noise.null_count or not pa.types.is_floating(rqps.type):
        return None
    place, column = place[shown], column[shown]
    if np.unique(place * len(drawn) + column).size != len(shown):
        return None
    value = rqps.to_numpy().astype(np.float64)
    columns = [[missing] * len(found) for _ in drawn]
    for k, p, text, cls in zip(column.tolist(), place.tolist(), fmt_each(value.tolist()),
                               ratio_classes(value, noise.to_numpy().astype(np.float64)), strict=True):
        columns[k][p] = {"text": text, "class": cls}
    return found, columns


_CLASSES = ["", "eq1", "lt1 s1", "lt1 s2", "lt1 s3", "gt1 s1", "gt1 s2", "gt1 s3"]


def ratio_classes(values: np.ndarray, bands: np.ndarray) -> list[str]:
    """colours.ratio_class of each value and its noise band, in numpy: the logs are numpy's, so a
    value whose log lies within 1e-9 of a limit (where numpy's and math's last bits could decide
    differently) is given to ratio_class itself, as is any value that is not finite."""
    values, bands = np.asarray(values, dtype=np.float64), np.asarray(bands, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ln, strength = np.abs(np.log(values)), np.abs(np.log2(values))
        limit = np.log1p(bands)
        weak, medium = STRENGTHS
        level = np.where(strength < weak, 0, np.where(strength < medium, 1, 2))
        out = np.where(values <= 0, 0, np.where(ln < limit, 1, np.where(values < 1, 2, 5) + level))
        near = ((np.abs(ln - limit) <= 1e-9) | (np.abs(strength - weak) <= 1e-9) | (np.abs(strength - medium) <= 1e-9)
                | ~np.isfinite(bands) | (bands <= -1))  # log1p refuses a band of -1 or less: ratio_class raises
    classes = [_CLASSES[k] for k in out.tolist()]
    for i in np.flatnonzero((near & (values > 0)) | ~np.isfinite(values)).tolist():
        classes[i] = ratio_class(float(values[i]), float(bands[i]))
    return classes


def is_guarded(text: str) -> bool:
    """Spreadsheet formula injection: text starting with = + - @ (or the guard's quote) is
    written with a quote before it; numbers such as -5 are not."""
    return text.startswith(GUARDED_START) and not _is_number(text)


def guarded_columns(data: Columns, names: list[str]) -> list[str]:
    """The text columns in which the guard quotes some value: one regex over each column's joined
    text first (most columns have no text that could start a formula), then a test per value;
    in a table's text column (render/columns.py), the regex over its values in Arrow, and the
    test on those it matched."""
    out = []
    for name in names:
        kind = data.table.schema.field(name).type if data.table is not None else None
        if kind is not None and (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_null(kind)):
            continue  # no text
        if kind is not None and pa.types.is_string(kind):
            column = data.table.column(name)
            starts = pc.match_substring_regex(column, _ARROW_GUARD_START)
            if pc.any(starts).as_py() and any(map(is_guarded, column.filter(starts).to_pylist())):
                out.append(name)
            continue
        texts = [v for v in data[name] if type(v) is str]
        if texts and _GUARD_START.search("\0" + "\0".join(texts)) and any(map(is_guarded, texts)):
            out.append(name)
    return out


_GUARD_START = re.compile("\0[" + re.escape("".join(GUARDED_START)) + "]")
# The same test as RE2 reads it (Arrow's regexes), at the start of each value.
_RE2_CLASS = {"-": "\\-", "\t": "\\t", "\r": "\\r", "\\": "\\\\", "]": "\\]", "^": "\\^"}  # escaped in a [class]
_ARROW_GUARD_START = "^[" + "".join(_RE2_CLASS.get(c, c) for c in GUARDED_START) + "]"


def safe_csv_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    return GUARD + text if is_guarded(text) else text


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def to_csv(rows: list[dict] | Columns, columns: list[str], guarded: list[str] | None = None) -> str:
    """The CSV of these columns of the rows, written column by column: the csv module already
    writes None as "", a float as its repr and others as str; only a column holding text that
    could start a formula (`guarded`, when the caller has looked) is passed through safe_csv_value."""
    data = rows if isinstance(rows, Columns) else Columns.of_rows(rows, columns)
    if guarded is None:
        guarded = guarded_columns(data, columns)
    if data.table is not None:
        fast = _table_csv(data.table, columns, guarded)
        if fast is not None:
            return fast
    out = [[safe_csv_value(v) if type(v) is str else v for v in data[c]] if c in guarded else data[c]
           for c in columns]
    fast = _arrow_csv(columns, out)
    if fast is not None:
        return fast
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    w.writerows(zip(*out, strict=True))
    return buf.getvalue()


_ARROW_CSV = pcsv.WriteOptions(quoting_style="none", quoting_header="none")


def _arrow_csv(columns: list[str], out: list[list]) -> str | None:
    """The CSV through Arrow's writer, 3x the csv module's (x100: a comparison's 1.4 MB CSV, 44 ms
    with the csv module, 14 ms so): a number in its shortest exact form (1.0 as 1, 2.5e-05 as
    0.000025), None as nothing, text as it is. None (the csv module writes it) when a column holds
    anything but text, ints or floats alone (ints with floats: a large int would become a float),
    or text that would need quotes (Arrow refuses to write it unquoted)."""
    if len(columns) < 2:  # a row of one empty text: Arrow writes an empty line, which reads as none
        return None
    typed = []
    for values in out:
        kinds = set(map(type, values)) - {type(None)}
        if len(kinds) > 1 or not kinds <= {str, int, float}:
            return None
        typed.append((values, kinds))
    try:  # an int past 64 bits, or text Python cannot encode, is the csv module's too
        arrays = [pa.array(values, type=pa.string() if str in kinds else None) for values, kinds in typed]
    except (pa.ArrowInvalid, OverflowError, UnicodeError):
        return None
    return _written(columns, arrays)


def _table_csv(table: pa.Table, columns: list[str], guarded: list[str]) -> str | None:
    """What _arrow_csv writes of these columns' lists, written from the table's own arrays (x100:
    a comparison's 20,000 rows made into Python values again cost more than writing them): text,
    whole numbers as int64 and floats as float64, as Arrow types those lists; None (the lists'
    way then) for a column of any other type, or text that would need quotes."""
    if len(columns) < 2:
        return None
    arrays = []
    try:  # a whole number past int64 (a uint64) is the lists' way too: they hold no Arrow int for it
        for name in columns:
            column = table.column(name)
            kind = column.type
            if name in guarded:  # a few texts get the guard's quote: made in Python, the column's only
                column = pa.array([safe_csv_value(v) if type(v) is str else v for v in column.to_pylist()],
                                  pa.string())
            elif pa.types.is_integer(kind):
                column = column.cast(pa.int64())
            elif pa.types.is_floating(kind):
                column = column.cast(pa.float64())
            elif not (pa.types.is_string(kind) or pa.types.is_null(kind)):
                return None
            arrays.append(column)
    except pa.ArrowInvalid:
        return None
    return _written(columns, arrays)


def _written(columns: list[str], arrays: list) -> str | None:
    """These arrays as CSV by Arrow's writer, or None when a text needs quotes (it writes none)."""
    buf = io.BytesIO()
    try:
        pcsv.write_csv(pa.Table.from_arrays(arrays, names=columns), buf, _ARROW_CSV)
    except pa.ArrowInvalid:
        return None
    return buf.getvalue().decode()
