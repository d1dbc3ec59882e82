"""Static images of every chart, rendered at build time: `<page slug>-<chart id>.svg` and `.png`
(at twice the size, for high-density screens, up to PNG_MAX_PIXELS) beside the chart's spec in its
page bundle. The SVG is drawn by vl-convert (Vega and Vega-Lite in an embedded JavaScript runtime:
no browser), the PNG from that SVG by libvips (librsvg).

vl-convert 1.9 measured each text by opening and mapping the font file again for every glyph, and
its PNG renderer (resvg) still does: for the shipped data's 186 charts, 38.6 s of SVG and 31.7 s of
PNG (and 8.8 s of recompressing it) in one process. vl-convert 2.0 (a release candidate: 2.0.0rc7,
the newest on PyPI; move to 2.0.0 when it is out) draws the SVGs in 5.9 s, libvips the PNGs in
14.2 s. vl-convert measures text in its own copy of Liberation Sans, whatever the system has;
librsvg draws it in the system's (fontconfig), so a machine without Liberation Sans or Arial, its
metric twin, would get labels drawn wider or narrower than measured: there, vl-convert's renderer
draws the PNG (font_installed).

Rendering is still the slow part of a first build, so each image is cached under the hash of what
it is drawn from: the renderers' versions, the fonts, the scale, the spec and its CSV. An unchanged
chart is copied from the cache, never drawn again; the cache folder (build/images/ by default, or
$PAPERCUTS_IMAGE_CACHE) may be shared by any number of builds and checkouts.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import logging
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from importlib import metadata
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
PNG_ZLIB = 6  # deflate level of the PNGs' pixels: level 9 is 6 % smaller and 8× slower (libvips)
PNG_SAVE = {"compression": PNG_ZLIB, "keep": "none"}  # keep none: no eXIf chunk (libvips adds one)
# The images' text: Liberation Sans, which vl-convert measures it in, or a font of its widths where
# it is drawn (the pages' own charts use the reader's system font, which Vega measures there).
IMAGE_FONT = "Liberation Sans, Arial, Helvetica, sans-serif"
# The ids Vega numbers with a counter of the process drawing (gradient_14 for a worker's 15th
# gradient, clip3), as an element's id or a url() its fill, stroke or clip-path refers to.
_COUNTED_ID = re.compile(r'(\s(?:id|fill|stroke|clip-path)=")(?:(gradient_|clip)(\d+)|url\(#(gradient_|clip)(\d+)\))"')
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
    librsvg: bool = True  # whether librsvg drew the PNGs (font_installed), not vl-convert's slower renderer


# Where the renderers find system fonts (fontdb's and fontconfig's Linux folders): installing a
# font (Chromium's packages bring some) may change how a chart is drawn.
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")


def _font_files() -> list[Path]:
    """Every file of FONT_DIRS, in order."""
    found = []
    for root in FONT_DIRS:
        base = Path(root).expanduser()
        found += sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else []
    return found


def fonts_digest() -> str:
    """The installed fonts, as names and sizes: part of every image's cache key."""
    h = hashlib.sha256()
    for p in _font_files():
        h.update(f"{p}\0{p.stat().st_size}\0".encode())
    return h.hexdigest()[:16]


def font_installed() -> bool:
    """Whether librsvg can draw IMAGE_FONT with Liberation Sans's widths: Liberation Sans or Arial
    is installed."""
    return any(p.name.lower().startswith(("liberationsans-regular.", "arial.")) for p in _font_files())


