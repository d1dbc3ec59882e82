"""`papercuts import mytools` and the summary tables it keeps, read from real archives.

The archives are the byte-for-byte copies shipped under data/campaigns/*/raw (from mdcallag/mytools,
see each campaign's source row); every expected number is read from those files here, not typed in.
"""
from __future__ import annotations

import csv
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from datadir import FILES, database, write_data
from datadir import tree_digest as digest
from papercuts.build import validate
from papercuts.importer import import_mytools
from papercuts.parsers.mytools import parse_build_name
from papercuts.paths import PROJECT, Paths
from papercuts.problems import UserError

ARCHIVES = PROJECT / "data" / "campaigns"
LATIN = ARCHIVES / "2026-04-03-pn53-mariadb-latin1" / "raw"  # apr26.pn53.sb.ma.latin, 1 thread
HETZ48 = ARCHIVES / "2025-10-08-ax162-s-mariadb-1-to-48-threads" / "raw"  # qps.rel.*.<T>u.tsv only
CAMPAIGN = "2026-04-03-box-latin"


@pytest.fixture
def data(tmp_path) -> Path:
    """A small data folder: one server `box` (alias c8r32), the project's sources and tests."""
    root = write_data(tmp_path / "data", {"campaigns/2026-01-02-test/campaign.toml": None,
                                          "campaigns/2026-01-02-test/results.csv": None})
    for name in ("sources.csv", "microbenchmarks.csv"):
        shutil.copy(PROJECT / "data" / name, root / name)
    with open(root / "sources.csv", "a") as f:
        f.write(FILES["sources.csv"].splitlines()[1] + ",,,\n")
    return root


def run(src: Path, data: Path, **kw):
    lines: list[str] = []
    problems = import_mytools(src, data, kw.pop("server", "c8r32"), kw.pop("campaign", CAMPAIGN),
                              say=lines.append, **kw)
    return problems, lines


def test_a_real_archive_is_imported_byte_for_byte_with_its_catalog_rows(data):
    problems, said = run(LATIN, data)
    assert problems.errors == []
    target = data / "campaigns" / CAMPAIGN
    originals = sorted(p.relative_to(LATIN) for p in LATIN.rglob("*") if p.is_file())
    assert sorted(p.relative_to(target / "raw") for p in (target / "raw").rglob("*") if p.is_file()) == originals
    for rel in originals:
        assert (target / "raw" / rel).read_bytes() == (LATIN / rel).read_bytes()
    meta = tomllib.loads((target / "campaign.toml").read_text())
    assert meta["server"] == "box" and meta["raw_layout"] == "mytools" and str(meta["date"]) == "2026-04-03"
    assert "threads" not in meta  # every table says its own, so none is written
    shown = Paths.make().rel  # as papercuts check names a file: in the folder given, not in the import's copy
    assert f"{shown(LATIN / 'qps.abs.latest.tsv')}: 1 thread(s), from {shown(LATIN / 'o.met.latest')} line 27 " \
           "(sb.met.point-query.pre.range100.pk1.dop1)" in said, said
    assert said[-1] == f"imported {len(originals)} file(s) into {shown(target)}"
    assert not any(".import-" in s for s in said)
    builds = (data / "builds.csv").read_text()
    assert "ma100230_rel_withdbg,mariadb,innodb,10.2.30," in builds
    assert "ma130000_rel_withdbg,mariadb,innodb,13.0.0," in builds
    configs = (data / "configs.csv").read_text().splitlines()
    assert {"z12a_c8r32", "z12b_c8r32"} <= {line.split(",")[0] for line in configs}
    catalog = (data / "microbenchmarks.csv").read_text().splitlines()[1:]
    editions = {line.split(",")[0]: line.split(",")[1] for line in catalog}
    assert editions["scan.warmpre"] == "range" and editions["points-covered-si.warm"] == "point"


def test_results_come_from_the_original_lines(data):
    run(LATIN, data)
    con = database(data)
    first = (LATIN / "qps.abs.latest.csv").read_text().splitlines()[0].split(",")  # hot-points_range=100,...
    got = con.execute("SELECT qps, cpu_per_op, file, line FROM results WHERE build = 'ma100230_rel_withdbg' "
                      "AND microbenchmark = 'hot-points' AND threads = 1").fetchall()
    met = (LATIN / "o.met.latest").read_text().split("sb.met.hot-points.range100.pk1.dop1\n", 1)[1]
    cpu = float(met.splitlines()[2].split("\t")[0])  # first absolute row: the first build
    assert got == [(float(first[1]), cpu, f"data/campaigns/{CAMPAIGN}/raw/qps.abs.latest.csv", 1)]
    # A test only the o.met file has gets its o/s as QPS, but not scan (o/s counts scans, not Krows/s).
    warm = (LATIN / "o.met.latest").read_text().split("sb.met.points-covered-si.warm.range100.pk1.dop1\n", 1)[1]
    ops = float(warm.splitlines()[2].split("\t")[-2])
    assert con.execute("SELECT qps FROM results WHERE build = 'ma100230_rel_withdbg' "
                       "AND microbenchmark = 'points-covered-si.warm'").fetchall() == [(ops,)]
    assert con.execute("SELECT count(*) FROM results WHERE microbenchmark = 'scan.warmpre'").fetchone() == (0,)


def test_every_published_ratio_is_reproduced_from_the_abs_table(data):
    run(LATIN, data)
    con = database(data)
    rel = [line.split(",") for line in (LATIN / "qps.rel.latest.csv").read_text().splitlines() if line]
    cells = sum(len(r) - 1 for r in rel)
    assert con.execute("SELECT status, count(*) FROM reproductions GROUP BY ALL").fetchall() == [("equal", cells)]


def test_a_published_ratio_that_the_qps_do_not_give_is_a_warning_with_both_values(data, tmp_path):
    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    lines = (src / "qps.rel.latest.csv").read_text().splitlines()
    cells = lines[1].split(",")
    cells[2] = f"{float(cells[2]) + 0.05:.2f}"  # the planted misprint
    lines[1] = ",".join(cells)
    (src / "qps.rel.latest.csv").write_text("\n".join(lines) + "\n")
    problems, _ = run(src, data)
    assert problems.errors == []
    hits = [p for p in problems.items if p.path.endswith("qps.rel.latest.csv") and p.line == 2]
    assert len(hits) == 1 and hits[0].severity == "warning"
    assert f"published rQPS {cells[2]}" in hits[0].message and "(differs)" in hits[0].message
    con = database(data)
    assert con.execute("SELECT line, \"column\", published FROM reproductions WHERE status = 'differs'"
                       ).fetchall() == [(2, 2, float(cells[2]))]


