"""Folded stacks in every flavour, normalised to root-first frames and shares of the total."""
from __future__ import annotations

from pathlib import Path

import pytest

from papercuts.parsers import folded
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