def _libvips() -> Path:
    """The `_libvips` module pyvips will load, which must be the pinned pyvips-binary's, as that
    package installed it (its hash in its RECORD): a pyvips built against a system libvips installs
    a module of that name and path over it, and pyvips quietly takes a system libvips when there is
    none. Found without importing pyvips, which would start libvips in the build's process long before
    the images stage."""
    missing = ("chart images need pyvips and the pinned pyvips-binary, which are not installed{}: run make site, "
               "which installs them, or build with --no-images")
    try:
        module, found = importlib.util.find_spec("_libvips"), importlib.util.find_spec("pyvips")
        record = {Path(f.locate()).resolve(): f.hash for f in metadata.files("pyvips-binary") or []}
    except Exception as e:  # a module set to None, a package half removed: any is "not there"
        raise UserError(missing.format(f" ({e})")) from None
    if module is None or found is None or not module.origin:
        raise UserError(missing.format(""))
    path = Path(module.origin).resolve()
    given = record.get(path)
    digest = base64.urlsafe_b64encode(hashlib.sha256(path.read_bytes()).digest()).rstrip(b"=").decode()
    if given is None or given.value != digest:
        raise UserError(f"pyvips would load {path}, which is not pyvips-binary's (a pyvips built against a system "
                        "libvips replaced it): run pip cache remove pyvips, remove .venv and make again, "
                        "or build with --no-images")
    return path


def check() -> None:
    """Refuse to build with images, before any stage runs, when they could not be drawn."""
    _libvips()


@cache
def _vips():
    """pyvips, drawing with the pinned pyvips-binary's libvips (_libvips)."""
    _libvips()
    try:
        import pyvips
    except Exception as e:  # pyvips raises a bare Exception when libvips will not start
        raise UserError(f"chart images need pyvips-binary's libvips, which would not start ({e}): run make site, "
                        "which installs it, or build with --no-images") from None
    if not pyvips.API_mode:  # its _libvips would not load: pyvips took a system libvips
        raise UserError("pyvips did not load pyvips-binary's libvips: run make site again, or build with --no-images")
    return pyvips


def _renderer(librsvg: bool) -> str:
    """What draws the images, as their cache key names it: the renderers' and the binary's
    versions, the installed fonts, how a PNG is drawn and saved (a cached image is never one
    drawn another way)."""
    import vl_convert

    pyvips = _vips()
    vips = ".".join(str(pyvips.version(i)) for i in range(3))
    png = "librsvg" if librsvg else "vl-convert"
    return (f"vl-convert {vl_convert.__version__} vega {vl_convert.get_vega_version()} vl {VL_VERSION} "
            f"libvips {vips} pyvips-binary {metadata.version('pyvips-binary')} fonts {fonts_digest()} "
            f"png by {png}, saved {sorted(PNG_SAVE.items())}, gradient and clip ids numbered per chart")


def cache_key(spec: bytes, renderer: str) -> str:
    return hashlib.sha256(f"{renderer}\nscale {PNG_SCALE} max {PNG_MAX_PIXELS}\n".encode() + spec).hexdigest()


def png_scale(svg: str) -> float:
    """2× for high-density screens, less where that would pass PNG_MAX_PIXELS."""
    m = _SIZE.search(svg)
    if not m:
        return PNG_SCALE
    pixels = float(m.group(1)) * float(m.group(2))
    return min(PNG_SCALE, (PNG_MAX_PIXELS / pixels) ** 0.5) if pixels else PNG_SCALE


def drawn_spec(spec_path: Path) -> bytes:
    """What an image is drawn from: the spec with its CSV inline (the renderer fetches nothing),
    its text in IMAGE_FONT, and the lines of its credit (embeds.credited: where the chart is, the
    date of its data, its source) under its title's subtitle."""
    spec = json.loads(spec_path.read_text())
    url = (spec.get("data") or {}).get("url")
    if url:
        spec = datafile.inline(spec, (spec_path.parent / url).read_text())
    spec["config"] = {**spec.get("config", {}), "font": IMAGE_FONT}
    credit = (spec.pop("usermeta", None) or {}).get("credit") or []
    if credit:
        title = spec.get("title") or {}
        title = {"text": title} if isinstance(title, str) else {"text": "", **title}
        said = title.get("subtitle") or []
        title["subtitle"] = ([said] if isinstance(said, str) else said) + credit
        spec["title"] = {"anchor": "start", **title}
    return json.dumps(spec, sort_keys=True, separators=(",", ":")).encode()


