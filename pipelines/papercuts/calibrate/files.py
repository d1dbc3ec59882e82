"""The calibration folder's files from the probe runs: pure functions, runs and settings in,
file name → text out (calibration.toml, ut_delay.csv, prng.csv, constants.csv)."""
from __future__ import annotations

import csv
import io
import json
import statistics
from dataclasses import dataclass

from .probe import Probe

SOURCE_ID = "papercuts-calibrate"
# Which InnoDB function each draw variant stands for (seed 000's description of each).
STANDS_FOR = {"lcg": "ut_rnd_interval", "crc32-counter": "ut::random_from_interval",
              "cycle-counter": "ut::random_from_interval_fast"}


@dataclass(frozen=True)
class Settings:
    server: str
    label: str
    date: str
    contributor: str
    max_delay: int = 6
    multiplier: int = 50
    delay_calls: int = 1000
    draw_calls: int = 100000
    reps: int = 11
    n: int = 6

    @property
    def folder(self) -> str:
        return f"{self.date}-{self.server}-{self.label}"

    def args(self) -> list[str]:
        return ["--max-delay", str(self.max_delay), "--multiplier", str(self.multiplier),
                "--delay-calls", str(self.delay_calls), "--draw-calls", str(self.draw_calls),
                "--reps", str(self.reps), "--n", str(self.n)]


def spread(values: list[float], decimals: int) -> list[str]:
    """median, sample standard deviation, min and max, printed with the same decimals. The median:
    a repetition slowed by other work on the machine moves the mean, not the median."""
    sd = statistics.stdev(values) if len(values) > 1 else None
    return [f"{v:.{decimals}f}" if v is not None else ""
            for v in (statistics.median(values), sd, min(values), max(values))]


