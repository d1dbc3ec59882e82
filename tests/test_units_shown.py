"""An absolute throughput is shown in its microbenchmark's unit (data/microbenchmarks.csv): scan
counts krows/s, not queries, so no tooltip, axis, table or CSV calls every throughput QPS. The
unit is contributed text: a data value of each row, never a channel title or an expression. rQPS
is a ratio and keeps its name. The explorer's cost table gives its values their unit and 3
significant digits."""
from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest

from papercuts.contract import OP_COSTS
from papercuts.paths import PROJECT

PN53 = "2025-08-21-pn53-mysql-5-6-to-9-4"
BEELINK = "2024-02-16-beelink-mysql-5-6-to-8-0"


def catalog_units() -> dict[str, str]:
    with open(PROJECT / "data" / "microbenchmarks.csv", newline="") as f:
        return {r["name"]: r["unit"] for r in csv.DictReader(f)}


def name_of(label: str) -> str:
    """A chart row's microbenchmark: its label without ' @ N threads' and '_range=N'."""
    return label.split(" @ ")[0].split("_range=")[0]


def tooltips(node) -> list[list[dict]]:
    if isinstance(node, dict):
        found = [node["tooltip"]] if isinstance(node.get("tooltip"), list) else []
        return found + [t for v in node.values() for t in tooltips(v)]
    return [t for v in node for t in tooltips(v)] if isinstance(node, list) else []


