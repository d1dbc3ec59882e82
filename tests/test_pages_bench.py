"""The scale bench's heaviest pages (pages_bench.py): the page that fetches the most with its
charts' data, and the page whose HTML, scripts and style sheet alone weigh most, which a page
without charts can be (the regressions index at x100 was 346 KB gzip of HTML)."""
from __future__ import annotations

import gzip
import json
import random

from papercuts.pages_bench import heaviest


def test_the_heaviest_page_with_chart_data_and_before_it_can_be_two_pages(tmp_path):
    """A data file two charts share counts once, as a browser fetches it."""
    rnd = random.Random(1)

    def noise(n: int) -> str:  # text gzip shrinks by half at most
        return "".join(rnd.choice("abcdefghij0123456789") for _ in range(n))

    def gz(*paths) -> int:
        return sum(len(gzip.compress(p.read_bytes(), 6)) for p in paths)
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "charts.js").write_text(noise(2000))
    script = '<script src="/js/charts.js"></script>'
    chart = tmp_path / "charts"
    chart.mkdir()
    (chart / "index.html").write_text(f'<html>{script}<div data-spec-url="/charts/a.vl.json"></div>'
                                      '<div data-spec-url="/charts/b.vl.json"></div></html>')
    for name in ("a", "b"):  # two charts of one data file, which a browser fetches once
        (chart / f"{name}.vl.json").write_text(json.dumps({"title": name, "data": {"url": "a.csv"}}))
    (chart / "a.csv").write_text(noise(60_000))
    table = tmp_path / "regressions"
    table.mkdir()
    (table / "index.html").write_text(f"<html>{script}<table>{noise(30_000)}</table></html>")
    js = tmp_path / "js" / "charts.js"
    assert heaviest(tmp_path) == ("/charts/", gz(chart / "index.html", js, chart / "a.vl.json", chart / "b.vl.json",
                                                 chart / "a.csv"), 2)
    # before any chart's data: the table's page, its HTML and script
    assert heaviest(tmp_path, charts=False) == ("/regressions/", gz(table / "index.html", js), 0)
