"""Subscribing to game events: the frames go out, the simulated game's events come back as
typed log entries, only the subscribed ones are kept, and a reconnect gets them again.
Real connections on 127.0.0.1 to the simulated world running the shipped addon."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.exceptions import UnknownEvent
from mcbews_repl.game_events import GAME_EVENTS, BlockBroken, event_kind
from mcbews_repl.gateway import GameConnection, LogEntry
from mcbews_repl.sim import SimWorld
from mcbews_repl.vocabulary import EventKind

DEADLINE = 10.0


async def until(check: Callable[[], Any], what: str) -> Any:
    """Poll ``check`` until it is truthy (a generous deadline, never a fixed sleep)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + DEADLINE
    while not (found := check()):
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
    return found


def game_events(mc: mcbews_repl.Bridge, name: str | None = None) -> list[LogEntry]:
    return [e for e in mc.events() if e.kind == EventKind.GAME_EVENT
            and (name is None or e.data["event"] == name)]  # fmt: skip


@asynccontextmanager
async def linked(**sim: Any) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld, GameConnection]]:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0, transport="auto") as mc,
        SimWorld(fast=True, **sim) as world,
    ):
        await world.connect(mc.url)
        game = await mc.wait_connected(timeout=DEADLINE)
        yield mc, world, game


async def test_a_subscribed_event_arrives_as_a_typed_entry() -> None:
    async with linked() as (mc, sim, game):
        heard = await mc.subscribe("BlockBroken")
        assert heard == {"PlayerMessage", "BlockBroken"}
        await until(lambda: "BlockBroken" in sim.client.subscriptions, "the game to subscribe")
        x, y, z = 2, 62, 3
        block = sim.world.block("overworld", x, y, z)
        assert sim.break_block("Steve", x, y, z) == block
        (entry,) = await until(lambda: game_events(mc, "BlockBroken"), "BlockBroken")
        kind = event_kind("BlockBroken")
        assert kind is not None
        event = kind.make(entry.data)
        assert isinstance(event, BlockBroken)
        assert (event.player, event.block_id, event.block) == ("Steve", block, block.split(":")[1])
        assert (event.destruction_method, event.count) == (0, 1)
        steve = sim.world.players["Steve"].location
        assert (event.x, event.y, event.z) == (steve.x, steve.y, steve.z)
        assert entry.connection == game.id
        assert "BlockBroken by Steve" in entry.summary


async def test_nothing_is_sent_before_subscribing_nor_after_unsubscribing() -> None:
    async with linked() as (mc, sim, game):
        sim.break_block("Steve", 0, 62, 0)  # not subscribed: the game sends nothing
        await mc.subscribe("BlockPlaced")
        await until(lambda: "BlockPlaced" in sim.client.subscriptions, "the subscription")
        sim.place_block("Steve", 0, 70, 0, "stone")
        await until(lambda: game_events(mc, "BlockPlaced"), "BlockPlaced")
        assert await mc.unsubscribe("BlockPlaced") == {"PlayerMessage"}
        await until(lambda: "BlockPlaced" not in sim.client.subscriptions, "the unsubscription")
        sim.place_block("Steve", 0, 71, 0, "stone")
        await mc.command("list")  # a round trip: anything sent before it has arrived
        assert len(game_events(mc, "BlockPlaced")) == 1
        assert game_events(mc, "BlockBroken") == []
        assert game.counters["unsubscribed_event"] == 0


async def test_other_players_doings_send_nothing_over_the_websocket() -> None:
    async with linked() as (mc, sim, _game):
        await mc.subscribe("BlockBroken")
        await until(lambda: "BlockBroken" in sim.client.subscriptions, "the subscription")
        sim.break_block("Alex", 1, 62, 1)  # Alex is not the connected client's player
        sim.break_block("Steve", 2, 62, 2)
        await until(lambda: game_events(mc, "BlockBroken"), "Steve's BlockBroken")
        await mc.command("list")
        assert [e.data["player"] for e in game_events(mc, "BlockBroken")] == ["Steve"]