def read_csv(path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def test_a_tooltip_with_a_throughput_shows_its_rows_unit_and_never_calls_it_qps(site):
    seen = 0
    for path in sorted(site.public.rglob("*.vl.json")):
        spec = json.loads(path.read_text())
        for tooltip in tooltips(spec):
            fields = {re.sub(r"_t\d+$", "", t["field"]) for t in tooltip}  # a shared file's rqps_t4
            titles = {t.get("title") for t in tooltip}
            assert not titles & {"QPS", "base QPS"}, path
            if fields & {"qps", "base_qps"}:
                assert "unit" in fields, path
                seen += 1
    assert seen > 50


def test_the_scan_heatmap_and_every_comparison_csv_read_each_microbenchmarks_unit(site):
    units = catalog_units()
    assert units["scan"] == "krows/s" and units["point-query"] == "queries/s"
    folder = site.public / "campaigns" / BEELINK
    (heatmap,) = folder.glob("heatmap-*.vl.json")
    rows = read_csv(folder / json.loads(heatmap.read_text())["data"]["url"])
    scan = [r for r in rows if r["microbenchmark"].startswith("scan_")]
    assert scan and {r["unit"] for r in scan} == {"krows/s"}
    assert {r["unit"] for r in rows if r["microbenchmark"].startswith("point-query_")} == {"queries/s"}
    checked = 0
    for path in site.public.rglob("*.csv"):
        if not path.name.startswith(("rqps-", "heatmap-", "threads-", "costs-")):
            continue
        for r in read_csv(path):
            want = (OP_COSTS[r["metric"]][2] if r.get("metric", "rqps") != "rqps"
                    else units[name_of(r["microbenchmark"])])
            assert r["unit"] == want, (path.name, r)
            checked += 1
    assert checked > 1000


def test_throughput_lines_of_mixed_units_say_so_and_their_table_gives_each_rows_unit(site):
    folder = site.public / "servers" / "ax162-s"
    chart = "threads-2025-11-28-ax162-s-mysql-5-6-to-9-5"
    spec = json.loads((folder / f"{chart}.vl.json").read_text())
    y = spec["encoding"]["y"]
    assert y["title"] == "throughput"  # the channel's: Vega-Lite copies it into expressions
    assert y["axis"]["title"] == "throughput (unit per microbenchmark)"
    html = (folder / "index.html").read_text()
    figure = html.split(f'id="chart-{chart}"', 1)[1].split("</figure>", 1)[0]
    header = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', figure)
    assert header[:3] == ["microbenchmark", "unit", "threads"]
    cells = dict(re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td>", figure))
    assert cells["scan_range=100"] == "krows/s" and cells["point-query_range=100"] == "queries/s"
    # one unit: the axis names it (percona-2014's workload does not state one)
    one = json.loads((site.public / "servers" / "percona-2014" / "threads-2014-04-16-itc-vs-threads.vl.json")
                     .read_text())
    assert one["encoding"]["y"]["axis"]["title"] == "throughput (unit not stated)"


def test_a_cost_charts_rqps_row_gives_its_throughputs_unit_not_ratio(site):
    folder = site.public / "campaigns" / BEELINK
    (path,) = folder.glob("costs-*.csv")
    rows = [r for r in read_csv(path) if r["metric"] == "rqps" and r["microbenchmark"].startswith("scan_")]
    assert rows and {r["unit"] for r in rows} == {"krows/s"}


def explorer(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered")
    assert page.locator("#explore-chart").get_attribute("data-error") is None


def table(page) -> tuple[list[str], list[list[str]]]:
    head = page.locator("#explore-table thead th").all_inner_texts()
    body = [row.locator("td").all_inner_texts() for row in page.locator("#explore-table tbody tr").all()]
    return head, body


@pytest.mark.browser
def test_the_explorers_throughputs_carry_their_unit(page, server):
    explorer(page, f"{server}/explore/?server=pn53&campaign={PN53}&threads=1&metric=qps&view=table")
    head, body = table(page)
    assert "QPS" not in " ".join(head) and "throughput" in head and "unit" in head
    units = {r[head.index("microbenchmark")]: r[head.index("unit")] for r in body}
    assert units["scan_range=100"] == "krows/s" and units["point-query_range=100"] == "queries/s"
    page.locator("select[name=view]").select_option("bars")
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered === '2'")
    titles = page.locator("#explore-chart g.role-axis-title text").all_text_contents()
    assert "throughput (unit per microbenchmark)" in titles and "QPS" not in titles
    # rQPS: the absolute values beside it have their unit too
    page.locator("select[name=metric]").select_option("rqps")
    page.locator("select[name=view]").select_option("table")
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered === '4'")
    head, body = table(page)
    assert {"rQPS", "rqps"} & set(head) and "unit" in head and "base throughput" in head
    scan = [r for r in body if r[0] == "scan_range=100"]
    assert scan and {r[head.index("unit")] for r in scan} == {"krows/s"}


def three_significant_digits(text: str) -> bool:
    """0.00123, 1.20, 12.3, 12,300 (a whole number keeps its place), 0.00 (zero) or inf."""
    if text in ("inf", "0") or re.fullmatch(r"0\.00", text):
        return True
    if "." in text:
        return len(text.replace(".", "").lstrip("0")) == 3 and "," not in text
    return re.fullmatch(r"[1-9]\d{0,2}(,\d{3})*", text) is not None and len(text.replace(",", "").rstrip("0")) <= 3


def test_three_significant_digits_is_what_the_test_says():
    assert all(map(three_significant_digits, ["0.00123", "1.20", "12.3", "123", "12,300", "0.00", "0", "inf"]))
    assert not any(map(three_significant_digits, ["0.0012", "1.2345", "12345.6789", "0.0000", "12,345",
                                                  "1.235e+05"]))


def test_the_cost_charts_table_gives_each_cost_its_unit_and_three_significant_digits(site):
    html = (site.public / "campaigns" / BEELINK / "index.html").read_text()
    figure = html.split('id="chart-costs-', 1)[1].split("</figure>", 1)[0]
    header = [unescape(h) for h in re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', figure)]
    assert header[2:] == ["rQPS", f"cpu/o (vmstat): relative (value in {OP_COSTS['cpu_per_op'][2]})",
                          "r/o (iostat): relative (value in reads)", "rKB/o (iostat): relative (value in KB)",
                          "wKB/o (iostat): relative (value in KB)"]
    values = re.findall(r'<td class="num">[0-9.]+ \(([^)]*)\)</td>', figure)
    assert len(values) > 100
    assert [v for v in values if not three_significant_digits(v)] == []


@pytest.mark.browser
@pytest.mark.parametrize("metric", ["cpu_per_op", "cs_per_op"])
def test_the_explorers_cost_table_gives_each_value_its_unit_and_three_significant_digits(page, server, metric):
    explorer(page, f"{server}/explore/?server=pn53&campaign={PN53}&metric={metric}&view=table")
    assert page.locator("select[name=metric]").input_value() == metric
    unit = OP_COSTS[metric][2]
    head, body = table(page)
    columns = [f"value ({unit})", f"base value ({unit})"]
    assert set(columns) <= set(head), head
    values = [r[head.index(c)] for r in body for c in columns]
    assert len(values) > 20
    assert [v for v in values if not three_significant_digits(v)] == []
    # the CSV keeps every digit, and says the unit
    with page.expect_download() as info:
        page.locator("#explore-csv").click()
    with open(info.value.path()) as f:
        rows = list(csv.DictReader(f))
    assert rows and {r["unit"] for r in rows} == {unit}
