"""Calibration folders: each defect gives one precise problem at file:line:column, with a hint."""
from __future__ import annotations

import duckdb
import pytest

from datadir import write_data
from papercuts.build import validate
from papercuts.ingest.tables import ingest
from papercuts.paths import Paths

CAL = "calibrations/2026-01-02-box-test/"
TOML = ('title = "box"\nserver = "box"\nsource = "src"\ncontributor = "tests"\n'
        'date = 2026-01-02\nmethod = "given rows"\n')
UT = "series,delay,us_per_call,min_us,max_us\ns,0,0.00,0.00,0.01\ns,1,1.20,1.19,1.25\n"
PRNG = "function,flags,upper_bound,ns_per_call\nlcg,O2,excluded,2.7\n"
CONSTANTS = "name,value,unit\ntsc_ghz,2.5962,GHz\n"
VALID = {CAL + "calibration.toml": TOML, CAL + "ut_delay.csv": UT, CAL + "prng.csv": PRNG,
         CAL + "constants.csv": CONSTANTS}


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def problems_for(tmp_path, changes):
    data = write_data(tmp_path / "data", {**VALID, **changes})
    ds, problems = validate(Paths.make(data=data))
    return [p.render() for p in problems.sorted()], ds


def test_a_valid_calibration_has_no_problems_and_keeps_printed_numbers(tmp_path):
    problems, ds = problems_for(tmp_path, {})
    assert problems == []
    [meta] = ds.rows["calibrations"]
    assert (meta["id"], meta["server"], meta["date"]) == ("2026-01-02-box-test", "box", "2026-01-02")
    assert [r["us_per_call_text"] for r in ds.rows["calibration_ut_delay"]] == ["0.00", "1.20"]


def test_a_server_alias_names_its_server(tmp_path):
    folder = "calibrations/2026-01-02-c8r32-test/"
    toml = TOML.replace('server = "box"', 'server = "c8r32"')
    problems, ds = problems_for(tmp_path, {**{k: None for k in VALID}, folder + "calibration.toml": toml,
                                           folder + "constants.csv": CONSTANTS})
    assert problems == []
    assert ds.rows["calibrations"][0]["server"] == "c8r32"  # validation reports, it does not rewrite
    con = duckdb.connect()
    ingest(ds, con, None)
    assert con.execute("SELECT server FROM calibrations").fetchall() == [("box",)]


T = f"data/{CAL}calibration.toml"


