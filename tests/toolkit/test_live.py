"""The live event view refreshes in batches, shows the newest rows and stops when told."""

from __future__ import annotations

import asyncio
from typing import Any

from mcbews_repl.gateway import LogEntry
from mcbews_repl.toolkit.live import LiveEvents

from .conftest import World


async def test_updates_are_coalesced_and_stop(world: World) -> None:
    shown: list[list[int]] = []

    def render(entries: list[LogEntry]) -> list[int]:
        return [e.cursor for e in entries]

    def update(view: Any) -> None:
        shown.append(view)

    since = world.mc.log.last_cursor
    live = LiveEvents(world.mc.log, render, update, since=since, last=3, interval_seconds=0.05)
    live.start()
    assert shown == [[]]  # the first view at once: nothing after `since` yet
    await asyncio.gather(*(world.mc.command(f"say {i}") for i in range(30)))
    await asyncio.sleep(0.2)
    newest = world.mc.log.last_cursor
    assert shown[-1] == [newest - 2, newest - 1, newest]
    assert 2 <= len(shown) < 30  # far fewer refreshes than the 60-odd entries
    live.stop()
    count = len(shown)
    await world.mc.command("say after stop")
    await asyncio.sleep(0.1)
    assert len(shown) == count and not live.running


async def test_stop_shows_what_arrived_since_the_last_refresh(world: World) -> None:
    shown: list[list[int]] = []
    since = world.mc.log.last_cursor
    live = LiveEvents(world.mc.log, lambda es: [e.cursor for e in es], shown.append,
                      since=since, last=5, interval_seconds=30)  # fmt: skip
    live.start()
    await world.mc.command("say just before stop")  # its refresh would come 30 s later
    live.stop()
    assert shown[-1] and shown[-1][-1] == world.mc.log.last_cursor
