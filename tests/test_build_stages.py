"""Every kind of job the build runs has a stage name in plain words (the build report and
`make bench` print them), never a function's name."""

from __future__ import annotations

from tests.conftest import DATA
from wastools import build as builder


def test_every_output_job_has_a_plain_stage_name(repo):
    options = builder.Options()
    jobs = builder.sheet_targets(repo, builder.Selection(), options)
    functions = {job[0] for _rel, _key, job in jobs}
    functions |= {builder._assemble_deck, builder._scenario_pack, builder._calibration}
    assert {"_square_poster", "_hex_poster", "_scenario_poster"} <= {f.__name__ for f in functions}
    for fn in functions:
        name = builder.stage_name(fn)
        assert not name.startswith("_") and name == builder.STAGES[fn.__name__], fn.__name__


def test_the_site_step_runs_beside_the_card_layout_and_its_result_is_kept(repo, tmp_path):
    """``alongside`` (the site) starts once the card faces are sent, on a thread, so it runs
    while the workers lay them out: each card's face is on disk when it starts."""
    import threading

    seen: dict = {}

    def step():
        cache = tmp_path / "build" / ".cache" / "cards"
        seen["thread"] = threading.current_thread() is not threading.main_thread()
        seen["faces"] = len(list(cache.glob("*.html")))
        return "site written"

    selection = builder.Selection(("standard",), units=("hms-cossack",))
    options = builder.Options(papers=("letter",), jobs=1)
    report = builder.build(repo, tmp_path, tmp_path / "build", selection, options, alongside=step)
    assert report.alongside == "site written" and seen["thread"]
    assert seen["faces"] >= report.cards_rendered > 0
    assert "site" in report.stages


def test_an_error_in_the_site_step_stops_the_build_with_that_error(repo, tmp_path):
    import pytest

    def step():
        raise RuntimeError("the site could not be written")

    selection = builder.Selection(("standard",), units=("hms-cossack",))
    with pytest.raises(RuntimeError, match="could not be written"):
        builder.build(repo, tmp_path, tmp_path / "build", selection, builder.Options(jobs=1), alongside=step)


def test_sheets_that_read_no_data_are_started_early_and_come_out_the_same(repo, tmp_path):
    """The boards, rulers and counters are started while the data is still being validated
    (``HeadStart``); the build takes their results, and writes what a build without the
    head start writes."""
    selection = builder.Selection(("hex",), units=("hms-cossack",))
    options = builder.Options(papers=("letter",), jobs=2)
    with builder.WorkerPool(2, tmp_path) as pool:
        head = builder.HeadStart()
        head.start(pool, tmp_path / "early", selection, options)
        boards = {rel for rel, _key, _job in builder.board_targets(selection, options)}
        assert set(head.jobs) == boards and "hex/map-hex.pdf" in boards
        builder.build(repo, DATA, tmp_path / "early", selection, options, pool=pool, head_start=head)
    assert not head.jobs  # every result was taken
    builder.build(repo, DATA, tmp_path / "plain", selection, options)
    for rel in boards:
        assert (tmp_path / "early" / rel).read_bytes() == (tmp_path / "plain" / rel).read_bytes(), rel


def test_the_workers_start_on_a_thread_that_then_hands_out_the_head_start(repo, tmp_path):
    """``when_ready`` returns at once (the main process goes on validating); the thread that
    waits for the workers calls what it was given once they can take jobs, and the build takes
    its results."""
    import threading

    selection = builder.Selection(("hex",), units=("hms-cossack",))
    options = builder.Options(papers=("letter",), jobs=2)
    threads = []

    def hand_out(head: builder.HeadStart, pool: builder.WorkerPool) -> None:
        threads.append(threading.current_thread())
        head.start(pool, tmp_path, selection, options)

    with builder.WorkerPool(2, tmp_path) as pool:
        head = builder.HeadStart()
        pool.when_ready(lambda: hand_out(head, pool))
        builder.build(repo, DATA, tmp_path, selection, options, pool=pool, head_start=head)
        assert pool.started() is not None
    assert threads and threads[0] is not threading.main_thread()
    assert head.jobs == {}  # every sheet it started was taken


