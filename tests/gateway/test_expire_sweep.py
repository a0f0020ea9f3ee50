"""The periodic sweep survives a connection whose expiry fails."""

from __future__ import annotations

import asyncio
from typing import Any

import mcbews_repl


class _Stub:
    def __init__(self, fail: bool, connection_id: int) -> None:
        self.fail = fail
        self.id = connection_id
        self.calls = 0

    def expire(self, now: float) -> None:
        self.calls += 1
        if self.fail:
            raise RuntimeError("broken buffers")


async def test_sweep_keeps_running_when_one_connection_fails() -> None:
    async with mcbews_repl.serve(port=0, expire_interval=0.01) as mc:
        broken, healthy = _Stub(True, 1), _Stub(False, 2)
        connections: list[Any] = mc._connections  # white-box: two stand-in connections
        connections += [broken, healthy]
        try:
            for _ in range(200):
                if healthy.calls >= 3 and broken.calls >= 3:
                    break
                await asyncio.sleep(0.01)
        finally:
            connections.clear()
    assert broken.calls >= 3 and healthy.calls >= 3
