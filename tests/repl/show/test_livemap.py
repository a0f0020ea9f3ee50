"""The live map's follow loop on its own: looks that fail are shown on the map; a failure
that is not the world's stops the updates instead of repeating every second."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator
from typing import Any

from mcbews_repl.exceptions import NotConnected
from mcbews_repl.repl.show._livemap import LiveMap
from mcbews_repl.repl.show._mapdraw import MapPoint, MapSnapshot

STEVE = MapPoint("player", "Steve", "minecraft:player", 0.5, 64, 0.5)


class Answer:
    """What ``look()`` returns: a Pending-like value (``.result()`` and ``await``)."""

    def __init__(self, make: Callable[[], MapSnapshot]) -> None:
        self._make = make

    def result(self, timeout: float | None = None) -> MapSnapshot:
        return self._make()

    def __await__(self) -> Generator[Any, None, MapSnapshot]:
        yield from asyncio.sleep(0).__await__()
        return self._make()


async def follow(make: Callable[[], MapSnapshot]) -> LiveMap:
    first = [True]

    def look() -> Answer:
        if first[0]:  # the first look, taken when the map is made, succeeds
            first[0] = False
            return Answer(lambda: MapSnapshot((STEVE,), 0.0))
        return Answer(make)

    live = LiveMap(look, asyncio.get_running_loop(), every=0.25)
    live.widget._handle_custom_msg({"visible": True}, [])
    await asyncio.sleep(0.8)
    return live


def failing(error: Exception) -> tuple[Callable[[], MapSnapshot], list[int]]:
    """A look that always raises ``error``, and the list of its calls."""
    looks: list[int] = []

    def look() -> MapSnapshot:
        looks.append(1)
        raise error

    return look, looks


async def test_a_game_that_left_is_said_and_the_map_keeps_trying() -> None:
    gone, looks = failing(NotConnected("no game is connected"))
    live = await follow(gone)
    assert live.running and len(looks) >= 2  # tried again
    assert "not updated: NotConnected: no game is connected" in live.widget.html
    assert "Steve</text>" in live.widget.html  # the last picture stays
    live.stop()


async def test_a_bug_stops_the_map_and_says_so() -> None:
    broken, looks = failing(RuntimeError("boom"))
    live = await follow(broken)
    assert not live.running and looks == [1]
    assert "stopped by an error: RuntimeError: boom" in live.widget.html
    assert live.widget.status.startswith("stopped")
