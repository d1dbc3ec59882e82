"""Issue 4, "Seeds": the seeds' per-operation and profile numbers on the investigation pages, as printed.

Each expected number is listed beside the seed line it is transcribed from, so a reviewer can check
the transcription without the seed documents (the build and the tests never read them).
"""
from __future__ import annotations

import csv
import html
import io
import re

from papercuts.paths import PROJECT

UT_DELAY_PAGE = "investigations/ut-delay-compiler-barrier"
BUG_74832 = PROJECT / "data/campaigns/2015-08-31-ut-delay-bug-74832/observations.csv"

# Seed 004 (MySQL bug 74832, comment of 27 Aug 2015): the perf report pasted with the psdoit timings.
# (chart id, subject on the page, value as printed, the seed line it comes from)
PROFILE = [
    ("profile-shares", "ut_delay(unsigned long)", "37.42",
     "37.42%  mysqld         mysqld              [.] ut_delay(unsigned long)"),
    ("profile-shares", "_raw_spin_lock (kernel)", "27.96",
     "27.96%  mysqld         [kernel.kallsyms]   [k] _raw_spin_lock"),
    ("profile-callers", "ut_delay ← mutex_spin_wait", "99.74",
     "|--99.74%-- mutex_spin_wait(void*, bool, char const*,"),
    ("profile-callers",
     "ut_delay ← mutex_spin_wait ← pfs_mutex_enter_func ← lock_rec_convert_impl_to_expl ← … ← row_search_for_mysql",
     "74.70", "|          |--74.70%-- pfs_mutex_enter_func(ib_mutex_t*, char const*, unsigned long) [clone"),
    ("profile-callers", "… row_search_for_mysql ← ha_innobase::index_read", "76.07",
     "|          |          |--76.07%-- ha_innobase::index_read(unsigned char*, unsigned char const*, unsigned int,"),
    ("profile-callers", "_raw_spin_lock ← futex_wait_setup", "58.11",
     "|--58.11%-- futex_wait_setup"),
    ("profile-callers",
     "_raw_spin_lock ← futex_wait_setup ← 0 ← futex_wait ← do_futex ← sys_futex ← system_call", "99.96",
     "|          |--99.96%-- 0"),
    ("profile-callers", "… system_call ← __lll_lock_wait", "64.91",
     "|          |          |--64.91%-- __lll_lock_wait"),
    ("profile-callers", "… __lll_lock_wait ← pthread_mutex_lock", "83.30",
     "|          |          |          |--83.30%-- pthread_mutex_lock"),
    ("profile-callers",
     "… pthread_mutex_lock ← os_event_reset ← sync_array_reserve_cell ← mutex_spin_wait", "52.72",
     "|          |          |          |          |--52.72%-- os_event_reset(os_event*)"),
    ("profile-callers", "… mutex_spin_wait ← pfs_mutex_enter_func ← lock_rec_convert_impl_to_expl", "75.08",
     "|--75.08%-- pfs_mutex_enter_func(ib_mutex_t*, char const*, unsigned long) [clone .constprop.7"),
]

# Seed 004, same comment: "# time ./psdoit N" followed by the elapsed time.
PSDOIT = [("1", "0.022"), ("10", "0.112"), ("100", "7.150"), ("200", "30.422"), ("400", "190.378")]


def page_html(site, url: str) -> str:
    return (site.public / url.strip("/") / "index.html").read_text()


def text_of(markup: str) -> str:
    """The page's text, with Hugo's typographic apostrophes made plain again."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).replace("\u2019", "'")


def table_rows(markup: str, chart_id: str) -> list[list[str]]:
    """The body rows of the data table under a chart, each a list of its cells' text."""
    start = markup.index(f'id="chart-{chart_id}"')
    table = markup[markup.index("<tbody>", start):markup.index("</tbody>", start)]
    return [[html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
             for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]


def test_the_listed_numbers_are_those_of_their_seed_lines():
    for _, _, printed, line in PROFILE:
        assert re.search(rf"(?<![\d.]){re.escape(printed)}%", line), line


def test_seed_004_profile_shares_fill_the_tables_exactly_as_printed(site):
    markup = page_html(site, UT_DELAY_PAGE)
    for chart in ("profile-shares", "profile-callers"):
        expected = [[subject, printed, "%"] for cid, subject, printed, _ in PROFILE if cid == chart]
        assert table_rows(markup, chart) == expected, chart


def test_seed_004_profile_csvs_keep_the_printed_precision(site):
    for chart in ("profile-shares", "profile-callers"):
        rows = list(csv.DictReader(io.StringIO((site.public / UT_DELAY_PAGE / f"{chart}.csv").read_text())))
        expected = [(subject, printed) for cid, subject, printed, _ in PROFILE if cid == chart]
        assert [(r["subject"], r["value_text"]) for r in rows] == expected, chart
        assert {r["unit"] for r in rows} == {"%"}
    # The contributed file holds the text as printed too (74.70 and 83.30 keep their trailing zero).
    with BUG_74832.open(newline="") as f:
        shares = {(r["subject"], r["value"]) for r in csv.DictReader(f) if r["unit"] == "%"}
    assert shares == {(subject, printed) for _, subject, printed, _ in PROFILE}


def test_seed_004_psdoit_table_is_there(site):
    rows = table_rows(page_html(site, UT_DELAY_PAGE), "psdoit-timings")
    assert rows == [["psdoit on MariaDB 10.0.17", clients, elapsed, "s"] for clients, elapsed in PSDOIT]


def test_seed_004_narrative_names_the_two_hottest_symbols(site):
    text = text_of(page_html(site, UT_DELAY_PAGE))
    assert "37.42% of samples are in ut_delay" in text
    assert "27.96% are in the kernel's _raw_spin_lock" in text


def test_seed_000_cpu_and_context_switches_per_update_as_stated(site):
    # Seed 000 prints one ratio and no vmstat numbers: "From vmstat I see that the amount of CPU and
    # number of context switches per update increase by ~1.5X when throughput drops."
    text = text_of(page_html(site, "investigations/innodb-busy-wait-8030"))
    assert "CPU time and context switches per update both grow by ~1.5X" in text
    assert "It prints no vmstat output and no CPU or context-switch count per update" in text


def test_seed_001_counter_ratios_as_stated_and_not_charted(site):
    # Seed 001 prints no counter values, only: "InnoDB completed almost twice the number of
    # instructions", "IPC almost 2X better for InnoDB", "both have a similar value for bus-cycles,
    # so MyRocks uses 2X the number of bus-cycles per instruction", and the event code 0x013c.
    markup = page_html(site, "investigations/myrocks-2x-less-slow")
    text = text_of(markup)
    for phrase in ("InnoDB completed almost twice as many instructions as MyRocks",
                   "InnoDB's IPC is almost 2X better", "similar bus-cycles for both",
                   "MyRocks spent 2X the bus-cycles per instruction", "0x013c",
                   "the post gives no counter values"):
        assert phrase in text, phrase
    # The page says why it has no chart; a chart added later must come with numbers and new text.
    assert 'class="vega-chart"' not in markup
