"""Stage 1b for calibrations: ids that exist, folder names that say what they hold, spreads that
make sense, units that match their constant. Runs after checks.check_dataset (server aliases known).
"""
from __future__ import annotations

from ..contract import CALIBRATION_TABLES, CONSTANT_UNITS
from ..problems import Problems
from .calibrations import LABEL
from .load import Dataset
from .suggest import did_you_mean
from .tomlfile import value_at

# (lower bound, measured value, upper bound) columns per table
SPREADS = {"calibration_ut_delay": ("min_us", "us_per_call", "max_us"),
           "calibration_prng": ("min_ns", "ns_per_call", "max_ns"),
           "calibration_constants": ("min", "value", "max")}


def _row_error(problems: Problems, row: dict, column: str, message: str, hint: str = "") -> None:
    problems.error(row["_file"], row["_line"], row["_cols"].get(column, 1), message, hint)


def _toml_error(problems: Problems, meta: dict, key: str, message: str, hint: str = "") -> None:
    problems.error(meta["_file"], *value_at(meta, key), message, hint)


def _hint(value: str, known: set[str], catalog: str) -> str:
    return did_you_mean(value, known) or f"add it to data/{catalog} first"


def check_calibration_meta(ds: Dataset, problems: Problems) -> None:
    # A catalog row with an error of its own is reported there, not again by every file naming it.
    servers = {r["id"] for r in ds.rows["servers"]} | ds.broken.get("servers", set())
    sources = {r["id"] for r in ds.rows["sources"]} | ds.broken.get("sources", set())
    campaigns = {m["id"] for m in ds.campaigns}
    measures = {(r["campaign"], r["measure"]) for r in ds.rows["observations"]}
    for meta in ds.rows.get("calibrations", []):
        server = meta.get("server")
        if server is not None:
            rest = meta["_folder_rest"]
            label = rest[len(server) + 1:] if rest.startswith(server + "-") else ""
            if not LABEL.fullmatch(label):
                _toml_error(problems, meta, "server",
                            f"folder '{meta['id']}' does not name server '{server}' and a label",
                            f"rename the folder to {meta['_folder_date']}-{server}-<label>, the label in "
                            "lower-case letters, digits, '_' or '-'")
            if server not in servers and server not in ds.alias_of:
                _toml_error(problems, meta, "server", f"unknown server '{server}'",
                            _hint(server, servers | set(ds.alias_of), "servers.csv"))
        if meta.get("date") and meta["date"] != meta["_folder_date"]:
            _toml_error(problems, meta, "date",
                        f"date {meta['date']} disagrees with the folder name's {meta['_folder_date']}",
                        f"make them the same date: rename the folder to {meta['date']}-{meta['id'][11:]}, "
                        f"or write date = {meta['_folder_date']}")
        if meta.get("source") and meta["source"] not in sources:
            _toml_error(problems, meta, "source", f"unknown source '{meta['source']}'",
                        _hint(meta["source"], sources, "sources.csv"))
        if ("campaign" in meta) != ("measure" in meta):
            _toml_error(problems, meta, "campaign" if "campaign" in meta else "measure",
                        "campaign and measure go together",
                        "name the campaign and the measure of its observations.csv, or neither")
        elif "campaign" in meta:
            if meta["campaign"] not in campaigns:
                _toml_error(problems, meta, "campaign", f"unknown campaign '{meta['campaign']}'",
                            _hint(meta["campaign"], campaigns, "campaigns/"))
            elif (meta["campaign"], meta["measure"]) not in measures:
                _toml_error(problems, meta, "measure",
                            f"campaign {meta['campaign']} has no observations '{meta['measure']}'",
                            "copy the measure exactly as observations.csv writes it")


def check_calibration_rows(ds: Dataset, problems: Problems) -> None:
    for t in CALIBRATION_TABLES:
        seen: dict[tuple, dict] = {}
        lo_col, value_col, hi_col = SPREADS[t.name]
        for row in ds.rows.get(t.name, []):
            key = (row["calibration"], *(row[k] for k in t.key))
            if key in seen:
                _row_error(problems, row, t.key[0],
                           f"duplicate row: same {', '.join(t.key)} as line {seen[key]['_line']}",
                           "remove one of them")
            else:
                seen[key] = row
            lo, value, hi, printed = row[lo_col], row[value_col], row[hi_col], row[f"{value_col}_text"]
            if lo is not None and lo > value:
                _row_error(problems, row, lo_col, f"{lo_col} {lo:g} is above {value_col} {printed}",
                           "check that the columns are not swapped")
            if hi is not None and hi < value:
                _row_error(problems, row, hi_col, f"{hi_col} {hi:g} is below {value_col} {printed}",
                           "check that the columns are not swapped")
    for row in ds.rows.get("calibration_constants", []):
        unit = CONSTANT_UNITS[row["name"]]
        if row["unit"] != unit:
            _row_error(problems, row, "unit", f"{row['name']} is in {unit}, not '{row['unit']}'",
                       f"write the value in {unit} and the unit as '{unit}'")


def check_calibrations(ds: Dataset, problems: Problems) -> None:
    check_calibration_meta(ds, problems)
    check_calibration_rows(ds, problems)
