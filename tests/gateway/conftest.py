"""Fixtures: a bridge on a free loopback port, and fake games that connect to it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest

from mcbews_repl import Bridge, serve

from .fakegame import FakeGame

# Tests never wait for the real pacing; the numbers themselves are checked in Settings. The
# fake game plays the chat transport's addon, so the transport is set rather than probed
# (test_transport.py probes, with a fake game that also answers the pull commands).
FAST = {"text_prelude": 0.0, "text_interval": 0.0, "expire_interval": 0.05, "transport": "chat"}

ConnectGame = Callable[..., Awaitable[FakeGame]]


async def until(condition: Callable[[], object], timeout: float = 10) -> None:
    """Wait for something another task will make true (a bound, not a timing claim)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.002)


@pytest.fixture
async def mc() -> AsyncIterator[Bridge]:
    async with serve(port=0, **FAST) as bridge:
        yield bridge


@pytest.fixture
async def connect_game(mc: Bridge) -> AsyncIterator[ConnectGame]:
    """``await connect_game(**fake_options)``: a fake game, connected and handshaken."""
    async with AsyncExitStack() as stack:

        async def connect(bridge: Bridge = mc, **options: Any) -> FakeGame:
            before = {c.id for c in bridge.connections}
            game = await stack.enter_async_context(FakeGame(bridge.url, **options))
            # The server registers the connection a moment after the client's handshake.
            await until(lambda: {c.id for c in bridge.connections} - before)
            await bridge.wait_connected(timeout=10)
            return game

        yield connect
