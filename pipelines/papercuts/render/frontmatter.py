"""Front matter is parsed and serialized, never templated: hand-written pages hold YAML; the
pages the pipeline writes hold JSON (Hugo reads a page that starts with '{' as JSON front
matter), which is written 10-20x faster than YAML for the large indexes.

The JSON the pipeline writes (front matter, specs, the explorer's files) is encoded by orjson:
json's encoder formats each float through repr, and the explorer's files of x100 (16 MB, mostly
QPS values) took 0.41 s where orjson takes 0.04 s. The same strings and escapes as json's with
ensure_ascii=False; keys sorted; each float the shortest text that reads back to it exactly
(0.00008 where json wrote 8e-05; 1e-7 for 1e-07)."""
from __future__ import annotations

import json
from pathlib import Path

import orjson
import yaml

from ..problems import UserError


def split(text: str, where: str) -> tuple[dict, str]:
    if text.startswith("{"):  # a generated page
        meta, end = json.JSONDecoder().raw_decode(text)
        return meta, text[end + 1:]
    if not text.startswith("---\n"):
        raise UserError(f"{where}:1:1: a page must start with '---' and YAML front matter")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise UserError(f"{where}:1:1: front matter is not closed with '---'")
    try:
        # libyaml's parser (PyYAML's wheels hold it), the safe constructors: 10x the pure Python
        # one (the 6 investigations: 0.025 s cold, 0.002 s so)
        meta = yaml.load(text[4:end], Loader=yaml.CSafeLoader) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 2 if mark else 1
        raise UserError(f"{where}:{line}:1: invalid YAML front matter: {getattr(e, 'problem', e)}") from None
    if not isinstance(meta, dict):
        raise UserError(f"{where}:2:1: front matter must be a mapping")
    return meta, text[end + 5:]


def dumps(value) -> bytes:
    """`value` as compact JSON, keys sorted. As a hand-written page's YAML may give them: a date as
    Hugo reads it from a string (2024-01-02); a key that is a number, true or null as its text
    ("2024", "true"), as json wrote it."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def page(meta: dict, body: str) -> str:
    """A generated page: its front matter as one line of JSON, then its body."""
    return dumps(meta).decode() + "\n" + body


def write_json(path: Path, value) -> None:
    path.write_bytes(dumps(value) + b"\n")
