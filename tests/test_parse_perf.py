"""perf stat (human, -x CSV, -j JSON) and perf report --stdio on real outputs, and their traps."""
from __future__ import annotations

from pathlib import Path

import pytest

from papercuts.parsers import perf_report, perf_stat
from papercuts.parsers.errors import Gap, ParseError

RAW = Path(__file__).parent / "fixtures" / "raw"


def stat(name: str, fn=perf_stat.parse) -> perf_stat.PerfStat:
    path = RAW / "perf_stat" / name
    return fn(path.read_text(), str(path))


def test_human_format_with_unsupported_hardware_counters():
    s = stat("perf-stat-human.txt")
    (b,) = s.blocks
    assert (b.target, b.started, b.elapsed_s) == ("process id '3494'", "Sun Nov 22 04:33:53 2026", 5.00519668)
    rows = [(c.event, c.value, c.status, c.unit, c.metric_value, c.metric_unit) for c in b.counters]
    assert rows == [
        ("task-clock", 3948.76, "counted", "msec", 0.789, "CPUs utilized"),
        ("context-switches", 108381, "counted", "", 27.447, "K/sec"),
        ("cpu-migrations", 21824, "counted", "", 5.527, "K/sec"),
        ("page-faults", 97, "counted", "", 24.565, "/sec"),
        ("cycles", None, "not supported", "", None, ""),
        ("instructions", None, "not supported", "", None, ""),
        ("bus-cycles", None, "not supported", "", None, ""),
    ]
    assert s.value("cycles") is None and s.value("task-clock") == 3948.76


@pytest.mark.parametrize("name, task_clock, switches, elapsed", [
    ("perf-stat-en_US.txt", 2463.49, 86231, 2.000324301),   # 2,463.49 and 86,231
    ("perf-stat-de_DE.txt", 2624.89, 99174, 2.002143652),   # 2.624,89 and 99.174
])
def test_locale_separators(name, task_clock, switches, elapsed):
    (b,) = stat(name).blocks
    assert b.counters[0].value == task_clock and b.counters[1].value == switches
    assert b.elapsed_s == elapsed


def test_space_grouped_digits_and_old_perf_msec_suffix():
    text = (" Performance counter stats for 'x':\n\n   37 517 364 013      instructions\n"
            "    35623,015084      task-clock (msec)         #    3,546 CPUs utilized\n\n"
            "      10,045731002 seconds time elapsed\n")
    (b,) = perf_stat.parse(text).blocks
    assert [(c.event, c.value, c.unit) for c in b.counters] == [
        ("instructions", 37517364013, ""), ("task-clock", 35623.015084, "msec")]


def test_append_blocks_and_real_hardware_counters():
    s = stat("mytools-feb25-pg110-hw-append.txt")
    assert len(s.blocks) == 7 and all(b.elapsed_s and b.started for b in s.blocks)
    assert s.value("cycles") == 15676820798 and s.value("instructions") == 14455893466
    assert s.value("bus-cycles") is None  # <not supported>, not 0 or -1
    c, block = s.counter("branch-misses")
    assert (c.metric_value, c.metric_unit, block.line) == (4.99, "% of all branches", 1)
    assert s.value("context-switches") == 232265 and s.counter("context-switches")[1].line == 75
    own = stat("perf-stat-append.txt")
    assert [len(b.counters) for b in own.blocks] == [2, 3]


def test_multiplexing_and_repeat_variance():
    text = (" Performance counter stats for 'system wide':\n\n"
            "    21,228,533,559      instructions  #  1.06  insn per cycle  (83.39%)\n"
            " 9,455,243,414,829      instructions  # 2.75 insn per cycle ( +- 14.14% )  (46.17%)\n"
            "     1,234      cycles     [31,97%]\n\n       1.0 seconds time elapsed\n")
    a, b, c = perf_stat.parse(text).blocks[0].counters
    assert (a.value, a.metric_value, a.running_pct, a.variance_pct) == (21228533559, 1.06, 83.39, None)
    assert (b.value, b.running_pct, b.variance_pct) == (9455243414829, 46.17, 14.14)
    assert c.running_pct == 31.97
    r = stat("perf-stat-r3.txt").blocks[0]
    assert (r.runs, r.elapsed_s, r.counters[0].variance_pct) == (3, 1.009719, 0.03)


def test_interval_mode_keeps_timestamps():
    (b,) = stat("perf-stat-interval.txt").blocks
    assert [(c.time_s, c.event, c.value) for c in b.counters[:2]] == [
        (0.500572945, "task-clock", 405.45), (0.500572945, "context-switches", 10155)]


def test_csv_json_and_human_agree_on_shape():
    csv = stat("perf-stat-x.csv", perf_stat.parse_csv).blocks[0]
    assert [(c.event, c.value, c.unit, c.metric_value, c.metric_unit) for c in csv.counters] == [
        ("task-clock", 2448.82, "msec", 1.223, "CPUs utilized"),
        ("context-switches", 91127, "", 37.213, "K/sec"),
        ("cycles", None, "", None, ""), ("instructions", None, "", None, "")]
    js = stat("perf-stat-j.json", perf_stat.parse_json).blocks[0]
    assert [(c.event, c.value, c.status) for c in js.counters] == [
        ("task-clock", 2470.983969, "counted"), ("context-switches", 106227, "counted"),
        ("cycles", None, "not supported"), ("instructions", None, "not supported")]
    assert js.counters[2].metric_value is None  # JSON prints 0.000000 for an unsupported metric


