"""The scale bench's figures are ratios within one run: it says when the machine's own speed moved
during the run (the DuckDB floor measured before and after the full build), which makes them so."""
from __future__ import annotations

from papercuts.scale_bench import drift


def test_a_floor_that_moved_during_the_run_is_said_and_a_steady_one_is_not():
    steady, moved = drift(0.64, 0.70), drift(0.64, 0.92)
    assert "+9%, +0.06 s: steady" in steady and "changed" not in steady
    assert "+44%" in moved and "the machine's speed changed during the run" in moved
    assert "changed" in drift(0.92, 0.64)  # faster counts too: -30 %
    assert "steady" in drift(0.05, 0.08)  # +60 %, but 0.03 s: a small floor's own noise


def test_a_stages_cpu_seconds_count_its_threads_and_the_children_it_waited_for():
    """Timings.cpu: the CPU a stage took on every core, its forked workers and Hugo included (the
    bench prints it beside the wall time: on a shared machine it varies less)."""
    import subprocess
    import sys
    import threading

    from papercuts.build import Timings

    spin = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    t = Timings()
    with t.stage("render"):
        subprocess.run([sys.executable, "-c", spin], check=True)  # a child, waited for
        worker = threading.Thread(target=exec, args=(spin,))  # a thread of this process
        worker.start()
        worker.join()
    with t.stage("hugo"):
        pass
    assert t.cpu["render"] >= 0.6 and t.cpu["hugo"] < 0.1
    assert set(t.cpu) == set(t) == {"render", "hugo"}


def test_the_cores_a_build_used_are_its_cpu_seconds_over_its_wall_time():
    from papercuts.scale_bench import cores_used

    line = cores_used(30.0, 20.0, 2)
    assert "30.0 CPU seconds in 20.0 s, 1.50 of 2 cores busy" in line
    assert "would take 15.0 s" in line


def test_a_full_build_whose_kernel_share_is_above_the_usual_quarter_is_said_to_be_slowed():
    """scale_bench.kernel_share: the kernel's CPU seconds are the disk's; above a quarter of the
    build's (x100 here: 17-20 % after a pause, 25-42 % just after a large removal) the run says so."""
    from papercuts.scale_bench import kernel_share

    quiet, slowed = kernel_share(2.7, 13.8), kernel_share(5.1, 17.5)
    assert quiet == "of those, 2.7 CPU seconds (20%) were the kernel's (sys s: file writes, mostly)"
    assert "5.1 CPU seconds (29%)" in slowed and "more than 25%" in slowed and "run again after a pause" in slowed
    assert "run again" not in kernel_share(2.5, 10.0)  # a quarter exactly: as usual