@pytest.mark.parametrize("name, changes, expected", [
    ("unknown server", {CAL + "calibration.toml": TOML.replace('server = "box"', 'server = "bx"')},
     [f"{T}:2:10: error: folder '2026-01-02-box-test' does not name server 'bx' and a label "
      "(rename the folder to 2026-01-02-bx-<label>, the label in lower-case letters, digits, '_' or '-')",
      f"{T}:2:10: error: unknown server 'bx' (did you mean 'box'?)"]),
    ("date disagrees", {CAL + "calibration.toml": TOML.replace("2026-01-02", "2026-01-03")},
     [f"{T}:5:8: error: date 2026-01-03 disagrees with the folder name's 2026-01-02 "
      "(make them the same date: rename the folder to 2026-01-03-box-test, or write date = 2026-01-02)"]),
    ("not a calendar date", {CAL + "calibration.toml": TOML.replace("date = 2026-01-02", 'date = "2026-02-30"')},
     [f"{T}:5:8: error: date must be a calendar date, not '2026-02-30' "
      "(write it as YYYY-MM-DD, e.g. date = 2024-10-23)"]),
    ("a broken source row is reported once, not again by the calibration naming it",
     {"sources.csv": "id,title,author,date\nsrc,A test source,Tester,2026-01-32\n"},
     ["data/sources.csv:2:26: error: '2026-01-32' is not a date (write dates as YYYY-MM-DD)"]),
    ("unknown source", {CAL + "calibration.toml": TOML.replace('"src"', '"srcs"')},
     [f"{T}:3:10: error: unknown source 'srcs' (did you mean 'src'?)"]),
    ("unknown key", {CAL + "calibration.toml": TOML + 'cpu = "x"\n'},
     [f"{T}:7:1: error: unknown key 'cpu' (known keys: title, server, source, contributor, date, method, "
      "cpu_model, cores, arch, kernel, compiler, missing, campaign, measure, notes)"]),
    ("missing key", {CAL + "calibration.toml": TOML.replace('method = "given rows"\n', "")},
     [f"{T}:1:1: error: required key 'method' is missing "
      "(add method = ... to calibration.toml; data/README.md describes each key)"]),
    ("bad feature", {CAL + "calibration.toml": TOML + 'missing = ["avx"]\n'},
     [f"{T}:7:11: error: missing must be a list of CPU features (use some of: pause, rdtsc, crc32)"]),
    ("measure without campaign", {CAL + "calibration.toml": TOML + 'measure = "ticks"\n'},
     [f"{T}:7:11: error: campaign and measure go together "
      "(name the campaign and the measure of its observations.csv, or neither)"]),
    ("measure not observed", {CAL + "calibration.toml": TOML + 'campaign = "2026-01-02-test"\nmeasure = "ticks"\n'},
     [f"{T}:8:11: error: campaign 2026-01-02-test has no observations 'ticks' "
      "(copy the measure exactly as observations.csv writes it)"]),
    ("no data file", {CAL + "ut_delay.csv": None, CAL + "prng.csv": None, CAL + "constants.csv": None},
     [f"{T}:1:1: error: calibration has no data file (add ut_delay.csv, prng.csv or constants.csv)"]),
    ("bad folder name", {"calibrations/box/calibration.toml": TOML},
     ["data/calibrations/box:1:1: error: calibration folder name 'box' is not YYYY-MM-DD-server-label "
      "(e.g. 2026-11-20-mybox-calibrate)"]),
    ("unexpected file", {CAL + "results.csv": "x\n"},
     [f"data/{CAL}results.csv:1:1: error: unexpected file in a calibration folder "
      "(calibration files are: constants.csv, prng.csv, ut_delay.csv)"]),
    ("min above the mean", {CAL + "ut_delay.csv": UT.replace("1.19,1.25", "1.21,1.25")},
     [f"data/{CAL}ut_delay.csv:3:10: error: min_us 1.21 is above us_per_call 1.20 "
      "(check that the columns are not swapped)"]),
    ("duplicate delay", {CAL + "ut_delay.csv": UT + "s,1,1.20,,\n"},
     [f"data/{CAL}ut_delay.csv:4:1: error: duplicate row: same series, delay as line 3 (remove one of them)"]),
    ("negative delay", {CAL + "ut_delay.csv": UT + "s,-1,1.20,,\n"},
     [f"data/{CAL}ut_delay.csv:4:3: error: '-1' is not a whole number (write delay as digits only)"]),
    ("unknown flags", {CAL + "prng.csv": PRNG.replace("O2", "O4")},
     [f"data/{CAL}prng.csv:2:5: error: 'O4' is not a valid flags (use one of: O2, O3, native)"]),
    ("missing ns column", {CAL + "prng.csv": "function,flags\nlcg,O2\n"},
     [f"data/{CAL}prng.csv:1:1: error: required column 'ns_per_call' is missing "
      "(add a 'ns_per_call' column; data/README.md lists each file's columns)"]),
    ("wrong unit", {CAL + "constants.csv": CONSTANTS.replace("2.5962,GHz", "2596.2,MHz")},
     [f"data/{CAL}constants.csv:2:16: error: tsc_ghz is in GHz, not 'MHz' (write the value in GHz and the "
      "unit as 'GHz')"]),
    ("unknown constant", {CAL + "constants.csv": CONSTANTS.replace("tsc_ghz", "tsc_mhz")},
     [f"data/{CAL}constants.csv:2:1: error: 'tsc_mhz' is not a valid name (use one of: pause_tsc_cycles, "
      "pause_ns, tsc_ghz, clock_overhead_ns, pause_multiplier, innodb_spin_wait_delay, cycle_timer_overhead, "
      "timebase_mhz)"]),
])
def test_each_defect_gives_one_precise_problem(tmp_path, name, changes, expected):
    assert problems_for(tmp_path, changes)[0] == expected, name
