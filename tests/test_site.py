"""The whole site built from the shipped data with the real DuckDB and Hugo."""
from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from papercuts.build import build
from papercuts.paths import PROJECT, Paths
from papercuts.problems import UserError
from papercuts.render.charts import TABLE_SUFFIX


def page(site, url: str) -> str:
    return (site.public / url.strip("/") / "index.html").read_text()


def text_of(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def tree_digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_home_lists_investigations_newest_first(site):
    home = page(site, "/")
    order = [home.index(f'href="/investigations/{slug}/"') for slug in (
        "innodb-myrocks-over-time", "innodb-busy-wait-8030", "myrocks-2x-less-slow",
        "ut-delay-compiler-barrier", "kernel-mutex-thread-concurrency")]
    assert order == sorted(order)
    for server in ("dell32", "beelink", "pn53", "ax162-s", "socket2"):
        assert f'href="/servers/{server}/"' in home


def test_busy_wait_page_shows_the_seed_table(site):
    text = text_of(page(site, "/investigations/innodb-busy-wait-8030/"))
    # seed 000, update-index_range=100 across the seven columns
    assert re.search(r"update-index_range=100\s+0\.56\D+0\.56\D+0\.67\D+0\.70\D+0\.71\D+0\.70\D+0\.69", text)
    assert "InnoDB busy-wait loops changed in MySQL 8.0.30" in text  # the source is named


def test_published_csv_is_exactly_the_chart_data(site):
    bundle = site.public / "investigations/innodb-busy-wait-8030"
    rows = list(csv.DictReader(io.StringIO((bundle / "dell32-rqps.csv").read_text())))
    assert len(rows) == 17 * 7
    update = {r["variant"]: r["rqps"] for r in rows if r["microbenchmark"] == "update-index_range=100"}
    assert update["my8040_rel_o2nofp_norndfast.z11a_spin5_c32r128"] == "0.71"
    spec = json.loads((bundle / "dell32-rqps.vl.json").read_text())
    # the spec draws that very file (written once): no rows of its own
    assert spec["data"]["url"] == "dell32-rqps.csv" and "values" not in spec["data"]
    assert spec["data"]["format"]["parse"]["rqps"] == "number"


def test_seed_002_summaries_as_published(site):
    text = text_of(page(site, "/investigations/innodb-myrocks-over-time/"))
    for row in ("point 0.65 0.88 0.73 0.72", "range 0.68 0.99 0.77 0.73", "write 0.50 1.21 0.75 0.70",
                "point 0.68 1.54 1.09 1.29", "write 1.05 2.02 1.47 1.45",
                "point 0.79 1.15 0.93 0.93", "range 0.68 1.07 0.97 1.01", "write 0.77 0.99 0.91 0.91"):
        assert re.search(r"\s+".join(re.escape(part) + r"[^\d]*?" for part in row.split()), text), row


def test_seed_003_and_004_numbers(site):
    text = text_of(page(site, "/investigations/kernel-mutex-thread-concurrency/"))
    for n in ("68369.02", "137999.96", "194537.48", "153889.72", "22166.94", "183524.16", "194357.78"):
        assert n in text
    text = text_of(page(site, "/investigations/ut-delay-compiler-barrier/"))
    for n in ("0.022", "7.150", "190.378", "3209", "225", "2771", "3117"):
        assert re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", text), n


def test_server_page_has_hardware_and_heatmap(site):
    text = text_of(page(site, "/servers/dell32/"))
    assert "AMD Ryzen Threadripper PRO 5975WX" in text and "c32r128" in text
    assert "rQPS at 24 threads" in text


def test_the_database_holds_what_the_pages_show(site):
    con = duckdb.connect(str(site.db), read_only=True)
    n = con.execute("SELECT count(*) FROM rqps WHERE campaign = '2024-10-23-busy-wait-dell32'").fetchall()
    assert n == [(119,)]
    con.close()


def test_builds_are_byte_identical(site, tmp_path):
    again = Paths.make(build=tmp_path / "build", out=tmp_path / "public")
    build(again)
    assert tree_digest(again.public) == tree_digest(site.public)


def test_bad_data_fails_the_build_and_keeps_the_old_site(site, data_copy, tmp_path):
    out = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(out)
    before = tree_digest(out.public)
    path = data_copy / "campaigns/2014-04-16-itc-vs-threads/results.csv"
    lines = path.read_text().splitlines()
    lines[3] = lines[3].replace("percona-2014", "percona-2041")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(UserError) as e:
        build(out)
    assert any(p.line == 4 and "unknown server 'percona-2041'" in p.message for p in e.value.problems)
    assert tree_digest(out.public) == before


def test_check_cli_exits_non_zero_with_file_and_line(data_copy):
    path = data_copy / "campaigns/2014-04-16-itc-at-256-threads/results.csv"
    path.write_text(path.read_text().replace("68369.02", "68,369.02", 1))
    proc = subprocess.run([sys.executable, "-m", "papercuts.cli", "check", "--data", str(data_copy)],
                          capture_output=True, text=True, cwd=data_copy.parent)
    assert proc.returncode == 1
    assert "data/campaigns/2014-04-16-itc-at-256-threads/results.csv:2:" in proc.stdout
    assert "error" in proc.stdout


def test_check_cli_passes_on_shipped_data():
    proc = subprocess.run([sys.executable, "-m", "papercuts.cli", "check"], capture_output=True,
                          text=True, cwd=PROJECT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # The hand-written data is clean; the warnings left are about the real archives kept byte for
    # byte under raw/ (republished runs, a typo in a hand-edited copy, real outliers), by design.
    for line in proc.stdout.splitlines():
        assert ": warning: " in line and "/raw/" in line, line


def test_the_worked_example_in_the_contract_builds_its_server_page(data_copy, tmp_path):
    """Follow data/README.md's worked example on a copy of data/, as a contributor would."""
    doc = (PROJECT / "data" / "README.md").read_text().split("## A worked example", 1)[1]
    blocks = re.findall(r"```(csv|toml)\n(.*?)```", doc, flags=re.S)
    (src, server, toml, results) = [b[1] for b in blocks]
    with open(data_copy / "sources.csv", "a") as f:
        f.write(src)
    with open(data_copy / "servers.csv", "a") as f:
        f.write(server)
    camp = data_copy / "campaigns" / "2026-11-20-mybox-80"
    camp.mkdir()
    (camp / "campaign.toml").write_text(toml)
    (camp / "results.csv").write_text(results)
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    assert "rQPS at 1 thread" in text_of((paths.public / "servers" / "mybox" / "index.html").read_text())
    html_text = text_of((paths.public / "campaigns" / "2026-11-20-mybox-80" / "index.html").read_text())
    assert "rQPS at 1 thread" in html_text
    assert re.search(r"point-query_range=100\s+0\.95", html_text)
    assert re.search(r"update-index_range=100\s+0\.56", html_text)


def test_campaign_pages_offer_the_contributed_files_byte_for_byte(site):
    for campaign in (site.data / "campaigns").iterdir():
        published = site.public / "campaigns" / campaign.name
        for f in campaign.rglob("*"):
            if f.is_file() and f.suffix != ".md":  # a raw run's README.md is the page's body
                name = f.relative_to(campaign)
                assert (published / name).read_bytes() == f.read_bytes(), f
    text = text_of(page(site, "/campaigns/2024-10-23-busy-wait-dell32/"))
    assert "8 × 10,000,000" in text and "Transcribed from the source" in text


def test_investigation_lists_the_builds_and_configs_it_compares(site):
    text = text_of(page(site, "/investigations/innodb-busy-wait-8030/"))
    section = text.split("Builds and configs", 1)[1].split("Sources", 1)[0]
    for build_id in ("my8028_rel_o2nofp", "my8040_rel", "my8040_rel_o2nofp_oldrnd"):
        assert build_id in section
    assert "performance_schema=0;innodb_spin_wait_delay=5" in section
    assert "mysql innodb 8.0.28" in section


def test_raw_campaign_page_lists_what_was_parsed_and_the_gaps(site):
    text = text_of(page(site, "/campaigns/2026-11-22-mariadb-spin-wait/"))
    assert re.search(r"sysbench\s+48\b", text) and re.search(r"vmstat\s+48\b", text)
    for event in ("bus-cycles", "cycles", "instructions"):
        assert re.search(rf"perf stat\s+{event}\s+not supported\s+48\b", text), event
    assert re.search(r"folded stacks\s+the file\s+empty\s+1\b", text)
    assert "Caveats, before reading any number from here" in text  # raw/README.md is the page's text
    html_text = page(site, "/campaigns/2026-11-22-mariadb-spin-wait/")
    assert 'href="/campaigns/2026-11-22-mariadb-spin-wait/raw/run.sh"' in html_text


def test_seed_004_profile_shares_are_published_as_printed(site):
    text = re.sub(r"\s+", " ", text_of(page(site, "/investigations/ut-delay-compiler-barrier/")))
    assert "ut_delay(unsigned long) 37.42 %" in text and "_raw_spin_lock (kernel) 27.96 %" in text
    for path, share in (("ut_delay ← mutex_spin_wait", "99.74"), ("_raw_spin_lock ← futex_wait_setup", "58.11"),
                        ("… __lll_lock_wait ← pthread_mutex_lock", "83.30"),
                        ("… pthread_mutex_lock ← os_event_reset ← sync_array_reserve_cell ← mutex_spin_wait",
                         "52.72"),
                        ("… mutex_spin_wait ← pfs_mutex_enter_func ← lock_rec_convert_impl_to_expl", "75.08")):
        assert f"{path} {share} %" in text, path


def test_the_differential_lists_what_only_the_base_sampled(site):
    bundle = site.generated / "investigations" / "mariadb-spin-wait-delay-vm"
    table = (bundle / f"flame-diff.{TABLE_SUFFIX}").read_text()
    rows = [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", table)[1:]]
    gone = [row for row in rows if row[1].endswith("(only in the base)")]
    assert 0 < len(gone) <= 10
    for *_, total, base, change in gone:
        assert total == "0.00%" and float(base.rstrip("%")) > 0 and float(change) == -float(base.rstrip("%"))


def test_a_data_folder_under_another_name_names_its_own_raw_files(tmp_path):
    data = tmp_path / "teamdata"
    shutil.copytree(PROJECT / "data", data)
    # the project's pages given with the copy: they are rendered only with the data they belong to
    paths = Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public", content=PROJECT / "content")
    build(paths)
    text = (paths.public / "investigations" / "mariadb-spin-wait-delay-vm" / "index.html").read_text()
    assert "teamdata/campaigns/2026-11-22-mariadb-spin-wait/raw/" in text
    assert "data/campaigns/2026-11-22-mariadb-spin-wait/raw/" not in text.replace("teamdata/", "")


def test_every_chart_has_a_permalink_to_its_own_anchor(site):
    """Each figure links to itself by the page's URL and its front-matter id (issue 14.1)."""
    figures = 0
    for index in sorted(site.public.rglob("index.html")):
        markup = index.read_text()
        url = "/" + index.parent.relative_to(site.public).as_posix().strip(".") + "/"
        url = url.replace("//", "/")
        for figure in re.findall(r'<figure class="chart" id="(chart-[^"]+)".*?</figure>', markup, re.S):
            figures += 1
            assert f'class="permalink" href="{url}#{figure}"' in markup, (index, figure)
    assert figures > 10
