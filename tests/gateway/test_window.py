"""The command window's two ways of sending: queued to the writer, or by a task of its own."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Any

import pytest

from mcbews_repl.exceptions import GameDisconnected
from mcbews_repl.gateway.window import CommandWindow
from mcbews_repl.sansio import CommandResponse


def reply_to(request_id: str) -> CommandResponse:
    return CommandResponse(request_id, 0, "ok", {"statusCode": 0})


def numbered() -> tuple[list[str], Callable[[str], tuple[str, str]]]:
    made: list[str] = []

    def new_frame(line: str) -> tuple[str, str]:
        request_id = f"id{len(made)}"
        made.append(request_id)
        return request_id, f"{request_id}:{line}"

    return made, new_frame


async def test_queued_frames_are_answered_without_a_send_coroutine() -> None:
    queued: list[str] = []
    made, new_frame = numbered()

    async def never(frame: str) -> None:
        raise AssertionError("a queued frame is not sent again")

    def queue(frame: str) -> bool:
        queued.append(frame)
        return True

    window = CommandWindow(never, new_frame, limit=2, queue_limit=10, queue_frame=queue)
    calls = [asyncio.create_task(window.request(f"say {i}")) for i in range(5)]
    for step in range(5):
        await asyncio.sleep(0)
        assert window.in_flight <= 2
        window.resolve(reply_to(made[step]))
    replies = await asyncio.gather(*calls)
    assert [r.request_id for r in replies] == made
    assert queued == [f"{m}:say {i}" for i, m in enumerate(made)]
    assert window.in_flight == 0 and not window._waiting


async def test_a_send_that_fails_fails_its_request() -> None:
    _, new_frame = numbered()

    async def broken(frame: str) -> None:
        raise ConnectionError("gone")

    window = CommandWindow(broken, new_frame, limit=2, queue_limit=10)
    with pytest.raises(ConnectionError, match="gone"):
        await window.request("say hi")
    assert window.in_flight == 0


async def test_a_caller_who_gives_up_before_its_frame_left_does_not_send_it() -> None:
    _, new_frame = numbered()
    gate, sent = asyncio.Event(), []

    async def slow(frame: str) -> None:  # like a connection still agreeing on encryption
        await gate.wait()
        sent.append(frame)

    window = CommandWindow(slow, new_frame, limit=2, queue_limit=10)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await window.request("say late")
    gate.set()
    await asyncio.sleep(0.01)
    assert sent == [] and window.in_flight == 0 and not window._sending


# A close that lands while a frame is being written must not leave a failed future that
# nobody reads: asyncio would print "Future exception was never retrieved" in the user's
# notebook at the next collection.
async def test_a_close_during_the_write_leaves_no_unread_failure() -> None:
    window: CommandWindow

    async def send_then_lose_the_socket(frame: str) -> None:
        window.fail_all(lambda: GameDisconnected("closed while writing"))
        raise GameDisconnected("the socket closed under the write")

    window = CommandWindow(send_then_lose_the_socket, numbered()[1], limit=2, queue_limit=2)
    unread: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: unread.append(context))
    try:
        with pytest.raises(GameDisconnected, match="closed"):
            await window.request("list")
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert [c["message"] for c in unread] == []
    assert window.in_flight == 0
