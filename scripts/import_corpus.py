"""How data/ got the Small Datum corpus: every archive of ../shared/corpus/mytools imported with
`papercuts import mytools`, one campaign per archive and server, with a source row naming the
repository, path and commit. Re-running it changes nothing (the import is idempotent).

    .venv/bin/python scripts/import_corpus.py [CORPUS_DIR] [MYTOOLS_GIT_DIR]

With a git directory of mdcallag/mytools, bench/arc/nov25.sb.mysql (MySQL 5.6.51 to 9.5.0 at 1 and 40
threads) is taken from it at the same commit, each folder whole: its tables and its per-run files
(the site's numbers come from the runs' own sysbench outputs, and the tables are checked against
them). dop1's 747 per-run files (3.9 MB) are kept as they are. dop40's 776 are 90 MB, because each
random-points output prints the EXPLAIN of a 1000-value IN-list (3.2 MB a file), so each is kept
gzipped (gzip -9, no name, no time: the same bytes every import), 7.5 MB in all; decompressed, each
is the repository's file byte for byte (checked here before it is written), and the build reads
it decompressed. A file whose blob the git directory lacks is named in the campaign's notes.
"""
from __future__ import annotations

import csv
import gzip
import io
import subprocess
import sys
import tempfile
from pathlib import Path

from papercuts.importer import import_mytools
from papercuts.problems import UserError

REPO, COMMIT = "mdcallag/mytools", "e1ba3d9edff258d867ef6430353cb4dc60e5eca4"
DATA = Path(__file__).resolve().parent.parent / "data"

# (archive, folder inside it or "", server id, campaign id: the date the archive was first committed
# to mytools (git log --reverse -- bench/arc/<archive>), the server, the archive's name)
CAMPAIGNS = [
    ("feb24.bee.sysbench.my", "", "beelink", "2024-02-16-beelink-mysql-5-6-to-8-0"),
    ("mar25.sb.in.c48", "", "c48", "2025-03-16-c48-mysql-innodb-dop1-to-40"),
    ("may25.sb.pg18beta1.hetz", "", "ax162-s", "2025-05-25-ax162-s-postgres-18beta1"),
    ("aug25.sb.mem.in.1u.50m.600s.900s.pn53", "", "pn53", "2025-08-21-pn53-mysql-5-6-to-9-4"),
    ("sep25.sb.pg.16u.8t.10m.600s.900s.socket2", "", "socket2", "2025-09-29-socket2-postgres-12-to-18"),
    ("sep25.hetz.sb.scaleup", "", "ax162-s", "2025-10-02-ax162-s-scaleup-1-to-48"),
    ("sep25.sb.pg.24u.8t.10m.600s.900s.dell32", "", "dell32", "2025-10-06-dell32-postgres-12-to-18"),
    ("oct25.sb.ma.hetz48", "", "ax162-s", "2025-10-08-ax162-s-mariadb-1-to-48-threads"),
    ("oct25.sb.pg180.dell32", "v1", "dell32", "2025-10-13-dell32-postgres-18-0-v1"),
    ("oct25.sb.pg180.dell32", "v2", "dell32", "2025-10-13-dell32-postgres-18-0-v2"),
    ("oct25.sb.gcp.ma", "", "gcp", "2025-10-20-gcp-mariadb-enterprise"),
    ("dec25.sb.socket.my", "", "socket2", "2025-12-11-socket2-mysql-5-6-to-9-5"),
    ("dec25.sb.gtid", "hetz", "ax162-s", "2025-12-17-ax162-s-mysql-gtid"),
    ("dec25.sb.gtid", "pn53", "pn53", "2025-12-17-pn53-mysql-gtid"),
    ("dec25.sb.gtid", "socket2", "socket2", "2025-12-17-socket2-mysql-gtid"),
    ("dec25.sb.io.hetz", "", "ax162-s", "2025-12-20-ax162-s-io-bound"),
    ("dec25.hetz.sb.pg.io", "", "ax162-s", "2025-12-30-ax162-s-postgres-io-bound"),
    ("mar26.pn53.sb.my", "", "pn53", "2026-03-24-pn53-mysql-5-6-to-9-7"),
    ("apr26.pn53.sb.ma.latin", "", "pn53", "2026-04-03-pn53-mariadb-latin1"),
    ("apr26.sb.hetz", "", "ax162-s", "2026-04-03-ax162-s-mysql-mariadb-postgres"),
]


