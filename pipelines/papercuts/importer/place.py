"""The campaign's copy: copied from the archive (refused first when a check would refuse it),
moved into the data folder with its catalog rows, checked, and put back when the check fails.
"""
from __future__ import annotations

import filecmp
import shutil
import stat
from dataclasses import replace
from pathlib import Path

from ..contract import MAX_CAMPAIGN_FILES, MAX_FILE_BYTES
from ..paths import Paths, shown
from ..problems import Problem, Problems, UserError
from .catalogs import append_rows


def copy_tree(src: Path, dst: Path) -> tuple[list[str], dict[str, int]]:
    """The files copied, and the hidden ones not copied: papercuts check allows no name starting
    with '.' under raw/ (.git/, .DS_Store), so they are left out, and named (with a file count).
    What the check would refuse for its kind or size (a link, a pipe, a file over its limit, more
    files than a campaign may hold) is refused here, before one byte is copied: a hostile archive's
    sparse file of terabytes was copied whole into the data folder first."""
    kept: list[tuple[Path, Path, bool]] = []  # (file, its path under src, a folder?)
    hidden: dict[str, int] = {}
    for f in sorted(src.rglob("*")):
        rel = f.relative_to(src)
        dot = next((i for i, part in enumerate(rel.parts) if part.startswith(".")), None)
        if dot is not None:
            name = Path(*rel.parts[:dot + 1]).as_posix() + ("/" if dot + 1 < len(rel.parts) or f.is_dir() else "")
            hidden[name] = hidden.get(name, 0) + (not f.is_dir())
            continue
        mode = f.lstat()
        if stat.S_ISLNK(mode.st_mode):
            raise UserError(f"{f}: a symbolic link; copy the file it points to into the archive folder; "
                            "nothing was changed")
        if not stat.S_ISDIR(mode.st_mode) and not stat.S_ISREG(mode.st_mode):
            raise UserError(f"{f}: not a regular file (a named pipe, socket or device); leave it out of the "
                            "archive folder; nothing was changed")
        if mode.st_size > MAX_FILE_BYTES and stat.S_ISREG(mode.st_mode):
            raise UserError(f"{f}: {mode.st_size} bytes, over the limit of {MAX_FILE_BYTES} a contributed file "
                            "may have (papercuts check refuses it); leave it out of the archive folder, or shorten it; "
                            "nothing was changed")
        kept.append((f, rel, stat.S_ISDIR(mode.st_mode)))
        if len(kept) > MAX_CAMPAIGN_FILES - 2:  # raw/ and campaign.toml are two more
            raise UserError(f"{src}: more than {MAX_CAMPAIGN_FILES - 2} files and folders, over the "
                            f"{MAX_CAMPAIGN_FILES} a campaign may hold with its campaign.toml and raw/ (papercuts "
                            "check refuses more); keep the outputs the site reads, or split the archive folder; "
                            "nothing was changed")
    copied: list[str] = []
    for f, rel, folder in kept:
        if folder:
            continue
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, dst / rel)
        copied.append(rel.as_posix())
    return copied, hidden


def _same_tree(a: Path, b: Path) -> bool:
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    return files_a == files_b and all(filecmp.cmp(a / f, b / f, shallow=False) for f in files_a)


def unchanged(target: Path, raw: Path, toml: str, data: Path, say) -> Problems:
    from ..build import validate

    if (target / "campaign.toml").is_file() and (target / "campaign.toml").read_text() == toml \
            and (target / "raw").is_dir() and _same_tree(raw, target / "raw"):
        say(f"{target}: already imported from these files; nothing changed")
        return validate(Paths.make(data=str(data)))[1]
    raise UserError(f"{shown(target)} exists, {_difference(target, raw, toml)}: this import would change it; "
                    "choose another --campaign, or remove the folder to import it again; nothing was changed")


