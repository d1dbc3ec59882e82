"""Jinja2 where Python writes text: Markdown bodies (`*.md.j2`, never front matter or JSON) and
the embed pages (`*.html.j2`, every value escaped: they show contributed titles and sources)."""
from __future__ import annotations

from functools import cache

import jinja2


@cache
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("papercuts.render", "templates"),
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False,
                                            default=False),
    )


def render_template(name: str, **values) -> str:
    return _env().get_template(name).render(**values)