def test_overlapping_tables_merge_when_they_agree_and_are_refused_where_they_differ(data, tmp_path):
    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    for ext in ("csv", "tsv"):  # a subset edition: the same numbers under another tag
        shutil.copy(src / f"qps.abs.latest.{ext}", src / f"qps.abs.sub.{ext}")
    problems, _ = run(src, data)
    assert problems.errors == []
    shutil.rmtree(data / "campaigns" / CAMPAIGN)
    lines = (src / "qps.abs.sub.csv").read_text().splitlines()
    lines[4] = lines[4].replace(",", ",1", 1)  # one QPS that differs from qps.abs.latest.csv
    (src / "qps.abs.sub.csv").write_text("\n".join(lines) + "\n")
    before = digest(data)
    with pytest.raises(UserError) as e:
        run(src, data)
    errors = [p for p in e.value.problems if p.severity == "error"]
    assert [(Path(p.path).name, p.line) for p in errors] == [("qps.abs.sub.csv", 5)]
    assert "overlapping tables must agree" in errors[0].hint
    assert digest(data) == before  # nothing half-written
    # Each file is named in the folder given, where it can be opened: the campaign's copy is gone
    # (it named data/campaigns/<campaign>/raw/qps.abs.sub.csv:5, which no longer existed).
    shown = Paths.make().rel
    assert errors[0].path == shown(src / "qps.abs.sub.csv") and f" at {shown(src / 'qps.abs.latest.csv')}:5" in \
        errors[0].message, errors[0]
    assert "files named in" in str(e.value) and not (data / "campaigns" / CAMPAIGN).exists()


def test_errors_the_data_folder_had_before_are_said_to_be_its_own(tmp_path):
    """A new data folder with a mistake of its own in servers.csv: the import blamed the campaign
    ('the imported campaign does not pass papercuts check') and left an empty campaigns/ behind."""
    data = write_data(tmp_path / "data", {"campaigns/2026-01-02-test/campaign.toml": None,
                                          "campaigns/2026-01-02-test/results.csv": None})
    for name in ("sources.csv", "microbenchmarks.csv"):
        shutil.copy(PROJECT / "data" / name, data / name)
    with open(data / "sources.csv", "a") as f:
        f.write("src,A test source,Tester,2026-01-02,,,\n")
    with open(data / "servers.csv", "a") as f:
        f.write("box9,,,zero,src\n")  # cores: not a number
    before = digest(data)
    with pytest.raises(UserError) as e:
        run(LATIN, data)
    shown = Paths.make().rel
    assert str(e.value) == (f"{shown(data)} has 1 error(s) of its own, not from this import (above; papercuts check "
                            f"--data {shown(data)} lists them): fix them and import again; nothing was changed")
    assert [(Path(p.path).name, p.line, p.column) for p in e.value.problems if p.severity == "error"] == [
        ("servers.csv", 3, 8)]
    assert digest(data) == before and not (data / "campaigns").exists()


def test_reimporting_the_same_folder_changes_nothing(data):
    run(LATIN, data)
    before = digest(data)
    problems, said = run(LATIN, data)
    assert problems.errors == [] and digest(data) == before
    assert any("nothing changed" in s for s in said)


def test_an_unknown_server_is_an_error_with_the_fix_and_nothing_is_written(data):
    before = digest(data)
    with pytest.raises(UserError, match="unknown server 'pn53'.*--server") as e:
        run(LATIN, data, server="pn53")
    assert digest(data) == before
    # the servers.csv of --data, not the project's data/servers.csv
    assert f"(known: box); add it to {Paths.make().rel(data / 'servers.csv')} (with" in str(e.value)
    (data / "servers.csv").write_text("id,aliases,cpu_model,cores,source\n")  # a new folder's: no row yet
    with pytest.raises(UserError, match=r"unknown server 'pn53' \(it has no server yet\); add it to "):
        run(LATIN, data, server="pn53")


def test_every_microbenchmark_the_catalog_lacks_is_named_at_once(data):
    """A new data folder's microbenchmarks.csv: the import named the first unknown test only, one
    per try (29 tries for dec25.sb.gtid/pn53)."""
    rows = (data / "microbenchmarks.csv").read_text().splitlines()
    kept = [r for r in rows if not r.startswith(("scan,", "delete,", "insert,"))]
    (data / "microbenchmarks.csv").write_text("\n".join(kept) + "\n")
    before = digest(data)
    with pytest.raises(UserError) as e:
        run(LATIN, data)
    assert str(e.value).startswith("3 microbenchmark(s) of 2026-04-03-pn53-mariadb-latin1/raw are not in "
                                   "microbenchmarks.csv, nor an edition (.pre, .warm, .warmpre) of one that is: "
                                   "delete, insert, scan; add a row for each first (Papercuts' own "
                                   "data/microbenchmarks.csv"), str(e.value)
    assert digest(data) == before


def test_an_existing_campaign_is_refused_with_what_differs(data, tmp_path):
    """It said "<folder> exists with other content; remove it or choose another --campaign" whether the
    folder held another archive or the same one imported with another option (a --source left out)."""
    run(LATIN, data)
    before = digest(data)
    shown = Paths.make().rel(data / "campaigns" / CAMPAIGN)
    with pytest.raises(UserError) as e:
        run(LATIN, data, title="Another title")
    assert str(e.value).startswith(f"{shown} exists, imported from these files with other options: its "
                                   "campaign.toml has title = \"MariaDB 10.2.30 to ")
    assert str(e.value).endswith(" where this import writes title = \"Another title\": this import would change "
                                 "it; choose another --campaign, or remove the folder to import it again; nothing "
                                 "was changed")
    other = tmp_path / "other"
    shutil.copytree(LATIN, other)
    (other / "qps.rel.latest.tsv.edit").unlink()
    with pytest.raises(UserError, match=f"^{re.escape(shown)} exists, and its raw/ is not a copy of these archive "
                                        "files .another archive's, or changed since.: this import would change it"):
        run(other, data)
    assert digest(data) == before
    # a campaign that is not an import: results.csv of the data folder's own
    (data / "campaigns" / "2026-01-02-mine").mkdir()
    (data / "campaigns" / "2026-01-02-mine" / "results.csv").write_text("server\n")
    with pytest.raises(UserError, match=r"2026-01-02-mine exists, a campaign of its own \(it has no raw/ folder: "
                                        r"not an import\): this import would change it"):
        run(LATIN, data, campaign="2026-01-02-mine")


