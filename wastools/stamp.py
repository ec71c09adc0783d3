"""A whole build remembered, so that a build with nothing to do stops at once.

After a build that made or kept every output it was asked for, ``record`` writes
``build/.cache/stamp.json``: a key of everything the build read (every file of the tool,
every data file, the settings and filters, the file limits) and the outputs it covered, each
with its sha256, and the site's key. A later build with the same key whose outputs are all
there, byte for byte, and whose site is the one recorded has nothing to do: ``unchanged``
says so after hashing the data, the tool and the outputs, before the data is validated or
WeasyPrint, the renderers or the validator are imported (a tenth of a second, where the
full no-op check took three quarters of one). Anything else, or a stamp that cannot be
read, and the build runs as usual: it is a shortcut, never a source of truth.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .fingerprints import DataState, changed_files, data_state, key, tool_fingerprint

STAMP = Path(".cache") / "stamp.json"
SITE_KEY = Path(".cache") / "site-key"


SMALL_CHANGE = 4  # data files: a build after a change of at most these starts light workers


@dataclass(frozen=True)
class Stamp:
    """What a build reads but its outputs: its key, and the parts that tell how much changed
    since the last build (``small_change``)."""

    key: str
    tool: str
    settings: str  # the key of the output folder, the settings, filters and limits
    data: DataState  # the data's fingerprint and each file's sha256


def stamp_key(root: Path, out: Path, inputs: Any) -> Stamp:
    """Everything a build reads but its outputs: the tool, the data, and ``inputs`` (the
    settings, filters and limits, as plain values)."""
    settings, data = key(str(out), inputs), data_state(root)
    return Stamp(key("stamp", tool_fingerprint(), data.fingerprint, settings), tool_fingerprint(), settings, data)


def small_change(out: Path, stamp: Stamp) -> bool:
    """Whether the last build in ``out`` had the same tool and settings, and the data has
    changed in at most ``SMALL_CHANGE`` files since: a build with little to do, which starts
    its workers light (``workers.WorkerPool``)."""
    try:
        body = json.loads((out / STAMP).read_text())
    except (OSError, ValueError):
        return False
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, dict) or body.get("tool") != stamp.tool or body.get("settings") != stamp.settings:
        return False
    return len(changed_files(data, stamp.data.digests)) <= SMALL_CHANGE


def record(out: Path, stamp: Stamp, outputs: dict[str, dict]) -> None:
    """Remember a build that covered ``outputs`` (manifest entries by path under ``out``)."""
    site_key = out / SITE_KEY
    body = {
        "key": stamp.key,
        "tool": stamp.tool,
        "settings": stamp.settings,
        "data": stamp.data.digests,
        "outputs": {rel: entry["sha256"] for rel, entry in sorted(outputs.items())},
        "site_key": site_key.read_text() if site_key.is_file() else None,
    }
    path = out / STAMP
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n")
    temporary.replace(path)


def forget(out: Path) -> None:
    """A build is under way (or failed): the stamp no longer stands for ``out``."""
    (out / STAMP).unlink(missing_ok=True)


def unchanged(out: Path, stamp: Stamp) -> int | None:
    """The number of outputs of the build ``stamp`` stands for, when it was the last build in
    ``out`` and every output and the site are as it left them; else None."""
    try:
        body = json.loads((out / STAMP).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(body, dict) or body.get("key") != stamp.key or not isinstance(body.get("outputs"), dict):
        return None
    site_key = out / SITE_KEY
    site = site_key.read_text() if site_key.is_file() else None
    if site != body.get("site_key") or (site is not None and not (out / "site").is_dir()):
        return None
    for rel, digest in body["outputs"].items():
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            return None  # a cache file is data: it names nothing outside ``out``
        try:
            if hashlib.sha256((out / rel).read_bytes()).hexdigest() != digest:
                return None
        except OSError:
            return None
    return len(body["outputs"])
