"""Add the calibrated server and the calibrator's source to data/ when they are not there yet,
appending one row in the file's own column order (catalogs are append-only)."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from ..problems import UserError
from .files import SOURCE_ID

SOURCE = {"id": SOURCE_ID,
          "title": "papercuts calibrate: ut_delay, PAUSE and interval-draw timings measured by this "
                   "project's calibrator",
          "author": "Papercuts project",
          "notes": "Measurements made with `papercuts calibrate` (pipelines/papercuts/calibrate/spin.c). "
                   "Each calibration.toml names who ran it, when, how, and on what machine."}


def _rows(path: Path) -> tuple[list[str], list[dict], str]:
    if not path.is_file():
        raise UserError(f"{path} is missing: calibrate needs a Papercuts data folder (--data DIR)")
    text = path.read_text(encoding="utf-8")
    reader = csv.DictReader(io.StringIO(text))
    return list(reader.fieldnames or []), list(reader), text


def _append(path: Path, values: dict) -> None:
    header, _, text = _rows(path)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(
        ["" if values.get(c) is None else values.get(c) for c in header])
    with open(path, "a", encoding="utf-8", newline="") as f:
        f.write(("" if text.endswith("\n") else "\n") + buf.getvalue())


def known_servers(data: Path) -> set[str]:
    _, rows, _ = _rows(data / "servers.csv")
    names = {r["id"] for r in rows}
    for r in rows:
        names |= {a for a in (r.get("aliases") or "").split(";") if a}
    return names


def ensure_source(data: Path) -> bool:
    _, rows, _ = _rows(data / "sources.csv")
    if any(r["id"] == SOURCE_ID for r in rows):
        return False
    _append(data / "sources.csv", SOURCE)
    return True


def ensure_server(data: Path, server: str, facts: dict) -> bool:
    if server in known_servers(data):
        return False
    _append(data / "servers.csv", {
        **{k: facts.get(k) for k in ("cpu_model", "sockets", "cores", "smt", "ram_gb", "os")},
        "id": server, "source": SOURCE_ID,
        "notes": "Added by papercuts calibrate from the machine's own report; "
                 "add the storage and check the rest before committing."})
    return True