def test_a_thread_count_is_never_guessed(data, tmp_path):
    src = tmp_path / "archive"  # the abs table alone: no o.met, no dop folder, no <T>u in any name
    src.mkdir()
    for ext in ("csv", "tsv"):
        shutil.copy(LATIN / f"qps.abs.latest.{ext}", src / f"qps.abs.latest.{ext}")
    before = digest(data)
    with pytest.raises(UserError, match="--threads"):
        run(src, data)
    assert digest(data) == before
    problems, said = run(src, data, threads=8)
    assert problems.errors == []
    assert tomllib.loads((data / "campaigns" / CAMPAIGN / "campaign.toml").read_text())["threads"] == 8
    assert database(data).execute("SELECT DISTINCT threads FROM results").fetchall() == [(8,)]


def test_relative_only_tables_are_published_ratios_at_the_thread_count_their_name_gives(data):
    with open(data / "servers.csv", "a") as f:
        f.write("hetz,hetz48,,,src\n")
    problems, said = run(HETZ48, data, server="hetz48", campaign="2025-10-08-hetz")
    assert problems.errors == []
    con = database(data)
    threads = sorted(int(m) for p in HETZ48.glob("qps.rel.*u.tsv") for m in re.findall(r"\.(\d+)u\.tsv$", p.name))
    assert [t for (t,) in con.execute("SELECT DISTINCT threads FROM relative ORDER BY 1").fetchall()] == threads
    table = (HETZ48 / "qps.rel.ma106.12u.tsv").read_text()
    base = re.search(r"Relative to: x\.(\w+)\.(\w+)\.pk1", table)
    first = next(line for line in table.splitlines() if line.endswith("hot-points_range=100")).split("\t")
    assert con.execute("SELECT base_build, base_config, rqps FROM relative WHERE threads = 12 AND build = "
                       "'ma101114_rel_withdbg' AND microbenchmark = 'hot-points'").fetchall() == [
        (base[1], base[2], float(first[0]))]


def test_an_edited_copy_that_differs_from_its_table_is_a_warning_at_its_line(data, tmp_path):
    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    text = (src / "qps.rel.latest.tsv.edit").read_text()
    (src / "qps.rel.latest.tsv.edit").write_text(text.replace("\tpoint-query_range=100", "\tpoint-queryx_range=100"))
    problems, _ = run(src, data)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x.endswith("\tpoint-query_range=100"))
    hits = [p for p in problems.items if p.path.endswith(".tsv.edit")]
    assert [(p.line, p.severity) for p in hits] == [(line, "warning")] and "no such row" in hits[0].message


@pytest.mark.parametrize("name, build_id, version", [
    ("x.ma110803_ent.z12b_c32r128.pk1.v2", "ma110803_ent-v2", "11.8.3"),  # a re-run keeps its own id
    ("x.pg18b1git_o2nofp.x10b_c32r128.pk1", "pg18b1git_o2nofp", "18beta1"),  # b1 is beta1
    ("x.ma110803_ent.z12b_c32r128.pk1", "ma110803_ent", "11.8.3"),
])
def test_archive_build_names(name, build_id, version):
    b = parse_build_name(name)
    assert (b.build_id, b.version, b.config) == (build_id, version, name.split(".")[2])


def test_the_shipped_corpus_reproduces_every_published_ratio():
    ds, problems = validate(Paths.make())
    statuses = {r["status"] for r in ds.rows["reproductions"]}
    assert len(ds.rows["reproductions"]) > 7000 and statuses == {"equal"}
    assert len({r["campaign"] for r in ds.rows["reproductions"]}) >= 18


SCALEUP = ARCHIVES / "2025-10-02-ax162-s-scaleup-1-to-48" / "raw"  # sum_met_dop.sh: 1 vs 48 threads


def test_dop_comparison_tables_give_both_thread_counts_and_need_the_config_named(data):
    before = digest(data)
    with pytest.raises(UserError, match="--config"):
        run(SCALEUP, data, campaign="2025-10-02-box-scaleup")
    assert digest(data) == before
    problems, _ = run(SCALEUP, data, campaign="2025-10-02-box-scaleup", config="unknown-config")
    assert problems.errors == []
    text = (SCALEUP / "o.met.pg180.1u.48u").read_text().split("sb.met.point-query.pre.range100.pk1.dop1\n", 1)[1]
    rows = [line.split("\t") for line in text.splitlines()[3:5]]  # pg180_1u, pg180_48u
    assert [r[-1] for r in rows] == ["pg180_1u", "pg180_48u"]
    con = database(data)
    got = con.execute("SELECT threads, qps, config FROM results WHERE build = 'pg180' "
                      "AND microbenchmark = 'point-query.pre' ORDER BY threads").fetchall()
    assert got == [(1, float(rows[0][-2]), "unknown-config"), (48, float(rows[1][-2]), "unknown-config")]


NOV25 = ARCHIVES / "2025-11-28-pn53-mysql-5-6-to-9-5" / "raw"  # nov25.sb.mysql/dop1: tables and per-run trees
RUNS = ("x.my5651_rel_o2nofp.z12a_c8r32.pk1", "x.my9500_rel_o2nofp.z12a_c8r32.pk1")


def _nov25(dest: Path, edit=None) -> Path:
    """The dop1 folder's tables with two of its per-run trees, optionally with one table value edited."""
    dest.mkdir()
    for p in NOV25.iterdir():
        if p.is_file():
            shutil.copy(p, dest / p.name)
    for name in RUNS:
        shutil.copytree(NOV25 / name, dest / name)
    if edit:  # (old, new) value of the first build's point-query in both forms of the table
        old, new = edit
        for name, before, after in (("qps.abs.all.tsv", f"\n{old}\t", f"\n{new}\t"),
                                    ("qps.abs.all.csv", f"point-query_range=100,{old},",
                                     f"point-query_range=100,{new},")):
            text = (dest / name).read_text()
            assert text.count(before) == 1
            (dest / name).write_text(text.replace(before, after))
    return dest


