"""Shared fixtures: the real site built once per session, served with the production headers."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from papercuts.build import build
from papercuts.paths import PROJECT, Paths
from papercuts.publish.serve import make_server

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Chart images are cached by the hash of what they are drawn from (render/images.py): every build
# of the session shares `make site`'s cache, so a chart is drawn once, not once per test build.
os.environ.setdefault("PAPERCUTS_IMAGE_CACHE", str(PROJECT / "build" / "images"))


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Paths:
    """The shipped data/ built with the real DuckDB and Hugo into a scratch folder."""
    root = tmp_path_factory.mktemp("site")
    paths = Paths.make(build=root / "build", out=root / "public")
    build(paths)
    return paths


@pytest.fixture(scope="session")
def server(site):
    httpd = make_server(site.public)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of the shipped data/ for tests that break it."""
    dest = tmp_path / "data"
    shutil.copytree(PROJECT / "data", dest)
    return dest


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # CHROMIUM=playwright uses Playwright's own download (where the internet is reachable);
    # otherwise Debian's chromium, since Playwright's download is not reachable here.
    executable = {} if CHROMIUM == "playwright" else {"executable_path": CHROMIUM}
    return {
        **browser_type_launch_args,
        **executable,
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"],
    }
