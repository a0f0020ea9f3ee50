"""The engine's interrupt costs a job nothing until the job runs past its deadline: QuickJS
asks the handler (a Python callback, so the script's thread takes the GIL each time) only
once the watchdog's thread has installed it, and the handler is gone again when the job ends.
That thread belongs to its script host: closing the host or the world joins it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from mcbews_repl.exceptions import PrototypeError
from mcbews_repl.sim import SimWorld, interrupt
from mcbews_repl.sim.host import ScriptHost

pytestmark = pytest.mark.skipif(
    not interrupt.available(), reason="QuickJS's interrupt handler is not reachable here"
)
THRESHOLD_MS = 300
STUCK_SECONDS = 60.0
# About a second of work at a module's top (its loop carries the loops' own checks, which are
# JavaScript: only the engine's handler is a call into Python).
BUSY = (
    "let n = 0;\n"
    "for (let i = 0; i < 8e6; i++) { n += i % 7; }\n"
    'export default { name: "busy", description: "works", params: {}, run() {} };\n'
)
HANG = (
    'eval("while (true) {}");\n'
    'export default { name: "hang", description: "hangs", params: {}, run() {} };\n'
)


def wait_until(check: Callable[[], Any], seconds: float = STUCK_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never became true")
        time.sleep(0.02)


@contextmanager
def questions(host: ScriptHost) -> Iterator[list[tuple[float, float | None]]]:
    """Every question the engine asks the host's handler meanwhile: (when, the deadline)."""
    watch = host._watch
    assert watch is not None
    asked: list[tuple[float, float | None]] = []
    answer = watch.check

    def check() -> int:
        asked.append((time.monotonic(), watch.deadline))
        return answer()

    watch.check = check  # type: ignore[method-assign]  # the handler looks it up each time
    try:
        yield asked
    finally:
        del watch.check


def watchdog_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == interrupt.WATCHDOG_THREAD_NAME}


async def test_a_job_within_its_deadline_is_never_asked() -> None:
    async with SimWorld(clock="manual", hang_threshold_ms=STUCK_SECONDS * 1000) as sim:
        assert sim.host is not None and sim.watchdog == "engine"
        with questions(sim.host) as asked:
            sim.host.define_prototype("busy", BUSY)
        assert asked == []


async def test_a_hang_is_asked_only_past_its_deadline_and_the_next_job_not_at_all() -> None:
    async with SimWorld(clock="manual", hang_threshold_ms=THRESHOLD_MS) as sim:
        assert sim.host is not None
        hang_ends = pytest.raises(PrototypeError, match="WatchdogError: script hang")
        with questions(sim.host) as asked, hang_ends:
            sim.host.define_prototype("hang", HANG)
        assert asked, "the engine's interrupt did not end the hang"
        assert all(deadline is not None and at >= deadline for at, deadline in asked), asked
        with questions(sim.host) as after:
            sim.host.define_prototype("busy", BUSY.replace("8e6", "2e5"))
        assert after == []  # the handler was removed when the hung job ended


async def test_closing_the_world_joins_its_watchdog_thread() -> None:
    before = watchdog_threads()
    async with SimWorld(clock="manual", hang_threshold_ms=STUCK_SECONDS * 1000) as sim:
        assert sim.host is not None
        assert len(watchdog_threads() - before) == 1  # the host's jobs started it
    assert watchdog_threads() - before == set()


async def test_an_idle_host_lets_its_thread_end_and_the_next_job_starts_another() -> None:
    before = watchdog_threads()
    async with SimWorld(clock="manual", hang_threshold_ms=THRESHOLD_MS) as sim:
        assert sim.host is not None
        wait_until(lambda: not watchdog_threads() - before)  # no job for a while: it ends
        with pytest.raises(PrototypeError, match="WatchdogError: script hang"):
            sim.host.define_prototype("hang", HANG)  # and a new one still ends the hang
        assert len(watchdog_threads() - before) == 1
    assert watchdog_threads() - before == set()


def test_the_self_test_leaves_no_thread_behind() -> None:
    interrupt._engine.cache_clear()
    try:
        before = watchdog_threads()
        assert interrupt.available()
        assert watchdog_threads() - before == set()
    finally:
        interrupt._engine.cache_clear()