def _rate(run: str, test: str) -> float:
    text = (NOV25 / run / f"sb.o.{test}.range100.pk1.dop1").read_text()
    return float(re.search(r"queries:\s+\d+\s+\(([\d.]+) per sec", text).group(1))


def test_per_run_outputs_beside_the_tables_give_the_results_and_check_the_tables(data, tmp_path):
    problems, said = run(_nov25(tmp_path / "dop1"), data, campaign="2025-11-28-box-nov25")
    assert problems.errors == [] and not [w for w in problems.sorted() if "qps.abs" in w.path]
    meta = tomllib.loads((data / "campaigns" / "2025-11-28-box-nov25" / "campaign.toml").read_text())
    assert meta["sysbench"] == "1.1.0-3ceba0b"  # printed by every run's output
    assert f"{tmp_path / 'dop1' / RUNS[0]}: 1 thread(s), from dop<T> in its sb.o file names" in said, said
    con = database(data)
    rate = _rate(RUNS[0], "point-query")
    got = con.execute("SELECT qps, file, cpu_per_op IS NOT NULL FROM results WHERE build = 'my5651_rel_o2nofp' "
                      "AND microbenchmark = 'point-query' AND threads = 1").fetchall()
    assert got == [(rate, f"data/campaigns/2025-11-28-box-nov25/raw/{RUNS[0]}/sb.o.point-query.range100.pk1.dop1",
                    True)]
    assert rate != round(rate)  # the table prints it rounded: the run's own number is the one kept
    # every table value of the two builds with runs was checked against them, and agreed
    checked = 2 * len((NOV25 / "qps.abs.all.csv").read_text().splitlines())  # every row, for both builds
    assert con.execute("SELECT checked, agreed FROM tree_checks").fetchall() == [(checked, checked)]
    # the builds without runs keep the tables' numbers
    assert con.execute("SELECT count(*) FROM results WHERE build = 'my8043_rel_o2nofp' AND file LIKE '%qps.abs%'"
                       ).fetchone()[0] > 30


def test_a_table_value_the_run_does_not_print_is_a_warning_with_both_numbers(data, tmp_path):
    rate = _rate(RUNS[0], "point-query")
    src = _nov25(tmp_path / "dop1", edit=(round(rate), 24600))
    problems, _ = run(src, data, campaign="2025-11-28-box-nov25")
    (warning,) = [w for w in problems.sorted() if "qps.abs.all" in w.path]
    assert "prints 24600" in warning.message and f"gives {rate:g}" in warning.message
    assert database(data).execute("SELECT qps FROM results WHERE build = 'my5651_rel_o2nofp' AND "
                                  "microbenchmark = 'point-query'").fetchall() == [(rate,)]


def test_a_location_never_holds_a_control_character():
    from papercuts.problems import Problem

    shown = Problem("raw/bad\nname\t\x1b.txt", 1, 2, "error", "m").render()
    assert shown == "raw/bad\\nname\\t\\x1b.txt:1:2: error: m"
    assert Problem("raw/é.txt", 1, 1, "error", "m").render() == "raw/é.txt:1:1: error: m"


def test_catalogs_are_read_as_check_reads_them(data):
    """A spreadsheet's BOM is the same text; a byte that is not UTF-8 is check's error, not a traceback."""
    for name in ("servers.csv", "builds.csv"):
        (data / name).write_bytes(b"\xef\xbb\xbf" + (data / name).read_bytes())
    problems, _ = run(LATIN, data)
    assert problems.errors == []
    builds = (data / "builds.csv").read_bytes()
    assert builds.startswith(b"\xef\xbb\xbfid,") and b"\nma100230_rel_withdbg,mariadb,innodb,10.2.30," in builds
    shutil.rmtree(data / "campaigns" / CAMPAIGN)
    for name in ("servers.csv", "builds.csv"):
        good = (data / name).read_bytes().removeprefix(b"\xef\xbb\xbf")
        (data / name).write_bytes(good.replace(b",src\n", b",\xe9\n", 1))  # line 2 ends ",src"
        before = digest(data)
        with pytest.raises(UserError, match=f"{name} cannot be read.*nothing was changed") as e:
            run(LATIN, data)
        [p] = e.value.problems
        column = len(good.split(b"\n")[1]) - 2  # where "src" was
        assert (Path(p.path).name, p.line, p.column, p.message) == (name, 2, column, "invalid UTF-8 byte 0xe9")
        assert digest(data) == before
        (data / name).write_bytes((data / name).read_bytes().replace(b"\xe9", b"src"))


def test_a_malformed_archive_file_is_said_once_at_the_path_given(data, tmp_path, capsys):
    from papercuts.cli import main

    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    lines = (src / "o.met.latest").read_text().splitlines()
    row = next(i for i, ln in enumerate(lines) if ln[:1].isdigit())
    lines[row] = "garbage " + lines[row]
    (src / "o.met.latest").write_text("\n".join(lines) + "\n")
    before = digest(data)
    assert main(["import", "mytools", str(src), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN]) == 1
    err = capsys.readouterr().err
    assert err.count("'garbage") == 1, err
    assert err.startswith(f"{src / 'o.met.latest'}:{row + 1}:1: error: 'garbage"), err
    assert "nothing was changed" in err and digest(data) == before


def test_a_failed_import_says_nothing_was_added_and_no_location_spans_two_lines(data, tmp_path, capsys):
    from papercuts.cli import main

    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    (src / "bad\nname.txt").write_text("a file name papercuts check refuses\n")
    assert main(["import", "mytools", str(src), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN]) == 1
    out, err = capsys.readouterr()
    assert "added to" not in out and "nothing was changed" in err
    # named where the file is: the campaign's copy is gone again
    assert f"{src}/bad\\nname.txt:1:1: error: name 'bad\\nname.txt' is not allowed" in err, err
    assert all(line.startswith(("papercuts:", "data/", str(data), str(src))) or ": warning: " in line
               for line in err.splitlines()), err
    problems, said = run(LATIN, data)
    assert problems.errors == [] and "added to builds.csv: ma100230_rel_withdbg" in said


