"""The pinned packages: the build tools installed first (requirements-build.lock, the Makefile)
are the versions and files requirements.lock pins, so installing it changes none of them."""
from __future__ import annotations

import re
import tomllib

from papercuts.paths import PROJECT


def pins(path) -> dict[str, tuple[str, frozenset[str]]]:
    """name -> (version, its files' SHA-256) of a lock written by `uv pip compile --generate-hashes`."""
    out: dict[str, tuple[str, frozenset[str]]] = {}
    for name, version, hashes in re.findall(r"^([a-z0-9._-]+)==(\S+) \\\n((?:\s+--hash=sha256:\w+(?: \\)?\n)+)",
                                            path.read_text(), re.M):
        out[name] = (version, frozenset(re.findall(r"sha256:(\w+)", hashes)))
    return out


def test_the_build_tools_are_the_locked_versions_and_files():
    build, lock = pins(PROJECT / "requirements-build.lock"), pins(PROJECT / "requirements.lock")
    assert {"setuptools", "wheel", "cffi"} <= build.keys()
    for name, pinned in build.items():
        assert lock.get(name) == pinned, name


def test_every_dependency_is_locked_at_its_pin():
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]
    lock = pins(PROJECT / "requirements.lock")
    wanted = [*project["dependencies"], *(d for extra in project["optional-dependencies"].values() for d in extra)]
    for requirement in wanted:
        name, version = requirement.split("==")
        assert lock[name.lower()][0] == version, requirement
        assert lock[name.lower()][1], requirement  # at least one file's hash
