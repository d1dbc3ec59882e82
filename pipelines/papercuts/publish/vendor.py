"""Fetch the pinned Vega, Vega-Lite and vega-embed bundles from npm and check their SHA-256.

Nothing third-party is committed: the bundles land in git-ignored folders at set-up time, and
site/vendor.sha256 (committed) says exactly which bytes are accepted.
"""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from ..paths import Paths
from ..problems import UserError

PACKAGES = {"vega": "6.4.0", "vega-lite": "6.5.0", "vega-embed": "7.3.0"}
# file in the tarball → (package, destination folder key)
FILES = {
    "vega.min.js": "vega", "vega-lite.min.js": "vega-lite", "vega-embed.min.js": "vega-embed",
    "vega-lite-schema.json": "vega-lite",
}


def expected_sums(paths: Paths) -> dict[str, str]:
    sums = {}
    for line in (paths.site / "vendor.sha256").read_text().splitlines():
        if line.strip():
            digest, name = line.split()
            sums[name] = digest
    return sums


def destination(paths: Paths, name: str) -> Path:
    return paths.vegalite_schema if name.endswith(".json") else paths.vendor / name


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_vendored(paths: Paths) -> bool:
    sums = expected_sums(paths)
    return all(destination(paths, n).is_file() and _sha256(destination(paths, n)) == sums[n] for n in FILES)


def vendor(paths: Paths) -> None:
    if is_vendored(paths):
        return
    sums = expected_sums(paths)
    with tempfile.TemporaryDirectory() as tmp:
        specs = [f"{name}@{version}" for name, version in PACKAGES.items()]
        proc = subprocess.run(["npm", "pack", "--silent", *specs], cwd=tmp, capture_output=True, text=True)
        if proc.returncode != 0:
            raise UserError("npm pack failed (is Node.js/npm installed and the npm registry reachable?):\n"
                            + proc.stderr.strip())
        for fname, package in FILES.items():
            tgz = Path(tmp) / f"{package}-{PACKAGES[package]}.tgz"
            with tarfile.open(tgz) as tar:
                member = tar.extractfile(f"package/build/{fname}")
                data = member.read() if member else b""
            digest = hashlib.sha256(data).hexdigest()
            if digest != sums[fname]:
                raise UserError(f"{fname} from {package}@{PACKAGES[package]} has SHA-256 {digest}, "
                                f"expected {sums[fname]} (site/vendor.sha256)")
            dest = destination(paths, fname)
            dest.parent.mkdir(parents=True, exist_ok=True)
            part = dest.with_name(dest.name + ".part")
            part.write_bytes(data)
            part.replace(dest)
    shutil.rmtree(paths.vendor / ".tmp", ignore_errors=True)
