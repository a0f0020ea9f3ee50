"""UI chat is bounded in bytes on both transports, over real sockets: a message over 64 KiB
is refused (over pull by its first page's count, before anything more is pulled), the
backlog behind a slow callback holds at most its bytes, and a game that leaves takes its
backlog with it. The attacks are the ``ui_chat_*`` coroutines of benchmarks/soak_games.py
played by the fake game."""

from __future__ import annotations

import asyncio
import tracemalloc
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from mcbews_repl import Bridge, GameConnection, UiChat, serve
from mcbews_repl.limits import UI_CHAT_BACKLOG_BYTES, UI_CHAT_IN_FLIGHT
from mcbews_repl.sansio.wire import MAX_MESSAGE_BYTES

from .conftest import FAST, until
from .fakegame import FakeGame

KIB, MIB = 1024, 1024 * 1024
PULL = {**FAST, "transport": "pull", "poll_interval": 0.01}


@pytest.fixture
async def pulling() -> AsyncIterator[Bridge]:
    async with serve(port=0, **PULL) as bridge:
        yield bridge


@pytest.fixture
def traced() -> Iterator[None]:
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()


async def joined(bridge: Bridge, **options: Any) -> tuple[FakeGame, GameConnection]:
    game = FakeGame(bridge.url, **options)
    await game.__aenter__()
    return game, await bridge.wait_connected(timeout=10)


def rejected(bridge: Bridge, reason: str) -> list[Any]:
    return [e for e in bridge.events() if e.kind == "rejected" and e.data["reason"] == reason]


def blocked(bridge: Bridge) -> tuple[asyncio.Event, list[UiChat]]:
    """A callback that holds every message until the event is set."""
    release, served = asyncio.Event(), []

    @bridge.on_ui_chat
    async def slow(msg: UiChat) -> None:
        await release.wait()
        served.append(msg)

    return release, served


async def test_a_2_mib_ui_message_over_pull_is_refused_by_its_page_count_unpulled(
    pulling: Bridge, traced: None
) -> None:
    game, connection = await joined(pulling, pull=True, page_chars=1024)
    try:
        delivered: list[UiChat] = []
        pulling.on_ui_chat(delivered.append)
        game.pull_ui_chat("Steve", "x" * (2 * MIB - 64), "u1t1")  # 2,048 pages of 1 KiB
        pages = len(game.kept["u1t1"][1])
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        await until(lambda: rejected(pulling, "ui_chat_too_large") or delivered)
        _, peak = tracemalloc.get_traced_memory()
        assert not delivered and game.executed["mcbews:pull"] == 0
        [entry] = rejected(pulling, "ui_chat_too_large")
        detail = entry.data["detail"]
        assert f"{pages:,} pages, more than the 65 that 65,536 bytes (the most a UI" in detail
        assert entry.data["message_id"] == "u1t1"
        assert connection.counters["rejected:ui_chat_too_large"] == 1
        assert peak - before < 512 * KIB, f"{peak - before:,} bytes to refuse it"
        game.pull_ui_chat("Steve", "still heard", "u1t2")  # the connection carries on
        await until(lambda: delivered)
        assert delivered[0].message == "still heard"
    finally:
        await game.close()


async def test_full_pages_past_64_kib_within_the_page_count_are_refused_while_pulled(
    pulling: Bridge,
) -> None:
    game, connection = await joined(pulling, pull=True, page_chars=1024)
    try:
        game.pull_ui_chat("Steve", "y" * 66_000, "u2t1")  # 65 full pages: 66,030 bytes
        assert len(game.kept["u2t1"][1]) == 65  # as many as 64 KiB of 3-byte characters take
        await until(lambda: rejected(pulling, "ui_chat_too_large"))
        assert not [e for e in pulling.events() if e.kind == "ui_chat"]
        assert connection.counters["rejected:ui_chat_too_large"] == 1
    finally:
        await game.close()