async def test_setblock_and_fill_fire_no_block_placed() -> None:
    async with linked() as (mc, sim, _game):
        await mc.subscribe("BlockPlaced")
        await until(lambda: "BlockPlaced" in sim.client.subscriptions, "the subscription")
        await mc.command("setblock 0 70 0 stone")
        await mc.command("fill 0 71 0 1 72 1 dirt")
        assert game_events(mc, "BlockPlaced") == []


async def test_subscriptions_come_back_after_a_reconnect() -> None:
    async with linked() as (mc, sim, game):
        await mc.subscribe("PlayerTravelled")
        await sim.disconnect()
        await until(lambda: game.closed, "the connection to close")
        await sim.connect(mc.url)
        again = await until(lambda: [c for c in mc.connections if c is not game], "a reconnect")
        await again[0].wait_ready()
        await until(lambda: "PlayerTravelled" in sim.client.subscriptions, "the restored one")
        assert sim.walk("Steve", 4.5, 63.0, 0.5) > 0
        (entry,) = await until(lambda: game_events(mc, "PlayerTravelled"), "PlayerTravelled")
        assert entry.connection == again[0].id and entry.data["travel_method"] == 0


async def test_a_world_subscription_stays_with_its_world() -> None:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0) as mc,
        SimWorld(fast=True) as steve_world,
        SimWorld(fast=True) as alex_world,
    ):
        alex_world.world.local_player = "Alex"
        await steve_world.connect(mc.url)
        steve = await mc.wait_connected(timeout=DEADLINE)
        await alex_world.connect(mc.url)
        alex = await until(lambda: [c for c in mc.connections if c is not steve], "Alex")
        await alex[0].wait_ready()
        await mc.subscribe("ItemUsed", connection=alex[0])
        await until(lambda: "ItemUsed" in alex_world.client.subscriptions, "Alex's")
        assert "ItemUsed" not in steve_world.client.subscriptions
        steve_world.use_item("Steve", "bread")
        alex_world.use_item("Alex", "bread")
        (entry,) = await until(lambda: game_events(mc, "ItemUsed"), "Alex's ItemUsed")
        assert (entry.connection, entry.data["player"]) == (alex[0].id, "Alex")
        assert entry.data["use_method"] == 1 and entry.data["item_id"] == "minecraft:bread"


async def test_an_unknown_name_is_refused_with_the_known_ones() -> None:
    async with mcbews_repl.serve(host="127.0.0.1", port=0) as mc:
        with pytest.raises(UnknownEvent) as caught:
            await mc.subscribe("BlockBroke")
        said = str(caught.value)
        assert "did you mean 'BlockBroken'?" in said and "unknown_ok=True" in said
        assert all(n in said for n, k in GAME_EVENTS.items() if k.fires)
        with pytest.raises(ValueError, match="stays subscribed"):
            await mc.unsubscribe("PlayerMessage")


async def test_an_unknown_name_asked_for_on_purpose_is_kept_as_its_body() -> None:
    async with linked() as (mc, sim, game):
        await mc.subscribe("BossKilled", unknown_ok=True)
        await until(lambda: "BossKilled" in sim.client.subscriptions, "the subscription")
        frame = {"body": {"boss": "minecraft:wither", "player": {"name": "Steve"}},
                 "header": {"eventName": "BossKilled", "messagePurpose": "event",
                            "version": 17104896}}  # fmt: skip
        assert sim.client.report_event("BossKilled", frame)
        (entry,) = await until(lambda: game_events(mc, "BossKilled"), "BossKilled")
        assert entry.data["player"] == "Steve"
        assert '"boss":"minecraft:wither"' in entry.data["properties"]
        assert game.events == {"PlayerMessage", "BossKilled"}
