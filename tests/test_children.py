"""Forked workers end with the build that forked them, so a killed build leaves no process holding
its site's lock (children.py; the whole case: test_build_safety's killed builds)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ORPHANS = r"""
import os, sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from papercuts.children import end_with

pool = ProcessPoolExecutor(2, mp_context=get_context("fork"), initializer=end_with, initargs=(os.getpid(),))
pool.submit(int).result()  # every worker forked
with open(sys.argv[1], "w") as f:
    f.write(" ".join(map(str, pool._processes)))
os._exit(0)  # ended at once, as by SIGKILL: no pool shutdown
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its exit status is left


def test_workers_end_when_the_build_that_forked_them_ends(tmp_path):
    # Through files, not pipes: a worker left running would hold a pipe open.
    with open(tmp_path / "stderr", "w") as err:
        subprocess.run([sys.executable, "-c", ORPHANS, str(tmp_path / "pids")], stdout=subprocess.DEVNULL,
                       stderr=err, timeout=60)
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert len(pids) == 2, (tmp_path / "stderr").read_text()
    deadline = time.monotonic() + 10
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in pids if _alive(p)]
    for p in left:  # do not leave them behind when this fails
        os.kill(p, signal.SIGKILL)
    assert left == []


IMAGE_WORKER = r"""
import json, os, subprocess, sys
from papercuts.render.images import worker_command

jobs = [[sys.argv[2], os.path.join(sys.argv[3], f"{i}.svg"), os.path.join(sys.argv[3], f"{i}.png")]
        for i in range(2000)]
proc = subprocess.Popen(worker_command(True), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
proc.stdin.write(json.dumps(jobs))
proc.stdin.close()
with open(sys.argv[1], "w") as f:
    f.write(str(proc.pid))
os._exit(0)  # the build killed while its worker has minutes of charts to draw
"""


def test_an_image_worker_ends_when_the_build_that_started_it_ends(tmp_path):
    spec = tmp_path / "c.vl.json"
    spec.write_text('{"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "mark": "point", '
                    '"data": {"values": [{"x": 1}]}, "encoding": {"x": {"field": "x", "type": "quantitative"}}}')
    (tmp_path / "out").mkdir()
    with open(tmp_path / "stderr", "w") as err:
        subprocess.run([sys.executable, "-c", IMAGE_WORKER, str(tmp_path / "pid"), str(spec), str(tmp_path / "out")],
                       stdout=subprocess.DEVNULL, stderr=err, timeout=60)
    pid = int((tmp_path / "pid").read_text())
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _alive(pid)
    if alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, f"{len(list((tmp_path / 'out').iterdir()))} images drawn after the build ended"
