"""The documentation and the code agree: every contract column is documented, every documented
column exists, and the README's commands are real targets."""
from __future__ import annotations

import re

from papercuts.cli import parser
from papercuts.contract import ALL_TABLES, CALIBRATION_KEYS, CALIBRATION_TABLES, CAMPAIGN_KEYS, CONSTANT_UNITS
from papercuts.paths import PROJECT

CONTRACT = (PROJECT / "data" / "README.md").read_text()


def documented_columns(file: str) -> set[str]:
    section = CONTRACT.split(f"## {file}", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for row in re.findall(r"^\| ([^|]+) \|", section, flags=re.M):
        names |= {n.strip() for n in row.split(",")} - {"column", "---"}
    return names


def test_every_contract_column_is_documented_and_nothing_else():
    for table in ALL_TABLES:
        heading = table.file if not table.per_campaign else table.file + ":"
        assert f"## {heading}" in CONTRACT, f"no section for {table.file}"
        cols = {c.name for c in table.columns}
        assert documented_columns(heading) == cols, table.file


def test_every_campaign_key_is_in_the_example():
    example = CONTRACT.split("campaign.toml\n\n```toml", 1)[1].split("```", 1)[0]
    keys = set(re.findall(r"^(\w+) =", example, flags=re.M))
    assert keys == set(CAMPAIGN_KEYS)


def test_readme_commands_exist():
    readme = (PROJECT / "README.md").read_text()
    makefile = (PROJECT / "Makefile").read_text()
    for target in re.findall(r"make (\w+)", readme):
        assert re.search(rf"^{target}:", makefile, flags=re.M), target
    commands = parser()._subparsers._group_actions[0].choices
    for command in re.findall(r"papercuts (\w+)", readme):
        assert command in commands, command
    assert "make site" in readme.split("\n\n")[1] + readme.split("```sh")[1]


def test_every_calibration_column_and_key_is_documented():
    for table in CALIBRATION_TABLES:
        heading = table.file + ":"
        assert f"## {heading}" in CONTRACT, f"no section for {table.file}"
        assert documented_columns(heading) == {c.name for c in table.columns}, table.file
    section = CONTRACT.split("/calibration.toml\n", 1)[1].split("\n## ", 1)[0]
    example = section.split("```toml", 1)[1].split("```", 1)[0]
    assert set(re.findall(r"^(\w+) =", example, flags=re.M)) == set(CALIBRATION_KEYS)
    constants = " ".join(CONTRACT.split("## constants.csv", 1)[1].split("\n## ", 1)[0].split())
    for name, unit in CONSTANT_UNITS.items():
        assert f"`{name}` (`{unit}`" in constants, name
