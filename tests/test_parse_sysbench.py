"""sysbench parser: real outputs of 0.5, 1.0.20 and 1.1 (tests/fixtures/raw/README.md says where
each comes from), expected values read off the files by hand, and the format's traps."""
from __future__ import annotations

from pathlib import Path

import pytest

from papercuts.parsers import sysbench
from papercuts.parsers.errors import Gap, ParseError

RAW = Path(__file__).parent / "fixtures" / "raw"


def run(name: str) -> sysbench.SysbenchRun:
    path = RAW / "sysbench" / name
    result = sysbench.parse(path.read_text(), str(path))
    assert isinstance(result, sysbench.SysbenchRun)
    return result


def test_oltp_point_select_1_0():
    r = run("sb-1.0-oltp_point_select.txt")
    assert (r.version, r.threads, r.command, r.test) == ("1.0.20", 2, None, None)
    f = r.final
    assert (f.reads, f.writes, f.other, f.queries_total) == (310897, 0, 0, 310897)
    assert (f.transactions, f.tps, f.queries, f.qps) == (310897, 62166.08, 310897, 62166.08)
    assert (f.ignored_errors, f.reconnects, f.total_time_s, f.events) == (0, 0, 5.0005, 310897)
    assert (f.latency_min_ms, f.latency_avg_ms, f.latency_max_ms, f.latency_sum_ms) == (0.02, 0.03, 9.37, 9925.1)
    assert f.percentiles == ((95.0, 0.06),)
    assert r.qps == 62166.08 and r.checkpoints == () and r.intervals == ()


def test_report_interval_lines_and_a_99th_percentile():
    r = run("sb-1.0-oltp_read_write-report-interval.txt")
    assert [i.time_s for i in r.intervals] == [2.0, 4.0, 6.0]
    first = r.intervals[0]
    assert (first.threads, first.tps, first.qps) == (2, 817.63, 16363.57)
    assert (first.reads_per_s, first.writes_per_s, first.other_per_s) == (11456.80, 3270.52, 1636.26)
    assert (first.latency_pct, first.latency_ms, first.errors_per_s, first.reconnects_per_s) == (99.0, 4.41, 0.0, 0.0)
    assert r.final.percentiles == ((99.0, 4.91),)
    assert r.qps == 15185.92  # the final report, not an interval line


def test_checkpoint_reports_count_their_own_interval_only():
    r = run("sb-1.0-oltp_read_only-checkpoints.txt")
    assert [c.checkpoint_s for c in r.checkpoints] == [2.0, 4.0]
    assert [c.queries_total for c in r.checkpoints] == [30425, 17034]
    assert r.final.qps == 8536.94  # what a naive `grep queries:` takes: the last 2 s only
    assert r.final.total_time_s == 6.0016  # cumulative
    assert r.qps == pytest.approx((30425 + 17034 + 17085) / 6.0016)
    assert r.tps == pytest.approx((1901 + 1065 + 1068) / 6.0016)


def test_sysbench_1_1_throughput_section_and_explain_text():
    path = RAW / "mytools/nov25.sb.mysql/dop1/x.my9500_rel_o2nofp.z12a_c8r32.pk1/sb.o.point-query.range100.pk1.dop1"
    r = sysbench.parse(path.read_text(), str(path))
    assert (r.version, r.threads, r.cpus, r.test) == ("1.1.0-3ceba0b", 1, 8, "oltp_point_select")
    assert r.command.startswith("LUA_PATH=")
    assert (r.final.total_time_s, r.final.events_per_s, r.final.events) == (600.0003, 16015.8245, 9609498)
    assert r.qps == 16015.82 and r.final.tps == 16015.82
    assert r.explain[0] == "explain: for point_selects :: explain SELECT c FROM sbtest%u WHERE id=%u"
    assert r.explain[-1] == "\t-> Rows fetched before execution  (cost=0..0 rows=1)"


