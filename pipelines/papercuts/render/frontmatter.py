"""Front matter is parsed and serialized with YAML, never templated."""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from ..problems import UserError


def split(text: str, where: str) -> tuple[dict, str]:
    if not text.startswith("---\n"):
        raise UserError(f"{where}:1:1: a page must start with '---' and YAML front matter")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise UserError(f"{where}:1:1: front matter is not closed with '---'")
    try:
        meta = yaml.safe_load(text[4:end]) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 2 if mark else 1
        raise UserError(f"{where}:{line}:1: invalid YAML front matter: {getattr(e, 'problem', e)}") from None
    if not isinstance(meta, dict):
        raise UserError(f"{where}:2:1: front matter must be a mapping")
    return meta, text[end + 5:]


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
    """No anchors or aliases: a repeated value is written out again (Hugo refuses front matter
    with thousands of aliases, as a campaign with thousands of identical file entries made).
    libyaml's emitter when PyYAML has it (the wheels do): 10x faster on the large indexes."""

    def ignore_aliases(self, data) -> bool:
        return True


def page(meta: dict, body: str) -> str:
    head = yaml.dump(meta, Dumper=_Dumper, sort_keys=True, allow_unicode=True, default_flow_style=False,
                     width=100)
    return f"---\n{head}---\n{body}"


def write_json(path: Path, value) -> None:
    # Compact separators keep json's C encoder (indent would fall back to pure Python).
    path.write_text(json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n")