def test_csv_optional_fields():
    r3 = stat("perf-stat-x-r3.csv", perf_stat.parse_csv).blocks[0].counters
    assert [(c.event, c.value, c.variance_pct, c.metric_value) for c in r3] == [
        ("task-clock", 1006.44, 0.17, 0.997), ("context-switches", 8, 12.5, 7.954),
        ("page-faults", 787, 0.11, 782.471), ("cycles", None, 0.0, None)]
    text = ("     0.501570171,531.60,msec,task-clock,531600371,100.00,1.063,CPUs utilized\n"
            "CPU0,1001.80,msec,task-clock,1001801205,100.00,1.000,CPUs utilized\n"
            "<not counted>,msec,task-clock,0,100.00,,\n"
            "1234,,cycles,500,50.00,0.5,GHz\n")
    a, b, c, d = perf_stat.parse_csv(text).blocks[0].counters
    assert (a.time_s, a.value, b.cpu, b.value, c.status, c.value) == (
        0.501570171, 531.6, "CPU0", 1001.8, "not counted", None)
    assert d.running_pct == 50.0


def test_perf_stat_gaps_and_errors():
    assert perf_stat.parse("", "p") == Gap("p", "empty")
    assert perf_stat.parse_csv("\n", "p") == Gap("p", "empty")
    with pytest.raises(ParseError) as e:
        perf_stat.parse(" Performance counter stats for 'x':\n\n  garbage here\n", "p")
    assert e.value.line == 3
    with pytest.raises(ParseError) as e:
        perf_stat.parse_json('{"counter-value" : "1"}\n{not json\n', "p.json")
    assert e.value.line == 1


def report(name: str) -> perf_report.PerfReport:
    path = RAW / "perf_report" / name
    return perf_report.parse(path.read_text(), str(path))


def test_flat_report_rows():
    r = report("mytools-feb25-pg1023-flat-excerpt.txt")
    assert (r.event, r.samples, r.event_count, r.children) == ("cycles", "3K", 16873383458, False)
    first, last = r.rows[0], r.rows[-1]
    assert (first.self_pct, first.command, first.dso, first.kind, first.symbol) == (
        4.40, "postgres", "postgres", ".", "_bt_compare")
    assert (last.dso, last.symbol) == ("[vdso]", "0x0000000000000a9c")
    own = report("perf-report-flat.txt")
    assert (own.samples, own.event) == ("927", "cpu-clock:ppp")
    assert [(x.self_pct, x.kind, x.symbol) for x in own.rows[:2]] == [
        (24.60, "k", "finish_task_switch.isra.0"), (8.20, "k", "iowrite16")]
    assert own.rows[-1].symbol == "mysql_execute_command"


def test_children_self_with_call_graphs():
    r = report("perf-report-children.txt")
    assert r.children and len(r.rows) == 19
    top = r.rows[0]
    assert (top.children_pct, top.self_pct, top.dso, top.symbol) == (83.60, 0.00, "libc.so.6", "start_thread")
    assert top.callgraph[0].strip() == "|" and top.callgraph[1].strip() == "---start_thread"
    assert all("%" not in row.symbol for row in r.rows)


def test_folded_call_chains_oriented_root_first():
    leaf_first = report("perf-report-g-folded.txt").rows[0].chains[0]
    assert (leaf_first.value, leaf_first.unit) == (5.50, "%")
    assert leaf_first.frames[-1] == "finish_task_switch.isra.0" and leaf_first.frames[0] == "start_thread"
    caller = report("perf-report-g-folded-caller-count.txt").rows[0].chains[0]
    assert (caller.value, caller.unit, caller.frames[0], caller.frames[-1]) == (
        51, "samples", "start_thread", "finish_task_switch.isra.0")


def test_symbols_with_spaces():
    text = ("# Overhead  Command   Shared Object      Symbol\n"
            "     2.00%  mysqld    libstdc++.so.6     [.] operator new(unsigned long)\n"
            "     1.00%  mysqld    libc.so.6          [.] memcpy@@GLIBC_2.2.5\n")
    rows = perf_report.parse(text).rows
    assert [r.symbol for r in rows] == ["operator new(unsigned long)", "memcpy@@GLIBC_2.2.5"]


def test_perf_report_errors():
    assert perf_report.parse("") == Gap("<perf report>", "empty")
    header_only = "# To display the perf.data header info, please use --header/--header-only options.\n#\n"
    assert perf_report.parse(header_only, "r") == Gap("r", "empty")  # what perf prints without samples
    with pytest.raises(ParseError) as e:
        perf_report.parse("     4.40%  postgres  postgres  [.] x\n", "rep")
    assert (e.value.line, e.value.path) == (1, "rep")


def test_a_count_has_no_plausible_maximum_but_cannot_be_negative_or_infinite():
    """Cycles over an hour of a 192-CPU system-wide run pass numbers.MAX_PLAUSIBLE (1e15)."""
    from papercuts.parsers import perf_stat
    from papercuts.parsers.errors import ParseError

    text = "\n Performance counter stats for 'system wide':\n\n  {} cycles\n\n  3,600.01 seconds time elapsed\n"
    assert perf_stat.parse(text.format("3,456,000,000,000,000")).value("cycles") == 3.456e15
    with pytest.raises(ParseError) as e:
        perf_stat.parse(text.format("9" * 400))
    assert (e.value.problem.line, e.value.problem.column) == (4, 3)
    assert e.value.problem.message == f"'{'9' * 400}' is not a finite number: not a counter value"
    with pytest.raises(ParseError) as e:
        perf_stat.parse(text.format("3,456").replace("3,600.01", "-1"))
    assert (e.value.problem.line, e.value.problem.column, e.value.problem.message) == (
        6, 3, "seconds time elapsed is -1, negative")
    with pytest.raises(ParseError) as e:
        perf_stat.parse_json('{"counter-value" : "-5", "unit" : "", "event" : "cycles"}\n')
    assert (e.value.problem.column, e.value.problem.message) == (20, "cycles is -5, negative")
