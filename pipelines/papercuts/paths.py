"""One object that derives every path, and every URL, the pipeline uses."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
# Files of the content tree published byte for byte after Hugo, never read by Hugo as content.
VERBATIM = "_verbatim"
# The embed pages (render/embeds.py): HTML Papercuts writes, published under /embed/ after Hugo,
# each a leaf file _embeds/<page path>/<chart id>.embed.html (not a folder each in the content
# tree) published at embed/<page path>/<chart id>/index.html (embed_published_as).
EMBEDS = "_embeds"
EMBED_SUFFIX = ".embed.html"


@dataclass(frozen=True)
class Paths:
    data: Path
    public: Path
    build: Path
    project: Path = PROJECT
    content_root: Path | None = None  # hand-written pages given with the data (content=...)

    @classmethod
    def make(cls, data: str | Path | None = None, out: str | Path | None = None,
             build: str | Path | None = None, content: str | Path | None = None) -> Paths:
        public = Path(out or PROJECT / "public").resolve()
        # A build's working files go beside the site it publishes: never into the checkout for
        # an --out elsewhere, and on the same file system, so the final swap is a rename.
        default_build = PROJECT / "build" if out is None else public.with_name(f".{public.name}.build")
        return cls(
            data=Path(data or PROJECT / "data").resolve(),
            public=public,
            build=Path(build or default_build).resolve(),
            content_root=Path(content).resolve() if content else None,
        )

    # inputs
    @property
    def content(self) -> Path:
        """The hand-written content tree: the pages given with the data, else the project's
        content/ (the home page's text is read from it whatever the data)."""
        return self.content_root or self.project / "content"

    @property
    def pages(self) -> Path | None:
        """The content tree whose investigations (and pins) belong to this data, or None: the pages
        given with the data (content=...), or the project's content/ with the project's data/.
        Another data folder without pages gets the generated pages only, since the project's
        investigations name the project's campaigns. The build checks, renders and pins exactly
        these pages (build.validate, render/site.py, render/snapshots.py)."""
        if self.content_root is not None:
            return self.content_root
        return self.content if self.data == self.project / "data" else None

    @property
    def site(self) -> Path:
        return self.project / "site"

    @property
    def vendor(self) -> Path:
        return self.site / "static" / "vendor"

    @property
    def vegalite_schema(self) -> Path:
        return self.site / "vendor" / "vega-lite-schema.json"

    @property
    def sql(self) -> Path:
        return Path(__file__).parent / "sql"

    # outputs
    @property
    def db(self) -> Path:
        return self.build / "papercuts.duckdb"

    @property
    def blobs(self) -> Path:
        """Contributed files' bytes by SHA-256 (ingest/blobs.py), beside the database."""
        return self.build / "blobs"

    @property
    def generated(self) -> Path:
        return self.build / "content"

    @property
    def trash(self) -> Path:
        """Trees a build replaced, removed beside later work (publish/trash.py)."""
        return self.build / "trash"

    @property
    def image_cache(self) -> Path:
        """Chart images by the hash of what they are drawn from (render/images.py): safe to share
        between builds, so $PAPERCUTS_IMAGE_CACHE may name one folder for all of them."""
        shared = os.environ.get("PAPERCUTS_IMAGE_CACHE")
        return Path(shared).resolve() if shared else self.build / "images"

    @property
    def staging(self) -> Path:
        # Beside public/ (same file system: the swap is a rename), private to this process.
        return self.public.with_name(f".{self.public.name}.staging-{os.getpid()}")

    @property
    def lock(self) -> Path:
        """Held by the build writing this site: one lock file per published folder."""
        return self.public.with_name(f".{self.public.name}.lock")

    def published(self, path: Path) -> str:
        """A data file's name on the site: 'data/…' whatever the working directory."""
        return _published(self.data, str(path))

    def rel(self, path: Path) -> str:
        """A path as a contributor would type it: relative to the working directory if inside it."""
        return _rel(str(path), os.getcwd())


def shown(path: Path) -> str:
    """A path as papercuts check prints one (Paths.rel), where no Paths is at hand (the importer)."""
    return _rel(str(path), os.getcwd())


# Both are asked for every row read from an archive's tables (tens of thousands of times per
# file): remembered per path (and working directory) rather than recomputed through pathlib.
@lru_cache(maxsize=65536)
def _published(data: Path, path: str) -> str:
    return f"{data.name}/{Path(path).relative_to(data).as_posix()}"


@lru_cache(maxsize=65536)
def _rel(path: str, cwd: str) -> str:
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path(cwd).resolve()))
    except ValueError:
        return os.path.normpath(path)


def embed_published_as(rel: str) -> str:
    """Where a file of the content tree's _embeds/ is published: an embed page at its address,
    any other file (a pinned embed's spec and CSV, render/snapshots.py) at its path below /embed/."""
    if rel.endswith(EMBED_SUFFIX):
        return f"embed/{rel[:-len(EMBED_SUFFIX)]}/index.html"
    return f"embed/{rel}"


def server_url(server_id: str) -> str:
    return f"/servers/{server_id}/"


def investigation_url(slug: str) -> str:
    return f"/investigations/{slug}/"


def campaign_url(campaign_id: str) -> str:
    return f"/campaigns/{campaign_id}/"


def ladder_slug(server: str, dbms: str, threads: int) -> str:
    return f"{server}-{dbms}-{threads}"


def ladder_url(server: str, dbms: str, threads: int) -> str:
    return f"/ladders/{ladder_slug(server, dbms, threads)}/"


def calibration_url(calibration_id: str | None = None) -> str:
    """The calibration page, or one calibration's entry on it."""
    return "/calibration/" + (f"#{calibration_id}" if calibration_id else "")
