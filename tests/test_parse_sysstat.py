"""vmstat and iostat on real outputs: header names, since-boot rows, repeated headers, decimal commas."""
from __future__ import annotations

from pathlib import Path

import pytest

from papercuts.parsers import iostat, vmstat
from papercuts.parsers.errors import Gap, ParseError

RAW = Path(__file__).parent / "fixtures" / "raw"


def vm(name: str) -> vmstat.Vmstat:
    return vmstat.parse((RAW / "vmstat" / name).read_text(), name)


def io(name: str, device: str, since_boot: bool) -> iostat.Iostat:
    return iostat.parse((RAW / "iostat" / name).read_text(), name, device=device, since_boot=since_boot)


def test_vmstat_drops_the_since_boot_row():
    v = vm("vmstat-1.txt")
    assert v.columns == ("r", "b", "swpd", "free", "buff", "cache", "si", "so", "bi", "bo",
                         "in", "cs", "us", "sy", "id", "wa", "st")
    assert v.since_boot.line == 3 and v.since_boot.get("cs") == 1699
    assert v.column("cs") == [47489, 49902, 48721, 49776, 48560, 44736, 26993]
    assert v.column("us") == [29, 20, 18, 24, 20, 19, 10]


def test_vmstat_skips_repeated_headers():
    v = vm("vmstat-24-repeated-header.txt")
    assert v.repeated_headers == 1 and len(v.samples) == 23  # 24 rows minus since-boot; header skipped
    assert all(s.line not in (24, 25) for s in v.samples)
    assert v.samples[20].line == 26 and v.samples[20].get("cs") == 3577


def test_vmstat_wide_with_timestamps_and_guest_column():
    v = vm("vmstat-wt.txt")
    assert v.columns[-2:] == ("st", "gu")
    assert v.samples[0].timestamp == "2026-11-22 04:35:30" and v.samples[0].get("cs") == 21853


def test_vmstat_traps():
    assert vmstat.parse("", "v") == Gap("v", "empty")
    with pytest.raises(ParseError) as e:
        vmstat.parse(" r  b swpd\n 1 0 0\n 1 0\n", "v")
    assert (e.value.line, "2 fields where the header has 3" in str(e.value)) == (3, True)
    with pytest.raises(ParseError):
        vmstat.parse(" 1 0 0\n", "v")


def test_iostat_y_keeps_every_report_of_the_named_device():
    i = io("iostat-ykx-vda.txt", "vda", since_boot=False)
    assert (i.devices, i.cpus, len(i.samples)) == (("vda",), 2, 5)
    assert [s.get("r/s") for s in i.samples] == [262.0, 0.0, 187.0, 0.0, 0.0]
    assert [s.wkb_per_s for s in i.samples] == [23600.0, 27192.0, 23404.0, 23952.0, 22952.0]


def test_iostat_without_y_drops_the_since_boot_report():
    i = io("iostat-x.txt", "vda", since_boot=True)
    assert [s.report for s in i.samples] == [2, 3, 4, 5, 6, 7, 8] and i.samples[0].get("r/s") == 262.0
    assert io("iostat-t.txt", "vda", since_boot=True).samples[0].report == 2  # -t timestamps skipped


def test_iostat_decimal_commas_old_header_and_megabytes():
    i = io("hgxl64-decimal-comma-excerpt.txt", "fioa", since_boot=True)
    assert i.devices == ("sda", "sde", "md127", "fioa") and i.cpus == 24
    assert i.columns[:4] == ("rrqm/s", "wrqm/s", "r/s", "w/s")  # "Device:" ub16 layout
    assert [s.get("r/s") for s in i.samples] == [39796.40, 40970.20]
    assert i.samples[0].rkb_per_s == pytest.approx(621.82 * 1024)  # rMB/s without -k
    de = io("iostat-de_DE.txt", "vda", since_boot=True)
    assert de.samples[0].get("w/s") == 0.0 and io("iostat-de_DE.txt", "vda", False).samples[0].get("r/s") == 52.03


def test_iostat_unknown_device_and_gaps():
    with pytest.raises(ParseError) as e:
        io("iostat-ykx-vda.txt", "nvme0n1", since_boot=False)
    assert ("device 'nvme0n1' is not in the iostat output (devices present: vda; set iostat_device in "
            "campaign.toml to one of them)") in str(e.value)
    # Cut short before its first device line: said so, with what to do (it said 'devices present: none')
    head = (RAW / "iostat" / "iostat-ykx-vda.txt").read_text().split("Device")[0] + "Device r/s w/s\n"
    with pytest.raises(ParseError) as e:
        iostat.parse(head, "i", device="vda", since_boot=False)
    assert "holds no device line (cut short?): run iostat -dxm with vda again" in str(e.value)
    assert iostat.parse(" ", "i", device="vda", since_boot=False) == Gap("i", "empty")
