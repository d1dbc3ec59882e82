"""What a contributed file may be: its name, its type and its size, checked before it is read.

Every file under a campaign is published byte for byte beside its page, so a name must be safe
in a URL and on every file system, and a type must be inert when a browser opens it: formats a
browser renders as a document or runs (HTML, SVG, XML, JavaScript, ...) would run script on
the site's origin and are refused, with the way to publish the same content safely.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from ..contract import MAX_CAMPAIGN_FILES, MAX_FILE_BYTES
from ..problems import Problems

# One rule for every contributed file and folder name: no spaces, no control characters, no
# URL syntax (#, ?, %), nothing a shell or a URL would need to quote.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+=,@-]{0,127}")
NAME_HINT = "use letters, digits and . _ + = , @ - only, starting with a letter or digit, at most 128 characters"
# Types a browser opens as a document, a script or a plug-in: refused, whatever the server sends.
# .es and .ecma are JavaScript in the MIME tables servers use (Debian's /etc/mime.types, which
# Python's mimetypes reads: text/javascript; mime-db: application/ecmascript): a page of the site
# loading one as a script ran it under script-src 'self'. Other suffixes those tables call XML
# are not refused (mytools archives hold sb.o.myvac.es3, "application/vnd.eszigno3+xml"): every
# file under raw/ is served as application/octet-stream instead (netlify.toml).
ACTIVE = frozenset({
    ".htm", ".html", ".xhtml", ".xhtm", ".xht", ".shtml", ".shtm", ".mht", ".mhtml", ".hta", ".htc",
    ".svg", ".svgz", ".xml", ".xsl", ".xslt", ".rss", ".atom", ".rdf", ".xul",
    ".js", ".mjs", ".cjs", ".es", ".ecma", ".css", ".wasm", ".swf", ".pdf", ".webmanifest", ".appcache",
    ".php", ".asp", ".aspx", ".jsp", ".cgi",
})


# A cell of a published CSV or TSV under raw/ that a spreadsheet opening the download would run: it
# starts with = or @, or with + or - and holds a call, a DDE link or a reference (the contract's
# cells are held to fields.check_formula; these are tools' outputs). A cell starts after a comma, a
# tab or a semicolon (a separator in some spreadsheets' locales) or a line break, perhaps quoted; a
# quoted cell ends at its quote. Commas inside quotes and in a TSV count as starts too: refused
# rather than guessed (none of the 388 real raw CSVs and TSVs has a cell any of this refuses).
SHEETS = (".csv", ".tsv")
_SHEET_FORMULA = re.compile(r'(?:^|(?<=[,;\t\r\n]))'
                            r'(?:"(?:[=@]|[+-][^"\n]*?[(|!=@])|(?:[=@]|[+-][^,;\t\r\n"]*?[(|!=@"]))')
SHEET_ERRORS = 10  # said of a file at most: a file of formulas is not a list of 10^6 errors


def check_sheet_cells(data: bytes, rel: str, problems: Problems) -> None:
    """A raw CSV or TSV, published byte for byte: the first cells a spreadsheet would run as a
    formula, each at its line and column (one pass of a regular expression, lines counted as it
    goes: no cell is parsed in Python)."""
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")  # a spreadsheet drops a BOM
    line, counted_to = 1, 0
    for n, m in enumerate(_SHEET_FORMULA.finditer(text)):
        if n == SHEET_ERRORS:
            break
        line += text.count("\n", counted_to, m.start())
        counted_to = m.start()
        first = m.group().lstrip('"')[0]
        problems.error(rel, line, m.start() - text.rfind("\n", 0, m.start()),
                       f"a cell starts with '{first}' and a spreadsheet opening this file "
                       "would run it as a formula",
                       f"remove the formula, or commit the file as {Path(rel).name}.txt"
                       + (f" (only the first {SHEET_ERRORS} such cells are listed)" if n == SHEET_ERRORS - 1 else ""))


def read_limited(path: Path, rel: str, problems: Problems, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The file's bytes, or None after saying why not: checked with stat() before reading."""
    if path.is_symlink():
        problems.error(rel, 1, 1, "is a symbolic link", "commit a regular file, not a link")
        return None
    if path.is_dir():
        problems.error(rel, 1, 1, "is a folder, expected a file", f"replace the folder with the file {path.name}")
        return None
    if not path.is_file():
        problems.error(rel, 1, 1, "is not a regular file", "commit a regular file")
        return None
    size = path.stat().st_size
    if size > limit:
        problems.error(rel, 1, 1, f"file is {size} bytes, over the limit of {limit}",
                       "keep contributed files small: split the campaign or shorten the outputs")
        return None
    return path.read_bytes()


def check_campaign_files(cdir: Path, rel_of, problems: Problems) -> list[Path]:
    """Every file under one campaign folder that may be published, in sorted order.

    Reports bad names, active types, case-only clashes and too many files, all at once."""
    found = []
    for top, dirs, files in os.walk(cdir):  # never follows links
        found += [Path(top) / name for name in dirs + files]
    found.sort()
    if len(found) > MAX_CAMPAIGN_FILES:
        problems.error(rel_of(cdir), 1, 1, f"the campaign holds {len(found)} files and folders, over the limit of "
                       f"{MAX_CAMPAIGN_FILES}", "keep the raw outputs the site reads, or split the campaign")
        return []
    ok: list[Path] = []
    seen: dict[str, Path] = {}
    for p in found:
        rel = rel_of(p)
        bad = [part for part in p.relative_to(cdir).parts if not NAME.fullmatch(part)]
        if bad:
            problems.error(rel, 1, 1, f"name {bad[0]!r} is not allowed", NAME_HINT)
            continue
        key = p.relative_to(cdir).as_posix().lower()
        if key in seen:
            problems.error(rel, 1, 1, f"differs from {seen[key].name} only in letter case",
                           "rename one of them: case-insensitive file systems and URLs would mix them up")
            continue
        seen[key] = p
        if p.suffix.lower() in ACTIVE and not p.is_dir():
            problems.error(rel, 1, 1, f"{p.suffix} files can run script in a browser and are not published",
                           f"commit the text as {p.name}.txt, or an image as PNG")
            continue
        if p.is_file() and not p.is_symlink():
            ok.append(p)
    return _without_gz_twins(ok, cdir, seen, rel_of, problems)


def _without_gz_twins(ok: list[Path], cdir: Path, seen: dict[str, Path], rel_of, problems: Problems) -> list[Path]:
    """A file of 256 KiB or more is served as <name>.gz (render/served.py): a committed <name>.gz
    beside it would be served under the same name, so the .gz is refused."""
    kept = []
    for p in ok:
        key = p.relative_to(cdir).as_posix().lower()
        twin = seen.get(key[:-3]) if key.endswith(".gz") else None
        if twin is not None and twin.is_file():
            problems.error(rel_of(p), 1, 1, f"{twin.name} is here too: the site would serve both as {p.name}",
                           "keep one of them, the plain file or the .gz")
            continue
        kept.append(p)
    return kept
