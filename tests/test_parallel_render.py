"""Page units made on every core give the site one process gives, byte for byte (render/units.py)."""
from __future__ import annotations

import pickle
import shutil
import subprocess
import sys

from papercuts.paths import PROJECT
from papercuts.problems import Problem, UserError

# In a fresh interpreter: the render stage forks only in a process without other threads
# (pytest's browser tests start some), and this test must see it fork.
SCRIPT = r"""
import hashlib, os, sys
from pathlib import Path
from papercuts.build import build
from papercuts.paths import Paths
from papercuts.render import units

data, pids = Path(sys.argv[1]), Path(sys.argv[2])
make = units._make

def spy(*args):
    (pids / str(os.getpid())).touch()
    return make(*args)

units._make = spy

def tree(root):
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()

got = []
for cores in (2, 1):  # two workers, whatever the machine has
    os.cpu_count = lambda cores=cores: cores
    paths = Paths.make(data=data, out=pids.parent / f"site{cores}")
    build(paths)
    got.append((tree(paths.public), tree(paths.generated)))
print(got[0] == got[1], len({p.name for p in pids.iterdir()} - {str(os.getpid())}) >= 2)
"""


def test_units_made_in_worker_processes_give_the_same_site(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(PROJECT / "data", data)
    (tmp_path / "pids").mkdir()
    env = {**__import__("os").environ, "PAPERCUTS_IMAGES": "0"}
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(data), str(tmp_path / "pids")],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["True", "True"]  # the same site and content tree; made in 2+ processes


def test_a_problem_raised_in_a_worker_arrives_with_its_place():
    e = pickle.loads(pickle.dumps(UserError("2 error(s)", [Problem("data/x.csv", 3, 7, "error", "bad", "fix it")])))
    assert isinstance(e, UserError) and str(e) == "2 error(s)"
    assert e.problems == [Problem("data/x.csv", 3, 7, "error", "bad", "fix it")]


KILLED = r"""
import os, sys
from pathlib import Path
import duckdb
from papercuts.problems import UserError
from papercuts.render.units import Workers

db = Path(sys.argv[1])
duckdb.connect(str(db)).close()

def page(con, root, n):
    if n == 3:
        os._exit(9)  # as the kernel's out-of-memory killer would end it
    return 1

try:
    with Workers(db, workers=2) as w:
        w.make([(page, Path("."), (n,)) for n in range(6)])
except UserError as e:
    print("UserError:", e)
"""


def test_a_worker_killed_is_a_clear_error_not_a_hang(tmp_path):
    run = subprocess.run([sys.executable, "-c", KILLED, str(tmp_path / "x.duckdb")], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("UserError: a process making pages was killed"), run.stdout


def test_a_unit_leaves_no_rows_cached_for_the_next(site):
    """A worker makes many units: the rows one unit's charts shared are dropped when it ends."""
    import duckdb

    from papercuts.render import selection, units

    con = duckdb.connect(str(site.db), read_only=True)
    campaign, server = con.execute("SELECT campaign, server FROM results LIMIT 1").fetchone()
    selection.forget()  # what the session's site build left (pages made outside units)

    def make(con, root, campaign, server):
        selection.throughput_rows(con, campaign, server)
        assert selection.throughput_rows.cache_info().currsize == 1  # shared within the unit
        return 1

    assert units._unit(make, con, PROJECT, (campaign, server)) == 1
    assert selection.throughput_rows.cache_info().currsize == 0
