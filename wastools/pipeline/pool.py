"""The build's one pool of worker processes.

Forked from the build's process when the first job is submitted: ``wastools build`` submits
the workers' warm-up (``warm``) as soon as it knows there is something to make, before it
loads the data, so the workers load WeasyPrint while it validates. A build with nothing to
make starts no process at all. The build's process has no thread of its own when it forks.

Workers end without running ``atexit`` (multiprocessing ends them with ``os._exit``), so
what a library leaves for ``atexit`` or a finaliser to remove (WeasyPrint's folder of loaded
fonts) would stay in the system's temporary folder after every build. Workers make their
temporary files in a scratch folder of the pool's instead, removed when the pool closes; a
killed build's scratch folder is removed by the next build (``core.scratch``).
"""

from __future__ import annotations

import multiprocessing
import shutil
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from ..core import scratch


def timed(fn: Callable[..., Any], args: tuple) -> tuple[Any, float]:
    """Worker: one job, and the seconds it took (the build report's stages)."""
    started = time.perf_counter()
    return fn(*args), time.perf_counter() - started


SCRATCH_PREFIX = scratch.PREFIX


def _use_scratch(folder: str) -> None:
    """Worker initializer: temporary files (``tempfile``'s default folder) go in ``folder``."""
    tempfile.tempdir = folder


class Pool:
    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self._executor: ProcessPoolExecutor | None = None
        self._scratch: str | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._executor is None:
            scratch.clear_dead()
            self._scratch = scratch.make_folder()
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
