"""A plain results.csv is held as columns (validate/rowblock.py): exactly the rows, problems and
database that reading it row by row gives; any file that could hold a problem is read row by row."""
from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from papercuts.build import validate
from papercuts.codes import codes_of, count_keys, distinct_codes, keys, places
from papercuts.contract import RESULTS
from papercuts.ingest.tables import ingest
from papercuts.paths import Paths
from papercuts.problems import Problems
from papercuts.synthetic import append_rows, build_row, new_campaign, shipped_with_synthetic_source
from papercuts.validate import load, rowblock
from papercuts.validate.load import load_table

HEADER = "server,build,config,microbenchmark,range,threads,qps,tps"
PLAIN = {
    "lf": f"{HEADER}\ndell32,my8028_rel_o2nofp,z11a_c32r128,point-query,100,1,1234.5,\n"
          "dell32,my8028_rel_o2nofp,z11a_c32r128,point-query,100,8,9876.25,12.5\n",
    "crlf and a BOM": "\ufeff" + f"{HEADER}\r\ndell32,b,c,m,,16,1e3,2\r\ndell32,b,c,m,,32,.5,\r\n",
    "another order, no final newline": "qps,threads,microbenchmark,config,build,server\n7,1,m,c,b,s\n8,2,m,c,b,s",
    "crlf, no final line end": f"{HEADER}\r\ndell32,b,c,m,,16,1e3,2\r\ndell32,b,c,m,,32,.5,",
}
ROW_BY_ROW = {
    "a quoted field": f'{HEADER}\ndell32,b,c,"m",100,1,5,\n',
    "a short line": f"{HEADER}\ndell32,b,c,m,100,1,5\n",
    "a blank line": f"{HEADER}\ndell32,b,c,m,100,1,5,\n\ndell32,b,c,m,100,2,5,\n",
    # the lines are checked over the file's bytes at once (_lines_in_bulk), as csvfile._lines checks them
    "a blank last line": f"{HEADER}\ndell32,b,c,m,100,1,5,\n\n",
    "a blank CRLF line": f"{HEADER}\r\ndell32,b,c,m,100,1,5,\r\n\r\n",
    "a line of spaces last, no line end": f"{HEADER}\ndell32,b,c,m,100,1,5,\n  ",
    "a blank header line": f"\n{HEADER}\ndell32,b,c,m,100,1,5,\n",
    "a lone carriage return": f"{HEADER}\ndell32,b,c,m,100,1,5,\rdell32,b,c,m,100,2,5,\n",
    "CRLF and LF mixed": f"{HEADER}\r\ndell32,b,c,m,100,1,5,\n",
    "a CR before a CRLF": f"{HEADER}\r\ndell32,b,c,m,100,1,5,\r\r\n",
    "a bad number": f"{HEADER}\ndell32,b,c,m,100,1,5;0,\n",
    "an empty qps": f"{HEADER}\ndell32,b,c,m,100,1,,\n",
    "spaces around": f"{HEADER}\ndell32, b,c,m,100,1,5,\n",
    "a formula": f"{HEADER}\ndell32,b,c,=m(),100,1,5,\n",
    "nan": f"{HEADER}\ndell32,b,c,m,100,1,nan,\n",
    "an unknown column": "server,build,config,microbenchmark,threads,qps,speed\ns,b,c,m,1,5,9\n",
    "a header only": f"{HEADER}\n",
    # number columns are checked in Arrow: each bound of the contract sends the file row by row
    "qps over its maximum": f"{HEADER}\ndell32,b,c,m,100,1,2e10,\n",
    "qps not positive": f"{HEADER}\ndell32,b,c,m,100,1,0,\n",
    "threads under its minimum": f"{HEADER}\ndell32,b,c,m,100,0,5,\n",
    "a whole number with a sign": f"{HEADER}\ndell32,b,c,m,+100,1,5,\n",
    "a whole number in other digits": f"{HEADER}\ndell32,b,c,m,\u0661\u0660\u0660,1,5,\n",
    "an invalid id": f"{HEADER}\ndell32,b;x,c,m,100,1,5,\n",
    "a byte-order mark on a data line": f"{HEADER}\n\ufeffdell32,b,c,m,100,1,5,\n",
    "a number past a double's range": f"{HEADER}\ndell32,b,c,m,100,1,1e400,\n",
}


