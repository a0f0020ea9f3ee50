"""Fixtures: a bridge on a free loopback port, and fake games that connect to it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest

from mcbews_repl import Bridge, serve

from .fakegame import FakeGame

# Tests never wait for the real pacing; the numbers themselves are checked in Settings.
FAST = {"text_prelude": 0.0, "text_interval": 0.0, "expire_interval": 0.05}

ConnectGame = Callable[..., Awaitable[FakeGame]]


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
            async with asyncio.timeout(10):
                while not {c.id for c in bridge.connections} - before:
                    await asyncio.sleep(0.002)  # the server registers it a moment later
                await bridge.wait_connected()
            return game

        yield connect
