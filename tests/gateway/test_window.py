"""The command window's own edges, without a socket: a close that lands while a frame is
being written must not leave a failed future that nobody reads (asyncio would print
"Future exception was never retrieved" in the user's notebook at the next collection)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest

from mcbews_repl.exceptions import GameDisconnected
from mcbews_repl.gateway.window import CommandWindow


def _frame(line: str) -> tuple[str, str]:
    return "id-1", line


async def test_a_close_during_the_write_leaves_no_unread_failure() -> None:
    window: CommandWindow

    async def send_then_lose_the_socket(frame: str) -> None:
        window.fail_all(lambda: GameDisconnected("closed while writing"))
        raise GameDisconnected("the socket closed under the write")

    window = CommandWindow(send_then_lose_the_socket, _frame, limit=2, queue_limit=2)
    unread: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: unread.append(context))
    try:
        with pytest.raises(GameDisconnected, match="under the write"):
            await window.request("list")
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert [c["message"] for c in unread] == []
    assert window.in_flight == 0
