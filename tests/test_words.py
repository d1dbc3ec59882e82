"""No internal vocabulary or text glitches reach readers (the built site, every page and spec)."""
from __future__ import annotations

import re

# What the team says to itself, and glitches readers reported.
INTERNAL = re.compile(r"\b[Ss]eed (document )?\d{3}\b|\bthe seeds\b|third group from the right"
                      r"|@ 1 threads|throughput \(throughput")


def test_no_internal_words_or_glitches_on_any_page(site):
    found = []
    files = [p for p in site.public.rglob("*") if p.suffix in (".html", ".json", ".xml")]
    assert len(files) > 30
    for p in files:
        for m in INTERNAL.finditer(p.read_text(errors="replace")):
            found.append((p.relative_to(site.public).as_posix(), m.group(0)))
    assert found == []
