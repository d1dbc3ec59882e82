"""Stage 1a for data/calibrations/<YYYY-MM-DD>-<server>-<label>/: calibration.toml and its CSVs.

Rows go into the Dataset under their DuckDB table names ("calibrations" for the TOML files);
every row keeps its file, line and columns for later messages, as load.py does.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ..contract import CALIBRATION_KEYS, CALIBRATION_TABLES, CPU_FEATURES, PRINTED, Table
from ..paths import Paths
from ..problems import Problems
from .csvfile import parse_csv
from .fields import FieldError, convert, is_date
from .files import read_limited
from .tomlfile import int_problem, read_toml

FOLDER = re.compile(r"(\d{4}-\d{2}-\d{2})-([A-Za-z0-9][A-Za-z0-9_+-]{0,120})")
LABEL = re.compile(r"[a-z0-9][a-z0-9_+-]{0,40}")
TABLE_NAMES = ("calibrations",) + tuple(t.name for t in CALIBRATION_TABLES)


def load_rows(data: bytes, rel: str, table: Table, problems: Problems, calibration: str,
              published: str) -> list[dict]:
    """Typed rows of one calibration CSV; the printed text of its measured value is kept."""
    out: list[dict] = []
    for row in parse_csv(data, rel, table, problems) or []:
        typed = {c.name: None for c in table.columns}
        ok = True
        for name, text in row.values.items():
            try:
                typed[name] = convert(text, table.column(name))
            except FieldError as e:
                problems.error(rel, row.line, row.columns[name], str(e), e.hint)
                ok = False
        if ok:
            printed = PRINTED[table.name]
            typed[f"{printed}_text"] = row.values[printed]
            typed.update(calibration=calibration, _file=rel, _published=published,
                         _line=row.line, _cols=row.columns)
            out.append(typed)
    return out


def _value(key: str, kind: str, value, rel: str, at: tuple[int, int], problems: Problems):
    """The checked value of one key, or None after reporting why it is wrong, at the column where
    its value starts, with the fix."""
    if kind == "int":
        if not (wrong := int_problem(key, value)):
            return value
        problems.error(rel, *at, wrong, f"write it without quotes, e.g. {key} = 4")
    elif kind == "date":
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(value)) and is_date(str(value)):
            return str(value)
        problems.error(rel, *at, f"{key} must be a calendar date, not {str(value)!r}",
                       f"write it as YYYY-MM-DD, e.g. {key} = 2024-10-23")
    elif kind == "features":
        if isinstance(value, list) and all(v in CPU_FEATURES for v in value):
            return sorted(set(value))
        problems.error(rel, *at, f"{key} must be a list of CPU features",
                       f"use some of: {', '.join(CPU_FEATURES)}")
    elif isinstance(value, str) and value.strip():
        return value
    else:
        problems.error(rel, *at, f"{key} must be text and not empty",
                       f'write it in double quotes, e.g. {key} = "..."')
    return None



def load_calibration_toml(data: bytes, rel: str, problems: Problems) -> dict | None:
    read = read_toml(data, rel, problems)
    if read is None:
        return None
    doc, positions = read
    out: dict = {"_file": rel, "_lines": {}, "_at": positions}
    for key, value in doc.items():
        line, _ = positions[key]
        out["_lines"][key] = line
        if key not in CALIBRATION_KEYS:
            problems.error(rel, line, 1, f"unknown key '{key}'",
                           f"known keys: {', '.join(CALIBRATION_KEYS)}")
            continue
        checked = _value(key, CALIBRATION_KEYS[key][0], value, rel, positions[key], problems)
        if checked is not None:
            out[key] = checked
    for key, (_, required) in CALIBRATION_KEYS.items():
        if required and key not in positions:
            problems.error(rel, 1, 1, f"required key '{key}' is missing",
                           f"add {key} = ... to calibration.toml; data/README.md describes each key")
    return out


def load_calibrations(root: Path, paths: Paths, rows: dict[str, list[dict]], problems: Problems) -> None:
    """Load every folder under data/calibrations/ into rows[table name]."""
    for name in TABLE_NAMES:
        rows.setdefault(name, [])
    for folder in sorted(root.iterdir()):
        if not folder.name.startswith("."):
            _load_folder(folder, paths, rows, problems)


def _load_folder(folder: Path, paths: Paths, rows: dict[str, list[dict]], problems: Problems) -> None:
    rel = paths.rel(folder)
    if folder.is_symlink() or not folder.is_dir():
        problems.error(rel, 1, 1, "expected a calibration folder (not a file or link)",
                       "put calibration files in data/calibrations/<YYYY-MM-DD>-<server>-<label>/")
        return
    m = FOLDER.fullmatch(folder.name)
    if not m:
        problems.error(rel, 1, 1, f"calibration folder name '{folder.name}' is not YYYY-MM-DD-server-label",
                       "e.g. 2026-11-20-mybox-calibrate")
        return
    toml_path = folder / "calibration.toml"
    if not toml_path.exists() and not toml_path.is_symlink():
        problems.error(paths.rel(toml_path), 1, 1, "calibration.toml is missing",
                       "add the calibration's provenance, as data/README.md describes")
        return
    toml_bytes = read_limited(toml_path, paths.rel(toml_path), problems)
    meta = None if toml_bytes is None else load_calibration_toml(toml_bytes, paths.rel(toml_path), problems)
    if meta is None:
        return
    meta.update(id=folder.name, _published=paths.published(toml_path), _folder_date=m.group(1),
                _folder_rest=m.group(2))
    tables = {t.file: t for t in CALIBRATION_TABLES}
    found = 0
    for f in sorted(folder.iterdir()):
        frel = paths.rel(f)
        if f.name == "calibration.toml":
            continue
        if f.is_symlink() or not f.is_file():
            problems.error(frel, 1, 1, "not a regular file", "commit a regular file, not a link or folder")
        elif f.name in tables:
            found += 1
            t = tables[f.name]
            data = read_limited(f, frel, problems)
            if data is not None:
                rows[t.name] += load_rows(data, frel, t, problems, folder.name, paths.published(f))
                _record(rows, folder.name, f.name, data)
        else:
            problems.error(frel, 1, 1, "unexpected file in a calibration folder",
                           f"calibration files are: {', '.join(sorted(tables))}")
    if not found and "campaign" not in meta:
        problems.error(meta["_file"], 1, 1, "calibration has no data file",
                       "add ut_delay.csv, prng.csv or constants.csv")
    _record(rows, folder.name, toml_path.name, toml_bytes)
    rows["calibrations"].append(meta)


def _record(rows: dict[str, list[dict]], calibration: str, name: str, data: bytes) -> None:
    """The file's bytes, published by render beside the calibration page (render never reads data/)."""
    rows.setdefault("calibration_evidence", []).append({"calibration": calibration, "name": name, "bytes": data,
                                                        "sha256": hashlib.sha256(data).hexdigest(),
                                                        "size": len(data)})
