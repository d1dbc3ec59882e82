"""`papercuts calibrate`: the probe's output parsed, the files written from given runs, and real
runs on this machine whose folder passes `papercuts check` and shows up on the next build."""
from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
import tomllib

import pytest

from datadir import write_data
from papercuts.build import build, validate
from papercuts.calibrate.files import Settings, calibration_files
from papercuts.calibrate.machine import cpu_facts
from papercuts.calibrate.probe import parse
from papercuts.paths import Paths
from papercuts.problems import UserError

OUTPUT = """relax\tpause
feature\trdtsc\t1
feature\tcrc32\t0
selftest\tcrc32\tskipped
constant\trelax_tsc_cycles\t60,64,62
constant\trelax_ns\t24,25,26
constant\ttsc_ghz\t2.5,2.5
constant\tclock_overhead_ns\t20,22,24
delay\t0\t1000\t0.001,0.001,0.001
delay\t1\t1000\t1.2,1.1,1.3
delay\t2\t1000\t2.4,2.4,2.4
draw\tlcg\texcluded\t100000\t2.7,2.8,2.9\t2.5
draw\tlcg\tincluded\t100000\t2.7,2.8,2.9\t3
draw\tcrc32-counter\texcluded\t100000\t70,80,90\t2.49
draw\tcrc32-counter\tincluded\t100000\t70,80,90\t3.01
draw\tcycle-counter\texcluded\t100000\t9,10,11\t2.5
draw\tcycle-counter\tincluded\t100000\t9,10,11\t3
"""


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_parse_reads_every_record():
    p = parse(OUTPUT)
    assert (p.relax, p.features, p.selftest) == ("pause", {"rdtsc": True, "crc32": False}, {"crc32": "skipped"})
    assert p.constants["relax_tsc_cycles"] == [60, 64, 62]
    assert p.delays[1] == (1, 1000, [1.2, 1.1, 1.3])
    assert p.draws[2] == ("crc32-counter", "excluded", 100000, [70, 80, 90], 2.49)


def test_parse_refuses_what_it_does_not_know():
    with pytest.raises(UserError, match="spin output line 2: cannot read 'delay\\\\t1'"):
        parse("relax\tpause\ndelay\t1\n")
    with pytest.raises(UserError, match="incomplete"):
        parse("relax\tpause\n")


def test_files_from_given_runs_pass_the_contract(tmp_path):
    s = Settings("box", "calibrate", "2026-01-02", "tests", max_delay=2, reps=3)
    runs = {"O2": parse(OUTPUT), "O3": parse(OUTPUT)}
    runs["O2"].cflags, runs["O3"].cflags = ["-O2"], ["-O3"]
    files = calibration_files(runs, {"cpu_model": "Test CPU", "cores": 8, "compiler": "cc 1"}, s, 1.25)
    ut = rows(files["ut_delay.csv"])
    assert ut[1] == {"series": "spin.c -O2", "flags": "O2", "delay": "1", "multiplier": "50",
                     "us_per_call": "1.2000", "calls": "1000", "repetitions": "3", "stddev_us": "0.1000",
                     "min_us": "1.1000", "max_us": "1.3000"}
    assert [r["series"] for r in ut].count("spin.c -O3") == 3
    prng = rows(files["prng.csv"])
    crc = next(r for r in prng if r["function"] == "crc32-counter")
    assert (crc["innodb_function"], crc["ns_per_call"], crc["mean_draw"]) == ("ut::random_from_interval", "80.00",
                                                                             "2.4900")
    assert crc["note"] == "software CRC-32C: this CPU has no crc32 instruction"
    constants = {r["name"]: r for r in rows(files["constants.csv"])}
    assert (constants["pause_tsc_cycles"]["value"], constants["pause_tsc_cycles"]["max"]) == ("62.0", "64.0")
    assert constants["innodb_spin_wait_delay"]["value"] == "6"
    meta = tomllib.loads(files["calibration.toml"])
    assert (meta["missing"], meta["cores"], meta["source"]) == (["crc32"], 8, "papercuts-calibrate")
    assert meta["method"].startswith("papercuts calibrate: spin.c built with -O2, -O3. For each X from 0 to 2")
    data = write_data(tmp_path / "data", {
        f"calibrations/{s.folder}/{name}": text for name, text in files.items()} | {
        "sources.csv": "id,title,author\nsrc,A test source,Tester\npapercuts-calibrate,calibrator,Papercuts\n"})
    _, problems = validate(Paths.make(data=data))
    assert [p.render() for p in problems.items] == []


def test_cpu_facts_count_physical_cores_and_sockets():
    block = "processor\t: {}\nmodel name\t: Test CPU @ 2.40GHz\nphysical id\t: {}\ncore id\t\t: {}\n"
    text = "\n".join(block.format(i, i // 4, i % 2) for i in range(8))  # 2 sockets × 2 cores × 2 threads
    assert cpu_facts(text) == {"cpu_model": "Test CPU @ 2.40GHz", "cores": 4, "sockets": 2}


def calibrate(data, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "papercuts.cli", "calibrate", "--data", str(data),
                           "--contributor", "tests", *args],
                          capture_output=True, text=True, cwd=data.parent, timeout=120)


needs_cc = pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")),
                              reason="no C compiler on this machine")


