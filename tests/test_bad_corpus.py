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
