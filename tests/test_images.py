"""Static images of every chart, drawn at build time and cached by the hash of the spec (issue 14)."""
from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import struct
import sys

import numpy as np
import pytest
import pyvips
import vl_convert

from datadir import write_data
from papercuts.build import Timings, build
from papercuts.paths import PROJECT, Paths
from papercuts.problems import UserError
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


def test_a_charts_images_say_where_it_is_and_of_when_as_its_embed_page_does(site):
    """An SVG or PNG pasted into a blog post showed a title and no word of its site, page, source
    or the date of its data. Each chart's images carry the lines its embed page shows (checked
    against that page, a separate output): the site, the chart's page, "Data as of", its source."""
    checked = sourced = 0
    for embed in sorted((site.public / "embed").glob("*/**/index.html")):  # not /embed/'s own
        text = embed.read_text()
        spec_url = re.search(r'data-spec-url="([^"]+)"', text)
        svg_url = re.search(r'<noscript><img class="chart-image" src="([^"]+)"', text)
        page = "/" + embed.parent.parent.relative_to(site.public / "embed").as_posix() + "/"
        if not spec_url or not svg_url or spec_url[1].rsplit("/", 1)[0] + "/" != page or "@" in embed.parent.name:
            continue  # a chart shown from another page (its images are that page's), or a pin
        as_of = re.search(r'<span class="as-of">Data as of (\d{4}-\d{2}-\d{2})</span>', text)[1]
        svg = html.unescape((site.public / svg_url[1].lstrip("/")).read_text())
        assert re.search(f">Papercuts · {re.escape(page)} · Data as of {as_of}</(text|tspan)>", svg), (embed, as_of)
        # a linked source ends in its link's hidden "(opens in a new tab)" (embed.html.j2)
        source = re.search(r'<p class="embed-source">(?:<a [^>]*>)?(Source: [^<]+?)'
                           r'(?:<span class="visually-hidden">[^<]*</span></a>)? · <span', text)
        if source:
            assert re.search(f">{re.escape(html.unescape(source[1]))}</(text|tspan)>", svg), embed
            sourced += 1
        checked += 1
    assert checked > 100 and sourced > 50, (checked, sourced)


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


def test_without_the_images_font_a_build_draws_its_pngs_with_vl_convert_and_says_so(tmp_path, monkeypatch):
    """Where neither Liberation Sans nor Arial is installed, librsvg would draw the labels in another
    font than vl-convert measured them in: the build's workers draw the PNGs with vl-convert's own
    renderer (its own Liberation Sans), which the cache key names, and the build says so."""
    monkeypatch.setenv("PAPERCUTS_IMAGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(images, "FONT_DIRS", (str(tmp_path / "no-fonts"),))
    data = write_data(tmp_path / "data")
    content = tmp_path / "content"
    (content / "investigations").mkdir(parents=True)
    shutil.copyfile(PROJECT / "content" / "_index.md", content / "_index.md")
    paths = Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public", content=content)
    said: list[str] = []
    t = Timings(say=said.append)
    build(paths, t)
    assert t.images.rendered > 0 and not t.images.librsvg
    assert any("PNGs were drawn by vl-convert's renderer" in line for line in said)
    pngs = sorted(paths.public.rglob("*-*.png"))
    assert pngs and all(set(png_chunks(p.read_bytes())) == {b"IHDR", b"pHYs", b"IDAT", b"IEND"} for p in pngs)
    # each is the one vl-convert's renderer draws from its SVG, not librsvg's
    svg = pngs[0].with_suffix(".svg").read_text()
    assert pngs[0].read_bytes() == images.png_of(svg, librsvg=False) != images.png_of(svg, librsvg=True)


def test_a_font_installed_since_the_images_were_cached_draws_them_again(tmp_path, monkeypatch):
    # Text is drawn in the system's fonts (librsvg, through fontconfig): a cached image drawn before
    # a font was installed may not be the one a fresh build draws (1.9 measured in them too: a
    # chart came out 1 px narrower once Chromium's packages had brought fonts).
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    monkeypatch.setattr(images, "FONT_DIRS", (str(fonts), str(tmp_path / "absent")))
    spec = b'{"mark": "bar"}'
    before = images.cache_key(spec, images._renderer(True))
    assert images.cache_key(spec, images._renderer(True)) == before
    (fonts / "truetype").mkdir()
    (fonts / "truetype" / "LiberationSans-Regular.ttf").write_bytes(b"font")
    assert images.cache_key(spec, images._renderer(True)) != before


def test_the_images_font_is_not_installed_with_dejavu_alone_and_is_with_liberation_sans(tmp_path, monkeypatch):
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
    assert images.png_of(svg, images.font_installed()) == png  # as the build drew it


def test_an_svg_names_a_font_of_the_widths_it_was_laid_out_in(site):
    """vl-convert lays the images' text out in its own Liberation Sans; the SVG a reader opens or
    a blog embeds names it, then Arial and Helvetica, of the same widths, so any browser draws the
    labels as long as they were measured. With the pages' system-ui, the SVG was laid out in what
    the build's machine took for it (DejaVu Sans here) and drawn in Segoe UI or SF by readers."""
    checked = 0
    for svg_path in sorted((site.public / PAGE).glob("*.svg")):
        svg = svg_path.read_text()
        fonts = set(re.findall(r'font-family="([^"]+)"', svg))
        assert fonts == {images.IMAGE_FONT}, (svg_path, fonts)
        checked += 1
    assert checked >= 5


TITLE = "MySQL 8.0.44 to 9.5.0 on socket2, 16 threads (dec25.sb.gtid/socket2) (c24r64) WWWW mmmm iiii"


def _title_gap(librsvg: bool) -> float:
    """Where the PNG's title ends, in px before the right edge the SVG was laid out with. The title
    is the chart's widest part, so Vega sizes the chart to it (5 px of padding, then the last
    letter's side bearing)."""
    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.json", "title": {"text": TITLE, "anchor": "start"},
            "width": 40, "height": 20, "mark": "bar", "data": {"values": [{"a": 1}]},
            "encoding": {"x": {"field": "a", "type": "quantitative", "axis": None}},
            "config": {"font": images.IMAGE_FONT}}
    svg = images.numbered(vl_convert.vegalite_to_svg(json.dumps(spec), vl_version=images.VL_VERSION))
    width = float(re.search(r'<svg[^>]*\swidth="([\d.]+)"', svg)[1])
    scale = images.png_scale(svg)
    pixels = pyvips.Image.new_from_buffer(images.png_of(svg, librsvg), "").numpy()
    title = pixels[: int(18 * scale)]  # the title's line, above the bar
    ink = np.flatnonzero(((title[..., 3] > 128) & (title[..., 0] < 100)).any(axis=0))
    return width - (ink.max() + 1) / scale


