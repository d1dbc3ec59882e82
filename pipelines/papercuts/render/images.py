"""Static images of every chart, rendered at build time: `<page slug>-<chart id>.svg` and `.png`
(at twice the size, for high-density screens, up to PNG_MAX_PIXELS) beside the chart's spec in its
page bundle. The SVG is drawn by vl-convert (Vega and Vega-Lite in an embedded JavaScript runtime:
no browser), the PNG from that SVG by libvips (librsvg).

vl-convert 1.9 measured each text by opening and mapping the font file again for every glyph, and
its PNG renderer (resvg) still does: for the shipped data's 186 charts, 38.6 s of SVG and 31.7 s of
PNG (and 8.8 s of recompressing it) in one process. vl-convert 2.0 draws the SVGs in 5.9 s, libvips
the PNGs in 14.2 s. Both lay text out in IMAGE_FONT, so the width Vega measured is the width drawn.

Rendering is still the slow part of a first build, so each image is cached under the hash of what
it is drawn from: the renderers' versions, the fonts, the scale, the spec and its CSV. An unchanged
chart is copied from the cache, never drawn again; the cache folder (build/images/ by default, or
$PAPERCUTS_IMAGE_CACHE) may be shared by any number of builds and checkouts.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..children import end_with
from ..paths import VERBATIM
from ..problems import UserError
from . import datafile
from .embeds import image_stem

PNG_SCALE = 2
# A PNG at most this many pixels: a tall chart (a cost chart of 40 microbenchmarks × 10 builds is
# ~900 × 6,000 px) is drawn below 2× so its PNG stays near 1 MB, not 11; its SVG is always whole.
PNG_MAX_PIXELS = 2_500_000
PNG_ZLIB = 6  # deflate level of the PNGs' pixels: level 9 is 3 % smaller and 5× slower
# The images' text, measured (vl-convert) and drawn (librsvg) in the first of these installed, which
# the two pick alike (the pages' own charts use the reader's system font). Arial and Helvetica have
# Liberation Sans's widths, so the SVG a reader opens is laid out right without it.
IMAGE_FONT = "Liberation Sans, Arial, Helvetica, sans-serif"
_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"')
# The Vega-Lite version vl-convert draws with: the newest it bundles in the 6 series (the pages
# load vega-lite 6.5.0; tests/test_images.py checks a drawn SVG against its chart's CSV).
VL_VERSION = "6.4"


def enabled() -> bool:
    """Images are drawn unless PAPERCUTS_IMAGES=0 (`papercuts build --no-images`): a quick look
    at a site, or a benchmark of the other stages on SYNTHETIC data, skips the slowest stage;
    pages then offer no image links. The published site is built with them."""
    return os.environ.get("PAPERCUTS_IMAGES", "1") != "0"


@dataclass
class Drawn:
    rendered: int = 0
    reused: int = 0
    font: bool = True  # whether IMAGE_FONT's first family is installed (font_installed)


# Where the renderer finds system fonts (fontdb's Linux folders). Text is measured with them, so
# installing a font (Chromium's packages bring some) changes a chart's drawn width.
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")


def fonts_digest() -> str:
    """The installed fonts, as names and sizes: part of every image's cache key."""
    h = hashlib.sha256()
    for root in FONT_DIRS:
        base = Path(root).expanduser()
        for p in sorted(base.rglob("*")) if base.is_dir() else []:
            if p.is_file():
                h.update(f"{p}\0{p.stat().st_size}\0".encode())
    return h.hexdigest()[:16]


def font_installed() -> bool:
    """Whether Liberation Sans is installed. Without it, vl-convert measures text in one fallback
    and librsvg (fontconfig) may draw it in another, wider or narrower than measured."""
    for root in FONT_DIRS:
        base = Path(root).expanduser()
        if base.is_dir() and any(base.rglob("LiberationSans-Regular.*")):
            return True
    return False


def _renderer() -> str:
    import pyvips
    import vl_convert

    vips = ".".join(str(pyvips.version(i)) for i in range(3))
    return (f"vl-convert {vl_convert.__version__} vega {vl_convert.get_vega_version()} vl {VL_VERSION} "
            f"libvips {vips} fonts {fonts_digest()}")


def cache_key(spec: bytes, renderer: str) -> str:
    return hashlib.sha256(f"{renderer}\nscale {PNG_SCALE} max {PNG_MAX_PIXELS} zlib {PNG_ZLIB}\n".encode()
                          + spec).hexdigest()


def png_scale(svg: str) -> float:
    """2× for high-density screens, less where that would pass PNG_MAX_PIXELS."""
    m = _SIZE.search(svg)
    if not m:
        return PNG_SCALE
    pixels = float(m.group(1)) * float(m.group(2))
    return min(PNG_SCALE, (PNG_MAX_PIXELS / pixels) ** 0.5) if pixels else PNG_SCALE


