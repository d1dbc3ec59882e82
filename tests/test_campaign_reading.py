"""Campaigns read on every core give what one process reading them in turn gives: the same rows,
campaigns and problems, in folder order (validate/campaign_cache.py)."""
from __future__ import annotations

import subprocess
import sys

from papercuts.paths import PROJECT

# In a fresh interpreter: the reading forks only in a process without other threads (pytest's
# browser tests start some), and this test must see it fork.
SCRIPT = r"""
import os, sys
from pathlib import Path
from papercuts.paths import Paths
from papercuts.validate import load
from papercuts.validate.load import load_dataset
from papercuts.problems import Problems

data, pids = Path(sys.argv[1]), Path(sys.argv[2])
read = load._read_campaign

def spy(cdir, paths):
    (pids / str(os.getpid())).touch()
    return read(cdir, paths)

load._read_campaign = spy
got = []
for cores in (2, 1):  # two workers, whatever the machine has
    os.cpu_count = lambda cores=cores: cores
    problems = Problems()
    ds = load_dataset(Paths.make(data=data, out=pids.parent / f"site{cores}"), problems)
    got.append((ds.rows, ds.campaigns, problems.items))
print(got[0] == got[1], len({p.name for p in pids.iterdir()} - {str(os.getpid())}) >= 2)
"""


def test_campaigns_read_in_parallel_give_the_same_rows_and_problems_in_order(tmp_path):
    import shutil

    data = tmp_path / "data"
    shutil.copytree(PROJECT / "data", data)
    bad = data / "campaigns" / "2026-01-02-broken"
    bad.mkdir()
    (bad / "campaign.toml").write_text('title = "broken"\n')  # no source, contributor, date, ...
    (bad / "results.csv").write_text("server,build\nx\n")
    (tmp_path / "pids").mkdir()
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(data), str(tmp_path / "pids")],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True"]  # identical rows, campaigns and problems; read in 2+ processes
