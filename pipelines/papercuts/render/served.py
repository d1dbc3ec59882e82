"""The name and bytes a contributed file is served under: as committed, or gzipped when large."""
from __future__ import annotations

from isal import igzip

# A contributed file this large is a download, not a page to read: it is published gzipped
# (`<name>.gz`, gzip -n: no name or time in it, so a build is reproducible), which gives back its
# bytes exactly. The x100 benchmark's 50 results.csv of 1.1 MB were 57 of the site's 214 MB.
GZIP_FROM_BYTES = 256 * 1024


# Compressed already: gzip would not make them smaller.
COMPRESSED = (".gz", ".tgz", ".zip", ".xz", ".zst", ".bz2", ".png", ".jpg", ".jpeg", ".webp")


def served_name(name: str, size: int | None) -> str:
    """The name a contributed file of `size` bytes is served under."""
    small = size is None or size < GZIP_FROM_BYTES
    return name if small or name.lower().endswith(COMPRESSED) else name + ".gz"


def gzipped(content: bytes) -> bytes:
    """A file's bytes as served under `<name>.gz` (served_name), compressed by ISA-L (isal, pinned):
    zlib's level 6 took 0.9 s of the x100 render stage's CPU for 50 results.csv of 1.1 MB; ISA-L's
    level 1 is 12x faster, 2.5 % larger. The same bytes at every build on one machine, and on any
    x86-64 with SSE4.2 (its SSE4.2, AVX and AVX2 code give the same); ISA-L's plain C (an x86-64
    without SSE4.2, as QEMU's default CPU) and its ARM code compress differently, as zlib's
    versions do: the .gz and the size a campaign page prints differ there, never what it unpacks to."""
    return igzip.compress(content, compresslevel=1, mtime=0)
