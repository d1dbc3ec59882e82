"""Data written once into pages: specs are fetched, not inlined; large tables are cut with a link."""
from __future__ import annotations

import re

from papercuts.render.charts import TABLE_SUFFIX
from papercuts.render.frontmatter import split


def pages(site):
    return sorted(site.public.rglob("index.html"))


def test_pages_inline_no_chart_data_and_every_spec_they_name_is_published(site):
    named = 0
    for page in pages(site):
        html = page.read_text()
        assert 'type="application/json"' not in html, page
        for url in re.findall(r'data-spec-url="([^"]+)"', html):
            assert (site.public / url.lstrip("/")).is_file(), (page, url)
            named += 1
    assert named > 100


def test_a_comparison_chart_is_written_once_and_its_server_page_shows_the_campaigns(site):
    """A comparison's heatmap (and costs beside rQPS) is on its campaign's page and on its server's:
    one spec and one CSV, the campaign's, which the server page, its table and its embed page use."""
    heatmap = "heatmap-2024-10-23-busy-wait-dell32-24-my8028-rel-o2nofp-z11a-c32r128"
    campaign = "/campaigns/2024-10-23-busy-wait-dell32/"
    server = (site.public / "servers" / "dell32" / "index.html").read_text()
    figure = re.search(rf'<figure class="chart" id="chart-{heatmap}".*?</figure>', server, re.S)[0]
    data = "rqps-2024-10-23-busy-wait-dell32-my8028-rel-o2nofp-z11a-c32r128.csv"  # the comparison's, every thread count
    assert f'data-spec-url="{campaign}{heatmap}.vl.json"' in figure
    assert f'href="{campaign}{data}" download' in figure
    # its table is the campaign page's, linked, not written again (planted: the table in both)
    assert "<td" not in figure and f'href="{campaign}#chart-{heatmap}"' in figure
    home = (site.public / campaign.strip("/") / "index.html").read_text()
    assert "<td" in re.search(rf'<figure class="chart" id="chart-{heatmap}".*?</figure>', home, re.S)[0]
    embed = (site.public / "embed" / "servers" / "dell32" / heatmap / "index.html").read_text()
    assert f'data-spec-url="{campaign}{heatmap}.vl.json"' in embed and f'href="{campaign}{data}"' in embed
    assert 'href="/servers/dell32/#chart-' + heatmap in embed  # back to the page it was embedded from
    written = [p.name for p in site.generated.glob("servers/*/*") if p.name.startswith(("heatmap-", "costs-", "rqps-"))]
    assert written == []  # no server page writes a comparison's files again
    shown = sum(len(re.findall(r'data-spec-url="/campaigns/', p.read_text()))
                for p in (site.public / "servers").glob("*/index.html"))
    assert shown >= 20


def test_table_files_are_read_at_build_time_not_published(site):
    assert list(site.generated.rglob(f"*.{TABLE_SUFFIX}"))
    assert not list(site.public.rglob(f"*.{TABLE_SUFFIX}"))


def _tables(site):
    """(chart id, its table's HTML file, its front-matter entry, its page's HTML) of every table."""
    for path in sorted(site.generated.rglob(f"*.{TABLE_SUFFIX}")):
        chart = path.name.removesuffix(f".{TABLE_SUFFIX}")
        meta, _ = split((path.parent / "index.md").read_text(), str(path))
        entry = next(c for c in meta["charts"] if c["id"] == chart)
        html = (site.public / path.parent.relative_to(site.generated) / "index.html").read_text()
        figure = html.split(f'id="chart-{chart}"', 1)[1].split("</figure>", 1)[0]
        yield chart, path.read_text(), entry, figure


def test_a_large_table_is_cut_at_100_rows_with_a_link_to_its_whole_csv(site):
    cut = 0
    for _, table, entry, figure in _tables(site):
        shown = table.count("<tr>") - 1  # the header row
        total = (entry.get("table_cut") or {}).get("total", shown)
        assert shown == min(total, 100)  # the file holds only what is shown
        # the page prints it as written, named after its chart (data-table.html: aria-label)
        named = re.sub(r'<table class="data-table" aria-label="Data of the chart: [^"<>]*">',
                       '<table class="data-table">', figure, count=1)
        assert named != figure and table in named
        if total <= 100:
            continue
        assert figure.count("<tr>") == 100 + 1  # the header row and the first 100
        assert f"The first 100 of {total} table rows" in figure
        csv_url = re.search(r'<p class="table-cut">.*?href="([^"]+)"', figure, re.S)[1]
        assert csv_url.endswith(entry["csv"]) and (site.public / csv_url.lstrip("/")).is_file()
        cut += 1
    assert cut > 0