@needs_cc
def test_calibrate_this_machine_then_check_and_publish(data_copy, tmp_path):
    # Live timings on a shared machine: assert shape and relations, never a fit quality or a wall time.
    proc = calibrate(data_copy, "--server", "testbox")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [folder] = (data_copy / "calibrations").glob("*-testbox-calibrate")
    assert "papercuts check passes" in proc.stdout
    _, problems = validate(Paths.make(data=data_copy))
    assert problems.errors == []
    # ut_delay grows with X in every build: medians of 11 runs, compared three units apart
    ut = rows((folder / "ut_delay.csv").read_text())
    assert {r["flags"] for r in ut} == {"O2", "O3", "native"}
    for flags in ("O2", "O3", "native"):
        points = [(int(r["delay"]), float(r["us_per_call"])) for r in ut if r["flags"] == flags]
        assert [x for x, _ in points] == list(range(7)), (flags, points)
        us = [y for _, y in points]
        assert us[0] < us[3] < us[6], (flags, points)
        assert us[0] < (us[6] - us[0]) / 6, (flags, points)  # ut_delay(0) costs less than one unit
        assert all(float(r["min_us"]) <= float(r["us_per_call"]) <= float(r["max_us"])
                   for r in ut if r["flags"] == flags)
    prng = rows((folder / "prng.csv").read_text())
    assert len(prng) == 3 * 3 * 2  # variants × flags × rules
    for r in prng:
        assert 0 < float(r["ns_per_call"]) < 1000, r
        mean = {"excluded": 2.5, "included": 3.0}[r["upper_bound"]]  # (N - 1) / 2 and N / 2 for N = 6
        assert float(r["mean_draw"]) == pytest.approx(mean, abs=0.1), r
    draws = {(r["function"], r["flags"], r["upper_bound"]): float(r["mean_draw"]) for r in prng}
    for (variant, flags, bound), mean in draws.items():
        if bound == "included":  # [0, N] draws N too, so its mean is above [0, N)'s
            assert mean > draws[(variant, flags, "excluded")], (variant, flags)
    constants = {r["name"]: float(r["value"]) for r in rows((folder / "constants.csv").read_text())}
    if "pause_tsc_cycles" in constants:
        assert 1 <= constants["pause_tsc_cycles"] <= 2000 and 0.1 < constants["tsc_ghz"] < 10
    meta = tomllib.loads((folder / "calibration.toml").read_text())
    assert meta["server"] == "testbox" and meta["compiler"] and meta["kernel"] and meta["cores"] >= 1
    assert "testbox" in (data_copy / "servers.csv").read_text()
    # the next build publishes it: a section on the new server's page and a row on /calibration/
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    assert f"Calibration {folder.name}" in (paths.public / "servers" / "testbox" / "index.html").read_text()
    assert f'id="{folder.name}"' in (paths.public / "calibration" / "index.html").read_text()
    # a second run the same day needs another label
    again = calibrate(data_copy, "--server", "testbox", "--reps", "1", "--max-delay", "1")
    assert again.returncode == 1 and "exists already; pass another --label" in again.stderr


@needs_cc
def test_a_cpu_without_pause_rdtsc_and_crc32_uses_fallbacks_and_says_so(data_copy):
    proc = calibrate(data_copy, "--server", "dell32", "--label", "portable", "--portable", "--reps", "3",
                     "--max-delay", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [folder] = (data_copy / "calibrations").glob("*-dell32-portable")
    meta = tomllib.loads((folder / "calibration.toml").read_text())
    assert sorted(meta["missing"]) == ["crc32", "pause", "rdtsc"]
    assert "compiler barriers (no PAUSE on this CPU)" in meta["method"]
    notes = {r["function"]: r["note"] for r in rows((folder / "prng.csv").read_text())}
    assert notes["crc32-counter"].startswith("software CRC-32C") and "no rdtsc" in notes["cycle-counter"]
    names = {r["name"] for r in rows((folder / "constants.csv").read_text())}
    assert names == {"clock_overhead_ns", "pause_multiplier", "innodb_spin_wait_delay"}


@needs_cc
def test_a_compiler_without_march_native_gets_mcpu_native_or_skips_the_native_build(data_copy, tmp_path):
    """GCC on POWER takes -mcpu=native, not -march=native; a compiler with neither skips it."""
    real = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    for name, refuse, series in (("no-march", "-march=native", "spin.c -O3 -mcpu=native"),
                                 ("no-native", "=native", None)):
        cc = tmp_path / f"cc-{name}"
        cc.write_text(f'#!/bin/sh\ncase "$*" in *{refuse}*) echo "unknown option" >&2; exit 1;; esac\n'
                      f'exec {real} "$@"\n')
        cc.chmod(0o755)
        proc = subprocess.run([sys.executable, "-m", "papercuts.cli", "calibrate", "--data", str(data_copy),
                               "--server", "dell32", "--label", name, "--reps", "2", "--max-delay", "1"],
                              capture_output=True, text=True, cwd=data_copy.parent, timeout=120,
                              env={**os.environ, "CC": str(cc)})
        assert proc.returncode == 0, proc.stdout + proc.stderr
        [folder] = (data_copy / "calibrations").glob(f"*-dell32-{name}")
        labels = {r["series"] for r in rows((folder / "ut_delay.csv").read_text())}
        assert labels == {"spin.c -O2", "spin.c -O3"} | ({series} if series else set()), labels
        if not series:
            assert "skipped the native build" in proc.stdout


def test_a_bad_server_id_is_refused(data_copy):
    proc = calibrate(data_copy, "--server", "my box")
    assert proc.returncode == 1 and "server id 'my box' is not valid" in proc.stderr
    assert not (data_copy / "calibrations" / "my box").exists()
