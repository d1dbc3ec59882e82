"""`papercuts calibrate`: build and run the probe, write the calibration folder, check data/."""
from __future__ import annotations

import datetime as dt
import getpass
import re
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from ..contract import ID_PATTERN
from ..paths import Paths
from ..problems import UserError
from ..validate.calibrations import LABEL
from . import probe
from .catalogs import ensure_server, ensure_source
from .files import Settings, calibration_files
from .machine import machine_facts


def default_server() -> str:
    """This machine's host name as a server id."""
    name = re.sub(r"[^a-z0-9_+-]+", "-", socket.gethostname().split(".")[0].lower()).strip("-")
    return name if re.fullmatch(ID_PATTERN, name) else "this-machine"


def default_contributor() -> str:
    try:
        out = subprocess.run(["git", "config", "user.name"], capture_output=True, text=True, timeout=10)
        if out.stdout.strip():
            return out.stdout.strip()
    except OSError:
        pass
    return getpass.getuser()


def _probe_all(s: Settings, portable: bool) -> tuple[dict[str, probe.Probe], str]:
    """Build and run the probe per set of flags; a compiler without any native flag skips that
    build (the calibration's method then names two builds), any other failure stops."""
    cc = probe.compiler()
    runs: dict[str, probe.Probe] = {}
    extra = ["-DSPIN_PORTABLE"] if portable else []
    with tempfile.TemporaryDirectory(prefix="papercuts-calibrate-") as tmp:
        for flags, choices in probe.FLAGS.items():
            try:
                exe, cflags = probe.build(cc, choices, Path(tmp), f"spin-{flags}", extra)
            except UserError as e:
                if flags != "native":
                    raise
                print(f"  skipped the native build: {str(e).splitlines()[0]}")
                continue
            runs[flags] = probe.run(exe, s.args() + (["--constants"] if flags == "O2" else []), cflags)
    return runs, probe.compiler_version(cc)


def summary(runs: dict[str, probe.Probe]) -> list[str]:
    o2 = runs["O2"]
    xs = [x for x, _, _ in o2.delays]
    fit = statistics.linear_regression(xs, [statistics.median(v) for _, _, v in o2.delays])
    lines = [f"  ut_delay: {fit.slope:.3f} µs per delay unit at -O2 (fit over X = 0..{max(xs)})"]
    for name in ("relax_tsc_cycles", "tsc_ghz"):
        if name in o2.constants:
            lines.append(f"  {name.replace('relax', o2.relax)}: {statistics.median(o2.constants[name]):.2f}")
    for name, bound, _, values, mean_draw in o2.draws:
        lines.append(f"  draw {name} {bound}: {statistics.median(values):.2f} ns, mean X {mean_draw:.3f}")
    return lines


def calibrate(paths: Paths, server: str | None = None, label: str = "calibrate", out: Path | None = None,
              contributor: str | None = None, portable: bool = False, **settings) -> Path:
    """Measure this machine; return the calibration folder written (ready to commit)."""
    start = time.perf_counter()
    server = server or default_server()
    if not re.fullmatch(ID_PATTERN, server):
        raise UserError(f"server id '{server}' is not valid: use letters, digits, '_', '+' and '-'")
    if not LABEL.fullmatch(label):
        raise UserError(f"label '{label}' is not valid: use lower-case letters, digits, '_', '+' and '-'")
    today = dt.datetime.now(dt.UTC).date().isoformat()
    s = Settings(server, label, today, contributor or default_contributor(), **settings)
    dest = Path(out or paths.data / "calibrations") / s.folder
    if dest.exists():
        raise UserError(f"{paths.rel(dest)} exists already; pass another --label")
    runs, compiler = _probe_all(s, portable)
    facts = {**machine_facts(), "compiler": compiler}
    files = calibration_files(runs, facts, s, time.perf_counter() - start)
    ensure_source(paths.data)
    ensure_server(paths.data, server, facts)
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.mkdir(parents=True)
    for name, text in files.items():
        (tmp / name).write_text(text, encoding="utf-8")
    tmp.rename(dest)
    for line in summary(runs):
        print(line)
    print(f"wrote {paths.rel(dest)} in {time.perf_counter() - start:.1f} s")
    return dest