def test_a_build_with_nothing_to_make_never_starts_the_workers(repo, tmp_path):
    selection = builder.Selection(("hex",), units=("hms-cossack",))
    options = builder.Options(papers=("letter",), jobs=2)
    builder.build(repo, DATA, tmp_path, selection, options)
    with builder.WorkerPool(2, tmp_path) as pool:
        report = builder.build(repo, DATA, tmp_path, selection, options, pool=pool, head_start=builder.HeadStart())
        assert report.written == 0 and pool.started() is None


def test_jobs_handed_in_while_the_workers_start_come_back_in_order(tmp_path):
    """``submit`` never waits for the workers to start: a job waits in a queue instead, and
    the main process goes on (sizing cards, starting the site)."""
    with builder.WorkerPool(2, tmp_path) as pool:
        pool.start()
        futures = [pool.submit(pow, 2, n) for n in range(6)]
        assert [f.result(timeout=60) for f in futures] == [1, 2, 4, 8, 16, 32]


def test_a_queued_job_gets_its_jobs_outcome_whatever_it_is():
    from concurrent.futures import Future

    from wastools.workers import _pass_on

    for outcome in ("result", "error", "cancel"):
        inner, outer = Future(), Future()
        _pass_on(inner, outer)
        if outcome == "result":
            inner.set_result(7)
            assert outer.result() == 7
        elif outcome == "error":
            inner.set_exception(ValueError("bad"))
            assert isinstance(outer.exception(), ValueError)
        else:
            inner.cancel()
            assert outer.cancelled()


def test_what_waits_for_the_workers_runs_once_they_start_or_at_once_after(tmp_path):
    """The CLI starts the workers as soon as it knows a build has work to do, before it has
    loaded the data; what the data's change hands them (the head start) waits for them."""
    import threading

    from wastools.workers import WorkerPool

    calls: list[tuple[str, bool]] = []

    def note(name: str):
        return lambda: calls.append((name, threading.current_thread() is threading.main_thread()))

    with WorkerPool(2, tmp_path) as pool:
        pool.start()
        pool.when_ready(note("while starting"))
        assert pool.started() is not None
        assert calls == [("while starting", False)]  # on the thread that waited for the workers
        pool.when_ready(note("after"))
        assert calls[-1] == ("after", True)  # at once
    with WorkerPool(2, tmp_path) as pool:
        pool.when_ready(note("before any start"))  # starts them
        assert pool.started() is not None and calls[-1] == ("before any start", False)
    with WorkerPool(1, tmp_path) as pool:
        pool.when_ready(note("one job"))
        assert pool.started() is None and calls[-1][0] != "one job"


def test_the_report_says_when_each_stage_of_the_build_was_reached(repo, tmp_path):
    """The milestones `make bench` prints, in seconds from the command's start: in the order
    the build reaches them, and the workers' start among them when there are workers."""
    import json
    import time

    selection = builder.Selection(("standard",), units=("hms-cossack",))
    options = builder.Options(papers=("letter",), jobs=2)
    started = time.perf_counter() - 0.25  # as if loading the data had taken a quarter of a second
    report = builder.build(repo, DATA, tmp_path / "build", selection, options, load_seconds=0.25, command_start=started)
    took = time.perf_counter() - started
    order = ["data loaded", "card faces made", "card sheets made", "every output written"]
    assert [m for m in report.milestones if m in order] == order
    times = [report.milestones[m] for m in order]
    assert times[0] == 0.25 and times == sorted(times) and times[-1] <= took
    assert 0 < report.milestones["workers ready"] <= took
    written = json.loads((tmp_path / "build" / ".cache" / "build-report.json").read_text())["milestones"]
    assert list(written.values()) == sorted(written.values()) and set(written) == set(report.milestones)
