"""Static images of every chart, drawn at build time and cached by the hash of the spec (issue 14)."""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
import struct

import pytest

from datadir import write_data
from papercuts.build import Timings, build
from papercuts.paths import PROJECT, Paths
from papercuts.render import images
from papercuts.render.images import PNG_MAX_PIXELS, png_scale

PAGE = "investigations/innodb-busy-wait-8030"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_svg_of_a_chart_holds_one_bar_per_row_with_its_values(site):
    svg = (site.public / PAGE / "innodb-busy-wait-8030-dell32-rqps.svg").read_text()
    bars = re.findall(r'<path aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="bar"', svg)
    drawn = sorted((re.search(r"microbenchmark: ([^;]+);", b)[1], re.search(r"variant: ([^;]+);", b)[1],
                    float(re.search(r"; rQPS: ([^;]+);", b)[1])) for b in bars)
    rows = list(csv.DictReader(io.StringIO((site.public / PAGE / "dell32-rqps.csv").read_text())))
    assert len(bars) == len(rows) == 119
    assert drawn == sorted((r["microbenchmark"], r["variant"], float(r["rqps"])) for r in rows)
    assert ("update-index_range=100", "my8040_rel_o2nofp_norndfast.z11a_spin5_c32r128", 0.71) in drawn
    assert "<script" not in svg


def test_the_dashed_1_rule_is_drawn_once_per_panel_not_once_per_row(site):
    """A rule layer drawn from the chart's rows put one 1.0 rule per row: a cost chart of 1,491
    rows drew 1,491 dashed lines over each other, 3.2 of the 3.3 s its PNG took."""
    checked = 0
    for spec_path in sorted(site.public.rglob("*.vl.json")):
        spec = json.loads(spec_path.read_text())
        if '"strokeDash": [4, 3]' not in json.dumps(spec) or "url" not in spec.get("data", {}):
            continue
        svg_path, _ = images.image_names(site.public, spec_path)
        if not svg_path.is_file():
            continue  # an embed's copy of a chart drawn on its page
        facet = spec.get("facet", {})
        field = (facet.get("row") or facet).get("field")
        rows = list(csv.DictReader(io.StringIO((spec_path.parent / spec["data"]["url"]).read_text())))
        panels = len({r[field] for r in rows}) if field else 1
        assert svg_path.read_text().count('stroke-dasharray="4,3"') == panels, spec_path
        checked += 1
    assert checked > 50  # bars, costs, summaries and ladders of the shipped data: 85


def test_every_chart_has_its_svg_and_a_png_at_twice_its_size(site):
    charts = 0
    for index in sorted(site.public.rglob("index.html")):
        for figure in re.findall(r'<figure class="chart".*?</figure>', index.read_text(), re.S):
            spec_url = re.search(r'data-spec-url="([^"]+)"', figure)[1]
            svg_url, png_url = re.search(r'class="image-svg" href="([^"]+)" download>SVG</a>\s*'
                                         r'· <a class="image-png" href="([^"]+)" download>PNG</a>', figure).groups()
            svg = (site.public / svg_url.lstrip("/")).read_text()
            width, height = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', svg).groups())
            scale = png_scale(svg)  # 2, or less where 2× would pass PNG_MAX_PIXELS
            assert scale == 2 or round(2 * width) * round(2 * height) > PNG_MAX_PIXELS
            got = png_size((site.public / png_url.lstrip("/")).read_bytes())
            assert all(abs(g - scale * w) <= 1 for g, w in zip(got, (width, height), strict=True)), (got, scale)
            # beside the spec it is drawn from (a server page shows its campaigns' charts from their pages)
            folder = spec_url.rsplit("/", 2)[1]
            assert svg_url.startswith(f"{spec_url.rsplit('/', 1)[0]}/{folder}-"), (index, svg_url)
            charts += 1
    assert charts > 200


def test_a_page_with_charts_shares_its_first_chart_as_og_image_and_shows_images_without_javascript(site):
    markup = (site.public / PAGE / "index.html").read_text()
    assert f'<meta property="og:image" content="/{PAGE}/innodb-busy-wait-8030-dell32-rqps.png">' in markup
    noscript = re.findall(r'<noscript><img class="chart-image" src="([^"]+)" alt="[^"]+"></noscript>', markup)
    assert noscript and all((site.public / u.lstrip("/")).is_file() for u in noscript)
    assert len(noscript) == markup.count('<figure class="chart"')


