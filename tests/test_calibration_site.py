"""Calibrations on the built site: server sections, the comparison page, the busy-wait
investigation's tables, downloads byte for byte, and contributed strings kept as text."""
from __future__ import annotations

import html
import re
import shutil

from papercuts.build import build
from papercuts.paths import PROJECT, Paths

SEED_SERVERS = ("beelink", "pn53", "ax162-s", "dell32", "socket2")


def page(site, url: str) -> str:
    return (site.public / url.strip("/") / "index.html").read_text()


def text_of(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def test_every_seed_server_page_has_its_calibration_section(site):
    for server in SEED_SERVERS:
        text = text_of(page(site, f"/servers/{server}/"))
        assert f"Calibration 2024-10-23-{server}-busy-wait" in text, server
        assert "InnoDB busy-wait loops changed in MySQL 8.0.30" in text, server  # the source is named
    dell32 = text_of(page(site, "/servers/dell32/"))
    assert re.search(r"dell32 MySQL 8\.0\.28 0\.00 1\.23 2\.47 3\.69 4\.91 6\.15", dell32)
    p82 = text_of(page(site, "/servers/p82/"))
    assert "Calibration 2015-08-31-p82-bug-74832" in p82 and "ut_delay_optim 1 225.0 225 225" in p82


def test_the_busy_wait_investigation_shows_the_seed_calibration_tables(site):
    text = text_of(page(site, "/investigations/innodb-busy-wait-8030/"))
    # seed 000's 8.0.40 ut_delay row for beelink and its PRNG row for socket2 (labelled "socket")
    assert "beelink MySQL 8.0.40 0.00 1.66 3.32 4.96 6.61 8.26 9.91" in text
    assert "ut_rnd_interval 8.0.28 · X in [0, N) socket2 13 12 11" in text
    assert "ut::random_from_interval 8.0.40 · X in [0, N] socket2 22 26 29" in text
    assert "6 2.5 3.0 1.20" in text  # N = 6: mean X 2.5 → 3.0, ×1.2
    assert "data/calibrations/2024-10-23-dell32-busy-wait/ut_delay.csv" in text  # listed under Sources


def test_the_calibration_page_compares_servers_and_offers_the_files(site):
    text = text_of(page(site, "/calibration/"))
    for server in SEED_SERVERS:
        assert re.search(rf"{re.escape(server)} 0?\.?\d\.\d{{3}} ± 0\.\d{{3}} 6 2\.5 3\.0 1\.20", text), server
    for folder in (site.data / "calibrations").iterdir():
        for f in folder.iterdir():
            published = site.public / "calibration" / "files" / folder.name / f.name
            assert published.read_bytes() == f.read_bytes(), f
    assert 'href="/calibration/"' in page(site, "/")  # in the site navigation


HOSTILE = "<img src=x onerror=alert(7)>"


def test_contributed_calibration_strings_stay_text(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(PROJECT / "data", data)
    folder = data / "calibrations" / "2026-11-22-dell32-hostile"
    folder.mkdir()
    (folder / "calibration.toml").write_text(
        f"title = '{HOSTILE} title'\nserver = \"dell32\"\nsource = \"smalldatum-2024-10-23-innodb-busy-wait\"\n"
        f"contributor = '{HOSTILE}'\ndate = 2026-11-22\nmethod = '</script><script>alert(8)</script>'\n")
    (folder / "ut_delay.csv").write_text(f'series,delay,us_per_call\n"{HOSTILE}",0,0.00\n"{HOSTILE}",1,1.00\n')
    (folder / "prng.csv").write_text(f'function,flags,ns_per_call\n"{HOSTILE}",O2,3\n')
    paths = Paths.make(data=data, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    for url in ("servers/dell32", "calibration"):
        markup = (paths.public / url / "index.html").read_text()
        assert HOSTILE not in markup and "<script>alert(8)" not in markup, url
        assert html.escape(HOSTILE, quote=False) in markup or "&lt;img src=x onerror=alert(7)&gt;" in markup, url


def test_calibration_files_are_the_committed_bytes(site):
    published = sorted((site.public / "calibration" / "files").rglob("*"))
    files = [p for p in published if p.is_file()]
    assert len(files) >= 12
    for f in files:
        rel = f.relative_to(site.public / "calibration" / "files")
        assert f.read_bytes() == (site.data / "calibrations" / rel).read_bytes(), rel