async def test_the_backlog_behind_a_slow_callback_is_bounded_in_bytes_over_pull(
    pulling: Bridge,
) -> None:
    game, connection = await joined(pulling, pull=True, page_chars=1024)
    try:
        release, served = blocked(pulling)
        for i in range(30):  # 30 messages of about 60 KB, each within the 64 KiB a message has
            game.pull_ui_chat("Steve", f"{i:02d}" + "m" * 60_000, f"u3t{i}")
        queue = connection.ui_chats
        await until(lambda: settled(connection, 30))
        assert queue.running == UI_CHAT_IN_FLIGHT and queue.queued < 18
        assert 0 < queue.queued_bytes <= UI_CHAT_BACKLOG_BYTES
        assert connection.counters["ui_chat_dropped"] == 26 - queue.queued
        [first, *_] = rejected(pulling, "ui_chat_dropped")
        assert f"of {UI_CHAT_BACKLOG_BYTES:,} bytes" in first.summary
        kept = UI_CHAT_IN_FLIGHT + queue.queued
        release.set()  # the slow callback catches up: every message kept is served once
        await until(lambda: len(served) == kept and queue.running == 0)
        assert queue.queued_bytes == 0 and len({m.message_id for m in served}) == kept
    finally:
        await game.close()


def settled(connection: GameConnection, sent: int) -> bool:
    """Every message sent is running, waiting or dropped."""
    queue = connection.ui_chats
    return queue.running + queue.queued + connection.counters["ui_chat_dropped"] == sent


async def test_a_game_that_leaves_takes_its_backlog_and_the_memory_with_it(
    pulling: Bridge, traced: None
) -> None:
    game, connection = await joined(pulling, pull=True, page_chars=1024)
    release, served = blocked(pulling)
    for i in range(30):
        game.pull_ui_chat("Steve", "n" * 60_000, f"u4t{i}")
    await until(lambda: settled(connection, 30))
    queue = connection.ui_chats
    held, waiting = queue.queued_bytes, queue.queued
    with_backlog, _ = tracemalloc.get_traced_memory()
    await game.close()
    await until(lambda: connection.closed)
    assert (queue.queued, queue.queued_bytes) == (0, 0)
    after, _ = tracemalloc.get_traced_memory()
    assert with_backlog - after > held * 0.8, f"{with_backlog - after:,} of {held:,} freed"
    [gone] = [e for e in rejected(pulling, "ui_chat_dropped") if "left" in e.summary]
    assert f"{waiting} UI chat messages" in gone.summary
    release.set()  # the messages already running still reach the callback
    await until(lambda: len(served) == UI_CHAT_IN_FLIGHT and queue.running == 0)


async def test_over_chat_a_ui_message_over_64_kib_is_refused_and_counted(
    mc: Bridge,
) -> None:
    game, connection = await joined(mc, chunk_chars=256)
    try:
        delivered: list[UiChat] = []
        mc.on_ui_chat(delivered.append)
        await game.ui_chat("Steve", "😀" * 20_000, "ui-big")  # 80 KB of UTF-8 in 79 chunks
        await game.ui_chat("Steve", "after it", "ui-after")
        await until(lambda: delivered)
        assert [m.message for m in delivered] == ["after it"]
        [entry] = rejected(mc, "ui_chat_too_large")
        assert entry.data["message_id"] == "ui-big"
        assert f"over {MAX_MESSAGE_BYTES} bytes" in entry.data["detail"]
        assert connection.counters["rejected:ui_chat_too_large"] == 1
    finally:
        await game.close()


async def test_over_chat_the_backlog_is_bounded_in_bytes_and_dropped_when_the_game_leaves(
    mc: Bridge, traced: None
) -> None:
    game, connection = await joined(mc, chunk_chars=256)
    release, served = blocked(mc)
    for i in range(70):  # about 32 KB each, 128 chunks of 256 code points
        await game.ui_chat("Steve", "c" * 32_700, f"ui{i}")
    partial = "MCBEWS|UI_CHAT|partial|1/9|" + "p" * 256  # a message never finished
    await game.chat("MCBEWS_BRIDGE", partial, "tell")
    assert (await mc.command("say sync")).ok  # every frame before it has been handled
    queue = connection.ui_chats
    assert queue.running == UI_CHAT_IN_FLIGHT and queue.queued < 40
    assert 0 < queue.queued_bytes <= UI_CHAT_BACKLOG_BYTES
    assert connection.counters["ui_chat_dropped"] == 66 - queue.queued > 20
    with_backlog, _ = tracemalloc.get_traced_memory()
    held = queue.queued_bytes
    await game.close()
    await until(lambda: connection.closed)
    after, _ = tracemalloc.get_traced_memory()
    assert queue.queued_bytes == 0 and connection.proto.buffered_bytes == 0
    assert with_backlog - after > held * 0.8, f"{with_backlog - after:,} of {held:,} freed"
    release.set()
    await until(lambda: len(served) == UI_CHAT_IN_FLIGHT)