def test_sysbench_0_5_has_no_queries_line_and_ms_suffixes():
    r = run("hgxl64-0.5-ro-4-excerpt.txt")
    assert (r.version, r.threads) == ("0.5", 4)
    f = r.final
    assert f.qps is None and (f.rw_requests_per_s, f.other_operations_per_s) == (12430.43, 1775.78)
    assert r.qps == pytest.approx(12430.43 + 1775.78)
    assert (f.tps, f.deadlocks, f.total_time_s, f.latency_min_ms, f.latency_max_ms) == (
        887.89, 0, 602.0051, 2.48, 27.08)
    assert f.percentiles == ((99.0, 5.49),)  # "approx.  99 percentile:"
    i = r.intervals[0]
    assert (i.time_s, i.threads, i.tps, i.reads_per_s, i.latency_ms, i.latency_pct) == (
        5.0, 4, 840.91, 11779.38, 7.12, 99.0)


@pytest.mark.parametrize("name, field, value", [
    ("sb-1.0-cpu.txt", "events_per_s", 4443.66),
    ("sb-1.0-memory.txt", "operations_per_s", 7031152.10),
    ("sb-1.0-memory.txt", "mib_per_s", 6866.36),
    ("sb-1.0-mutex.txt", "events", 2),
])
def test_non_oltp_tests(name, field, value):
    r = run(name)
    assert getattr(r.final, field) == value
    assert r.final.qps is None and r.qps is None


def test_a_percentile_may_exceed_max_and_is_kept_as_printed():
    f = run("sb-1.0-mutex.txt").final
    assert f.latency_max_ms == 172.28 and f.percentiles == ((95.0, 173.58),)


def test_percentile_disabled_and_histogram_and_event_limit():
    assert run("sb-1.0-percentile-off.txt").final.percentiles == ()
    r = run("sb-1.0-histogram-events.txt")
    assert r.histogram[0] == (0.176, 1) and sum(c for _, c in r.histogram) == 500
    assert r.final.events == 500 and r.final.writes == 500


def test_wrapper_command_line_names_the_test():
    text = "sysbench oltp_update_index --tables=4 --threads=2 --time=25 run\n2 CPUs\n" + \
        (RAW / "sysbench/sb-1.0-oltp_point_select.txt").read_text()
    r = sysbench.parse(text)
    assert (r.test, r.cpus, r.qps) == ("oltp_update_index", 2, 62166.08)


def test_lua_report_default_writes_err_s_without_colon():
    text = (RAW / "sysbench/sb-1.0-oltp_point_select.txt").read_text().replace(
        "Threads started!\n", "Threads started!\n[ 1s ] thds: 2 tps: 240.11 qps: 4815.22 "
        "(r/w/o: 3372.55/960.45/482.22) lat (ms,99%): 30.81 err/s 0.00 reconn/s 0.00\n")
    (i,) = sysbench.parse(text).intervals
    assert (i.qps, i.errors_per_s, i.reconnects_per_s) == (4815.22, 0.0, 0.0)


def test_a_narrow_gap_before_the_rate():
    text = (RAW / "sysbench/sb-1.0-oltp_point_select.txt").read_text().replace(
        "transactions:                        310897 (62166.08", "transactions:  113534(22694.65")
    assert sysbench.parse(text).final.transactions == 113534


def test_empty_text_is_a_gap():
    assert sysbench.parse("  \n", "sb.o.x") == Gap("sb.o.x", "empty")


def test_a_run_that_died_is_an_error_with_the_fatal_line():
    text = ("sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\nThreads started!\n\n"
            "FATAL: mysql_stmt_execute() returned error 2013 (Lost connection to MySQL server during query)\n")
    with pytest.raises(ParseError) as e:
        sysbench.parse(text, "sb.o.t")
    assert e.value.line == 5
    assert "Lost connection" in str(e.value)
    assert e.value.problems[0].render().startswith("sb.o.t:5:1: error: no final statistics")


def test_a_malformed_value_names_its_line():
    text = (RAW / "sysbench/sb-1.0-oltp_point_select.txt").read_text().replace(
        "total number of events:              310897", "total number of events:              lots")
    with pytest.raises(ParseError) as e:
        sysbench.parse(text, "x")
    assert e.value.line == 25 and "total number of events: lots" in str(e.value)