@pytest.mark.parametrize("name", PLAIN)
def test_a_plain_file_as_columns_gives_the_rows_read_row_by_row(name):
    data = PLAIN[name].encode()
    block = rowblock.read_block(data, "x/results.csv", RESULTS, "camp", "/pub/results.csv")
    problems = Problems()
    expected = load_table(data, "x/results.csv", RESULTS, problems, {"campaign": "camp"}, "/pub/results.csv")
    assert block is not None and problems.items == [] and len(expected) == block.n
    assert list(block.rows()) == expected
    assert [list(r) for r in block.rows()] == [list(r) for r in expected]  # the same keys in the same order
    typed = [[(k, type(v), repr(v)) for k, v in r.items()] for r in block.rows()]  # 100 is not 100.0
    assert typed == [[(k, type(v), repr(v)) for k, v in r.items()] for r in expected]


@pytest.mark.parametrize("name", ROW_BY_ROW)
def test_a_file_that_could_hold_a_problem_is_read_row_by_row(name):
    assert rowblock.read_block(ROW_BY_ROW[name].encode(), "x/results.csv", RESULTS, "c", "/p") is None


def _campaign(data, name: str, lines: list[str], toml: str = "") -> None:
    folder = new_campaign(data, name)
    if toml:
        with open(folder / "campaign.toml", "a") as f:
            f.write(toml)
    (folder / "results.csv").write_text("server,build,config,microbenchmark,range,threads,qps\n" + "".join(lines))


BASE = 'base_build = "synb0"\nbase_config = "z11a_c32r128"\n'


def _synthetic_builds(tmp_path, builds: int) -> tuple[Path, list[str]]:
    """The shipped data with SYNTHETIC builds synb0.. beside it, and a results line of point-query
    at 1 and 8 threads for each build on dell32 (the QPS of each its own)."""
    data = tmp_path / "data"
    shipped_with_synthetic_source(data)
    append_rows(data / "builds.csv", [build_row(f"synb{b}", f"8.0.{b}") for b in range(builds)])
    return data, [f"dell32,synb{b},z11a_c32r128,point-query,100,{t},{1000 + 10 * b + t}\n"
                  for b in range(builds) for t in (1, 8)]


def _planted(tmp_path, duplicate: bool, errors: bool = True) -> Paths:
    """The shipped data and SYNTHETIC plain results files with a problem of each kind the checks
    across files find: an unknown build, a campaign copying another's rows, and either a duplicate
    row (an error found as the file is read: the checks that need whole data are skipped) or a
    QPS 1000× its peers and a missing base row; and a server named by its alias. Without errors:
    the alias and the QPS only."""
    data, rows = _synthetic_builds(tmp_path, 4)
    outlier = rows[3] if duplicate else "dell32,synb3,z11a_c32r128,insert,100,1,100000\n"
    _campaign(data, "2026-01-01-synthetic-a", [*rows, "c8r16,synb0,z11a_c32r128,point-query,100,4,700\n",
                                               *["dell32,nosuchbuild,z11a_c32r128,point-query,100,1,5\n"] * errors,
                                               outlier, "dell32,synb0,z11a_c32r128,insert,100,1,100\n",
                                               "dell32,synb1,z11a_c32r128,insert,100,1,101\n"])
    _campaign(data, "2026-01-02-synthetic-b", [*(rows[1:] if errors else rows[:1]),
                                               "dell32,synb0,z11a_c32r128,update-index,100,16,50\n"], BASE)
    _campaign(data, "2026-01-03-synthetic-c", [rows[0], "dell32,synb1,z11a_c32r128,insert,100,8,10\n"][:1 + errors],
              BASE)
    return Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public")


