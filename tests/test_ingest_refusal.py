"""The database's constraints are a backstop behind validate: a value validate let through (a gap
in it) is refused by DuckDB as one line naming the table and the constraint, never a traceback."""
from __future__ import annotations

import duckdb
import pytest

from datadir import write_data
from papercuts.build import validate
from papercuts.ingest.tables import ingest
from papercuts.parsers.numbers import not_a_number, plain
from papercuts.paths import Paths
from papercuts.problems import UserError

CAL = "calibrations/2026-01-02-box-test/"
TOML = ('title = "box"\nserver = "box"\nsource = "src"\ncontributor = "tests"\n'
        'date = 2026-01-02\nmethod = "given rows"\ncores = 8\n')


def test_plain_numbers_are_finite():
    assert plain("1.5") == 1.5 and plain("-2") == -2 and plain("1e3") == 1000
    assert plain("1e400") is None and plain("-1e999") is None and plain("inf") is None
    assert not_a_number("1e400") == "'1e400' is not a finite number"
    assert not_a_number("two") == "'two' is not a number"


@pytest.mark.parametrize("cores, refused", [
    (0, "CHECK((cores >= 1))"),  # a CHECK constraint
    (2**40, "INT64"),  # a value the INTEGER column cannot hold
])
def test_a_value_validate_let_through_is_one_line_naming_table_and_constraint(tmp_path, monkeypatch, cores,
                                                                                refused):
    monkeypatch.chdir(tmp_path)
    data = write_data(tmp_path / "data", {CAL + "calibration.toml": TOML,
                                          CAL + "constants.csv": "name,value,unit\ntsc_ghz,2.5962,GHz\n"})
    ds, problems = validate(Paths.make(data=data))
    assert problems.errors == []
    ds.rows["calibrations"][0]["cores"] = cores  # as if validate had not checked it
    # Closed here: a connection left open was still open when a later test forked workers, and the
    # forked worker died with a segmentation fault (BrokenProcessPool in test_export).
    with duckdb.connect() as con, pytest.raises(UserError) as e:
        ingest(ds, con, None)
    message = str(e.value)
    assert "\n" not in message and "table calibrations" in message and refused in message, message
    assert "validator gap" in message


def test_a_campaign_row_naming_what_no_catalog_holds_is_found_once_loaded():
    """sql/checks/campaign_rows_references.sql stands for the REFERENCES these tables no longer
    declare (so that a build can keep them in a copy of the last database): a row naming a
    campaign or server no catalog holds is Papercuts' bug, said by check_loaded; a null server
    (an observation of no server) names nothing."""
    from papercuts.db import sql_files
    from papercuts.ingest.tables import check_loaded

    with duckdb.connect() as con:
        for path in sql_files("schema"):
            con.execute(path.read_text())
        con.execute("INSERT INTO sources (id, title, author) VALUES ('src', 't', 'a')")
        con.execute("INSERT INTO campaigns (id, title, source, contributor, date, sysbench, file) "
                    "VALUES ('c1', 't', 'src', 'me', DATE '2026-01-02', '1.0', 'f')")
        con.execute("INSERT INTO observations (campaign, measure, subject, value, value_text, unit, server, file, "
                    "line) VALUES ('c1', 'm', 's', 1, '1', 'ms', NULL, 'f', 2)")
        check_loaded(con)
        con.execute("INSERT INTO evidence VALUES ('c2', 'raw/run.sh', 'ab', 1)")
        with pytest.raises(RuntimeError, match=r"campaign_rows_references.sql: \[\('campaign', 'c2'\)\]"):
            check_loaded(con)
        con.execute("DELETE FROM evidence")
        con.execute("UPDATE observations SET server = 'nowhere'")
        with pytest.raises(RuntimeError, match=r"campaign_rows_references.sql: \[\('server', 'nowhere'\)\]"):
            check_loaded(con)