def test_read_records_missing_and_empty_files_as_gaps(tmp_path):
    from papercuts.parsers.errors import read
    from papercuts.problems import UserError

    assert read(tmp_path / "nope", sysbench.parse, "sb.o.nope") == Gap("sb.o.nope", "missing")
    (tmp_path / "empty").write_bytes(b"")
    assert read(tmp_path / "empty", sysbench.parse, "sb.o.empty") == Gap("sb.o.empty", "empty")
    assert not Gap("x", "missing")
    (tmp_path / "bad").write_text("sysbench 1.0.20\nThreads started!\n")
    with pytest.raises(UserError):  # one error type, caught once at the top like every data problem
        read(tmp_path / "bad", sysbench.parse)


def _line_by_line(text: str, path: str) -> sysbench.SysbenchRun:
    """The parser reading every line through _Reader.line, as it did before its prose loop."""
    reader = sysbench._Reader(path)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        reader.line(lineno, raw)
    return reader.result()


TRICKY = """Running the test with following options:
  explain: for point_selects :: explain SELECT 1
\t1\tSIMPLE\tsbtest1\tnull\tconst\tPRIMARY
table 1 : explain SELECT c FROM sbtest1 WHERE id=1 \x20\t
prose that is not a plan
sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)
  -> Rows fetched before execution
Number of threads: 4
\x0cfor sum_ranges
\u3000for mixed_ranges
   \t
Threads started!

SQL statistics:
    queries:                             100    (10.00 per sec.)
General statistics:
    total time:                          10.0001s
"""


@pytest.mark.parametrize("name", ["tricky", "mytools"])
def test_the_prose_before_the_test_reads_as_every_other_line(name):
    """mytools' outputs hold thousands of plan lines before the test starts, read in a loop of
    their own (sysbench._Reader.prose): what it gives is what reading them one by one gives."""
    path = RAW / "mytools/nov25.sb.mysql/dop1/x.my9500_rel_o2nofp.z12a_c8r32.pk1/sb.o.point-query.range100.pk1.dop1"
    text = TRICKY if name == "tricky" else path.read_text()
    got = sysbench.parse(text, "f")
    assert got == _line_by_line(text, "f")
    if name == "tricky":
        assert (got.version, got.threads) == ("1.0.20", 4)
        assert got.explain == ("  explain: for point_selects :: explain SELECT 1",
                               "\t1\tSIMPLE\tsbtest1\tnull\tconst\tPRIMARY",
                               "table 1 : explain SELECT c FROM sbtest1 WHERE id=1",
                               "  -> Rows fetched before execution", "for sum_ranges",
                               "\u3000for mixed_ranges")


@pytest.mark.parametrize("line, old, new, column, message", [
    (31, '"tps": 116925.20,', '"tps": -116925.20,', 12, '"tps" is -116925, negative in a report_json object'),
    (24, '"latency": 0.01,', '"latency": 1e999,', 16, '"latency" is inf, not a finite number in a report_json object'),
    (19, '"total": 0.00,', '"total": NaN,', 16, '"total" is nan, not a finite number in a report_json object'),
    (25, '"errors": 0.00,', '"errors": 2e15,', 15,
     '"errors" is 2e+15, over the plausible maximum 1e+15 in a report_json object'),
])
def test_a_report_json_value_no_sysbench_prints_is_an_error_at_it(line, old, new, column, message):
    """A 0.00 is printed (qps 0.00 of a test without queries, a rounded latency): only negative,
    non-finite and implausible values are refused, at their line and column."""
    lines = (RAW / "sysbench" / "sb-1.0-report-json-hook.txt").read_text().split("\n")
    assert lines[line - 1].strip() == old
    lines[line - 1] = lines[line - 1].replace(old, new)
    with pytest.raises(ParseError) as e:
        sysbench.parse("\n".join(lines))
    p = e.value.problem
    assert (p.line, p.column, p.message) == (line, column, message)


def test_a_report_csv_value_no_sysbench_prints_is_an_error_at_it():
    text = (RAW / "sysbench" / "sb-1.0-report-csv-hook.txt").read_text()
    bad = text.replace("2,2,208063.64,", "2,2," + "9" * 400 + ",", 1)
    with pytest.raises(ParseError) as e:
        sysbench.parse(bad)
    p = e.value.problem
    assert (p.line, p.column, p.message) == (14, 5, "tps is inf, not a finite number in a report_csv line")