@pytest.fixture(params=[True, False], ids=["a duplicate", "whole"])
def planted(tmp_path, request):
    return _planted(tmp_path, request.param)


def _checked(paths: Paths, monkeypatch, blocks: bool):
    with monkeypatch.context() as m:
        if not blocks:
            m.setattr(load, "read_block", lambda *args: None)
        ds, problems = validate(paths)
    return ds, problems


def test_a_copy_is_found_whatever_file_first_held_its_rows(tmp_path, monkeypatch):
    """validate/checks.py _candidates: only the rows of files that could be copies (two rows or
    more, half their rows or more, whose value another campaign holds) and the rows holding one
    of their values are compared. A file of 10 rows that 2 of another's repeat is no copy itself,
    but its rows are where those 2 were first held: the copy is found, in columns and in rows."""
    data, rows = _synthetic_builds(tmp_path, 5)
    _campaign(data, "2026-01-01-synthetic-a", rows, BASE)
    # the same values as two of a's rows, under another microbenchmark: not repeats of them
    _campaign(data, "2026-01-02-synthetic-b", [r.replace("point-query", "insert") for r in rows[:2]], BASE)
    _campaign(data, "2026-01-03-synthetic-c", rows[:2], BASE)
    paths = Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public")
    for blocks in (True, False):
        _, problems = _checked(paths, monkeypatch, blocks)
        said = [p.render() for p in problems.items if "rows repeat" in p.message and "synthetic" in p.path]
        assert len(said) == 1 and said[0].startswith(
            f"{paths.rel(data / 'campaigns/2026-01-03-synthetic-c/results.csv')}:2:1: error: 2 of 2 rows repeat "
            f"{data}/campaigns/2026-01-01-synthetic-a/results.csv"), said


def test_the_checks_across_files_find_the_same_problems_in_columns_as_in_rows(planted, monkeypatch):
    ds, problems = _checked(planted, monkeypatch, blocks=True)
    held = [p for p in ds.rows["results"].parts() if isinstance(p, rowblock.Block)]
    assert len(held) == 5  # the three SYNTHETIC files and the two shipped plain ones, as columns
    _, by_rows = _checked(planted, monkeypatch, blocks=False)
    assert problems.items == by_rows.items
    said = "\n".join(p.render() for p in problems.items)
    a, b = "2026-01-01-synthetic-a/results.csv", "2026-01-02-synthetic-b/results.csv"
    assert f"{a}:11:8: error: unknown build 'nosuchbuild'" in said
    assert f"{b}:2:1: error: 7 of 8 rows repeat {planted.data}/campaigns/{a}" in said
    if "duplicate row" in said:
        assert f"{a}:12:1: error: duplicate row: same server, build, config, microbenchmark, range, threads, " \
               "repetition as line 5" in said
        assert "the median" not in said and "no result of the base" not in said  # skipped
    else:
        assert f"{a}:12:40: warning: qps 100000 is 995× the median 100.5 of the 2 other results" in said
        c = "2026-01-03-synthetic-c/results.csv"  # the newest on dell32, beside synthetic-b:
        assert f"{c}:2:27: warning: campaign 2026-01-03-synthetic-c lacks 1 microbenchmark(s) that " \
               "2026-01-02-synthetic-b measured on dell32: update-index" in said
        assert f"{c}:2:43: warning: campaign 2026-01-03-synthetic-c uses thread counts [1, 8] where " \
               "2026-01-02-synthetic-b used [1, 8, 16] on dell32" in said
        assert "2026-01-03-synthetic-c/results.csv:3:8: error: no result of the base synb0.z11a_c32r128 " \
               "for dell32, insert at 8 threads" in said


