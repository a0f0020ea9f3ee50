"""Every bound of limits.py driven past its limit over a real socket: the counter moves,
the marker shows, and the connection keeps working."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from mcbews_repl import Bridge, UiChat, serve
from mcbews_repl.limits import UI_CHAT_BACKLOG, UI_CHAT_IN_FLIGHT

from .conftest import FAST, ConnectGame, until

MIB = 1024 * 1024


@pytest.fixture
async def small_log() -> AsyncIterator[Bridge]:
    options = {"log_max_bytes": 2 * MIB, "log_connection_max_bytes": MIB}
    async with serve(port=0, **FAST, **options) as bridge:
        yield bridge


async def test_huge_chats_are_truncated_and_the_log_stays_within_its_bytes(
    small_log: Bridge, connect_game: ConnectGame
) -> None:
    mc = small_log
    quiet = await connect_game(mc, player="Alex")
    hostile = await connect_game(mc)
    await quiet.chat("Alex", "a quiet game's chat")
    big = "x" * 1_000_000  # one frame just under the 1 MiB frame limit
    for _ in range(40):
        await hostile.chat("Griefer", big)
    assert (await mc.command("say alive", connection=mc.connections[1])).ok
    chats = [e for e in mc.events() if e.kind == "chat" and e.data["sender"] == "Griefer"]
    assert chats, "the newest chats are still in the log"
    for entry in chats:
        assert entry.data["truncated"] == {"message": 1_000_000}
        assert "[1,000,000 chars, cut to 4,096]" in entry.data["message"]
        assert len(entry.data["message"]) <= 4096
    connection = mc.connections[1]
    assert connection.counters["log_truncated"] == 40 == mc.log.counters["truncated"]
    for i in range(400):  # text within the field limit, enough to pass the game's share
        await hostile.chat("Griefer", f"{i} " + "y" * 4000)
    await mc.command("say sync", connection=connection)
    assert mc.log.counters["dropped_for_connection_share"] > 100
    # The log's estimate stays under both bounds, and the quiet game's entry survives.
    assert mc.log.size_bytes <= 2 * MIB and mc.log.connection_bytes(connection.id) <= MIB
    assert any(e.summary.startswith("<Alex> a quiet") for e in mc.events())
    assert (await mc.command("say still here", connection=mc.connections[0])).ok


async def test_ui_chat_flood_with_a_slow_callback_runs_a_few_and_drops_the_rest(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    release = asyncio.Event()
    served: list[str] = []

    @mc.on_ui_chat
    async def slow(msg: UiChat) -> None:
        await release.wait()
        served.append(msg.message)

    tasks_before = len(asyncio.all_tasks())
    for i in range(5000):
        await game.ui_chat("Steve", f"spam {i}", f"ui{i}")
    assert (await mc.command("say alive")).ok  # every frame before it has been handled
    connection = mc.connections[0]
    kept = UI_CHAT_IN_FLIGHT + UI_CHAT_BACKLOG
    assert (connection.ui_chats.running, connection.ui_chats.queued) == (4, 256)
    assert connection.counters["ui_chat_dropped"] == 5000 - kept
    assert len(asyncio.all_tasks()) - tasks_before <= UI_CHAT_IN_FLIGHT
    dropped = [e for e in mc.events() if e.data.get("reason") == "ui_chat_dropped"]
    assert dropped and "256 UI chat messages already wait" in dropped[-1].summary
    release.set()  # the slow callback catches up: every message kept is served once
    await until(lambda: len(served) == kept)
    assert sorted(served) == sorted(f"spam {i}" for i in range(kept))
    await until(lambda: connection.ui_chats.running == 0)
    await game.ui_chat("Steve", "after the flood", "ui-after")
    await until(lambda: served[-1] == "after the flood")