# From the repository itself (too large for the corpus folder): archive, folder, files, server,
# campaign, and what says which server it is.
FROM_GIT = [
    ("nov25.sb.mysql", "dop1", False, "pn53", "2025-11-28-pn53-mysql-5-6-to-9-5",
     "The server is pn53: the tables name configs for c8r32 and the tree's sysbench outputs print '8 CPUs'."),
    ("nov25.sb.mysql", "dop40", True, "ax162-s", "2025-11-28-ax162-s-mysql-5-6-to-9-5",
     "The server is ax162-s: the tree's sysbench outputs print '48 CPUs' (the 48-core Hetzner server), "
     "although the configs are named for c32r128. The per-run files under x.*/ are gzipped (gzip -9, "
     "no name, no time); decompressed, each is the repository's file byte for byte."),
]


def from_git(git_dir: Path, work: Path) -> list[tuple[str, str, str, str, Path, str]]:
    out = []
    for archive, folder, gzip_runs, server, campaign, notes in FROM_GIT:
        dest = work / archive / folder
        dest.mkdir(parents=True, exist_ok=True)
        listing = subprocess.run(["git", "-C", str(git_dir), "ls-tree", "-r", "--name-only", COMMIT,
                                  f"bench/arc/{archive}/{folder}/"], check=True, capture_output=True, text=True)
        absent = []
        for name in (n.removeprefix(f"bench/arc/{archive}/{folder}/") for n in listing.stdout.splitlines()):
            blob = subprocess.run(["git", "-C", str(git_dir), "show", f"{COMMIT}:bench/arc/{archive}/{folder}/{name}"],
                                  capture_output=True)
            if blob.returncode != 0:  # a snapshot may list a large blob it does not hold
                absent.append(name)
                continue
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            if gzip_runs and name.startswith("x."):
                packed = gzip.compress(blob.stdout, compresslevel=9, mtime=0)
                assert gzip.decompress(packed) == blob.stdout
                (dest / f"{name}.gz").write_bytes(packed)
            else:
                (dest / name).write_bytes(blob.stdout)
        if absent:
            notes += (f" Absent from the git snapshot this was imported from, so not here: {', '.join(absent)}"
                      " (its run's result is the table's value, unchecked).")
        out.append((archive, folder, server, campaign, dest, notes))
    return out


# Archives whose tables (sum_met_dop.sh) name no config: the id the import gives it says so.
UNNAMED_CONFIG = {"sep25.hetz.sb.scaleup": "not-named-scaleup"}


def source_id(archive: str) -> str:
    return "mytools-arc-" + archive.replace(".", "-")


def add_sources(archives: list[str]) -> None:
    path = DATA / "sources.csv"
    text = path.read_text(encoding="utf-8")
    known = {r["id"] for r in csv.DictReader(io.StringIO(text))}
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    for archive in archives:
        if source_id(archive) not in known:
            w.writerow([source_id(archive), f"mytools archive bench/arc/{archive}", "Mark Callaghan", "",
                        f"{REPO} (GitHub)", f"https://github.com/{REPO}/tree/{COMMIT}/bench/arc/{archive}",
                        f"Small Datum results as committed to {REPO} at commit {COMMIT}; the campaign's raw/ "
                        "holds the folder's files byte for byte."])
    path.write_text(text + out.getvalue(), encoding="utf-8")


def main(corpus: Path, git_dir: Path | None) -> int:
    with tempfile.TemporaryDirectory() as work:
        todo = [(a, f, s, c, corpus / a / f if f else corpus / a, None) for a, f, s, c in CAMPAIGNS]
        if git_dir is not None:
            todo += from_git(git_dir, Path(work))
        add_sources(sorted({a for a, *_ in todo}))
        return sum(run(*item) for item in todo)


def run(archive: str, folder: str, server: str, campaign: str, src: Path, notes: str | None) -> bool:
    """Import one folder; True when it failed."""
    print(f"== {archive}{'/' + folder if folder else ''} -> {campaign}")
    try:
        problems = import_mytools(src, DATA, server, campaign, source_id(archive), notes=notes,
                                  config=UNNAMED_CONFIG.get(archive)).sorted()
    except UserError as e:
        problems = [*e.problems, f"error: {e}"]
    for p in problems:  # the whole data folder is checked: show this campaign's problems
        if isinstance(p, str) or p.severity == "error" or campaign in p.path:
            print(p if isinstance(p, str) else p.render())
    return any(isinstance(p, str) or p.severity == "error" for p in problems)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent.parent
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else here.parent / "shared" / "corpus" / "mytools"
    sys.exit(1 if main(corpus, Path(sys.argv[2]) if len(sys.argv) > 2 else None) else 0)