def test_an_unchanged_chart_is_not_drawn_again(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERCUTS_IMAGE_CACHE", str(tmp_path / "cache"))
    data = write_data(tmp_path / "data")
    content = tmp_path / "content"  # the home page alone: no investigation needs the shipped data
    (content / "investigations").mkdir(parents=True)
    shutil.copyfile(PROJECT / "content" / "_index.md", content / "_index.md")
    paths = Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public", content=content)

    def images():
        t = Timings()
        build(paths, t)
        return t.images, {p.name: p.read_bytes() for p in paths.public.rglob("*-*.svg")}

    first, svgs = images()
    assert first.rendered > 0 and svgs
    home = content / "_index.md"
    home.write_text(home.read_text() + "\n")  # an input changed, no chart did: the build runs
    again, same = images()
    assert (again.rendered, again.reused) == (0, first.rendered + first.reused) and same == svgs
    results = data / "campaigns" / "2026-01-02-test" / "results.csv"
    text = results.read_text()
    results.write_text(text.replace("my8040,cfg,update-index,100,1,100", "my8040,cfg,update-index,100,1,200"))
    changed, after = images()
    assert changed.rendered == first.rendered  # the one chart's spec changed: drawn again
    assert after.keys() == svgs.keys() and all(after[n] != svgs[n] for n in svgs)


def test_a_font_installed_since_the_images_were_cached_draws_them_again(tmp_path, monkeypatch):
    # Text is measured with the system's fonts: a cached image drawn before a font was installed
    # is a chart 1 px narrower than a fresh build's (seen when Chromium's packages arrived).
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    monkeypatch.setattr(images, "FONT_DIRS", (str(fonts), str(tmp_path / "absent")))
    spec = b'{"mark": "bar"}'
    before = images.cache_key(spec, images._renderer())
    assert images.cache_key(spec, images._renderer()) == before
    (fonts / "truetype").mkdir()
    (fonts / "truetype" / "LiberationSans-Regular.ttf").write_bytes(b"font")
    assert images.cache_key(spec, images._renderer()) != before


def test_a_build_says_when_the_images_font_is_not_installed(tmp_path, monkeypatch):
    fonts = tmp_path / "fonts"
    (fonts / "truetype" / "dejavu").mkdir(parents=True)
    (fonts / "truetype" / "dejavu" / "DejaVuSans.ttf").write_bytes(b"font")
    monkeypatch.setattr(images, "FONT_DIRS", (str(tmp_path / "absent"), str(fonts)))
    assert not images.font_installed()
    (fonts / "truetype" / "liberation").mkdir()
    (fonts / "truetype" / "liberation" / "LiberationSans-Regular.ttf").write_bytes(b"font")
    assert images.font_installed()


@pytest.mark.browser
def test_a_reader_without_javascript_sees_the_chart_images(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + f"/{PAGE}/")
    images = page.locator("noscript img.chart-image, img.chart-image")
    page.wait_for_load_state("load")
    loaded = page.evaluate("[...document.images].filter(i => i.classList.contains('chart-image'))"
                           ".map(i => i.complete && i.naturalWidth > 0)")
    assert loaded and all(loaded) and images.count() == len(loaded)
    context.close()


def test_a_build_without_images_draws_none_and_offers_no_image_links(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERCUTS_IMAGES", "0")
    data = write_data(tmp_path / "data")
    content = tmp_path / "content"
    (content / "investigations").mkdir(parents=True)
    shutil.copyfile(PROJECT / "content" / "_index.md", content / "_index.md")
    paths = Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public", content=content)
    t = Timings()
    build(paths, t)
    assert "images" not in t and t.images is None
    assert not list(paths.public.rglob("*.png")) and not [p for p in paths.public.rglob("*.svg")
                                                          if p.name != "favicon.svg"]
    pages = [p.read_text() for p in paths.public.rglob("index.html")]
    charts = sum(p.count('<figure class="chart"') for p in pages)
    assert charts > 0  # the charts are there, their images are not offered
    assert not any("image-png" in p or "image-svg" in p or "chart-image" in p for p in pages)


def png_chunks(data: bytes) -> list[bytes]:
    kinds, pos = [], 8
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kinds.append(data[pos + 4:pos + 8])
        pos += 12 + n
    return kinds


def test_a_png_holds_only_its_pixels_and_is_drawn_the_same_from_the_same_svg(site):
    png_path = site.public / PAGE / "innodb-busy-wait-8030-dell32-rqps.png"
    png, svg = png_path.read_bytes(), png_path.with_suffix(".svg").read_text()
    # no date, camera data (libvips adds an eXIf chunk unless told not to) or text: reproducible
    assert set(png_chunks(png)) == {b"IHDR", b"pHYs", b"IDAT", b"IEND"}
    assert images.png_of(svg) == png


def test_an_image_is_measured_and_drawn_in_one_font(site):
    """Vega measures each text, to size the chart, in the font it is given; the PNG's renderer
    draws it in the same. Given the pages' font (system-ui first), vl-convert 2.0 measures in
    DejaVu Sans, which is wider, where librsvg draws Liberation Sans: a ladder chart of ax162-s
    was laid out 853 px wide, 690 px in Liberation Sans."""
    checked = 0
    for svg_path in sorted((site.public / PAGE).glob("*.svg")):
        svg = svg_path.read_text()
        fonts = set(re.findall(r'font-family="([^"]+)"', svg))
        assert fonts == {images.IMAGE_FONT}, (svg_path, fonts)
        checked += 1
    assert checked >= 5
