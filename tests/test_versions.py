import pytest

from papercuts.versions import parse_version


def test_versions_order_as_versions_not_strings():
    # mytools spells Postgres 11.0 and 10.23 as pg110 and pg1023: as strings, 10.23 would sort last.
    assert parse_version("10.23") < parse_version("11.0")
    assert parse_version("8.0.9") < parse_version("8.0.28") < parse_version("8.0.100")
    ladder = ["8.0.32", "5.6.51", "8.0.28", "5.7.44", "10.0.17", "5.5"]
    assert sorted(ladder, key=parse_version) == ["5.5", "5.6.51", "5.7.44", "8.0.28", "8.0.32", "10.0.17"]


def test_prereleases_come_before_the_release():
    assert parse_version("18beta1") < parse_version("18beta2") < parse_version("18rc1") < parse_version("18")
    assert parse_version("18") < parse_version("18.1")


def test_trailing_zero_parts_are_equal():
    assert parse_version("8.0") == parse_version("8.0.0")


@pytest.mark.parametrize("bad", ["", "8.x", "v8", "8..0", "1.2.3.4.5", "eighteen"])
def test_bad_versions_are_rejected(bad):
    with pytest.raises(ValueError):
        parse_version(bad)

