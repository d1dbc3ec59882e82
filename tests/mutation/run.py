"""`make mutate`: plant each bug of mutants.toml in the core, run the tests named for it, and count
how many the suite catches (killed) and how many it lets through (survived).

A mutant changes one exact snippet of one file; a snippet that is no longer in its file is
reported as stale (update the mutant with the code), never silently skipped. Each file is
restored byte for byte after its mutant, and a file with uncommitted changes is refused so the
restore can never lose work.
"""
from __future__ import annotations

import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTEST = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not browser"]


def clean(path: Path) -> bool:
    out = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return out == ""


def run_one(m: dict) -> str:
    path = ROOT / m["file"]
    original = path.read_bytes()
    text = original.decode()
    if text.count(m["find"]) != 1:
        return "stale"
    path.write_text(text.replace(m["find"], m["replace"]))
    try:
        proc = subprocess.run([*PYTEST, *m["tests"]], cwd=ROOT, capture_output=True, text=True)
    finally:
        path.write_bytes(original)
    return "killed" if proc.returncode != 0 else "survived"


def main() -> int:
    mutants = tomllib.loads((Path(__file__).with_name("mutants.toml")).read_text())["mutant"]
    dirty = sorted({m["file"] for m in mutants if not clean(ROOT / m["file"])})
    if dirty:
        print("mutate: commit or stash these files first: " + ", ".join(dirty), file=sys.stderr)
        return 2
    outcomes = {}
    for m in mutants:
        start = time.perf_counter()
        outcome = run_one(m)
        outcomes.setdefault(outcome, []).append(m)
        print(f"{outcome:8} {time.perf_counter() - start:5.1f} s  {m['file']}: {m['why']}", flush=True)
    killed, total = len(outcomes.get("killed", [])), len(mutants)
    print(f"\nmutation score: {killed}/{total} killed ({killed / total:.0%}); "
          f"{len(outcomes.get('survived', []))} survived, {len(outcomes.get('stale', []))} stale")
    return 0 if killed == total else 1


if __name__ == "__main__":
    sys.exit(main())