def _draw(spec_path: str, svg_out: str, png_out: str, librsvg: bool) -> str:
    """Worker: one spec to SVG and PNG, each written beside its final name and renamed in place."""
    import vl_convert

    try:
        svg = numbered(vl_convert.vegalite_to_svg(drawn_spec(Path(spec_path)).decode(), vl_version=VL_VERSION))
        png = png_of(svg, librsvg)
    except Exception as e:  # the renderer's own message, with the chart it failed on
        return f"{spec_path}: the image renderer failed: {e}"
    for data, out in ((svg.encode(), svg_out), (png, png_out)):
        tmp = f"{out}.tmp-{os.getpid()}"
        Path(tmp).write_bytes(data)
        os.replace(tmp, out)
    return ""


def numbered(svg: str) -> str:
    """The SVG with its gradients and clips numbered from 0 as they come (_COUNTED_ID): as Vega
    numbers them, a chart's SVG depended on the charts drawn before it in its worker (50 of 185
    differed between one worker and two). Only those attributes are read: a label's text, or its
    aria-label, is never changed."""
    ids: dict[str, dict[str, int]] = {"gradient_": {}, "clip": {}}

    def renumbered(m: re.Match) -> str:
        kind, n = (m[2], m[3]) if m[2] else (m[4], m[5])
        new = f"{kind}{ids[kind].setdefault(n, len(ids[kind]))}"
        return f'{m[1]}{new}"' if m[2] else f'{m[1]}url(#{new})"'

    return _COUNTED_ID.sub(renumbered, svg)


def png_of(svg: str, librsvg: bool) -> bytes:
    """The PNG of an SVG at png_scale, drawn by librsvg (or, without its font, by vl-convert's
    renderer), holding nothing but its pixels (no date or other metadata: a build is reproducible)."""
    pyvips = _vips()
    if librsvg:
        image = pyvips.Image.svgload_buffer(svg.encode(), scale=png_scale(svg))
    else:
        import vl_convert

        image = pyvips.Image.new_from_buffer(vl_convert.svg_to_png(svg, scale=png_scale(svg)), "")
    return image.pngsave_buffer(**PNG_SAVE)


def worker_command(librsvg: bool) -> list[str]:
    """How the build starts a worker: a fresh interpreter told the build's pid and how to draw PNGs."""
    return [sys.executable, "-c", f"from papercuts.render.images import worker; worker({os.getpid()}, {librsvg})"]


def worker(build: int, librsvg: bool) -> None:
    """A worker process: draw each [spec, svg, png] job read as JSON from standard input; print
    one line per failure. It ends with the build that started it: it reads all its jobs first,
    and a killed build's worker would otherwise draw them all, for minutes at scale."""
    end_with(build)
    # vl-convert 2.0 logs Vega's warnings (an axis of no values); 1.9 said nothing, nor do the pages.
    logging.getLogger("vl_convert").setLevel(logging.ERROR)
    for spec, svg, png in json.loads(sys.stdin.read()):
        error = _draw(spec, svg, png, librsvg)
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
    librsvg = font_installed()
    renderer = _renderer(librsvg)
    todo: dict[str, Path] = {}
    placed: list[tuple[str, Path, Path]] = []
    for spec in specs(content):
        key = cache_key(drawn_spec(spec), renderer)
        svg, png = image_names(content, spec)
        placed.append((key, svg, png))
        if not (cache / f"{key}.png").is_file():
            todo.setdefault(key, spec)
    drawn = Drawn(rendered=len(todo), reused=len(placed) - len(todo), librsvg=librsvg)
    jobs = [[str(spec), str(cache / f"{key}.svg"), str(cache / f"{key}.png")]
            for key, spec in sorted(todo.items(), key=lambda kv: str(kv[1]))]
    n = max(1, min(len(jobs), workers or os.cpu_count() or 1))
    # One worker process per core, each given its share of the charts on standard input: separate
    # interpreters (vl-convert holds the GIL), started fresh rather than forked from this one.
    procs = [subprocess.Popen(worker_command(librsvg), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
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
