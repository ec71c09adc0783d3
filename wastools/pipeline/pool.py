"""The build's one pool of worker processes.

Forked from the build's process when the first job is submitted, which is after the data
is loaded and the plan made: the workers start with the data, so a job's arguments are
small, and nothing is imported twice before it is needed. A build with nothing to make
starts no process at all. The build's process has no thread of its own when it forks.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any


def timed(fn: Callable[..., Any], args: tuple) -> tuple[Any, float]:
    """Worker: one job, and the seconds it took (the build report's stages)."""
    started = time.perf_counter()
    return fn(*args), time.perf_counter() - started


class Pool:
    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self._executor: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._executor is None:
            context = multiprocessing.get_context("fork")
            self._executor = ProcessPoolExecutor(max_workers=self.jobs, mp_context=context)
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

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