def test_columns_and_rows_load_the_same_database(tmp_path, monkeypatch):
    planted = _planted(tmp_path, duplicate=False, errors=False)
    tables = []
    for blocks in (True, False):
        ds, problems = _checked(planted, monkeypatch, blocks)
        assert not problems.errors
        con = duckdb.connect()
        ingest(ds, con, None)
        tables.append({t: con.execute(f"SELECT * FROM {t}").fetchall() for (t,) in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1").fetchall()})
    assert tables[0] == tables[1]
    results = tables[0]["results"]
    assert sum(r[0] == "2026-01-01-synthetic-a" for r in results) == 12
    assert any(r[0] == "2026-01-01-synthetic-a" and r[1] == "beelink" for r in results)  # c8r16 is beelink's alias


def _as_read(ds) -> tuple:
    """A copy of every row and meta of the dataset, as dicts."""
    return {name: [dict(r) for r in rows] for name, rows in ds.rows.items()}, [dict(m) for m in ds.campaigns]


def test_loading_the_rows_leaves_the_dataset_as_the_checks_read_it(tmp_path, monkeypatch):
    """The build inserts the rows (ingest/tables.py load) on a thread while validate's checks still
    read the dataset (build._Database): a server named by its alias is stored as its id, and each
    build with its version key, with no row, block or meta of the dataset changed. validate hands
    the dataset to the build (`read`) once the aliases are known."""
    from papercuts.ingest import tables as ingest_tables

    planted = _planted(tmp_path, duplicate=False, errors=False)
    handed = []
    ds, _ = validate(planted, read=lambda ds: handed.append(dict(ds.alias_of)))
    assert handed == [ds.alias_of] and ds.alias_of["c8r16"] == "beelink"
    for blocks in (True, False):
        ds, problems = _checked(planted, monkeypatch, blocks)
        assert not problems.errors and ds.alias_of["c8r16"] == "beelink"
        before = _as_read(ds)
        assert ("2026-01-01-synthetic-a", "c8r16") in {(r["campaign"], r["server"]) for r in before[0]["results"]}
        con = duckdb.connect()
        ingest_tables.load(ds, con)
        assert _as_read(ds) == before
        stored = set(con.execute("SELECT campaign, server FROM results").fetchall())
        assert ("2026-01-01-synthetic-a", "beelink") in stored and not {s for _, s in stored} & set(ds.alias_of)
        assert con.execute("SELECT count(*) FROM builds WHERE version_key IS NULL").fetchone() == (0,)


def test_an_unknown_id_reported_at_a_plain_results_file_is_not_reported_again_at_its_profiles():
    from papercuts.validate.checks import check_raw

    data = f"{HEADER}\ndell32,nosuchbuild,z11a_c32r128,point-query,100,1,5,\n".encode()
    ds = load.Dataset()
    ds.rows["results"].add_block(rowblock.read_block(data, "c/results.csv", RESULTS, "c", "/c/results.csv"))
    ds.rows["profiles"] = [{"campaign": "c", "build": b, "config": "z11a_c32r128", "microbenchmark": "point-query",
                            "_file": "c/raw/p", "_line": 1} for b in ("nosuchbuild", "otherbuild")]
    known = {"servers": {"dell32"}, "builds": set(), "configs": {"z11a_c32r128"}, "microbenchmarks": {"point-query"}}
    problems = Problems()
    check_raw(ds, known, problems)
    assert [p.message for p in problems.items] == ["unknown build 'otherbuild' (from the raw file's path)"]


def test_rows_keep_dicts_and_blocks_in_order_and_a_pickled_block_still_places_its_problems():
    import pickle

    data = PLAIN["lf"].encode()
    block = rowblock.read_block(data, "x/results.csv", RESULTS, "camp", "/pub/results.csv")
    first, last = {"qps": 1.0}, {"qps": 2.0}
    rows = rowblock.Rows([first])
    rows.add_block(pickle.loads(pickle.dumps(block)))  # as the campaign cache gives it back
    rows += [last]
    again = rowblock.Rows()
    again.extend(rows)
    expected = [first, *block.rows(), last]
    assert len(again) == 4 and list(again) == expected and again == expected
    assert again[1] == expected[1] and again[-1] is last and again[1:3] == expected[1:3]
    assert [type(p).__name__ for p in again.parts()] == ["list", "Block", "list"]
    # the second data line's fields start at these columns: read again from the unpickled text
    assert again[2]["_cols"] == {"server": 1, "build": 8, "config": 26, "microbenchmark": 39, "range": 51,
                                 "threads": 55, "qps": 57, "tps": 65}


def test_blocks_inserted_together_keep_every_row_in_order_with_its_file_and_line(monkeypatch):
    """Consecutive blocks go to DuckDB in one insert (ingest/tables.py _insert_placed), which ends
    before rows held as dicts; those go CHUNK rows at a time. Every row is inserted once, in file
    order, with the file and line it was read at."""
    from papercuts.ingest import tables as ingest_tables

    monkeypatch.setattr(ingest_tables, "CHUNK", 3)  # blocks of 2 rows: b, c and e go together all the same
    blocks = [rowblock.read_block(f"{HEADER}\ns,b,c,m,,{k},{k}.5,\ns,b,c,m,,{k + 1},{k}.75,\n".encode(),
                                  f"{name}/results.csv", RESULTS, name, f"/p/{name}.csv")
              for name, k in (("a", 1), ("b", 3), ("c", 5), ("e", 7))]
    inserted: list[tuple[str, int]] = []  # blocks as Arrow tables, dict rows as lists
    as_lists, as_arrow = ingest_tables.insert_columns, ingest_tables.insert_arrow
    monkeypatch.setattr(ingest_tables, "insert_columns",
                        lambda con, *a: (inserted.append(("lists", len(a[2][0]))), as_lists(con, *a))[1])
    monkeypatch.setattr(ingest_tables, "insert_arrow",
                        lambda con, *a: (inserted.append(("arrow", a[2].num_rows)), as_arrow(con, *a))[1])
    rows = rowblock.Rows()
    rows.add_block(blocks[0])
    rows += [{"campaign": "d", "server": "s", "build": "b", "config": "c", "microbenchmark": "m", "threads": 9,
              "qps": 9.5, "_published": "/p/d.csv", "_line": 7}]
    rows.add_block(blocks[1])
    rows.add_block(blocks[2])
    rows.add_block(blocks[3])
    con = duckdb.connect()
    con.execute("CREATE TABLE t (campaign VARCHAR, threads INTEGER, qps DOUBLE, file VARCHAR, line INTEGER)")
    ingest_tables._insert_placed(con, "t", ["campaign", "threads", "qps", "file", "line"], rows)
    assert con.execute("SELECT * FROM t").fetchall() == [
        ("a", 1, 1.5, "/p/a.csv", 2), ("a", 2, 1.75, "/p/a.csv", 3), ("d", 9, 9.5, "/p/d.csv", 7),
        ("b", 3, 3.5, "/p/b.csv", 2), ("b", 4, 3.75, "/p/b.csv", 3), ("c", 5, 5.5, "/p/c.csv", 2),
        ("c", 6, 5.75, "/p/c.csv", 3), ("e", 7, 7.5, "/p/e.csv", 2), ("e", 8, 7.75, "/p/e.csv", 3)]
    # a before the dict row, the dict row, then b, c and e together
    assert inserted == [("arrow", 2), ("lists", 1), ("arrow", 6)]


def test_a_whole_number_a_float_cannot_hold_exactly_is_left_to_the_row_by_row_reader():
    """fields._int converts through a float: past 2^53 it is not the number written, so the block
    reader does not decide it (no results column can hold one today: each has a maximum)."""
    import pyarrow as pa

    from papercuts.contract import Column

    unbounded = Column("n", "int")
    assert rowblock.as_list(rowblock._typed(pa.array(["9007199254740991", ""]), unbounded)) == [9007199254740991, None]
    assert rowblock._typed(pa.array(["9007199254740993"]), unbounded) is None


def test_a_column_of_id_lists_is_typed_once_per_distinct_text():
    """Any column that is not a number is typed by fields.convert, once per distinct text, each
    row then given that one value (lists of ids here)."""
    import pyarrow as pa

    from papercuts.contract import Column

    for texts, lists in ((["a;b", "c", "a;b"], [["a", "b"], ["c"], ["a", "b"]]),
                         (["a;b", "c;d", "a;b"], [["a", "b"], ["c", "d"], ["a", "b"]])):  # of one length
        typed = rowblock._typed(pa.array(texts), Column("x", "ids"))
        assert typed == lists and typed[0] is typed[2]


def test_a_row_that_repeats_one_read_before_it_in_the_campaign_is_a_duplicate_whichever_came_first():
    """validate/duplicates.py takes a plain file's keys in one set operation when they all differ
    from each other and from the rows read before it; a key met before (a raw output's result read
    first) still sends it through row by row."""
    from papercuts.validate.duplicates import check_duplicates

    text = ("server,build,config,microbenchmark,range,threads,qps\n"
            "dell32,b1,c1,point-query,100,1,10\ndell32,b2,c1,point-query,100,1,11\n")
    block = rowblock.read_block(text.encode(), "c/results.csv", RESULTS, "c", "/p")
    raw = {**{k: block.row(1)[k] for k in RESULTS.key}, "qps": 11.0, "campaign": "c", "_file": "c/raw/run.txt",
           "_line": 7, "_cols": {}}
    for first, second, where, before in (([raw], block, "c/results.csv:3:1", 7),
                                         (block, [raw], "c/raw/run.txt:7:1", 3)):
        rows, problems = rowblock.Rows(), Problems()
        rows.extend(first)
        rows.extend(second)
        check_duplicates({"results": rows}, problems)
        assert [p.render() for p in problems.items] == [
            f"{where}: error: duplicate row: same {', '.join(RESULTS.key)} as line {before} "
            "(remove one, or number them with a repetition column)"]
    rows, problems = rowblock.Rows(), Problems()
    rows.extend(block)
    check_duplicates({"results": rows}, problems)
    assert problems.items == []


def test_only_rows_whose_number_another_campaign_holds_are_compared_for_copies():
    """checks._candidates: a copy holds its original's qps, so rows are compared by their whole key
    only where another campaign has the same qps (1 and 1.0 are one number), and only for a file
    that could be a copy (two rows or more, half its rows or more, so held); a qps repeated within
    one campaign is not a candidate. None: no file could be a copy."""
    from papercuts.validate.checks import _candidates

    def row(campaign: str, qps: float, file: str = "") -> dict:
        return {"campaign": campaign, "qps": qps, "_file": file or f"{campaign}.csv"}

    held = [[row("a", 1.0), row("a", 2.0), row("a", 2.0)], [row("b", 1), row("b", 3.0), row("c", 3.0)]]
    # b.csv could be a copy (its 2 rows' numbers are held by a and c): the rows of those numbers
    assert [m.tolist() for m in _candidates(held, "qps")] == [[True, False, False], [True, True, True]]
    assert _candidates(held, None) == [None, None]
    held[1][1] = row("b", 4.0)  # b.csv: 1 of its 2 rows held by another campaign, as a.csv and c.csv
    assert _candidates(held, "qps") is None


def test_candidates_are_the_rows_holding_a_number_of_a_file_that_could_be_a_copy_whatever_the_order():
    """checks._candidates sorts by the number alone (not by number and campaign): on shuffled rows
    with many ties, -0.0 and 0.0 as one number, a row is marked exactly when it holds a number that
    two campaigns or more hold, and that a row of a file holds of which two rows or more, and half
    or more, hold such numbers."""
    import random

    from papercuts.validate.checks import _candidates

    for seed in range(300):
        rnd = random.Random(seed)
        held = [[{"campaign": (c := rnd.choice("abcd")), "_file": c + rnd.choice("xy"),
                  "qps": rnd.choice([0.0, -0.0, 0.5, 2.0, float(rnd.randint(1, 9))])}
                 for _ in range(rnd.randint(0, 12))] for _ in range(rnd.randint(1, 4))]
        rows = [r for part in held for r in part]
        held_by: dict[float, set[str]] = {}
        for r in rows:
            held_by.setdefault(r["qps"], set()).add(r["campaign"])
        shared = [r for r in rows if len(held_by[r["qps"]]) >= 2]
        files = {r["_file"] for r in rows}
        copies = {f for f in files if (n := sum(r["_file"] == f for r in shared)) >= 2
                  and 2 * n >= sum(r["_file"] == f for r in rows)}
        numbers = {r["qps"] for r in shared if r["_file"] in copies}
        got = _candidates(held, "qps")
        if not numbers:
            assert got is None, seed
        else:
            assert [m.tolist() for m in got] == [[r["qps"] in numbers for r in part] for part in held], seed


def test_distinct_sees_a_repeated_key_across_a_block_and_rows_held_as_dicts():
    """duplicates.distinct, the set before the loop that names repeated rows: a key in a block and
    again in a row held as a dict is one repeat; other keys, or none, are distinct."""
    from papercuts.validate.duplicates import distinct

    block = rowblock.read_block(f"{HEADER}\ns,b,c,m,,1,1.5,\ns,b,c,m,,8,7.5,\n".encode(),
                                "x/results.csv", RESULTS, "x", "/p/x.csv")
    rows = rowblock.Rows()
    rows.add_block(block)
    rows.append({"campaign": "x", "server": "s", "build": "b", "config": "c", "microbenchmark": "m",
                 "range": None, "threads": 8, "qps": 9.5})
    assert not distinct(rows, ("build", "microbenchmark", "range", "threads"))
    assert distinct(rows, ("build", "microbenchmark", "range", "threads", "qps"))
    assert distinct([], ("build",))


def test_a_text_column_is_held_as_a_dictionary_of_its_distinct_texts():
    """validate/rowblock.py: a text column is typed once per distinct text and held as an Arrow
    dictionary, which ingest hands to DuckDB; as a list, a repeated text is one object."""
    import pyarrow as pa

    from papercuts.contract import Column

    typed = rowblock._typed(pa.array(["b2", "b1", "b2"]), Column("build", "id"))
    assert isinstance(typed, pa.DictionaryArray) and typed.dictionary.to_pylist() == ["b2", "b1"]
    texts = rowblock.as_list(typed)
    assert texts == ["b2", "b1", "b2"] and texts[0] is texts[2]


def test_a_block_column_arrow_cannot_cast_to_its_table_type_is_inserted_as_python_values():
    """ingest _insert_placed: a block's columns go to DuckDB as Arrow, each cast to its table
    column's type; a column that cannot be (a list per row, into text) goes as Python values, as
    the rows held as dicts do: the same rows either way."""
    from papercuts.ingest import tables as ingest_tables

    block = rowblock.read_block(f"{HEADER}\ns,b,c,m,,1,1.5,\ns,b,c,m,,8,7.5,\n".encode(),
                                "x/results.csv", RESULTS, "x", "/p/x.csv")
    block.replace("config", [["c", "d"], ["e"]])
    columns = ["campaign", "config", "threads", "file", "line"]
    held = rowblock.Rows()
    held.add_block(block)
    found = []
    for rows in (held, list(block.rows())):
        con = duckdb.connect()
        con.execute("CREATE TABLE t (campaign VARCHAR, config VARCHAR, threads INTEGER, file VARCHAR, line INTEGER)")
        ingest_tables._insert_placed(con, "t", columns, rows)
        found.append(con.execute("SELECT * FROM t").fetchall())
    assert found[0] == found[1] == [("x", "[c, d]", 1, "/p/x.csv", 2), ("x", "[e]", 8, "/p/x.csv", 3)]


def test_keys_number_rows_by_their_first_row_and_read_each_key_off_it():
    """codes.keys: the distinct keys of several columns' codes, in the order of their first row,
    each row's key as its place there; columns whose values multiply past 64 bits are renumbered
    on the way (a range stands for a column of 2**40 distinct values)."""
    import numpy as np

    rows = [("s", None, 4), ("t", 100, 1), ("s", None, 4), ("s", 100, 4), ("t", 100, 1)]
    columns = []
    for k in range(3):
        seen = {}
        codes = np.array([seen.setdefault(r[k], len(seen)) for r in rows], dtype=np.int64)
        columns.append((codes, list(seen)))
    at, found = keys(columns)
    assert found == [("s", None, 4), ("t", 100, 1), ("s", 100, 4)]
    assert at.tolist() == [0, 1, 0, 2, 1] and count_keys(columns) == 3
    place, first = places(columns)  # keys' places with no tuple, and each key's first row
    assert place.tolist() == at.tolist() and first.tolist() == [0, 1, 3]

    big = [(np.array(codes, dtype=np.int64), range(2**40)) for codes in ([1, 2, 1, 3], [5] * 4, [7] * 4)]
    at, found = keys(big)  # unrenumbered, 1 and 2 would be lost past 64 bits: one key
    assert found == [(1, 5, 7), (2, 5, 7), (3, 5, 7)] and at.tolist() == [0, 1, 0, 2]
    assert [v.tolist() for v in places(big)] == [[0, 1, 0, 2], [0, 1, 3]]


def test_a_block_alone_with_a_repeated_key_is_not_distinct_and_equal_values_are_one_code():
    """duplicates.distinct counts a lone block's keys through its columns' codes; two texts that
    convert to one value (distinct_codes) are one code, so a repeat through them is still seen."""
    import numpy as np

    from papercuts.validate.duplicates import distinct

    text = f"{HEADER}\ns,b,c,m,,1,1.5,\ns,b,c,m,,8,7.5,\ns,b,c,m,,1,2.5,\n"
    rows = rowblock.Rows()
    rows.add_block(rowblock.read_block(text.encode(), "x/results.csv", RESULTS, "x", "/p/x.csv"))
    assert not distinct(rows, ("server", "build", "microbenchmark", "range", "threads"))
    assert distinct(rows, ("server", "build", "microbenchmark", "range", "threads", "qps"))
    at, values = distinct_codes(np.array([0, 1, 2, 1]), ["a", "A", "a"])
    assert values == ["a", "A"] and at.tolist() == [0, 1, 0, 1]


def test_codes_of_numbers_every_chunk_against_one_list_and_a_null_as_a_value_of_its_own():
    """codes.codes_of, a column's codes for keys() (validate's blocks, the explorer's QPS rows):
    chunks share one list of values, and a null (a test without a range) is a value."""
    import pyarrow as pa

    at, values = codes_of(pa.chunked_array([[100, None], [None, 10, 100]]))
    assert values == [100, None, 10] and at.tolist() == [0, 1, 1, 2, 0]
    at, values = codes_of(pa.array(["b", "a", "b"]).dictionary_encode())
    assert values == ["b", "a"] and at.tolist() == [0, 1, 0]


def test_a_whole_number_is_what_fields_takes_for_one():
    """Arrow's ascii_is_decimal stands for fields._INT in read_block: the same texts pass."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from papercuts.validate.fields import _INT

    texts = ["12", "007", "", "+1", "-1", "1 ", " 1", "0x1", "1e3", "1.0", "\u0661", "\uff11", "1\u0660", "\u00b2"]
    assert pc.ascii_is_decimal(pa.array(texts)).to_pylist() == [bool(_INT.fullmatch(t)) for t in texts]