@pytest.mark.parametrize("threads", ["0", "-4", "1000001", "99999999999999999999"])
def test_a_thread_count_out_of_range_is_refused_at_its_flag(data, tmp_path, capsys, threads):
    from papercuts.cli import main

    src = tmp_path / "archive"  # a table that needs --threads
    src.mkdir()
    for ext in ("csv", "tsv"):
        shutil.copy(LATIN / f"qps.abs.latest.{ext}", src / f"qps.abs.latest.{ext}")
    before = digest(data)
    assert main(["import", "mytools", str(src), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN, "--threads", threads]) == 1
    err = capsys.readouterr().err
    assert err == (f"papercuts: error: --threads {threads}: the thread count must be a whole number from 1 to "
                   "1_000_000 (the sysbench --threads of the run)\n")
    assert digest(data) == before


def test_hidden_files_are_not_copied_and_the_import_says_which(data, tmp_path):
    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    (src / ".git" / "refs").mkdir(parents=True)
    (src / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (src / ".git" / "refs" / "main").write_text("0" * 40 + "\n")
    (src / ".hidden").write_text("x\n")
    problems, said = run(src, data)
    assert problems.errors == []
    why = "a hidden name (starting with '.'), which papercuts check allows nowhere under raw/"
    assert [s for s in said if "not copied" in s] == [f"{src / '.git'}/: not copied (2 file(s)): {why}",
                                                      f"{src / '.hidden'}: not copied (1 file(s)): {why}"]
    target = data / "campaigns" / CAMPAIGN
    assert not any(p.name.startswith(".") for p in (target / "raw").rglob("*"))
    notes = tomllib.loads((target / "campaign.toml").read_text())["notes"]
    assert "byte for byte but for its 3 hidden file(s) (names starting with '.'), not copied" in notes


def test_a_table_whose_header_was_cut_is_an_error_at_the_cut_name(data, tmp_path, capsys):
    from papercuts.cli import main

    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    tsv = (src / "qps.abs.latest.tsv").read_text().splitlines()
    (src / "qps.abs.latest.tsv").write_text("\n".join(tsv[:1]) + "\n" + tsv[1][:12])  # 'col-2 : x.ma', cut
    rows = len((src / "qps.abs.latest.csv").read_text().splitlines())
    before = digest(data)
    assert main(["import", "mytools", str(src), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN]) == 1
    out, err = capsys.readouterr()
    assert "kept as evidence" not in out
    assert err.startswith(f"{src / 'qps.abs.latest.tsv'}:2:9: error: col-2's name 'x.ma' is cut short: it does not "
                          f"name a build and config as x.<build>.<config>.pk<N>, so the table's {rows} row(s) "
                          "cannot be read (the file was cut short when it was copied: copy it again, whole, from "
                          "the run's archive, or remove it from raw/)\n"), err
    assert "nothing was changed" in err and digest(data) == before


@pytest.mark.parametrize("inside", [[], ["notes.txt"]])
def test_a_folder_where_the_metrics_file_is_expected_is_said_to_be_one(data, tmp_path, capsys, inside):
    from papercuts.cli import main

    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    (src / "o.met.latest").unlink()
    (src / "o.met.latest").mkdir()
    for name in inside:
        (src / "o.met.latest" / name).write_text("x\n")
    before = digest(data)
    assert main(["import", "mytools", str(src), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{src / 'o.met.latest'}:1:1: error: is a folder where mytools' metrics file (sum_met.sh's "
                          "per-operation costs) is expected (replace the folder with the file o.met.latest copied "
                          "from the run's archive, or remove it)\n"), err
    assert "thread count" not in err and digest(data) == before


def test_one_maximum_thread_count_for_the_flag_campaign_toml_and_results_csv():
    import papercuts.importer
    from papercuts.contract import MAX_THREADS, RESULTS, TOML_INT_MAXIMUM
    from papercuts.validate.tomlfile import int_problem

    assert RESULTS.column("threads").maximum == TOML_INT_MAXIMUM["threads"] == MAX_THREADS
    assert papercuts.importer.MAX_THREADS is MAX_THREADS  # imported, not a copy
    assert int_problem("threads", MAX_THREADS) is None and int_problem("threads", MAX_THREADS + 1)


def _refused(data: Path, src: Path, capsys, monkeypatch) -> tuple[str, list]:
    """`papercuts import mytools src` fails: its stderr, and the files it began to copy (none)."""
    import papercuts.importer.place
    from papercuts.cli import main

    copied: list = []
    real = shutil.copyfile
    monkeypatch.setattr(papercuts.importer.place.shutil, "copyfile", lambda a, b: (copied.append(a), real(a, b))[1])
    before = digest(data)
    assert main(["import", "mytools", str(src), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN]) == 1
    assert digest(data) == before and not (data / "campaigns" / CAMPAIGN).exists()
    return capsys.readouterr().err, copied


def test_a_file_over_the_size_limit_is_refused_before_anything_is_copied(data, tmp_path, capsys, monkeypatch):
    """A hostile archive's huge file (here sparse: 5 MB + 1 byte that take no disk) was copied into
    the data folder, densely, before papercuts check refused it: a 600 MB sparse file put 601 MB
    under data/; one of terabytes would fill the disk the repository is on. Refused at its name, with
    the check's limit, before one byte is copied."""
    from papercuts.contract import MAX_FILE_BYTES

    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    with open(src / "big.log", "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    err, copied = _refused(data, src, capsys, monkeypatch)
    assert copied == []
    assert err == (f"papercuts: error: {src / 'big.log'}: {MAX_FILE_BYTES + 1} bytes, over the limit of "
                   f"{MAX_FILE_BYTES} a contributed file may have (papercuts check refuses it); leave it out of the "
                   "archive folder, or shorten it; nothing was changed\n"), err


def test_a_special_file_is_refused_at_its_name_not_with_a_traceback(data, tmp_path, capsys, monkeypatch):
    """A named pipe in the archive folder ended the import with shutil's SpecialFileError traceback."""
    import os

    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    os.mkfifo(src / "pipe")
    err, copied = _refused(data, src, capsys, monkeypatch)
    assert copied == []
    assert err == (f"papercuts: error: {src / 'pipe'}: not a regular file (a named pipe, socket or device); "
                   "leave it out of the archive folder; nothing was changed\n"), err


def test_a_folder_of_more_files_than_a_campaign_may_hold_is_refused_before_copying(data, tmp_path, capsys,
                                                                                   monkeypatch):
    import papercuts.importer.place

    monkeypatch.setattr(papercuts.importer.place, "MAX_CAMPAIGN_FILES", 12)  # the check's 10,000, made small here
    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    for i in range(10):
        (src / f"log{i}.txt").write_text("x\n")
    err, copied = _refused(data, src, capsys, monkeypatch)
    assert copied == []
    assert err == (f"papercuts: error: {src}: more than 10 files and folders, over the 12 a campaign may hold with "
                   "its campaign.toml and raw/ (papercuts check refuses more); keep the outputs the site reads, or "
                   "split the archive folder; nothing was changed\n"), err


def test_names_and_text_from_an_archive_reach_the_terminal_as_printable_text(data, tmp_path, capsys, monkeypatch):
    """A file name or a line of the archive holding terminal escape codes (set the window's title, clear
    the screen, colour) or a newline (a line of its own: 'imported ... file(s)') was printed as it was
    in the import's errors; each is now written as Python writes it (\\x1b, \\n), on one line."""
    evil = "\x1b]0;PWNED\x07\x1b[2J\x1b[31m"
    forged = "imported 7 file(s) into the data folder"
    cases = []
    src = tmp_path / "link"  # a symbolic link: its name in the error
    shutil.copytree(LATIN, src)
    (src / f"x{evil}\n{forged}").symlink_to("/etc/passwd")
    cases.append((src, f"{src}/x\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31m\\n{forged}: a symbolic link"))
    src = tmp_path / "build"  # a per-run folder whose build name says no DBMS: the name in the error
    shutil.copytree(LATIN, src)
    run_dir = src / f"x.zz{evil}.cfg.pk1"
    run_dir.mkdir()
    (run_dir / "sb.o.point-query.range100.pk1.dop1").write_text("sysbench 1.0.20\n")
    cases.append((src, f"'x.zz\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31m.cfg.pk1' in {tmp_path.name}/build: cannot tell"))
    src = tmp_path / "line"  # a malformed line of o.met: quoted in the problem
    shutil.copytree(LATIN, src)
    lines = (src / "o.met.latest").read_text().splitlines()
    row = next(i for i, ln in enumerate(lines) if ln[:1].isdigit())
    lines[row] = f"{evil}garbage " + lines[row]
    (src / "o.met.latest").write_text("\n".join(lines) + "\n")
    cases.append((src, "error: '\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mgarbage"))
    for src, said in cases:
        err, _ = _refused(data, src, capsys, monkeypatch)
        assert said in err, err
        assert not any(c in err for c in "\x1b\x07\r"), err
        assert all(line.startswith((str(src), "papercuts: error: ")) for line in err.splitlines()), err


@pytest.mark.parametrize("form", ["text", "github"])
def test_papercuts_check_prints_an_archive_files_text_as_printable_text(data, capsys, form):
    """papercuts check (the pull request's check) quotes a malformed line of a raw output in its problem:
    a contributor's o.met row starting with terminal escape codes reached the terminal, or the CI log,
    as they were (the path was printable; the message was not). Now as Python writes them."""
    from papercuts.cli import main

    problems, _ = run(LATIN, data)
    assert problems.errors == []
    met = data / "campaigns" / CAMPAIGN / "raw" / "o.met.latest"
    lines = met.read_text().splitlines()
    row = next(i for i, ln in enumerate(lines) if ln[:1].isdigit())
    lines[row] = "\x1b]0;PWNED\x07\x1b[2Jgarbage " + lines[row]
    met.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["check", "--data", str(data), "--format", form]) == 1
    out, err = capsys.readouterr()
    assert "'\\x1b]0;PWNED\\x07\\x1b[2Jgarbage" in out + err, out + err
    assert not any(c in out + err for c in "\x1b\x07"), out + err


@pytest.mark.parametrize("campaign", ["2025-13-17-box", "2024-02-30-box"])
def test_a_campaign_id_that_is_no_calendar_date_is_refused_at_its_flag(data, capsys, campaign):
    """It passed the flag's pattern, the archive was copied and checked, and papercuts check's refusal
    said to rename a folder the import had just removed."""
    from papercuts.cli import main

    before = digest(data)
    assert main(["import", "mytools", str(LATIN), "--data", str(data), "--server", "c8r32",
                 "--campaign", campaign]) == 1
    out, err = capsys.readouterr()
    assert err == (f"papercuts: error: --campaign '{campaign}' starts with {campaign[:10]}, not a calendar date; "
                   "begin it with the date the archive was run or published, YYYY-MM-DD\n")
    assert "thread(s)" not in out and digest(data) == before


def test_a_folder_named_for_another_server_is_refused_and_nothing_is_written(data, tmp_path, capsys):
    """mytools archives name the machine in folder names (dec25.sb.gtid/pn53, oct25.sb.ma.hetz48).
    The whole of dec25.sb.gtid (folders hetz, pn53, socket2) imported with --server pn53 put the
    hetz and socket2 results on pn53, and its pn53 folder imported with --server dell32 put pn53's
    on dell32: both were accepted without a word."""
    from papercuts.cli import main

    with open(data / "servers.csv", "a") as f:
        f.write("hetz48,hetz,,,src\n")
    archive = tmp_path / "dec25.sb.gtid"
    for server in ("c8r32", "hetz"):  # two servers' folders, as in the archive
        shutil.copytree(LATIN, archive / server)
    before = digest(data)

    def refused(src: Path, server: str) -> str:
        assert main(["import", "mytools", str(src), "--data", str(data), "--server", server,
                     "--campaign", CAMPAIGN]) == 1
        out, err = capsys.readouterr()
        assert out == "" and digest(data) == before
        return err

    shown = Paths.make().rel
    assert refused(archive, "box") == (
        f"papercuts: error: {shown(archive / 'hetz')}: a folder named for server 'hetz' (an alias of hetz48 in "
        "servers.csv) inside the archive folder imported for box (--server box); SRC is one server's folder: "
        f"import each server's folder as a campaign of its own, e.g. {shown(archive / 'hetz')} with --server "
        "hetz48; nothing was changed\n")
    assert refused(archive / "hetz", "box") == (
        f"papercuts: error: {shown(archive / 'hetz')}: the folder is named for server 'hetz' (an alias of hetz48 "
        "in servers.csv), not for box (--server box); pass --server hetz48 if the archive ran there, or, if it "
        "ran on box, copy it under a name that does not name another server; nothing was changed\n")
    named = tmp_path / "apr26.pn53.sb.ma.latin"  # the archive's own name; its dop1/ folder is named with it
    shutil.copytree(LATIN, named / "dop1")
    with open(data / "servers.csv", "a") as f:
        f.write("pn53,,,,src\n")
    before = digest(data)
    assert "folder is named for server 'pn53', not for box" in refused(named / "dop1", "box")
    problems, _ = run(named / "dop1", data, server="pn53")  # the server it names
    assert problems.errors == []
    problems, _ = run(archive / "c8r32", data, campaign="2026-04-03-box-c8r32")  # 'c8r32' is box's alias
    assert problems.errors == []


def test_a_folder_reached_through_a_link_is_named_as_given(data, tmp_path):
    """The corpus is /tmp/fM/shared/corpus, a link to /work/shared/corpus: every line the import
    printed named /work/shared/corpus/..., a path the user never typed."""
    (tmp_path / "store").mkdir()
    shutil.copytree(LATIN, tmp_path / "store" / "apr26.sb.latin")
    (tmp_path / "arc").symlink_to(tmp_path / "store")
    src = tmp_path / "arc" / "apr26.sb.latin"
    problems, said = run(src, data)
    assert problems.errors == []
    shown = Paths.make().rel
    assert f"{shown(src / 'qps.abs.latest.tsv')}: 1 thread(s), from {shown(src / 'o.met.latest')} line 27 " \
           "(sb.met.point-query.pre.range100.pk1.dop1)" in said, said
    assert not any("store" in s for s in said), said


def test_a_flag_the_tables_contradict_or_do_not_need_is_refused_not_dropped(data):
    """--threads 8 for an archive whose tables say 1 thread (o.met's dop1), or --config for tables
    that name their configs, imported as if the flag had not been given, without a word: the user
    believed the runs had 8 threads, the site said 1."""
    before = digest(data)
    with pytest.raises(UserError) as e:
        run(LATIN, data, threads=8)
    assert str(e.value) == (f"--threads 8: every table of {Paths.make().rel(LATIN)} says its own thread count (1; "
                            "without --threads the import prints where each comes from): leave --threads out (it "
                            "is for tables that do not say theirs); nothing was changed")
    with pytest.raises(UserError) as e:
        run(LATIN, data, config="z12a_c8r32")
    assert str(e.value) == ("--config z12a_c8r32: the tables of 2026-04-03-pn53-mariadb-latin1/raw name the config of "
                            "each result (z12a_c8r32, z12b_c8r32); leave --config out (it is for the o.met tables of "
                            "sum_met_dop.sh, which name none); nothing was changed")
    assert digest(data) == before
    with pytest.raises(UserError, match="^--threads 1: every table of .* says its own thread count .1, 48;"):
        run(SCALEUP, data, campaign="2025-10-02-box-scaleup", config="unknown-config", threads=1)


def test_the_source_stub_names_the_archive_as_the_campaign_does(data, tmp_path):
    """Without --source, the stub row added to sources.csv (the campaign page's source) was titled
    'mytools archive dop8' for mar25.sb.in.c48/dop8: the subfolder alone, no archive."""
    src = tmp_path / "mar25.sb.in.c48" / "dop1"
    shutil.copytree(LATIN, src)
    problems, said = run(src, data)
    assert problems.errors == [] and f"added to sources.csv: mytools-{CAMPAIGN}" in said
    [row] = [r for r in csv.DictReader(open(data / "sources.csv")) if r["id"] == f"mytools-{CAMPAIGN}"]
    assert row["title"] == "mytools archive mar25.sb.in.c48/dop1"
    meta = tomllib.loads((data / "campaigns" / CAMPAIGN / "campaign.toml").read_text())
    assert meta["contributor"].endswith("from the archive folder mar25.sb.in.c48/dop1")


def test_a_flag_that_makes_campaign_toml_fail_the_check_is_named(data):
    """--title with a zero-width space: the check's error named
    data/campaigns/<campaign>/campaign.toml:1:9, a file the import had removed, written from a flag."""
    before = digest(data)
    with pytest.raises(UserError) as e:
        run(LATIN, data, title="bad\u200btitle")
    [p] = [p for p in e.value.problems if p.severity == "error"]
    assert p.render() == ("campaign.toml (as this import writes it):1:9: error: title contains U+200B, a control, "
                          "invisible, line-separator or bidirectional-override character (remove it; title is "
                          "written from --title: give it again, fixed)")
    assert str(e.value) == "the imported campaign does not pass papercuts check (above); nothing was changed"
    assert digest(data) == before


def test_the_data_folder_or_a_folder_inside_it_is_no_archive(data):
    """SRC = the data folder copied the data's own files (every campaign's raw/ too) into a new campaign
    (a new folder said ".import-...: not copied (0 file(s))" about the import's own staging folder);
    a campaign's raw/ made a second campaign of the same files."""
    run(LATIN, data)
    before = digest(data)
    shown = Paths.make().rel
    for src, where in ((data, "is the data folder"), (data.parent, "holds the data folder"),
                       (data / "campaigns" / CAMPAIGN / "raw", "is inside the data folder")):
        with pytest.raises(UserError) as e:
            run(src, data, campaign="2026-04-03-box-again")
        assert str(e.value) == (f"{shown(src)}: SRC {where} {shown(data)}; SRC is one server's folder of a mytools "
                                "archive, kept outside the data folder (what is inside is imported already); nothing "
                                "was changed")
    assert digest(data) == before


def test_an_import_prints_its_own_campaigns_warnings_and_counts_the_others(data, tmp_path, capsys):
    """Each import printed every warning of the whole data folder: in /tmp/fM/mydata the same seven
    warnings of other campaigns after every archive imported, and a count that was the folder's."""
    from papercuts.cli import main

    src = tmp_path / "src"
    shutil.copytree(LATIN, src)
    text = (src / "qps.rel.latest.tsv.edit").read_text()
    (src / "qps.rel.latest.tsv.edit").write_text(text.replace("\tpoint-query_range=100", "\tpoint-queryx_range=100"))
    assert main(["import", "mytools", str(src), "--data", str(data), "--server", "c8r32",
                 "--campaign", "2026-04-03-box-edited"]) == 0
    out, err = capsys.readouterr()
    shown = Paths.make().rel
    first = shown(data / "campaigns" / "2026-04-03-box-edited")
    assert f"{first}/raw/qps.rel.latest.tsv.edit:" in out and err.endswith(f"{first}: 0 error(s), 1 warning(s)\n")
    other = tmp_path / "other"  # the archive again, whole: its own warnings say it repeats the first
    shutil.copytree(LATIN, other)
    assert main(["import", "mytools", str(other), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN]) == 0
    out, err = capsys.readouterr()
    mine = shown(data / "campaigns" / CAMPAIGN)
    warnings = [line for line in out.splitlines() if ": warning: " in line]
    assert warnings and all(line.startswith(f"{mine}/") for line in warnings), out
    assert err.endswith(f"{mine}: 0 error(s), {len(warnings)} warning(s); 1 warning(s) elsewhere in {shown(data)}, "
                        "which papercuts check lists\n"), err
    # An older campaign imported last: the later ones' files carry the warnings that they repeat it,
    # which name it, so they are its own to see.
    assert main(["import", "mytools", str(LATIN), "--data", str(data), "--server", "c8r32",
                 "--campaign", "2026-01-01-box-early"]) == 0
    out, err = capsys.readouterr()
    early = shown(data / "campaigns" / "2026-01-01-box-early")
    about = [line for line in out.splitlines() if ": warning: " in line]
    assert about and all(f"repeat {early}/raw/" in line and not line.startswith(early) for line in about), out
    assert f"{early}: 0 error(s), {len(about)} warning(s); " in err, err


def test_a_file_that_cannot_be_written_is_an_error_not_a_traceback(data, capsys, monkeypatch):
    """A data folder whose campaigns/ is a file ended in FileExistsError's traceback, from
    target.parent.mkdir; any OSError on the way (a full disk, no permission) did the same."""
    import errno
    import os

    from papercuts.cli import main

    (data / "campaigns").write_text("not a folder\n")
    before = digest(data)
    assert main(["import", "mytools", str(LATIN), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN]) == 1
    shown = Paths.make().rel
    assert capsys.readouterr().err == (f"papercuts: error: {shown(data / 'campaigns')}: a file where the data folder's "
                                       "folder of campaigns is expected; move it away and import again; nothing was "
                                       "changed\n")
    (data / "campaigns").unlink()
    before = digest(data)

    def full(a, b, *args, **kw):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(b))
    monkeypatch.setattr(shutil, "copyfile", full)
    assert main(["import", "mytools", str(LATIN), "--data", str(data), "--server", "c8r32",
                 "--campaign", CAMPAIGN]) == 1
    err = capsys.readouterr().err
    assert err == (f"papercuts: error: {shown(data)} (writing the campaign's copy): No space left on device; the "
                   "import stopped there and nothing was changed\n"), err
    assert digest(data) == before and not (data / "campaigns").exists()


def test_engine_is_given_to_the_builds_whose_name_does_not_tell_and_refused_where_none_needs_it(data, tmp_path):
    """--engine made every new build of the archive that engine: a MariaDB build imported beside an
    fbmysql one with --engine myrocks was published as MyRocks. It is for the builds whose name does
    not tell (fbmysql runs InnoDB or MyRocks), and refused, not dropped, where no new build needs it."""
    src = tmp_path / "apr26.pn53.sb.ma.latin"
    shutil.copytree(LATIN, src)
    for f in src.iterdir():  # one MariaDB build of the archive renamed an fbmysql one, in every file
        f.write_text(f.read_text().replace("ma100244_rel_withdbg", "fbmy8032_rel_withdbg"))
    before = digest(data)
    with pytest.raises(UserError, match=r"cannot tell the DBMS, version or engine .* pass --engine for fbmysql"):
        run(src, data)
    assert digest(data) == before
    problems, _ = run(src, data, engine="myrocks")
    assert problems.errors == []
    engines = {r["id"]: (r["dbms"], r["engine"]) for r in csv.DictReader(open(data / "builds.csv"))}
    assert engines["fbmy8032_rel_withdbg"] == ("fbmysql", "myrocks")
    assert engines["ma100230_rel_withdbg"] == engines["ma130000_rel_withdbg"] == ("mariadb", "innodb")
    shutil.rmtree(data / "campaigns" / CAMPAIGN)
    with pytest.raises(UserError) as e:  # every build is in builds.csv now
        run(src, data, engine="innodb")
    assert str(e.value).startswith("--engine innodb: every build of apr26.pn53.sb.ma.latin is in builds.csv already")


def test_engine_for_an_archive_whose_build_names_all_tell_theirs_is_refused(data):
    before = digest(data)
    with pytest.raises(UserError) as e:
        run(LATIN, data, engine="myrocks")
    assert str(e.value).startswith("--engine myrocks: every new build of 2026-04-03-pn53-mariadb-latin1/raw names its "
                                   "engine (ma100230_rel_withdbg: innodb, "), str(e.value)
    assert str(e.value).endswith("; leave --engine out (it is for builds whose name does not tell, such as "
                                 "fbmysql's); nothing was changed")
    assert digest(data) == before


@pytest.mark.parametrize("cores, refused", [(8, False), (48, True)])
def test_an_archive_of_another_machine_than_the_server_named_is_refused(data, tmp_path, cores, refused):
    """--server names the machine the archive ran on: its sysbench outputs say how many CPUs that
    was (mytools' second line, "8 CPUs" in nov25.sb.mysql's, a c8r32 box's). Named as a 48-core
    server, it was imported and published as that server's numbers."""
    src = tmp_path / "dop1"
    shutil.copytree(PROJECT / "tests" / "fixtures" / "raw" / "mytools" / "nov25.sb.mysql" / "dop1", src)
    (data / "servers.csv").write_text(f"id,aliases,cpu_model,cores,smt,source\nbox,c8r32,Test CPU,{cores},off,src\n")
    before = digest(data)
    if not refused:
        problems, _ = run(src, data)
        assert problems.errors == []
        return
    with pytest.raises(UserError) as e:
        run(src, data)
    errors = [p for p in e.value.problems if p.severity == "error"]
    assert [(p.path, p.line, p.column) for p in errors] == [
        (Paths.make().rel(src / "x.my9500_rel_o2nofp.z12a_c8r32.pk1" / "sb.o.point-query.range100.pk1.dop1"), 2, 1)]
    assert errors[0].message.startswith("sysbench ran on a machine with 8 CPUs (its second line says so); "
                                        "server 'box' has 48 cores, SMT off: 48 CPUs"), errors[0]  # c8r32's id
    assert digest(data) == before  # nothing imported
