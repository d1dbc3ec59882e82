"""Investigation front matter is checked by `papercuts check`, every problem at its line, at once."""
from __future__ import annotations

import shutil

from papercuts.build import validate
from papercuts.paths import PROJECT, Paths

PAGE = """---
title: "A test investigation"
date: 2024-10-23
status: opne
verdict: "a verdict"
source: smalldatum-2024-10-23-innodb-busy-wait
servers: [dell32, nosuchbox]
charts:
  - id: one
    kind: rqps-bars
    title: "one"
    campaign: 2024-10-23-busy-wait-dell32
    server: dell32
    threads: 24
    base: my8028_rel_o2nofp.z11a_c32r128
  - id: two
    kind: rqps-barz
    title: "two"
  - id: one
    kind: observations
    title: "again"
    campaign: 2024-10-23-no-such-campaign
    measure: x
---
Text.

{{< chart id="one" />}}

{{< chart id="three" />}}
"""


def test_every_front_matter_problem_at_its_line(tmp_path):
    content = tmp_path / "content"
    (content / "investigations").mkdir(parents=True)
    shutil.copyfile(PROJECT / "content" / "_index.md", content / "_index.md")
    (content / "investigations" / "broken.md").write_text(PAGE)
    _, problems = validate(Paths.make(content=content))
    got = sorted((p.line, p.column, p.message) for p in problems.errors if p.path.endswith("broken.md"))
    assert got == [
        (4, 9, "status 'opne' is not one of open, explained, fixed"),
        (7, 10, "unknown server 'nosuchbox'"),
        (9, 5, "chart 'one' (rqps-bars) needs 'variants'"),
        (17, 11, "chart 'two': unknown kind 'rqps-barz'"),
        (19, 9, "two charts share the id 'one'"),
        (22, 15, "chart 'one': unknown campaign '2024-10-23-no-such-campaign'"),
        (29, 15, "the body places chart 'three' that the front matter does not declare"),
    ]
    hints = {p.message: p.hint for p in problems.errors}
    assert hints["status 'opne' is not one of open, explained, fixed"] == "did you mean 'open'?"
    assert hints["chart 'two': unknown kind 'rqps-barz'"] == "did you mean 'rqps-bars'?"


def test_the_shipped_pages_pass():
    _, problems = validate(Paths.make())
    assert problems.errors == []


def test_the_contract_page_lists_every_chart_kind_with_its_keys(site):
    from papercuts.render.charts import KINDS

    html = (site.public / "contract" / "index.html").read_text()
    assert len(KINDS) >= 17
    for kind in KINDS.values():
        row = html.split(f"<td><code>{kind.name}</code></td>", 1)[1].split("</tr>", 1)[0]
        assert all(f"<code>{key}</code>" in row for key in kind.requires), kind.name


def test_two_chart_ids_that_differ_only_in_case_are_refused_at_the_second(tmp_path):
    """The site's addresses are in lower case (Hugo's default): `Rqps` and `rqps` would have one
    embed page."""
    content = tmp_path / "content"
    (content / "investigations").mkdir(parents=True)
    shutil.copyfile(PROJECT / "content" / "_index.md", content / "_index.md")
    page = PAGE.replace("  - id: two\n", "  - id: ONE\n")
    (content / "investigations" / "cases.md").write_text(page)
    _, problems = validate(Paths.make(content=content))
    got = [(p.line, p.column, p.message) for p in problems.errors if "case" in p.message]
    assert got == [(16, 9, "charts 'one' and 'ONE' differ only in case: their embed pages would have one address")]


def test_front_matter_that_is_not_yaml_is_an_error_at_its_line_and_column(tmp_path):
    content = tmp_path / "content"
    (content / "investigations").mkdir(parents=True)
    shutil.copyfile(PROJECT / "content" / "_index.md", content / "_index.md")
    (content / "investigations" / "broken.md").write_text(
        '---\ntitle: "A test investigation"\ndate: 2024-10-23\nverdict: "fast" : really\n---\nText.\n')
    _, problems = validate(Paths.make(content=content))
    got = [(p.line, p.column, p.message) for p in problems.errors if p.path.endswith("broken.md")]
    assert got == [(4, 17, "invalid YAML front matter: mapping values are not allowed in this context")]


def test_generated_front_matter_is_json_that_reads_back_to_what_was_written():
    """render/frontmatter.page: one line of JSON that Hugo reads. What a hand-written page's YAML
    gives (dates, keys that are numbers, true or null) is written as json wrote it; every string
    and float reads back exactly."""
    import json
    import math

    import yaml

    from papercuts.render.frontmatter import page, split

    given = yaml.safe_load("title: t\ndate: 2024-01-02\ntldr:\n  - 8.0: the regression starts\n  - 2024: first run\n"
                           "flags: {true: a, null: b}\n")
    text = page({**given, "texts": ["</script>", "\u2028\u2029", "tab\there", "é😀", "\x00\x1f"],
                 "floats": [8e-05, 1e-07, 0.1, 1e16, 123456.789, -0.0, 5e-324]}, "body\n")
    first, _, body = text.partition("\n")
    assert body == "body\n" and "\n" not in first
    meta = json.loads(first)
    assert meta["date"] == "2024-01-02"
    assert meta["tldr"] == [{"8.0": "the regression starts"}, {"2024": "first run"}]
    assert meta["flags"] == {"true": "a", "null": "b"}
    assert meta["texts"] == ["</script>", "\u2028\u2029", "tab\there", "é😀", "\x00\x1f"]
    assert meta["floats"] == [8e-05, 1e-07, 0.1, 1e16, 123456.789, -0.0, 5e-324]
    assert math.copysign(1, meta["floats"][5]) == -1
    assert list(meta) == sorted(meta)
    assert split(text, "x.md")[0] == meta