def _difference(target: Path, raw: Path, toml: str) -> str:
    """What makes an existing campaign folder other than this import would write it."""
    kept = target / "raw"
    if not kept.is_dir():
        return "a campaign of its own (it has no raw/ folder: not an import)"
    if not _same_tree(raw, kept):
        return "and its raw/ is not a copy of these archive files (another archive's, or changed since)"
    path = target / "campaign.toml"
    old = path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []
    new = toml.splitlines()
    for key in dict.fromkeys(line.split(" = ", 1)[0] for line in old + new):
        there = next((line for line in old if line.startswith(f"{key} = ")), None)
        here = next((line for line in new if line.startswith(f"{key} = ")), None)
        if there != here:
            return (f"imported from these files with other options: its campaign.toml has "
                    f"{there or f'no {key}'} where this import writes {here or f'no {key}'}")
    return "and its campaign.toml is not the one this import writes"


def write_and_check(staged: Path, target: Path, data: Path, additions: dict[str, list[dict]], say,
                     src: Path) -> Problems:
    """Move the staged campaign in, add the catalog rows, check; put everything back on failure."""
    from ..build import validate

    backups = {name: (data / f"{name}.csv").read_bytes() for name in additions}
    made_campaigns = not target.parent.exists()
    try:
        for name, rows in additions.items():
            append_rows(data / f"{name}.csv", rows)
        target.parent.mkdir(exist_ok=True)
        shutil.move(str(staged), str(target))
        staged.mkdir()  # TemporaryDirectory removes it on exit
        _, problems = validate(Paths.make(data=str(data)))
    except BaseException:
        _put_back(data, target, backups, made_campaigns)
        raise
    if problems.errors:
        _put_back(data, target, backups, made_campaigns)
        raise _failed(problems, validate(Paths.make(data=str(data)))[1], data, target, src)
    for name, rows in additions.items():  # only now are they added: a failed check puts them back
        for r in rows:
            say(f"added to {name}.csv: {r.get('id') or r.get('name')}")
    return problems


def _put_back(data: Path, target: Path, backups: dict[str, bytes], made_campaigns: bool) -> None:
    for name, content in backups.items():
        (data / f"{name}.csv").write_bytes(content)
    shutil.rmtree(target, ignore_errors=True)
    if made_campaigns:
        shutil.rmtree(target.parent, ignore_errors=True)


def _failed(problems: Problems, before: Problems, data: Path, target: Path, src: Path) -> UserError:
    """The check's refusal, said of the files the user has: the campaign's copy is gone again, so
    each of its files is named in SRC, where it can be opened and fixed; and errors the data folder
    had before the import (the same again once it is put back) are said to be its own."""
    own = set(before.errors)
    if not [p for p in problems.errors if p not in own]:
        return UserError(f"{shown(data)} has {len(own)} error(s) of its own, not from this import (above; "
                         f"papercuts check --data {shown(data)} lists them): fix them and import again; "
                         "nothing was changed", before.sorted())
    copy, given = shown(target / "raw") + "/", shown(src) + "/"
    toml = shown(target / "campaign.toml")

    def in_src(text: str) -> str:
        return text.replace(copy, given)

    def said(p: Problem) -> Problem:
        if p in own:
            return p
        if p.path == toml:  # written from the flags: the flag is what to fix
            key = p.message.split(" ", 1)[0]
            flag = _FLAG_OF.get(key)
            return replace(p, path="campaign.toml (as this import writes it)",
                           hint=p.hint + (f"; {key} is written from {flag}: give it again, fixed" if flag else ""))
        return replace(p, path=in_src(p.path), message=in_src(p.message), hint=in_src(p.hint))
    listed = [said(p) for p in problems.sorted()]
    where = f": the archive's files named in {shown(src)}" if any(p.path.startswith(given) for p in listed) else ""
    return UserError(f"the imported campaign does not pass papercuts check (above{where}); nothing was changed",
                     listed)


_FLAG_OF = {"title": "--title", "notes": "--notes, after the import's own sentence", "source": "--source",
            "config": "--config"}
