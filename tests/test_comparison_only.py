"""campaign.toml's comparison_only: builds a campaign measured to compare, kept off its version ladders
(derive/ladders.py), whatever one_per_version would keep; checked against the campaign's own results."""
from __future__ import annotations

import re
import subprocess
import sys

import duckdb

from papercuts.build import build
from papercuts.paths import Paths

PN53 = "2025-11-28-pn53-mysql-5-6-to-9-5"  # 8.4.6 measured twice: my8406_rel_o2nofp and the rebuild my8406v2


def _check(data) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "papercuts.cli", "check", "--data", str(data)],
                          capture_output=True, text=True)


def _name(data, line: str) -> str:
    toml = data / "campaigns" / PN53 / "campaign.toml"
    toml.write_text(toml.read_text() + line + "\n")
    return f"data/campaigns/{PN53}/campaign.toml"


def test_a_name_the_campaign_has_not_is_an_error_at_its_value(data_copy):
    _name(data_copy, 'comparison_only = ["my8406_rel_o2nofp", "my8406_rel_o2nofq"]')
    done = _check(data_copy)
    assert done.returncode != 0
    lines = [x for x in done.stdout.splitlines() + done.stderr.splitlines() if "comparison_only" in x]
    assert len(lines) == 1, done.stdout + done.stderr
    assert re.search(rf"{PN53}/campaign\.toml:9:19: error: comparison_only names 'my8406_rel_o2nofq', which no "
                     r"result of this campaign has \(did you mean 'my8406_rel_o2nofp'\?\)", lines[0]), lines[0]


def test_a_value_that_is_not_a_list_of_variants_is_an_error(data_copy):
    _name(data_copy, 'comparison_only = "my8406_rel_o2nofp"')
    done = _check(data_copy)
    assert done.returncode != 0
    assert re.search(r"campaign\.toml:9:19: error: comparison_only must be a list of builds or build\.config "
                     r"variants \(write comparison_only = \[", done.stdout + done.stderr), done.stdout + done.stderr


def test_a_build_named_comparison_only_leaves_the_ladder_for_the_other_build_of_its_version(data_copy, tmp_path):
    """Without it the ladder keeps my8406_rel_o2nofp (the rule: the first, as flavours tie) and lists the
    rebuild; named comparison_only, the rebuild is the ladder's 8.4.6 and the page says why the other is not."""
    _name(data_copy, 'comparison_only = ["my8406_rel_o2nofp"]')
    assert _check(data_copy).returncode == 0
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    con = duckdb.connect(str(paths.db), read_only=True)
    ladder = f"{PN53}.pn53.mysql.innodb.c8r32.1"
    assert con.execute("SELECT build FROM ladder_builds WHERE ladder = ? AND version = '8.4.6'",
                       [ladder]).fetchall() == [("my8406v2_rel_o2nofp",)]
    assert con.execute("SELECT build, reason, kept_build FROM ladder_left_out WHERE ladder = ?",
                       [ladder]).fetchall() == [("my8406_rel_o2nofp", "campaign", None)]
    page = re.sub(r"\s+", " ", (paths.public / "ladders" / "pn53-mysql-1" / "index.html").read_text())
    assert "<code>my8406_rel_o2nofp.z12a_c8r32</code> at 8.4.6, which its campaign.toml names comparison_only" in page
