"""A small, valid data folder written from strings, for tests that change one thing in it."""
from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb

from papercuts.build import validate
from papercuts.derive.models import derive
from papercuts.ingest.tables import ingest
from papercuts.paths import Paths

FILES = {
    "sources.csv": "id,title,author,date\nsrc,A test source,Tester,2026-01-02\n",
    # box's cores unknown: tests read raw outputs of several machines (a 2-vCPU VM's, a 48-CPU
    # server's) as its, and validate holds an output's CPU count to its server's cores where known.
    "servers.csv": "id,aliases,cpu_model,cores,source\nbox,c8r32,Test CPU,,src\n",
    "builds.csv": (
        "id,dbms,engine,version,source\n"
        "my8028,mysql,innodb,8.0.28,src\n"
        "my8040,mysql,innodb,8.0.40,src\n"
        "my8009,mysql,innodb,8.0.9,src\n"
    ),
    "configs.csv": "id,settings,source\ncfg,,src\ncfg_spin5,innodb_spin_wait_delay=5,src\n",
    "microbenchmarks.csv": (
        "name,group,unit,description,source\n"
        "point-query,point,queries/s,one point query,src\n"
        "scan,range,krows/s,full scan,src\n"
        "update-index,write,queries/s,update an indexed column,src\n"
    ),
    "campaigns/2026-01-02-test/campaign.toml": (
        'title = "test campaign"\nsource = "src"\ncontributor = "tests"\n'
        'date = 2026-01-02\nsysbench = "1.1.0"\n'
    ),
    "campaigns/2026-01-02-test/results.csv": (
        "server,build,config,microbenchmark,range,threads,qps\n"
        "box,my8028,cfg,point-query,100,1,1000\n"
        "box,my8040,cfg,point-query,100,1,900\n"
        "box,my8028,cfg,update-index,100,1,400\n"
        "box,my8040,cfg,update-index,100,1,100\n"
        "box,my8040,cfg_spin5,update-index,100,1,300\n"
    ),
}


def write_data(root: Path, changes: dict[str, str | bytes | None] | None = None) -> Path:
    files = {**FILES, **(changes or {})}
    for name, content in files.items():
        if content is None:
            continue
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return root


def database(data: Path) -> duckdb.DuckDBPyConnection:
    """A data folder validated (no errors allowed), ingested and derived in an in-memory DuckDB."""
    ds, problems = validate(Paths.make(data=data))
    assert [p.render() for p in problems.errors] == []
    con = duckdb.connect()
    ingest(ds, con, None)
    derive(con)
    return con


def tree_digest(root: Path) -> str:
    """One hash of a folder's files: their paths and bytes (a build that changed nothing, or left
    nothing half-written, keeps it)."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def campaign_again(data: Path, name: str, date: str, faster: float) -> None:
    """A new campaign in a copy of the shipped data: dell32's 2024 busy-wait campaign measured again
    on `date`, every published ratio times `faster` (variants the site has)."""
    old, new = data / "campaigns" / "2024-10-23-busy-wait-dell32", data / "campaigns" / name
    new.mkdir()
    header, *rows = (old / "relative.csv").read_text().splitlines()
    values = [f"{key},{float(value) * faster:.2f}" for key, value in (r.rsplit(",", 1) for r in rows)]
    (new / "relative.csv").write_text("\n".join([header, *values]) + "\n")
    (new / "campaign.toml").write_text((old / "campaign.toml").read_text().replace("date = 2024-10-23",
                                                                                   f"date = {date}"))