def _csv(header: list[str], rows: list[list]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def series(probe: Probe) -> str:
    """A line's label: what was timed and how it was built, e.g. 'spin.c -O3 -march=native'."""
    return " ".join(["spin.c", *probe.cflags])


def missing_features(probe: Probe) -> list[str]:
    missing = [] if probe.relax == "pause" else ["pause"]
    return missing + sorted(f for f in ("rdtsc", "crc32") if not probe.features.get(f))


def ut_delay_csv(runs: dict[str, Probe], s: Settings) -> str:
    rows = []
    for flags, probe in runs.items():
        for x, calls, values in probe.delays:
            median, sd, lo, hi = spread(values, 4)
            rows.append([series(probe), flags, x, s.multiplier, median, calls, len(values), sd, lo, hi])
    return _csv(["series", "flags", "delay", "multiplier", "us_per_call", "calls", "repetitions",
                 "stddev_us", "min_us", "max_us"], rows)


def _draw_note(variant: str, probe: Probe) -> str:
    if variant == "crc32-counter" and not probe.features.get("crc32"):
        return "software CRC-32C: this CPU has no crc32 instruction"
    if variant == "cycle-counter" and not probe.features.get("rdtsc"):
        return "monotonic clock in ns instead of the cycle counter: this CPU has no rdtsc"
    return ""


def prng_csv(runs: dict[str, Probe], s: Settings) -> str:
    rows = []
    for variant in STANDS_FOR:
        for flags, probe in runs.items():
            for name, bound, calls, values, mean_draw in probe.draws:
                if name == variant:
                    median, sd, lo, hi = spread(values, 2)
                    rows.append([name, STANDS_FOR[name], flags, bound, s.n, median, calls, len(values),
                                 sd, lo, hi, f"{mean_draw:.4f}", _draw_note(name, probe)])
    return _csv(["function", "innodb_function", "flags", "upper_bound", "n", "ns_per_call", "calls",
                 "repetitions", "stddev_ns", "min_ns", "max_ns", "mean_draw", "note"], rows)


def constants_csv(probe: Probe, s: Settings) -> str:
    pause = probe.relax == "pause"
    measured = [("pause_tsc_cycles", "relax_tsc_cycles", "cycles", 1, pause, "TSC cycles per PAUSE, 10000 in a row"),
                ("pause_ns", "relax_ns", "ns", 2, pause, "wall-clock ns per PAUSE, 10000 in a row"),
                ("tsc_ghz", "tsc_ghz", "GHz", 4, True, "TSC ticks per ns over 20 ms of the monotonic clock"),
                ("clock_overhead_ns", "clock_overhead_ns", "ns", 2, True, "one clock_gettime(CLOCK_MONOTONIC)")]
    rows = []
    for name, record, unit, decimals, wanted, note in measured:
        if wanted and record in probe.constants:
            values = probe.constants[record]
            median, sd, lo, hi = spread(values, decimals)
            rows.append([name, median, unit, len(values), sd, lo, hi, note])
    rows.append(["pause_multiplier", s.multiplier, "pauses", "", "", "", "",
                 "setting: relax instructions per delay unit"])
    rows.append(["innodb_spin_wait_delay", s.n, "delay units", "", "", "", "",
                 "setting: the N of the interval draws, and the largest X timed"
                 if s.n == s.max_delay else "setting: the N of the interval draws"])
    return _csv(["name", "value", "unit", "repetitions", "stddev", "min", "max", "note"], rows)


def _toml(pairs: list[tuple[str, object]]) -> str:
    """Strings and string lists as JSON, which is valid TOML for them; the date and ints bare."""
    lines = []
    for key, value in pairs:
        if value in (None, "", []):
            continue
        text = str(value) if key == "date" or isinstance(value, int) else json.dumps(value, ensure_ascii=False)
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"


def calibration_toml(runs: dict[str, Probe], facts: dict, s: Settings, seconds: float) -> str:
    probe = runs["O2"]
    relax = {"pause": "PAUSE instructions", "yield": "YIELD instructions",
             "barrier": "compiler barriers (no PAUSE on this CPU)"}[probe.relax]
    builds = ", ".join(" ".join(p.cflags) for p in runs.values())
    method = (f"papercuts calibrate: spin.c built with {builds}. For each X "
              f"from 0 to {s.max_delay}, clock_gettime(CLOCK_MONOTONIC) around {s.delay_calls} calls of a loop of "
              f"X * {s.multiplier} {relax}; {s.draw_calls} draws per timing for each interval-draw variant "
              f"(lcg, crc32-counter, cycle-counter) and both rules, [0, {s.n}) and [0, {s.n}]; "
              f"{s.reps} repetitions of each, interleaved, and their median. PAUSE cost and TSC rate from rdtsc, "
              "with the -O2 build.")
    notes = ("The draw variants are written from seed 000's descriptions, not copied from MySQL: an LCG "
             "stands for ut_rnd_interval, a hardware crc32 hash of a counter for ut::random_from_interval, "
             "a mixed cycle-counter read for ut::random_from_interval_fast. "
             f"crc32 self-test: {probe.selftest.get('crc32', 'not run')}. The run took {seconds:.1f} s.")
    return _toml([
        ("title", f"{s.server}: ut_delay, PAUSE and interval-draw timings measured with papercuts calibrate"),
        ("server", s.server), ("source", SOURCE_ID), ("contributor", s.contributor), ("date", s.date),
        ("method", method), ("cpu_model", facts.get("cpu_model")), ("cores", facts.get("cores")),
        ("arch", facts.get("arch")), ("kernel", facts.get("kernel")), ("compiler", facts.get("compiler")),
        ("missing", missing_features(probe)), ("notes", notes)])


def calibration_files(runs: dict[str, Probe], facts: dict, s: Settings, seconds: float) -> dict[str, str]:
    return {"calibration.toml": calibration_toml(runs, facts, s, seconds),
            "ut_delay.csv": ut_delay_csv(runs, s), "prng.csv": prng_csv(runs, s),
            "constants.csv": constants_csv(runs["O2"], s)}
