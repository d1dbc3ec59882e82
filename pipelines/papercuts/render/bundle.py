"""Write one Hugo page bundle: index.md plus each chart's spec, table and CSV."""
from __future__ import annotations

from pathlib import Path

from .charts import Chart
from .frontmatter import page, write_json


def write_bundle(folder: Path, meta: dict, body: str, charts: list[Chart]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    # Only the files a page links (spec, CSV) are published; the table is read at build time.
    meta = {**meta, "build": {"publishResources": False}} if charts else meta
    (folder / "index.md").write_text(page(meta, body))
    for c in charts:
        write_json(folder / f"{c.id}.vl.json", c.spec)
        write_json(folder / f"{c.id}.table.json", c.table)
        (folder / f"{c.id}.csv").write_text(c.csv)
