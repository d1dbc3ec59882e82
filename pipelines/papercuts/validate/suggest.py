"""'Did you mean ...?': the one helper every unknown-name message uses."""
from __future__ import annotations

import difflib


def did_you_mean(value: str, known) -> str:
    close = difflib.get_close_matches(value, sorted(known), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
