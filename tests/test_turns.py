"""tests/site_support.py's Turns, which tests/conftest.py holds every test to: a test marked ``alone`` runs with no
other worker's test beside it."""

from __future__ import annotations

import fcntl
import multiprocessing
import time

from site_support import Turns


def _hold(folder, alone, seconds, started, log):
    held = Turns(folder).hold(alone)
    log.put(("start", alone, time.monotonic()))
    started.set()
    time.sleep(seconds)
    log.put(("end", alone, time.monotonic()))
    for f in held:
        f.close()


def _until_held(path, timeout=30.0):
    """Wait until another process holds ``path``'s lock."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        with open(path, "a") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return
        time.sleep(0.01)
    raise AssertionError(f"no process took {path} within {timeout} s")


def _together(folder, barrier):
    held = Turns(folder).hold(False)
    try:
        barrier.wait(timeout=30)  # broken, and this process fails, unless the other test is inside at the same time
    finally:
        for f in held:
            f.close()


def test_an_alone_test_waits_for_the_running_ones_and_holds_back_the_next(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    log, first, waiting = ctx.Queue(), ctx.Event(), ctx.Event()
    running = ctx.Process(target=_hold, args=(tmp_path, False, 1.0, first, log))
    running.start()
    assert first.wait(30)
    alone = ctx.Process(target=_hold, args=(tmp_path, True, 1.0, waiting, log))
    alone.start()
    _until_held(tmp_path / "turns.turnstile")  # the alone test holds the turnstile, waiting for the running test to end
    later_started = ctx.Event()  # kept: the child unpickles it after this line
    later = ctx.Process(target=_hold, args=(tmp_path, False, 0.2, later_started, log))
    later.start()
    for p in (running, alone, later):
        p.join(30)
    events = sorted((log.get(timeout=5) for _ in range(6)), key=lambda e: e[2])
    order = [(kind, "alone" if is_alone else "shared") for kind, is_alone, _ in events]
    # the running test ends before the alone one starts; the later test starts only after the alone one ends
    assert order[:2] == [("start", "shared"), ("end", "shared")], order
    assert order[2:4] == [("start", "alone"), ("end", "alone")], order
    assert order[4:] == [("start", "shared"), ("end", "shared")], order


def test_tests_without_the_mark_run_side_by_side(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=_together, args=(tmp_path, barrier)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
