"""`make golden`: accept reviewed golden changes. Tests write a `-changed` copy beside a golden
file when their output differs (or the golden is missing) and never touch the golden itself; this
moves each `-changed` copy over its golden, and lists what it accepted."""
from __future__ import annotations

import sys
from pathlib import Path

GOLDEN = Path(__file__).parent


def main() -> int:
    changed = sorted(p for p in GOLDEN.rglob("*") if p.is_file() and "-changed" in p.name)
    for p in changed:
        target = p.with_name(p.name.replace("-changed", "", 1))
        p.replace(target)
        print(f"accepted {target.relative_to(GOLDEN.parent.parent)}")
    if not changed:
        print("no -changed golden files to accept (run make test first)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
