"""The build's worker processes: one pool for a whole build, forked from a server process
that has imported the renderers once. Only the standard library here, so that a build can
start its workers before it imports anything heavier (``cli.build``)."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .atomic import AtomicWriter


class WorkerPool:
    """One set of worker processes for a whole build, reused by every stage. It starts with
    the first job, or earlier by ``start`` (as soon as a build knows it has work), without making
    the main process wait: a thread waits for the workers, forked from a server process that
    imports the renderers once (see ``_fork_server``), while the main process validates and
    plans. Their temporary files (WeasyPrint's fonts) go to a folder of their own under
    ``<root>/.build-tmp``, which ``close`` removes. With ``jobs`` 1 everything runs in the
    main process.

    ``light``: for a build with little to do (a unit's change), whose jobs seldom need
    WeasyPrint: the workers are forked from the main process itself when it starts them, once
    it has loaded the data (a few milliseconds, and they have the data), instead of from a
    server that imports the renderers first (most of a second); a job that needs WeasyPrint
    imports it there."""

    def __init__(self, jobs: int, root: Path, light: bool = False):
        self.jobs, self.root, self.light = jobs, root, light
        if jobs > 1:
            # multiprocessing makes a folder for its sockets at first use, under the temporary
            # folder of that moment, and removes it at exit: made now, before a build points
            # the temporary folder at its own, which is gone by then
            import multiprocessing.util

            multiprocessing.util.get_temp_dir()
        self._pool: ProcessPoolExecutor | None = None
        self._tmp: AtomicWriter | None = None
        self._starting: threading.Thread | None = None
        self._failed: BaseException | None = None
        self._lock = threading.Lock()
        self._queued: list[tuple[Future, Callable, tuple]] = []  # submitted while the workers start
        self._then: list[Callable[[], Any]] = []  # to call once they can take jobs
        self._opened = False
        self.ready_at: float | None = None  # time.perf_counter() when the workers could take jobs

    def start(self) -> None:
        """Starts the workers and returns at once (``when_ready``: what to do once they can
        take jobs); a ``light`` pool forks them now, on this thread."""
        if self.jobs > 1 and self.light and self._pool is None:
            self._open_light()
            return
        if self.jobs > 1 and self._pool is None and self._starting is None:
            self._tmp = AtomicWriter(self.root)
            self._starting = threading.Thread(target=self._open, name="workers", daemon=True)
            self._starting.start()

    def when_ready(self, then: Callable[[], Any]) -> None:
        """Calls ``then`` once the workers can take jobs: on the starting thread while they
        start (starting them if need be), or at once if they have started. Never with one
        job, as ``start``; never after the workers failed to start (that failure is raised
        where the pool is next used)."""
        if self.jobs <= 1:
            return
        if self.light:
            self.start()
            then()
            return
        with self._lock:
            failed, waiting = self._failed is not None, not self._opened
            if waiting and not failed:
                self._then.append(then)
        if failed:
            return
        if waiting:
            self.start()  # nothing when they are starting or have started
            return
        then()

    def inherit(self, name: str, step: Callable[[], Any]) -> bool:
        """Hand ``step`` to light workers not forked yet, which run it as the job
        ``run_inherited(name)`` with everything it holds (the loaded data): no argument to
        send them. False, keeping nothing, for any other pool."""
        if not self.light or self.jobs <= 1 or self._pool is not None:
            return False
        _INHERITED[name] = step
        return True

    def _open_light(self) -> None:
        """Fork the workers from this process, before it starts any thread of its own (a
        fork copies only the thread that makes it: a lock another thread held would stay
        held in the worker). A ProcessPoolExecutor that forks makes all its workers at its
        first job, then starts its own thread."""
        import multiprocessing

        self._tmp = AtomicWriter(self.root)
        pool = ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=multiprocessing.get_context("fork"),
            initializer=_start_light_worker,
            initargs=(str(self._tmp.tmp),),
        )
        # forked by this call, on this thread; they warm up (``WARM``) while this goes on
        pool.submit(int).add_done_callback(lambda _done: setattr(self, "ready_at", time.perf_counter()))
        self._pool, self._opened = pool, True

    def _open(self) -> None:
        assert self._tmp is not None
        try:
            pool = ProcessPoolExecutor(
                max_workers=self.jobs,
                mp_context=_fork_server(),
                initializer=_start_worker,
                initargs=(str(self._tmp.tmp),),
            )
            # the workers are forked now, not at the first real job
            pool.submit(int).add_done_callback(lambda _done: setattr(self, "ready_at", time.perf_counter()))
            with self._lock:
                self._pool = pool
                for outer, fn, args in self._queued:
                    _pass_on(pool.submit(fn, *args), outer)
                self._queued = []
            while True:  # what waits for the workers, and what that hands on in turn
                with self._lock:
                    waiting, self._then = self._then, []
                    self._opened = not waiting
                if not waiting:
                    break
                for call in waiting:
                    call()
        except BaseException as exc:  # raised again where the pool is next used
            with self._lock:
                self._failed = exc
                for outer, _fn, _args in self._queued:
                    outer.set_exception(exc)
                self._queued = []

    def ready(self) -> ProcessPoolExecutor | None:
        """The running pool (None with one job), once its workers can take jobs."""
        self.start()
        return self.started()

    def started(self) -> ProcessPoolExecutor | None:
        """The pool if it was started (None if not), once a start under way is over: what
        waited for it (``when_ready``) is done. Never starts it."""
        starting = self._starting
        if starting is not None and starting is not threading.current_thread():
            starting.join()
            self._starting = None
        if self._failed is not None:
            failed, self._failed = self._failed, None
            raise failed
        return self._pool

    def submit(self, fn, *args) -> Future:
        """A job's future. While the workers start, the job waits in a queue and the caller
        goes on (it sizes and writes the next cards, starts the site) instead of waiting."""
        self.start()
        with self._lock:
            if self._pool is None and self._starting is not None and self._failed is None:
                future: Future = Future()
                self._queued.append((future, fn, args))
                return future
        pool = self.ready()
        if pool is None:
            done: Future = Future()
            done.set_result(fn(*args))
            return done
        return pool.submit(fn, *args)

    def map(self, fn, items: list) -> Iterable:
        pool = self.ready() if items else self._pool
        if pool is None:
            return map(fn, items)
        return pool.map(fn, items)

    def close(self) -> None:
        if self._starting is not None:
            self._starting.join()
            self._starting = None
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
        if self.light:
            _INHERITED.clear()
        if self._tmp is not None:
            self._tmp.close()
            self._tmp = None

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _pass_on(inner: Future, outer: Future) -> None:
    """``outer`` gets ``inner``'s outcome when it has one."""

    def done(future: Future) -> None:
        if future.cancelled():
            outer.cancel()
        elif future.exception() is not None:
            outer.set_exception(future.exception())
        else:
            outer.set_result(future.result())

    inner.add_done_callback(done)


def _fork_server():
    """Workers forked from a server process that has imported what they need once
    (``render.preload``), instead of from the main process, which has not: each worker
    imported WeasyPrint and the rest itself, about a second of CPU at every build. (The
    server also keeps the workers clear of the main process's threads and state.)"""
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["wastools.render.preload"])
    return context


# steps light workers inherit from the main process when it forks them (WorkerPool.inherit)
_INHERITED: dict[str, Callable[[], Any]] = {}


def run_inherited(name: str) -> Any:
    """Worker: run a step the main process handed its light workers before forking them."""
    return _INHERITED[name]()


WARM = "warm"  # the inherited step a light worker runs as it starts, if the build gave one


def _start_light_worker(tmp: str) -> None:
    """A light worker's start-up: temporary files in the build's own folder; then what the
    build handed it to do before its first job (``WARM``: imports, fonts), while the main
    process plans and draws the cards."""
    tempfile.tempdir = os.environ["TMPDIR"] = tmp
    warm = _INHERITED.get(WARM)
    if warm is not None:
        warm()


def _start_worker(tmp: str) -> None:
    """Worker start-up: temporary files in the build's own folder; the card stylesheet and
    its fonts loaded, before the first job arrives."""
    from .render import cards as card_render
    from .variants import VARIANTS

    tempfile.tempdir = os.environ["TMPDIR"] = tmp
    card_render.lay_out_cards([card_render.render_back_html(VARIANTS["standard"])])
