"""The bad-input corpus: every case under tests/fixtures/bad/ overlays one defect on a valid data
folder; `papercuts check` must report exactly that defect, and the build must refuse it.

The full validator output for the corpus is the golden file tests/golden/bad-corpus.txt; on a
mismatch the new output is written beside it as bad-corpus-changed.txt, and `make golden` accepts
it after review (a test run never writes the golden file).
"""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from datadir import write_data
from papercuts.build import build, validate
from papercuts.contract import MAX_FILE_BYTES, MAX_ROWS
from papercuts.paths import Paths
from papercuts.problems import UserError

CORPUS = Path(__file__).parent / "fixtures" / "bad"
GOLDEN = Path(__file__).parent / "golden" / "bad-corpus.txt"
CASES = sorted(p.name for p in CORPUS.iterdir())
RESULTS = "campaigns/2026-01-02-test/results.csv"


def overlay(case: str, root: Path) -> Path:
    data = write_data(root / "data")
    src = CORPUS / case
    for path in sorted(src.rglob("*")):
        dest = data / path.relative_to(src)
        if path.is_symlink():
            dest.unlink(missing_ok=True)
            dest.symlink_to(os.readlink(path))
        elif path.is_dir():
            dest.mkdir(parents=True, exist_ok=True)
        else:
            shutil.copyfile(path, dest)
    return data


def digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): (os.readlink(p) if p.is_symlink() else
                                             hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(root.rglob("*")) if p.is_file() or p.is_symlink()}


def check_output(case: str, tmp_path: Path, monkeypatch) -> list[str]:
    data = overlay(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    before = digest(data)
    _, problems = validate(Paths.make(data=data))
    assert digest(data) == before, "check must not change the data"
    return [p.render() for p in problems.sorted()]


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES)
def test_each_case_fails_at_one_place(case, tmp_path, monkeypatch):
    """One defect: errors only, all at one file and line (a misaligned row may have several)."""
    lines = check_output(case, tmp_path, monkeypatch)
    assert lines and all(": error: " in line for line in lines), lines
    assert len({line.split(":")[0] + ":" + line.split(":")[1] for line in lines}) == 1, lines


@pytest.mark.parametrize("case", CASES[::8])
def test_the_build_refuses_and_writes_nothing(case, tmp_path, monkeypatch):
    data = overlay(case, tmp_path)
    paths = Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public")
    with pytest.raises(UserError):
        build(paths)
    assert not paths.public.exists() and not paths.db.exists()


def test_corpus_output_matches_golden(tmp_path_factory, monkeypatch):
    out = []
    for case in CASES:
        out.append(f"## {case}")
        out += check_output(case, tmp_path_factory.mktemp(case), monkeypatch)
    text = "\n".join(out) + "\n"
    changed = GOLDEN.with_name("bad-corpus-changed.txt")
    if not GOLDEN.exists() or GOLDEN.read_text() != text:
        changed.write_text(text)
        pytest.fail(f"validator output differs from {GOLDEN.name}; see {changed.name}")
    changed.unlink(missing_ok=True)  # no stale copy for `make golden` to accept


def test_file_over_the_size_limit(tmp_path, monkeypatch):
    row = "box,my8028,cfg,scan,,1,10\n"
    big = "server,build,config,microbenchmark,range,threads,qps\n" + row * (MAX_FILE_BYTES // len(row) + 1)
    write_data(tmp_path / "data", {RESULTS: big})
    monkeypatch.chdir(tmp_path)
    _, problems = validate(Paths.make(data=tmp_path / "data"))
    assert [p.message for p in problems.items] == [
        f"file is {len(big)} bytes, over the limit of {MAX_FILE_BYTES}"]


def test_too_many_rows(tmp_path, monkeypatch):
    rows = "threads\n" + "1\n" * (MAX_ROWS + 1)
    write_data(tmp_path / "data", {RESULTS: rows})
    monkeypatch.chdir(tmp_path)
    _, problems = validate(Paths.make(data=tmp_path / "data"))
    assert [(p.line, p.message) for p in problems.items] == [(MAX_ROWS + 2, f"more than {MAX_ROWS} rows")]


@pytest.mark.parametrize("printed", [
    ("transactions:                        261568 (13077.21 per sec.)",
     "transactions:                        0 (0.00 per sec.)"),
    ("avg:                                    0.08", "avg:                                    0.00"),
    ("95th percentile:                        0.10", "95th percentile:                        0.00"),
])
def test_a_tps_or_latency_printed_as_zero_is_no_error_and_stays_out_of_the_results(printed, tmp_path, monkeypatch):
    """sysbench prints 2 decimals: 0.00 is a value under 0.005 (a memory test's latency), kept empty,
    never the database's constraint error."""
    from datadir import database

    data = overlay("93-raw-sysbench-negative-p95", tmp_path)
    output = data / "campaigns/2026-01-05-raw/raw/my8028.cfg/point-query.t1.r1.sysbench.txt"
    text = output.read_text().replace("95th percentile:                        -4",
                                      "95th percentile:                        0.10")
    assert text.count(printed[0]) == 1
    output.write_text(text.replace(*printed))
    monkeypatch.chdir(tmp_path)
    row = database(data).execute("SELECT qps, tps, latency_avg_ms, latency_p95_ms FROM results "
                                 "WHERE campaign = '2026-01-05-raw'").fetchall()
    kept = {"transactions": (13077.21, None, 0.08, 0.10), "avg": (13077.21, 13077.21, None, 0.10),
            "95th": (13077.21, 13077.21, 0.08, None)}[printed[0].split()[0].rstrip(":")]
    assert row == [kept]
