"""Jinja2 for Markdown bodies Python writes (never for front matter, JSON or HTML)."""
from __future__ import annotations

from functools import cache

import jinja2


@cache
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("papercuts.render", "templates"),
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False,
    )


def render_template(name: str, **values) -> str:
    return _env().get_template(name).render(**values)