def drawn_spec(spec_path: Path) -> bytes:
    """What an image is drawn from: the spec with its CSV inline (the renderer fetches nothing),
    its text in IMAGE_FONT."""
    spec = json.loads(spec_path.read_text())
    url = (spec.get("data") or {}).get("url")
    if url:
        spec = datafile.inline(spec, (spec_path.parent / url).read_text())
    spec["config"] = {**spec.get("config", {}), "font": IMAGE_FONT}
    return json.dumps(spec, sort_keys=True, separators=(",", ":")).encode()


def _draw(spec_path: str, svg_out: str, png_out: str) -> str:
    """Worker: one spec to SVG and PNG, each written beside its final name and renamed in place."""
    import vl_convert

    try:
        svg = vl_convert.vegalite_to_svg(drawn_spec(Path(spec_path)).decode(), vl_version=VL_VERSION)
        png = png_of(svg)
    except Exception as e:  # the renderer's own message, with the chart it failed on
        return f"{spec_path}: the image renderer failed: {e}"
    for data, out in ((svg.encode(), svg_out), (png, png_out)):
        tmp = f"{out}.tmp-{os.getpid()}"
        Path(tmp).write_bytes(data)
        os.replace(tmp, out)
    return ""


def png_of(svg: str) -> bytes:
    """The PNG of an SVG at png_scale, holding nothing but its pixels (no date or other metadata:
    a build is reproducible)."""
    import pyvips

    image = pyvips.Image.svgload_buffer(svg.encode(), scale=png_scale(svg))
    return image.pngsave_buffer(compression=PNG_ZLIB, keep="none")


def worker_command() -> list[str]:
    """How the build starts a worker: a fresh interpreter told the build's pid."""
    return [sys.executable, "-c", f"from papercuts.render.images import worker; worker({os.getpid()})"]


def worker(build: int) -> None:
    """A worker process: draw each [spec, svg, png] job read as JSON from standard input; print
    one line per failure. It ends with the build that started it: it reads all its jobs first,
    and a killed build's worker would otherwise draw them all, for minutes at scale."""
    end_with(build)
    for spec, svg, png in json.loads(sys.stdin.read()):
        error = _draw(spec, svg, png)
        if error:
            print(error.replace("\n", " "), flush=True)


def specs(content: Path) -> list[Path]:
    """Every chart spec of the content tree (page bundles; pinned embeds hold theirs too)."""
    return sorted(p for p in content.rglob("*.vl.json") if VERBATIM not in p.relative_to(content).parts)


def image_names(content: Path, spec: Path) -> tuple[Path, Path]:
    folder = spec.parent
    page = "/" + folder.relative_to(content).as_posix() + "/"
    chart_id = spec.name.removesuffix(".vl.json")
    stem = "chart" if chart_id == "chart" else image_stem(page, chart_id)
    return folder / f"{stem}.svg", folder / f"{stem}.png"


def render_images(content: Path, cache: Path, workers: int | None = None) -> Drawn:
    """Write the SVG and PNG of every spec under `content`, drawing only what the cache lacks."""
    cache.mkdir(parents=True, exist_ok=True)
    renderer = _renderer()
    todo: dict[str, Path] = {}
    placed: list[tuple[str, Path, Path]] = []
    for spec in specs(content):
        key = cache_key(drawn_spec(spec), renderer)
        svg, png = image_names(content, spec)
        placed.append((key, svg, png))
        if not (cache / f"{key}.png").is_file():
            todo.setdefault(key, spec)
    drawn = Drawn(rendered=len(todo), reused=len(placed) - len(todo), font=font_installed())
    jobs = [[str(spec), str(cache / f"{key}.svg"), str(cache / f"{key}.png")]
            for key, spec in sorted(todo.items(), key=lambda kv: str(kv[1]))]
    n = max(1, min(len(jobs), workers or os.cpu_count() or 1))
    # One worker process per core, each given its share of the charts on standard input: separate
    # interpreters (vl-convert holds the GIL), started fresh rather than forked from this one.
    procs = [subprocess.Popen(worker_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(n if jobs else 0)]
    for i, p in enumerate(procs):  # each worker reads all its jobs before it draws (and prints)
        p.stdin.write(json.dumps(jobs[i::n]))
        p.stdin.close()
    errors = [line for p in procs for line in p.stdout.read().splitlines() if line]
    for p in procs:
        p.wait()
    errors += [f"the image renderer exited with status {p.returncode}" for p in procs if p.returncode]
    if errors:
        raise UserError(errors[0])
    # Links (copies across file systems): a cache file is only ever replaced, never written in
    # place, and the site gets copies of them (publish/placed.py), which from one build to the
    # next are the same files when their source here is.
    for key, svg, png in placed:
        for source, out in ((cache / f"{key}.svg", svg), (cache / f"{key}.png", png)):
            out.unlink(missing_ok=True)
            try:
                os.link(source, out)
            except OSError:
                shutil.copyfile(source, out)
    return drawn
