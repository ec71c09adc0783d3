"""Caches that do not grow without end.

Every build keys its card faces, sheets and pack parts by their contents
(``build/.cache/cards``, ``sheets``, ``parts``), so every edit adds entries and every new
version of the tool adds a whole new set: some 100 MB a version, a megabyte an edit. Each
build that writes anything records the entries it used; a build of everything the settings
ask for then deletes the entries that none of the last ``KEEP`` such builds used, nor any
narrower build since (``--variant``, ``--nation``, ``--paper`` and the like), which never
deletes anything itself. So any number of narrower builds in between costs the whole build
nothing, and going back to what was built a few builds ago is still quick. The records are
kept in ``build/.cache/used``, one file per build.

A cache that one step reads whole (the validation cache, the site's pages) is pruned by
its owner to what that step used (``prune_folder``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

KEEP = 3  # whole builds whose entries are kept
NARROW_KEPT = 20  # records of narrower builds kept (a whole build drops those older than it keeps)
USED = "used"  # under build/.cache: what each recent build used
WHOLE, NARROW = "whole", "narrow"  # a build of everything the settings ask for, or of less


def entry_stem(name: str) -> str:
    """What an entry is filed under: its key, the part of its name before the first dot
    (a card's ``<key>.pdf``, ``<key>.json`` and ``<key>.html`` go together)."""
    return name.split(".", 1)[0]


def prune_folder(folder: Path, wanted: Iterable[str]) -> int:
    """Delete the entries of ``folder`` whose key is not in ``wanted``; returns how many.
    Hidden files (an entry being written) and folders are left alone, and a file that cannot
    be deleted is no error: a cache is only a speed-up."""
    keep = set(wanted)
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if entry.name.startswith(".") or entry_stem(entry.name) in keep or not entry.is_file(follow_symlinks=False):
            continue
        try:
            os.unlink(entry.path)
            removed += 1
        except OSError:
            pass
    return removed


def record_and_prune(cache: Path, used: Mapping[str, Iterable[str]], whole: bool = True) -> int:
    """Record the keys this build used in each folder of ``cache`` (``used``: folder name to
    keys). After a ``whole`` build (everything the settings ask for), delete from those folders
    what neither the last ``KEEP`` whole builds nor a narrower build since the oldest of them
    used; a narrower build deletes nothing, so a run of them never costs the next whole build
    its cache. Returns how many files were deleted."""
    records = cache / USED
    try:
        records.mkdir(parents=True, exist_ok=True)
        found = sorted(r for r in map(_recorded, records.glob("*.json")) if r is not None)
        when = max(time.time_ns(), found[-1][0] + 1 if found else 0)  # after every record, on any clock
        kind = WHOLE if whole else NARROW
        mine = records / f"{when:020d}-{kind}.json"
        mine.write_text(json.dumps({folder: sorted(set(keys)) for folder, keys in used.items()}))
        found.append((when, kind, mine))
    except OSError:
        return 0  # nothing recorded: nothing deleted
    narrow = [path for _when, kind, path in found if kind == NARROW]
    for old in narrow[:-NARROW_KEPT]:  # a long run of narrower builds keeps a bounded number
        old.unlink(missing_ok=True)
    if not whole:
        return 0
    oldest = [when for when, kind, _path in found if kind == WHOLE][-KEEP:][0]
    keep = [path for when, kind, path in found if when >= oldest and (kind == WHOLE or path in narrow[-NARROW_KEPT:])]
    for when, _kind, path in found:
        if when < oldest:
            path.unlink(missing_ok=True)
    wanted: dict[str, set[str]] = {}
    for record in keep:
        try:
            kept = json.loads(record.read_text())
        except (OSError, ValueError):
            return 0  # a record that cannot be read: keep everything rather than guess
        if not isinstance(kept, dict):
            return 0
        for folder, keys in kept.items():
            if isinstance(keys, list):
                wanted.setdefault(folder, set()).update(k for k in keys if isinstance(k, str))
    return sum(prune_folder(cache / folder, wanted.get(folder, ())) for folder in used if _plain_name(folder))


def _recorded(path: Path) -> tuple[int, str, Path] | None:
    """(when, kind, path) of a record, named ``<nanoseconds>-<kind>.json``; None for a file
    that is not one."""
    when, _, kind = path.stem.partition("-")
    if not when.isdigit() or kind not in (WHOLE, NARROW):
        return None
    return int(when), kind, path


def _plain_name(folder: str) -> bool:
    """A folder name of our own making: one part, not hidden (never a path from a record)."""
    return bool(folder) and "/" not in folder and "\\" not in folder and not folder.startswith(".")
