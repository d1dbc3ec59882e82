"""The data contract: each defect gives one precise problem at file:line:column, with a hint."""
from __future__ import annotations

import pytest

from datadir import FILES, database, write_data
from papercuts.build import validate
from papercuts.paths import Paths

RESULTS = "campaigns/2026-01-02-test/results.csv"
TOML = "campaigns/2026-01-02-test/campaign.toml"
HEADER = "server,build,config,microbenchmark,range,threads,qps\n"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Problems name files relative to the working directory, as a contributor types them."""
    monkeypatch.chdir(tmp_path)


def problems_for(tmp_path, changes):
    data = write_data(tmp_path / "data", changes)
    _, problems = validate(Paths.make(data=data))
    return [p.render() for p in problems.sorted()]


def test_the_valid_folder_has_no_problems(tmp_path):
    assert problems_for(tmp_path, {}) == []


@pytest.mark.parametrize("name, changes, expected", [
    ("unknown server", {RESULTS: HEADER + "bx,my8028,cfg,point-query,100,1,1000\n"},
     f"data/{RESULTS}:2:1: error: unknown server 'bx' (did you mean 'box'?)"),
    ("unknown build", {RESULTS: HEADER + "box,my8082,cfg,point-query,100,1,1000\n"},
     f"data/{RESULTS}:2:5: error: unknown build 'my8082' (did you mean 'my8028'?)"),
    ("unknown microbenchmark", {RESULTS: HEADER + "box,my8028,cfg,point-querry,100,1,1000\n"},
     f"data/{RESULTS}:2:16: error: unknown microbenchmark 'point-querry' (did you mean 'point-query'?)"),
    ("non-numeric qps", {RESULTS: HEADER + "box,my8028,cfg,point-query,100,1,fast\n"},
     f"data/{RESULTS}:2:34: error: 'fast' is not a number (write qps as a plain number like 1234.5)"),
    ("zero qps", {RESULTS: HEADER + "box,my8028,cfg,point-query,100,1,0\n"},
     f"data/{RESULTS}:2:34: error: qps must be greater than 0, got 0 "
     "(drop the row if the run failed; the column cannot be empty)"),
    ("negative qps", {RESULTS: HEADER + "box,my8028,cfg,point-query,100,1,-5\n"},
     f"data/{RESULTS}:2:34: error: qps must be greater than 0, got -5 "
     "(drop the row if the run failed; the column cannot be empty)"),
    ("nan qps", {RESULTS: HEADER + "box,my8028,cfg,point-query,100,1,NaN\n"},
     f"data/{RESULTS}:2:34: error: 'NaN' is not a finite number "
     "(drop the row if the run failed; the column cannot be empty)"),
    ("decimal comma", {RESULTS: HEADER + 'box,my8028,cfg,point-query,100,1,"1000,5"\n'},
     f"data/{RESULTS}:2:34: error: '1000,5' uses a decimal comma (write numbers with a decimal dot)"),
    ("duplicate row", {RESULTS: HEADER + "box,my8028,cfg,scan,,1,10\nbox,my8028,cfg,scan,,1,11\n"},
     f"data/{RESULTS}:3:1: error: duplicate row: same server, build, config, microbenchmark, range, "
     "threads, repetition as line 2 (remove one, or number them with a repetition column)"),
    ("missing column", {RESULTS: "server,build,config,microbenchmark,threads\nbox,my8028,cfg,scan,1\n"},
     f"data/{RESULTS}:1:1: error: required column 'qps' is missing "
     "(add a 'qps' column; data/README.md lists each file's columns)"),
    ("unknown column", {RESULTS: HEADER.strip() + ",qsp\nbox,my8028,cfg,scan,,1,10,1\n"},
     f"data/{RESULTS}:1:54: error: unknown column 'qsp' (did you mean 'qps'?)"),
    ("semicolons", {RESULTS: HEADER.replace(",", ";") + "box;my8028;cfg;scan;;1;10\n"},
     f"data/{RESULTS}:1:1: error: header is separated by semicolons (use commas as the delimiter)"),
    ("byte-order mark is read past, not taken for the header", {RESULTS: b"\xef\xbb\xbf" + HEADER.encode()},
     f"data/{RESULTS}:1:1: error: file has a header but no rows (add rows or remove the file)"),
    ("extra field", {RESULTS: HEADER + "box,my8028,cfg,scan,,1,10,oops\n"},
     f"data/{RESULTS}:2:27: error: 8 fields where the header has 7 "
     "(quote fields that contain commas; one value per column)"),
    ("header only", {RESULTS: HEADER},
     f"data/{RESULTS}:1:1: error: file has a header but no rows (add rows or remove the file)"),
    ("bad version", {"builds.csv": FILES["builds.csv"] + "myx,mysql,innodb,eight,src\n"},
     "data/builds.csv:5:18: error: 'eight' is not a version "
     "(write a dotted release such as 8.0.28 or 18beta1)"),
    ("date disagrees with folder", {TOML: FILES[TOML].replace("2026-01-02", "2026-01-03")},
     "data/campaigns/2026-01-02-test/campaign.toml:4:8: error: date 2026-01-03 disagrees with "
     "the folder name's 2026-01-02 (make them the same date: rename the folder to 2026-01-03-test, "
     "or write date = 2026-01-02)"),
    ("campaign date not on the calendar", {TOML: FILES[TOML].replace("date = 2026-01-02", 'date = "2026-01-32"')},
     "data/campaigns/2026-01-02-test/campaign.toml:4:8: error: date must be a calendar date, not '2026-01-32' "
     "(write it as YYYY-MM-DD, e.g. date = 2024-10-23)"),
    ("folder date not on the calendar",
     {TOML: None, RESULTS: None,
      "campaigns/2026-02-30-test/campaign.toml": FILES[TOML].replace("2026-01-02", "2026-02-30"),
      "campaigns/2026-02-30-test/results.csv": FILES[RESULTS]},
     "data/campaigns/2026-02-30-test:1:1: error: campaign folder name '2026-02-30-test' starts with 2026-02-30, "
     "not a calendar date (rename the folder to the campaign's date, YYYY-MM-DD, then its name)"),
    # a ladder's series "scan range 100" is scan at range 100: two series would have one name
    ("a microbenchmark named as a series", {"microbenchmarks.csv": FILES["microbenchmarks.csv"]
                                            + "scan range 100,range,krows/s,a scan,src\n"},
     "data/microbenchmarks.csv:5:1: error: microbenchmark 'scan range 100' would read as 'scan' at range 100: "
     "a ladder's series and a known regression name a range that way (rename it without the trailing "
     "' range N'; a range belongs in results.csv's range column)"),
])
def test_one_defect_one_problem(tmp_path, name, changes, expected):
    assert problems_for(tmp_path, changes) == [expected]


def test_an_empty_catalog_is_told_to_get_rows_not_to_go(tmp_path):
    """"add rows or remove the file" is a campaign file's way out; a catalog removed is "missing"
    (helper-57: a new data folder's builds.csv and configs.csv are header only until an import)."""
    got = problems_for(tmp_path, {"configs.csv": FILES["configs.csv"].split("\n", 1)[0] + "\n"})
    assert ("data/configs.csv:1:1: error: file has a header but no rows (add its rows (data/README.md has its "
            "columns; papercuts import mytools adds builds and configs): every data folder needs the five catalog "
            "files)") in got
    assert not any("remove the file" in g for g in got)


def test_a_data_folder_that_is_a_file_is_told_so(tmp_path):
    (tmp_path / "data").write_text("")
    _, problems = validate(Paths.make(data=tmp_path / "data"))
    assert [p.render() for p in problems.sorted()] == [
        f"{Paths.make(data=tmp_path / 'data').rel(tmp_path / 'data')}:1:1: error: is a file, not a data folder "
        "(pass --data DIR pointing at a Papercuts data folder)"]


def test_a_named_base_must_be_measured(tmp_path):
    toml = FILES["campaigns/2026-01-02-test/campaign.toml"] + 'base_build = "my8009"\nbase_config = "cfg"\n'
    got = problems_for(tmp_path, {"campaigns/2026-01-02-test/campaign.toml": toml})
    assert got[0] == (f"data/{RESULTS}:2:5: error: no result of the base my8009.cfg for box, point-query "
                      "at 1 thread (add the base's row, or name another base with base_build and base_config)")
    assert len(got) == 2  # one per comparison (point-query, update-index), not one per row


def test_every_problem_is_reported_not_only_the_first(tmp_path):
    rows = HEADER + "bx,my8028,cfg,scan,,1,10\nbox,my8028,cfg,scan,,zero,10\nbox,my8028,cfg,scan,,1,-1\n"
    got = problems_for(tmp_path, {RESULTS: rows})
    assert [g.split(":")[1] for g in got] == ["2", "3", "4"]


def test_server_aliases_resolve_to_the_server(tmp_path):
    rows = HEADER + "c8r32,my8028,cfg,scan,,1,10\n"
    data = write_data(tmp_path / "data", {RESULTS: rows})
    ds, problems = validate(Paths.make(data=data))
    assert problems.items == []
    assert ds.rows["results"][0]["server"] == "c8r32"  # validation reports, it does not rewrite
    assert database(data).execute("SELECT DISTINCT server FROM results").fetchall() == [("box",)]


def test_symlinks_are_refused(tmp_path):
    data = write_data(tmp_path / "data")
    (data / "campaigns/2026-01-02-test/relative.csv").symlink_to("/etc/passwd")
    _, problems = validate(Paths.make(data=data))
    assert [p.render() for p in problems.sorted()] == [
        "data/campaigns/2026-01-02-test/relative.csv:1:1: error: not a regular file "
        "(commit a regular file, not a link or folder)"]


def test_qps_an_order_of_magnitude_off_is_a_warning(tmp_path):
    rows = HEADER + "".join(f"box,{b},cfg,scan,,1,{q}\n" for b, q in
                            (("my8028", 100), ("my8040", 110), ("my8009", 105)))
    rows += "box,my8040,cfg_spin5,scan,,1,10500000\n"
    got = problems_for(tmp_path, {RESULTS: rows})
    assert got == [f"data/{RESULTS}:5:30: warning: qps 1.05e+07 is 1e+05× the median 105 of the 3 other "
                   "results for this campaign, server, DBMS, microbenchmark and thread count "
                   "(check the decimal point and the unit: queries vs transactions, rows vs Krows)"]


def test_a_newer_campaign_that_does_not_fit_its_peers_is_a_warning(tmp_path):
    newer = "campaigns/2026-02-01-newer/"
    got = problems_for(tmp_path, {
        newer + "campaign.toml": FILES["campaigns/2026-01-02-test/campaign.toml"].replace("2026-01-02", "2026-02-01"),
        newer + "results.csv": HEADER + "box,my8028,cfg,point-query,100,2,1000\nbox,my8040,cfg,point-query,100,2,990\n",
    })
    assert got == [
        "data/campaigns/2026-02-01-newer/results.csv:2:16: warning: campaign 2026-02-01-newer lacks 1 "
        "microbenchmark(s) that 2026-01-02-test measured on box: update-index "
        "(add them, or say why in campaign.toml notes)",
        "data/campaigns/2026-02-01-newer/results.csv:2:32: warning: campaign 2026-02-01-newer uses "
        "thread counts [2] where 2026-01-02-test used [1] on box (say why in campaign.toml notes)",
    ]


def test_warnings_do_not_fail_check(tmp_path):
    rows = HEADER + "box,my8028,cfg,scan,,1,100\nbox,my8040,cfg,scan,,1,100\n"
    relative = ("server,threads,base_build,base_config,build,config,microbenchmark,rqps\n"
                "box,1,my8028,cfg,my8040,cfg,scan,56\n")
    data = write_data(tmp_path / "data", {RESULTS: rows, "campaigns/2026-01-02-test/relative.csv": relative})
    from papercuts.cli import main
    assert main(["check", "--data", str(data)]) == 0


def test_github_annotations(tmp_path, capsys):
    data = write_data(tmp_path / "data", {RESULTS: HEADER + "bx,my8028,cfg,scan,,1,10\n"})
    from papercuts.cli import main
    assert main(["check", "--data", str(data), "--format", "github"]) == 1
    assert capsys.readouterr().out == (
        f"::error file=data/{RESULTS},line=2,col=1::unknown server 'bx' (did you mean 'box'?)\n")


def test_github_annotations_escape_every_field():
    from papercuts.problems import Problem
    name = "raw/x\n::warning file=README.md,line=1::INJECTED\ny:z%.txt"
    line = Problem(name, 3, 1, "error", "bad\nvalue 100%", "fix it").github()
    assert line.count("\n") == 0 and line.count("::") == 2
    assert line == ("::error file=raw/x%0A%3A%3Awarning file=README.md%2Cline=1%3A%3AINJECTED%0Ay%3Az%25.txt,"
                    "line=3,col=1::bad%0Avalue 100%25 (fix it)")


def test_a_problems_text_reaches_a_terminal_and_a_ci_log_as_printable_text(capsys, monkeypatch):
    """A message quotes a contributed file's text (a row of o.met, a name): terminal escape codes in
    it (ESC ]0; sets the window's title, ESC [2J clears the screen) are written as Python writes
    them, in the line papercuts check prints, in its GitHub annotation and in the CLI's error."""
    from papercuts import cli
    from papercuts.problems import Problem, UserError
    hostile = "'\x1b]0;PWN\x07\x1b[2Jgarbage' is not a number"
    p = Problem("raw/o.met", 4, 1, "error", hostile, "fix \x1b[31mit")
    assert p.render() == "raw/o.met:4:1: error: '\\x1b]0;PWN\\x07\\x1b[2Jgarbage' is not a number (fix \\x1b[31mit)"
    assert "\x1b" not in p.github() and "\\x1b]0;PWN\\x07" in p.github()

    def fail(args):
        raise UserError("import of x\x1b[2J failed\nsecond line", [p])
    args = cli.parser().parse_args(["check"])
    args.func = fail  # the command, failing with a name that quotes escape codes
    monkeypatch.setattr(cli, "parser", lambda: type("P", (), {"parse_args": lambda self, argv: args})())
    assert cli.main([]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert err.splitlines() == [p.render(), "papercuts: error: import of x\\x1b[2J failed", "second line"]


def test_known_regressions_are_checked_at_their_line(tmp_path):
    from datadir import write_data
    from papercuts.build import validate
    from papercuts.paths import Paths

    head = 'title = "t"\nsource = "src"\ndbms = "mysql"\nintroduced = "8.0.30"\nexplanation = "e"\n'
    data = write_data(tmp_path / "data", {
        "known/bad-types.toml": head + 'status = "maybe"\nbugs = ["javascript:alert(1)"]\n',
        "known/bad-name.toml": head + 'status = "open"\nmicrobenchmarks = ["update-indx"]\n'})
    _, problems = validate(Paths.make(data=data))
    found = sorted((p.path.rsplit("/", 1)[1], p.line, p.message) for p in problems.errors)
    assert found == [("bad-name.toml", 7, "unknown microbenchmark 'update-indx'"),
                     ("bad-types.toml", 6, "status is not valid"), ("bad-types.toml", 7, "bugs is not valid")]


def test_a_known_regression_links_an_investigation_page_that_exists_and_bug_links_as_written(tmp_path):
    """Its investigation is a page's name (never a path out of /investigations/), of a page there;
    its bug links hold no quote or angle bracket (escaped on the pages, but not an address)."""
    from datadir import write_data
    from papercuts.build import validate
    from papercuts.paths import Paths

    head = ('title = "t"\nsource = "src"\ndbms = "mysql"\nintroduced = "8.0.30"\nexplanation = "e"\n'
            'status = "open"\n')
    data = write_data(tmp_path / "data", {
        "known/gone.toml": head + 'investigation = "no-such-page"\n',
        "known/here.toml": head + 'investigation = "real-page"\n',
        "known/path.toml": head + 'investigation = "../../campaigns/x"\n',
        "known/quote.toml": head + 'bugs = ["https://bugs.example/1\\"onmouseover=\\"x"]\n'})
    content = tmp_path / "content"
    (content / "investigations").mkdir(parents=True)
    (content / "investigations" / "real-page.md").write_text("---\ntitle: A page\n---\nText.\n")
    _, problems = validate(Paths.make(data=data, content=content))
    found = sorted((p.path.rsplit("/", 1)[1], p.line, p.column, p.message) for p in problems.errors
                   if "/known/" in p.path)  # (the page itself, a stub, has problems of its own)
    assert found == [("gone.toml", 7, 17, "investigation 'no-such-page' is not a page of "
                      f"{Paths.make(data=data, content=content).rel(content / 'investigations')}/"),
                     ("path.toml", 7, 17, "investigation is not valid"),
                     ("quote.toml", 7, 8, "bugs is not valid")]
