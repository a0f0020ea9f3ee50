"""One heap of deadlines per connection: a command stops waiting at its timeout wherever it
waits (a slot, the reply, a retry), the heap stays bounded, and one timer serves them all."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from mcbews_repl.gateway.deadlines import Deadlines
from mcbews_repl.gateway.window import TOO_MANY_PENDING_REQUESTS, CommandWindow
from mcbews_repl.sansio import CommandResponse, GameError


def numbered() -> tuple[list[str], Callable[[str], tuple[str, str]]]:
    made: list[str] = []

    def new_frame(line: str) -> tuple[str, str]:
        made.append(f"id{len(made)}")
        return made[-1], line

    return made, new_frame


def window_of(limit: int, new_frame: Callable[[str], tuple[str, str]]) -> CommandWindow:
    async def never(frame: str) -> None:
        raise AssertionError("frames are queued")

    return CommandWindow(never, new_frame, limit=limit, queue_limit=10, queue_frame=lambda f: True)


async def test_an_unanswered_command_times_out_and_frees_its_slot() -> None:
    made, new_frame = numbered()
    window = window_of(1, new_frame)
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        await window.request("say lost", timeout=0.05)
    assert time.monotonic() - start >= 0.05
    assert window.in_flight == 0 and not window._waiting
    # A late reply finds nobody, and the next command gets the slot.
    assert not window.resolve(CommandResponse(made[0], 0, "late", {}))
    later = asyncio.ensure_future(window.request("say next", timeout=5))
    await asyncio.sleep(0)
    window.resolve(CommandResponse(made[1], 0, "ok", {}))
    assert (await later).status_message == "ok"


async def test_a_queued_command_times_out_in_the_queue_without_being_sent() -> None:
    made, new_frame = numbered()
    window = window_of(1, new_frame)
    first = asyncio.ensure_future(window.request("say first", timeout=5))
    await asyncio.sleep(0)
    with pytest.raises(TimeoutError):
        await window.request("say queued", timeout=0.05)
    assert made == ["id0"] and window.queued == 0  # never sent, gone from the queue
    window.resolve(CommandResponse("id0", 0, "ok", {}))
    await first
    assert window.in_flight == 0


async def test_a_refused_command_stops_retrying_at_its_deadline() -> None:
    made, new_frame = numbered()
    window = window_of(1, new_frame)
    task = asyncio.ensure_future(window.request("say busy", timeout=0.15))
    refusal = "Too many commands have been requested"
    for _ in range(200):  # refuse every try until the deadline ends it
        await asyncio.sleep(0.002)
        if task.done():
            break
        if made and window._waiting:
            window.resolve(GameError(made[-1], TOO_MANY_PENDING_REQUESTS, refusal, {}))
    with pytest.raises(TimeoutError):
        await task
    assert window.retries >= 1 and window.in_flight == 0


async def test_a_cancelled_command_leaves_no_live_deadline() -> None:
    _, new_frame = numbered()
    window = window_of(1, new_frame)
    task = asyncio.ensure_future(window.request("say hang", timeout=30))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert window.in_flight == 0 and not window._waiting


async def test_the_heap_stays_bounded_under_a_burst_of_answered_commands() -> None:
    made, new_frame = numbered()
    window = window_of(100, new_frame)
    for _ in range(30):  # 3,000 answered commands with a long timeout each
        calls = [asyncio.ensure_future(window.request("say", timeout=60)) for _ in range(100)]
        await asyncio.sleep(0)
        for request_id in made[-100:]:
            window.resolve(CommandResponse(request_id, 0, "ok", {}))
        await asyncio.gather(*calls)
        assert len(window.deadlines) <= 2 * 100 + 101  # finished ones are swept out
    assert window.in_flight == 0


async def test_one_timer_serves_the_earliest_deadline() -> None:
    deadlines = Deadlines()
    loop = asyncio.get_running_loop()
    late = deadlines.add(60)
    early = deadlines.add(0.02)
    waiting: asyncio.Future[None] = loop.create_future()
    Deadlines.wait_on(early, waiting)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(waiting, 5)
    with pytest.raises(TimeoutError):
        Deadlines.check(early)  # expired between waits too
    Deadlines.check(late)  # the later one still runs
    deadlines.finish(late)
    deadlines.finish(early)
    deadlines.close()
    assert len(deadlines) == 0
