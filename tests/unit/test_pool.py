"""The worker pool leaves nothing in the system's temporary folder."""

from __future__ import annotations

import os
import tempfile

from wastools.pipeline import pool


def _leave_a_temporary_folder() -> str:
    """As WeasyPrint's font configuration does: a folder its finaliser would remove, which a
    worker ended by ``os._exit`` never runs."""
    return tempfile.mkdtemp(prefix="left-by-a-library-")


def test_what_workers_leave_in_the_temporary_folder_goes_with_the_pool(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pool.Pool(2) as workers:
        made = [future.result()[0] for future in [workers.submit(_leave_a_temporary_folder) for _ in range(4)]]
        assert all(os.path.isdir(path) and str(tmp_path) in path for path in made)
    assert list(tmp_path.iterdir()) == []


def test_a_killed_builds_scratch_folder_goes_with_the_next_pool(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = os.fork()
    if ended == 0:
        os._exit(0)
    os.waitpid(ended, 0)  # a process id nobody has now
    dead = tmp_path / f"{pool.SCRATCH_PREFIX}{ended}-x1y2"
    (dead / "weasyprint-abc").mkdir(parents=True)
    alive = tmp_path / f"{pool.SCRATCH_PREFIX}{os.getpid()}-k3p4"  # another pool of a running build
    alive.mkdir()
    other = tmp_path / "someone-elses"
    other.mkdir()
    with pool.Pool(1) as workers:
        workers.submit(os.getpid).result()
        assert not dead.exists()
    assert alive.is_dir() and other.is_dir()
