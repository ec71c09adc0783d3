"""The build's one pool of worker processes.

Forked from the build's process when the first job is submitted: ``wastools build`` submits
the workers' warm-up (``warm``) as soon as it knows there is something to make, before it
loads the data, so the workers load WeasyPrint while it validates. A build with nothing to
make starts no process at all. The build's process has no thread of its own when it forks.

Workers end without running ``atexit`` (multiprocessing ends them with ``os._exit``), so
what a library leaves for ``atexit`` or a finaliser to remove (WeasyPrint's folder of loaded
fonts) would stay in the system's temporary folder after every build. Workers make their
temporary files in a scratch folder of the pool's instead, removed when the pool closes; a
killed build's scratch folder is removed by the next pool.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any


def timed(fn: Callable[..., Any], args: tuple) -> tuple[Any, float]:
    """Worker: one job, and the seconds it took (the build report's stages)."""
    started = time.perf_counter()
    return fn(*args), time.perf_counter() - started


SCRATCH_PREFIX = "wastools-workers-"


def _use_scratch(folder: str) -> None:
    """Worker initializer: temporary files (``tempfile``'s default folder) go in ``folder``."""
    tempfile.tempdir = folder


def _clear_dead_scratch() -> None:
    """Scratch folders of pools whose build process has ended (killed before it cleared them)."""
    for entry in os.scandir(tempfile.gettempdir()):
        pid = entry.name.removeprefix(SCRATCH_PREFIX).split("-")[0]
        if entry.name.startswith(SCRATCH_PREFIX) and pid.isdigit() and not _alive(int(pid)):
            if entry.is_dir(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.getuid():
                shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Pool:
    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self._executor: ProcessPoolExecutor | None = None
        self._scratch: str | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._executor is None:
            _clear_dead_scratch()
            self._scratch = tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")
            context = multiprocessing.get_context("fork")
            self._executor = ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=context, initializer=_use_scratch, initargs=(self._scratch,)
            )
        return self._executor

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """``fn(*args)`` on a worker; the future's result is (result, seconds)."""
        return self._started().submit(timed, fn, args)

    def warm(self, full: bool = False) -> None:
        """Start the workers now, each reading what jobs need (``render.cards.warm``) while the
        build's process validates and plans; with ``full``, WeasyPrint too."""
        from ..render.cards import warm

        for _worker in range(self.jobs):
            self._started().submit(warm, full)

    def map(self, fn: Callable[..., Any], items: Iterable[tuple]) -> Iterator[tuple[Any, float]]:
        """``fn(*item)`` for each item, in order, as (result, seconds)."""
        futures = [self.submit(fn, *item) for item in items]
        return (future.result() for future in futures)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