@pytest.mark.parametrize("librsvg", [True, False], ids=["librsvg", "vl-convert"])
def test_a_label_is_drawn_as_wide_as_it_was_measured(librsvg):
    if librsvg and not images.font_installed():
        pytest.skip("librsvg draws only with Liberation Sans or Arial installed (a build then uses vl-convert's)")
    # Measured in one font and drawn in another, the title ends 131 px short of the edge (drawn in
    # Liberation Sans, measured in DejaVu Sans) or runs past it, clipped (the other way round).
    assert 4 <= _title_gap(librsvg) <= 10


def test_an_svg_is_the_same_whatever_its_worker_drew_before_it():
    # A label that names the counter's next value, a clipped mark (clip ids are counted too) and a
    # colour legend (a gradient).
    spec = json.dumps({"$schema": "https://vega.github.io/schema/vega-lite/v6.json",
                       "title": "gradient_2 url(#gradient_2) clip3", "mark": {"type": "rect", "clip": True},
                       "data": {"values": [{"x": "a", "v": 1}, {"x": "b", "v": 2}]},
                       "encoding": {"x": {"field": "x", "type": "nominal"},
                                    "color": {"field": "v", "type": "quantitative"}}})
    drawn = [vl_convert.vegalite_to_svg(spec, vl_version=images.VL_VERSION) for _ in range(4)]
    assert len(set(drawn)) == 4  # Vega numbers gradients and clips with counters of the process
    svgs = {images.numbered(svg) for svg in drawn}
    assert len(svgs) == 1
    svg = svgs.pop()
    assert 'id="gradient_0"' in svg and 'fill="url(#gradient_0)"' in svg
    assert 'id="clip0"' in svg and 'clip-path="url(#clip0)"' in svg
    # a label, and what a screen reader is told of it, are text: never renumbered
    assert ">gradient_2 url(#gradient_2) clip3<" in svg
    assert "aria-label=\"Title text 'gradient_2 url(#gradient_2) clip3'\"" in svg


def test_without_pyvips_binary_drawing_images_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "_libvips", None)  # its import fails, as where it is missing
    with pytest.raises(UserError, match="pyvips-binary.*make site.*--no-images"):
        images.check()


def test_a_libvips_module_pyvips_binary_did_not_install_is_refused(monkeypatch):
    """A pyvips built against a system libvips installs its own _libvips.abi3.so over the one
    pyvips-binary installed, at the same path: the file's hash is not the one in its record."""
    real = images.metadata.files

    class Altered:  # pyvips-binary's record, its _libvips entry with another file's hash
        @staticmethod
        def files(name):
            out = real(name)
            for f in out:
                if f.name.startswith("_libvips"):
                    f.hash = type(f.hash)("sha256=" + "A" * 43)
            return out

    monkeypatch.setattr(images, "metadata", Altered)
    with pytest.raises(UserError, match="not pyvips-binary's.*pip cache remove pyvips"):
        images.check()