def test_only_large_tables_are_left_to_lay_out_near_the_viewport(site):
    """A table of more than LARGE_CELLS shown cells is marked large (site.css: content-visibility),
    and only such a table: a small one is laid out with its page, as before."""
    from papercuts.render.tables import LARGE_CELLS

    large = small = 0
    for chart, table, _, figure in _tables(site):
        is_large = table.count("<td") > LARGE_CELLS
        assert ('class="table-wrap large"' in figure) == is_large, chart
        large += is_large
        small += not is_large
    assert large >= 2 and small > 100


def test_a_table_file_holds_each_cells_final_class_and_refuses_any_other():
    import pytest

    from papercuts.render import tables

    t = tables.table([("name", False), ("rQPS", True)],
                     [[tables.cell("a"), tables.cell("0.50", "lt1 s2")], [tables.cell("b"), tables.cell("")]])
    assert [[c["class"] for c in row] for row in tables.shown(t)["rows"]] == [["", "num lt1 s2"], ["", "num"]]
    with pytest.raises(ValueError, match="not a ratio class"):
        tables.shown(tables.table([("rQPS", True)], [[tables.cell("1", "x onmouseover")]]))
    with pytest.raises(ValueError):  # a row of the wrong length
        tables.shown(tables.table([("name", False), ("rQPS", True)], [[tables.cell("a")]]))


def test_a_table_file_is_written_in_one_pass_as_shown_then_html_write_it():
    """tables.shown_html (what a page bundle writes) is html(shown(t)): its cut, classes, escapes and
    size, and the same refusals."""
    import pytest

    from papercuts.render import tables

    cell = tables.cell
    wide = tables.table([("group", False), ("name", False)] + [(f"v<{i}>", True) for i in range(30)],
                        [[cell("point"), cell(f"m&{r}")] + [cell(f"{i / 7:.2f}", "lt1 s2" if i % 3 else "eq1")
                                                            for i in range(30)] for r in range(tables.SHOWN_ROWS + 5)])
    small = tables.table([("name", False), ("rQPS", True), ("n", True)],
                         [[cell("a \"b\" +1"), cell("0.50", "gt1 s3"), cell("")], [cell("nul\0"), cell(""), cell(3)]])
    for t in (wide, small, tables.table([("x", False)], [])):
        assert tables.shown_html(t) == tables.html(tables.shown(t))
    with pytest.raises(ValueError, match="not a ratio class"):
        tables.shown_html(tables.table([("rQPS", True)], [[tables.cell("1", "x onmouseover")]]))
    with pytest.raises(ValueError, match="a table row of 1 cells under 2 columns"):
        tables.shown_html(tables.table([("name", False), ("rQPS", True)], [[tables.cell("a")]]))


def test_every_class_a_ratio_can_get_is_one_a_table_cell_may_carry():
    from papercuts.render.colours import RATIO_CLASSES, ratio_class

    got = {ratio_class(v / 100, band) for v in range(-5, 400) for band in (0.0, 0.01, 0.05)} | {ratio_class(None)}
    assert got == RATIO_CLASSES


def test_a_heatmaps_caption_names_its_own_column_of_the_shared_csv(site):
    """A comparison's heatmaps share one CSV, a column per thread count: each caption names the
    column its own chart draws (the spec's filter), which the CSV has."""
    import json

    named = 0
    for index in sorted(site.generated.glob("campaigns/*/index.md")):
        meta, _ = split(index.read_text(), str(index))
        for c in meta.get("charts") or []:
            if c["kind"] != "rqps-heatmap" or "a column per count" not in c["caption"]:
                continue
            spec = json.loads((index.parent / c["spec"]).read_text())
            column = spec["transform"][0]["filter"]["field"]
            assert f"(this chart's: {column})" in c["caption"], c["id"]
            assert column in (index.parent / c["csv"]).read_text().split("\n", 1)[0].split(","), c["id"]
            named += 1
    assert named >= 20
