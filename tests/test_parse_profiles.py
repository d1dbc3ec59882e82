"""Folded stacks in every flavour, normalised to root-first frames and shares of the total."""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from papercuts.parsers import folded, perf_script
from papercuts.parsers.errors import Gap, ParseError

RAW = Path(__file__).parent / "fixtures" / "raw"


def test_perf_stackcollapse_root_first_counts():
    f = folded.parse((RAW / "folded/perf-stackcollapse.folded").read_text(), "f")
    assert (f.flavour, len(f.stacks), f.total) == ("perf", 86, 117)  # 117 samples recorded
    assert f.stacks[0].frames == ("mariadbd", "__libc_recv", "entry_SYSCALL_64_after_hwframe", "do_syscall_64")
    assert f.total_share()["mariadbd"] == pytest.approx(1.0)
    assert f.self_share()["finish_task_switch.isra.0"] == pytest.approx(19 / 117)
    assert sum(f.self_share().values()) == pytest.approx(1.0)


def test_stackcollapse_pl_period_weights_are_detected_and_normalised():
    text = ("mariadbd;start_thread;do_command;ut_delay 292929290\n"
            "mariadbd;start_thread;do_command;row_search_mvcc 101010100\n"
            "mariadbd;start_thread;[mariadbd] 10101010\n")
    f = folded.parse(text)
    assert f.flavour == "period"
    assert f.self_share()["ut_delay"] == pytest.approx(29 / 40)
    assert f.total_share()["do_command"] == pytest.approx(39 / 40)


def test_perf_report_folded_leaf_first_percentages():
    text = "5.41% ut_delay;srw_lock::wait;row_upd;start_thread\n2.00% memcpy;row_upd;start_thread\n"
    f = folded.parse(text)
    assert f.flavour == "percent"
    assert f.stacks[0].frames == ("start_thread", "row_upd", "srw_lock::wait", "ut_delay")
    assert f.self_share()["ut_delay"] == pytest.approx(5.41 / 7.41)


def test_pmp_comma_stacks_leaf_first():
    f = folded.parse((RAW / "folded/pmp.hier").read_text(), "pmp.hier")
    assert (f.flavour, f.total) == ("pmp", 30)
    top = f.stacks[0]
    assert top.weight == 10 and top.frames[0] == "clone3" and top.frames[-1] == "__futex_abstimed_wait_common64"
    assert all("" not in s.frames for s in f.stacks)  # trailing commas leave no empty frame


def test_folded_gaps_and_errors():
    assert folded.parse("\n\n", "x") == Gap("x", "empty")
    with pytest.raises(ParseError) as e:
        folded.parse("a;b 3\nnot a stack line\n", "x", flavour="perf")
    assert e.value.line == 2
    with pytest.raises(ValueError):
        folded.parse("a;b 1", flavour="svg")


def test_folded_weights_out_of_range_are_errors_at_their_line():
    cases = {"a;b 3\nc;d " + "9" * 400 + "\n": (2, "weight is inf, not a finite number"),  # float() of it: inf
             "50% a;b\n150.5% c;d\n": (2, "weight is 150.5%, over 100%"),
             "# perf\na;b 0\nc;d 0\n": (2, "every stack's weight is 0")}
    for text, (line, said) in cases.items():
        with pytest.raises(ParseError) as e:
            folded.parse(text, "x.folded")
        assert (e.value.line, said in str(e.value)) == (line, True), text
    assert folded.parse("a;b 0\nc;d 3\n", "x").stacks[1].weight == 3  # one empty stack is not an error


# stackcollapse-perf.pl's own patterns: the parsers match what they match, in one pass a line.
SCRIPT_HEADER = re.compile(r"^(\S.+?)\s+(\d+)/*(\d+)*\s+")
SCRIPT_EVENT = re.compile(r":\s*(\d+)*\s+(\S+):\s*$")
SCRIPT_FRAME = re.compile(r"^\s*(\w+)\s*(.+) \((.*)\)")
SCRIPT_FOLDED = re.compile(r"^(\S.*?)\s+(\d+(?:\.\d+)?)$")


def test_profile_lines_are_taken_as_the_script_takes_them():
    pieces = [" ", "  ", "\t", "1", "23", "/", ":", "a", "b_c", "(", ")", " (", ".", "+0x1f", "[unknown]", ";"]
    rng = random.Random(7)
    for _ in range(60_000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        header, event, frame = SCRIPT_HEADER.match(line), SCRIPT_EVENT.search(line), SCRIPT_FRAME.match(line)
        assert (header and header[1]) == ((m := perf_script._HEADER.match(line)) and m[1]), line
        assert (event and event.group(1, 2)) == ((m := perf_script._EVENT.search(line)) and m.group(1, 2)), line
        assert (frame and frame.group(2, 3)) == perf_script._frame(line), line
        stack = SCRIPT_FOLDED.match(line.strip())
        assert (stack and stack.groups()) == ((m := folded._ROOT_FIRST.match(line.strip())) and m.groups()), line


def test_long_profile_lines_are_read_in_one_pass():
    # A hang guard, not a timing: the script's patterns take hours on the first line (each digit
    # doubles it) and minutes on the others (every run of spaces tried from each character).
    code = """if True:
        from papercuts.parsers import folded, perf_script
        from papercuts.parsers.errors import ParseError
        said = []
        for text in ["mysqld 12 [000] 1.5: " + "7" * 40 + " cycles\\n", "x" + " " * 300_000 + "1\\n",
                     "\\t" + "a" * 300_000 + "\\n", " (" * 150_000 + ")\\n"]:
            said.append(perf_script.looks_like(text))
            for parse in (perf_script.parse, folded.parse):
                try:
                    said.append(type(parse(text)).__name__)
                except ParseError as e:
                    said.append(e.line)
        print(said)"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["[False,", "1,", "1,", "False,", "1,", "'Folded',", "False,", "1,", "1,",
                                  "False,", "1,", "1]"], run.stderr
