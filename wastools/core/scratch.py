"""A build's scratch folders, in the system's temporary folder: one each process makes with
``make_folder`` (private, named after the process), removed when it is done; those of a
process that no longer runs (a killed build) are removed by the next build, whatever that
build then has to do.

The store a build uses (``build_store``) keeps in one of them what the user's store refuses:
an unusable cache home (a plain file, a link, no permission, no home folder) or a disk that
fills during the build costs the build its speed-up, never its outputs.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .store import Store

PREFIX = "wastools-workers-"  # the name builds have always given their scratch folders


def make_folder() -> str:
    """A new private folder of this process's (mode 0700, a name nobody else can take)."""
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def clear_dead() -> None:
    """Scratch folders of processes that have ended (killed before they removed them)."""
    try:
        entries = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return
    for entry in entries:
        pid = entry.name.removeprefix(PREFIX).split("-")[0]
        if not entry.name.startswith(PREFIX) or not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            if entry.is_dir(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.getuid():
                shutil.rmtree(entry.path, ignore_errors=True)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def build_store(store: Store) -> Iterator[tuple[Store, str]]:
    """The store a build uses, and a warning line ("" when none): ``store`` with a scratch
    folder of this build's for the entries it refuses (a disk that fills meanwhile), or that
    scratch folder alone when ``store`` cannot be used at all. The folder goes when the build
    is done. A store that has one already is used as it is."""
    if store.spill is not None:
        yield store, ""
        return
    folder = Path(make_folder())
    try:
        problem = store.unusable()
        if problem:
            warning = (
                f"warning: the store cannot be used ({problem}): building without it, so the next build "
                "makes everything again (set WASTOOLS_CACHE to a folder you can write to)"
            )
            yield Store(folder, folder / "store", store.cap, store.root), warning
        else:
            yield dataclasses.replace(store, spill=folder / "spill"), ""
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def spill_warning(store: Store) -> str:
    """A warning line when the store refused entries during the build ("" when it kept them all)."""
    if not store.spilled():
        return ""
    problem = store.unusable() or "it refused some entries"
    return f"warning: the store could not keep everything this build made ({problem}): the next build makes those again"
