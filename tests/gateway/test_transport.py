"""How answers travel, chosen per connection, and the pull transport itself, over real sockets.

The fake game here plays an addon that answers the pull commands (its own small store, with
short pages so answers span several) and, unless told otherwise, the chat transport too.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from mcbews_repl import Bridge, CapabilityError, RequestTimeout, UiChat, serve

from .conftest import FAST, until
from .fakegame import FakeGame

AUTO = {**FAST, "transport": "auto", "probe_timeout": 0.3, "poll_interval": 0.02}
ITEMS = {"players": [{"name": "Steve", "slots": [{"slot": i, "typeId": "minecraft:stone"}
                                                   for i in range(36)]}]}  # fmt: skip


def pulling_name(task: asyncio.Task[Any]) -> str:
    return getattr(task.get_coro(), "__qualname__", "")


def ok(result: dict[str, Any]) -> dict[str, Any]:
    return {"ok": True, "result": result}


@pytest.fixture
async def auto() -> AsyncIterator[Bridge]:
    async with serve(port=0, **AUTO) as bridge:
        yield bridge


async def joined(bridge: Bridge, **options: Any) -> tuple[FakeGame, Any]:
    game = FakeGame(bridge.url, **options)
    game.capabilities["list_capabilities"] = lambda p: ok({"capabilities": []})
    game.capabilities["get_inventory_snapshot"] = lambda p: ok(ITEMS)
    await game.__aenter__()
    connection = await bridge.wait_connected(timeout=10)
    return game, connection


async def test_pull_is_chosen_when_it_answers_and_chat_is_not_asked(auto: Bridge) -> None:
    game, connection = await joined(auto, pull=True)
    try:
        assert connection.transport == "pull"
        assert connection.transport_verdicts == {"pull": "answers"}
        assert not any(line.startswith("scriptevent mcbews:bridge_req") for line in game.commands)
        [entry] = [e for e in auto.events() if e.kind == "transport"]
        assert entry.summary == "answers through custom-command results (pull)"
        answer = await auto.call("get_inventory_snapshot")
        assert answer == ITEMS
        kept = json.dumps(ok(ITEMS))
        pages = -(-len(kept) // game.page_chars)
        assert pages > 20  # a long answer: the first page came with the ask, the rest pulled
        assert game.executed["mcbews:pull"] >= pages - 1
    finally:
        await game.close()


async def test_chat_is_chosen_when_pull_does_not_answer(auto: Bridge) -> None:
    game, connection = await joined(auto, pull=False)
    try:
        assert connection.transport == "chat"
        assert connection.transport_verdicts == {
            "pull": "refused by the game: Unknown command: mcbews:ask.",
            "chat": "answers",
            "tags": "no answer",  # asked beside chat; the fake game has no tags
        }
        assert await auto.call("list_capabilities") == {"capabilities": []}
        assert not any(line.startswith("mcbews:poll") for line in game.commands)
    finally:
        await game.close()


async def test_no_transport_says_what_to_install_and_probes_again(auto: Bridge) -> None:
    game = FakeGame(auto.url, pull=False)
    game.chat_transport = False
    async with game:
        connection = await auto.wait_connected(timeout=10)
        assert connection.transport == "none"
        with pytest.raises(RequestTimeout) as error:
            await auto.call("list_capabilities", timeout=2)
        text = str(error.value)
        assert "no companion addon answers on this connection" in text
        assert "pull: refused by the game: Unknown command: mcbews:ask." in text
        assert "chat: no answer" in text and "mcbews-repl addon export" in text
        assert "Minecraft Education among them, need the stable pack" in text
        game.pull = True  # the pack is applied and the world reloaded: the next call probes
        game.capabilities["list_capabilities"] = lambda p: ok({"capabilities": ["x"]})
        assert await auto.call("list_capabilities", timeout=2) == {"capabilities": ["x"]}
        assert connection.transport == "pull"


async def test_a_set_transport_is_not_probed() -> None:
    async with serve(port=0, **{**AUTO, "transport": "pull"}) as bridge:
        game, connection = await joined(bridge, pull=True)
        try:
            assert connection.transport == "pull"
            assert connection.transport_verdicts == {"pull": "chosen by the transport setting"}
            assert not any(line.startswith(("mcbews:ask", "scriptevent")) for line in game.commands)
        finally:
            await game.close()


async def test_wait_then_the_answer(auto: Bridge) -> None:
    game, _ = await joined(auto, pull=True)
    try:
        game.capabilities["run_world_command"] = lambda p: ok({"n": 1})
        game.deferred.add("run_world_command")
        assert await auto.call("run_world_command", command="say hi") == {"n": 1}
    finally:
        await game.close()


async def test_a_lost_answer_and_a_bad_page_are_errors_that_say_so(auto: Bridge) -> None:
    game, _ = await joined(auto, pull=True)
    try:
        original = game._page

        def lossy(message_id: str, index: int) -> str:
            return (
                f"MCBEWS|NONE|{message_id}|unknown" if index == 2 else original(message_id, index)
            )

        game._page = lossy  # type: ignore[method-assign]
        with pytest.raises(CapabilityError) as lost:
            await auto.call("get_inventory_snapshot")
        assert lost.value.code == "ANSWER_LOST" and "expired" in lost.value.message

        def conflicting(message_id: str, index: int) -> str:
            page = original(message_id, index)
            return page.replace("/", "/9", 1) if index == 3 else page

        game._page = conflicting  # type: ignore[method-assign]
        with pytest.raises(CapabilityError) as bad:
            await auto.call("get_inventory_snapshot")
        assert bad.value.code == "MALFORMED_RESPONSE" and "total_changed" in bad.value.message
    finally:
        await game.close()


async def test_ui_chat_is_polled_and_reaches_the_callback_of_its_own_game(auto: Bridge) -> None:
    got: asyncio.Queue[UiChat] = asyncio.Queue()
    auto.on_ui_chat(got.put_nowait)
    first, one = await joined(auto, pull=True)
    second, two = await joined(auto, pull=True, player="Alex")
    try:
        long = "a long panel message " * 20  # several pages
        first.pull_ui_chat("Steve", long, "u5t1")
        second.pull_ui_chat("Alex", "from the other world", "u5t1")  # the same id elsewhere
        messages = [await asyncio.wait_for(got.get(), 5) for _ in range(2)]
        by_player = {m.player: m for m in messages}
        assert by_player["Steve"].message == long and by_player["Steve"].connection is one
        assert by_player["Alex"].message == "from the other world"
        assert by_player["Alex"].connection is two
        assert one.stats()["ui_chat_polls"] > 0
        assert [e.kind for e in auto.events() if e.kind == "ui_chat"] == ["ui_chat"] * 2
    finally:
        await first.close()
        await second.close()


async def test_polls_do_not_count_as_pending_work(auto: Bridge) -> None:
    game, connection = await joined(auto, pull=True, reply_delay=0.05)
    try:
        await until(lambda: connection.stats()["ui_chat_polls"] >= 2)
        assert connection.pending == 0
    finally:
        await game.close()


async def test_big_answers_read_together_share_the_connections_page_pullers(auto: Bridge) -> None:
    game, _ = await joined(auto, pull=True)
    try:
        game.page_chars = 10  # the inventory's answer: about 160 pages
        pages = -(-len(json.dumps(ok(ITEMS))) // game.page_chars)
        assert pages > 120
        peak, reading = 0, True

        async def sample() -> None:
            nonlocal peak
            while reading:
                pulling = [t for t in asyncio.all_tasks() if "pull_pages" in pulling_name(t)]
                peak = max(peak, len(pulling))
                await asyncio.sleep(0)

        sampler = asyncio.create_task(sample())
        answers = await asyncio.gather(*(auto.call("get_inventory_snapshot") for _ in range(4)))
        reading = False
        await sampler
        assert answers == [ITEMS] * 4
        # A task a page would be 4 x 160: the pullers are the window's 100, and one more
        # for a message that found them all taken.
        assert 4 <= peak <= 100 + 3, peak
    finally:
        await game.close()
