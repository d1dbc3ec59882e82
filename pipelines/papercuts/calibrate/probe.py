"""Compile spin.c with each set of flags and run it; parse its records (text in, Probe out)."""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..problems import UserError

# The seed's three builds: -O2, -O3, and -O3 -march=native -mtune=native. GCC on POWER has no
# -march and takes -mcpu=native instead; the first set of flags the compiler accepts is used.
FLAGS = {"O2": [["-O2"]], "O3": [["-O3"]],
         "native": [["-O3", "-march=native", "-mtune=native"], ["-O3", "-mcpu=native"]]}
TIMEOUT_S = 60


@dataclass
class Probe:
    """One run of spin.c: raw values per repetition, as printed."""
    cflags: list[str] = field(default_factory=list)  # what it was compiled with
    relax: str = ""
    features: dict[str, bool] = field(default_factory=dict)
    selftest: dict[str, str] = field(default_factory=dict)
    constants: dict[str, list[float]] = field(default_factory=dict)
    delays: list[tuple[int, int, list[float]]] = field(default_factory=list)  # (X, calls, µs per rep)
    draws: list[tuple[str, str, int, list[float], float]] = field(default_factory=list)
    # (variant, upper bound, calls, ns per rep, mean X drawn)


def _values(text: str) -> list[float]:
    return [float(v) for v in text.split(",")]


def parse(text: str) -> Probe:
    """spin.c's output → Probe; anything unexpected is an error, not a guess."""
    p = Probe()
    for number, line in enumerate(text.splitlines(), start=1):
        f = line.split("\t")
        try:
            if f[0] == "relax" and len(f) == 2:
                p.relax = f[1]
            elif f[0] == "feature" and len(f) == 3:
                p.features[f[1]] = f[2] == "1"
            elif f[0] == "selftest" and len(f) == 3:
                p.selftest[f[1]] = f[2]
            elif f[0] == "constant" and len(f) == 3:
                p.constants[f[1]] = _values(f[2])
            elif f[0] == "delay" and len(f) == 4:
                p.delays.append((int(f[1]), int(f[2]), _values(f[3])))
            elif f[0] == "draw" and len(f) == 6:
                p.draws.append((f[1], f[2], int(f[3]), _values(f[4]), float(f[5])))
            else:
                raise ValueError("unknown record")
        except ValueError:
            raise UserError(f"spin output line {number}: cannot read {line!r}") from None
    if not p.relax or not p.delays or not p.draws:
        raise UserError("spin output is incomplete (no relax, delay or draw records)")
    return p


def compiler() -> str:
    """$CC if set, else cc, gcc or clang."""
    cc = shutil.which(os.environ.get("CC") or "cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        raise UserError("no C compiler found ($CC, cc, gcc or clang); install one, e.g. apt-get install gcc")
    return cc


def compiler_version(cc: str) -> str:
    out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=TIMEOUT_S)
    return (out.stdout.splitlines() or [Path(cc).name])[0].strip()


def build(cc: str, choices: list[list[str]], workdir: Path, name: str,
          extra: list[str] | None = None) -> tuple[Path, list[str]]:
    """spin.c compiled into workdir/name with the first flags the compiler accepts; when it
    accepts none, a UserError with the compiler's message."""
    src = workdir / "spin.c"
    if not src.exists():
        src.write_bytes(resources.files("papercuts.calibrate").joinpath("spin.c").read_bytes())
    exe = workdir / name
    for flags in choices:
        cmd = [cc, *flags, *(extra or []), "-std=c11", "-Wall", "-o", str(exe), str(src)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
        if out.returncode == 0:
            return exe, flags
    raise UserError(f"compiling spin.c failed: {' '.join(cmd)}\n{out.stderr.strip()}")


def run(exe: Path, args: list[str], cflags: list[str]) -> Probe:
    try:
        out = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise UserError(f"{exe.name} ran longer than {TIMEOUT_S} s; lower --reps or --max-delay") from None
    if out.returncode != 0:
        raise UserError(f"{exe.name} failed: {out.stderr.strip()}")
    probe = parse(out.stdout)
    probe.cflags = cflags
    return probe
