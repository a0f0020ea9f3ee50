"""Events for every player, forwarded by the addon: the classroom (every student heard
through the addon, the connected client alone through the WebSocket), each transport, two
worlds, a reconnect, a flood and a hostile peer's forged batches. Real connections on
127.0.0.1 to the simulated world running the shipped addon."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.game_events import EntityDieEvent, PlayerBreakBlockEvent, event_kind
from mcbews_repl.gateway import GameConnection, LogEntry
from mcbews_repl.repl.handle._simulate import make_world
from mcbews_repl.sansio import FORWARD_BATCH_MAX_EVENTS, encode_forwarded
from mcbews_repl.sansio.wire import FORWARD_EVENTS_PER_SECOND_MAX
from mcbews_repl.sim import SimWorld
from mcbews_repl.vocabulary import EventKind

from .conftest import ConnectGame
from .test_subscriptions import DEADLINE, game_events, until

CLASS = ["Steve", "Alex", "Kai", "Mia"]
# How each transport is reached: the bridge's choice and the simulated world's pack.
TRANSPORTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "chat": ({"transport": "chat"}, {"pack": "beta", "beta_apis": True}),
    "pull": ({"transport": "pull"}, {}),
    "tags": ({"transport": "tags"}, {}),
}


@asynccontextmanager
async def classroom(
    transport: str = "pull", names: list[str] = CLASS
) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld, GameConnection]]:
    bridge, sim = TRANSPORTS[transport]
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0, **bridge) as mc,
        SimWorld(make_world(names), fast=True, **sim) as world,
    ):
        await world.connect(mc.url)
        game = await mc.wait_connected(timeout=DEADLINE)
        await game.wait_ready()
        yield mc, world, game


def rejected(mc: mcbews_repl.Bridge, reason: str) -> list[LogEntry]:
    return [e for e in mc.events() if e.kind == EventKind.REJECTED and e.data["reason"] == reason]


def typed(entry: LogEntry) -> Any:
    kind = event_kind(entry.data["event"])
    assert kind is not None
    return kind.make(entry.data)


async def test_the_classroom_hears_every_student_through_the_addon() -> None:
    """Students in the teacher's world: BlockBroken hears the connected client (Steve)
    alone, player_break_block every one of them."""
    async with classroom() as (mc, sim, game):
        await mc.subscribe("BlockBroken")
        assert "player_break_block" in await mc.subscribe("player_break_block")
        assert game.forwarding == {"player_break_block": 0}
        await until(lambda: "BlockBroken" in sim.client.subscriptions, "the game's subscription")
        for k, name in enumerate(CLASS):
            sim.break_block(name, k, 62, 5)
        heard = await until(
            lambda: len(found := game_events(mc, "player_break_block")) == 4 and found,
            "every student's block",
        )
        events = [typed(e) for e in heard]
        assert all(isinstance(e, PlayerBreakBlockEvent) for e in events)
        assert [e.player for e in events] == CLASS
        assert [(e.x, e.y, e.z) for e in events] == [(k, 62, 5) for k in range(4)]
        assert {e.block_id for e in events} == {"minecraft:dirt"} and events[0].block == "dirt"
        assert [e.data["player"] for e in game_events(mc, "BlockBroken")] == ["Steve"]
        assert all(e.connection == game.id for e in heard)
        assert "player_break_block by Alex at 1 62 5" in heard[1].summary


@pytest.mark.parametrize("transport", sorted(TRANSPORTS))
async def test_each_transport_delivers_forwarded_events(transport: str) -> None:
    async with classroom(transport, ["Steve", "Alex"]) as (mc, sim, game):
        assert game.transport == transport
        await mc.subscribe("entity_die")
        await mc.subscribe("item_use")
        sim.kill_mob("Alex", "minecraft:zombie")
        sim.use_item("Alex", "bread")
        sim.hurt("Steve", 100, cause="fall")
        await until(lambda: len(game_events(mc)) == 3, f"three events by {transport}")
        die, use, fell = (typed(e) for e in game_events(mc))
        assert isinstance(die, EntityDieEvent)
        assert (die.player, die.victim, die.cause, die.killer) == (
            "Alex", "zombie", "entityAttack", "player"
        )  # fmt: skip
        assert (use.player, use.item_id, use.count) == ("Alex", "minecraft:bread", 1)
        assert (fell.victim_name, fell.cause, fell.player) == ("Steve", "fall", None)


async def test_each_world_hears_its_own_players() -> None:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0, transport="pull") as mc,
        SimWorld(make_world(["Steve", "Alex"]), fast=True) as first,
        SimWorld(make_world(["Ana", "Bea"]), fast=True) as second,
    ):
        await first.connect(mc.url)
        one = await mc.wait_connected(timeout=DEADLINE)
        await one.wait_ready()
        await second.connect(mc.url)
        (two,) = await until(lambda: [c for c in mc.connections if c is not one], "Ana's world")
        await two.wait_ready()
        await mc.subscribe("player_place_block", connection=two)
        assert two.forwarding == {"player_place_block": 0} and one.forwarding is None
        first.place_block("Alex", 0, 70, 0, "stone")
        second.place_block("Bea", 0, 70, 0, "stone")
        second.place_block("Ana", 1, 70, 0, "stone")
        heard = await until(lambda: len(e := game_events(mc)) == 2 and e, "Ana's world's")
        assert [(e.connection, e.data["player"]) for e in heard] == [(two.id, "Bea"),
                                                                     (two.id, "Ana")]  # fmt: skip
        await mc.subscribe("player_place_block")  # now everywhere
        first.place_block("Alex", 1, 70, 0, "stone")
        (alex,) = await until(
            lambda: [e for e in game_events(mc) if e.connection == one.id], "Alex's block"
        )
        assert alex.data["player"] == "Alex"


async def test_a_reconnect_restores_the_addons_subscriptions() -> None:
    async with classroom("pull", ["Steve", "Alex"]) as (mc, sim, game):
        await mc.subscribe("player_break_block", rate=5)
        assert game.forwarding == {"player_break_block": 5}
        await sim.disconnect()
        await until(lambda: game.closed, "the disconnect")
        await sim.connect(mc.url)
        again = await until(lambda: [c for c in mc.connections if not c.closed], "the reconnect")
        await again[0].wait_ready()
        assert again[0].forwarding == {"player_break_block": 5}
        assert "player_break_block" in again[0].events
        sim.break_block("Alex", 3, 62, 3)
        (entry,) = await until(lambda: game_events(mc), "Alex's block after the reconnect")
        assert entry.connection == again[0].id


async def test_unsubscribing_stops_the_addon() -> None:
    async with classroom("pull", ["Steve", "Alex"]) as (mc, sim, game):
        await mc.subscribe("lever_action")
        heard = await mc.unsubscribe("lever_action")
        assert "lever_action" not in heard and game.forwarding == {}
        sim.flip_lever("Alex", 0, 64, 0)
        await sim.advance(5)
        assert game_events(mc) == [] and game.counters["forwarded_batches"] == 0


async def test_a_flood_past_a_seconds_bound_is_dropped_and_reported() -> None:
    async with classroom("pull", ["Steve", "Alex"]) as (mc, sim, game):
        await mc.subscribe("item_use")
        flood = FORWARD_EVENTS_PER_SECOND_MAX + 36  # in one tick: past what goes up in a second
        for _ in range(flood):
            sim.use_item("Alex", "bread")
        second = FORWARD_EVENTS_PER_SECOND_MAX
        await until(lambda: len(game_events(mc)) == second, "a second's worth")
        await sim.advance(20)  # a new second: the next batch carries the drop counts
        sim.use_item("Alex", "bread")
        (said,) = await until(lambda: rejected(mc, "forwarded_dropped_by_addon"), "the drops")
        assert said.data["detail"] == "the addon dropped item_use 36"
        assert game.counters["forwarded_dropped_by_addon"] == 36
        await until(lambda: len(game_events(mc)) == FORWARD_EVENTS_PER_SECOND_MAX + 1, "the last")


async def test_a_flood_one_batch_cannot_hold_waits_and_loses_nothing() -> None:
    async with classroom("pull", ["Steve", "Alex"]) as (mc, sim, game):
        await mc.subscribe("item_use")
        for _ in range(FORWARD_BATCH_MAX_EVENTS * 3 + 7):  # in one tick: four batches' worth
            sim.use_item("Alex", "bread")
        await until(lambda: len(game_events(mc)) == FORWARD_BATCH_MAX_EVENTS * 3 + 7, "every event")
        assert game.counters["forwarded_dropped_by_addon"] == 0
        assert not rejected(mc, "forwarded_dropped_by_addon")


async def test_a_per_player_rate_is_kept() -> None:
    async with classroom("pull", ["Steve", "Alex", "Kai"]) as (mc, sim, _game):
        await mc.subscribe("entity_hit_block", rate=2)
        for name in ("Alex", "Kai"):  # within one second of the game's
            for _ in range(5):
                sim.hit_block(name, 0, 62, 0, "Up")
        (said,) = await until(lambda: rejected(mc, "forwarded_dropped_by_addon"), "the drops")
        assert said.data["detail"] == "the addon dropped entity_hit_block 6"
        players = [e.data["player"] for e in game_events(mc)]
        assert players == ["Alex", "Alex", "Kai", "Kai"]
        assert {e.data["face"] for e in game_events(mc)} == {"Up"}


async def test_a_rate_is_checked() -> None:
    async with mcbews_repl.serve(host="127.0.0.1", port=0) as mc:
        with pytest.raises(ValueError, match="has no rate"):
            await mc.subscribe("PlayerMessage", rate=3)
        with pytest.raises(ValueError, match="0 \\(none\\) to 20"):
            await mc.subscribe("player_break_block", rate=50)
        with pytest.raises(TypeError):
            await mc.subscribe("player_break_block", rate=1.5)  # type: ignore[arg-type]


# --- a hostile peer forging batches, over the wire (a fake game's UI chat lines) ------------


async def forged_peer(mc: mcbews_repl.Bridge, connect_game: ConnectGame) -> tuple[Any, Any]:
    game = await connect_game(chunk_chars=250)  # the addon's chunk size
    game.capabilities["subscribe_events"] = lambda payload: {
        "ok": True, "result": {"forwarded": payload["kinds"]}
    }  # fmt: skip
    (connection,) = mc.connections
    await connection.wait_ready()
    await mc.subscribe("player_leave")
    return game, connection


async def send_batch(game: Any, message_id: str, text: str) -> None:
    await game.bridge_chunks("UI_CHAT", message_id, text.replace("@", "\\u0040"))


async def test_a_hostile_peers_malformed_and_oversize_batches_are_counted_and_dropped(
    mc: mcbews_repl.Bridge, connect_game: ConnectGame
) -> None:
    game, connection = await forged_peer(mc, connect_game)
    many = ",".join(['[0,{"p":"Alex"}]'] * (FORWARD_BATCH_MAX_EVENTS + 1))
    forged = {
        "f1": '{"fwd":1,"t":"soon","k":[],"ev":[]}',
        "f2": '{"fwd":1,"t":1,"k":[],"ev":{"a":1}}',
        "f3": '{"fwd":1,"t":1,"k":["player_leave"],"ev":[],"pad":"' + "y" * 20_000 + '"}',
        "f4": '{"fwd":1,"t":1,"k":["player_leave"],"ev":[' + many + "]}",
        "f5": '{"fwd":true,"t":1,"k":[],"ev":[]}',
    }
    for message_id, text in forged.items():
        await send_batch(game, message_id, text)
    await until(lambda: len(rejected(mc, "forwarded_malformed")) == 3, "three malformed")
    await until(lambda: len(rejected(mc, "forwarded_too_large")) == 2, "two too large")
    assert connection.counters["rejected:forwarded_malformed"] == 3
    assert connection.counters["rejected:forwarded_too_large"] == 2
    assert game_events(mc) == []
    assert (await mc.command("say alive")).ok


async def test_a_hostile_peers_unreadable_unknown_and_unasked_events_are_left_out(
    mc: mcbews_repl.Bridge, connect_game: ConnectGame
) -> None:
    game, connection = await forged_peer(mc, connect_game)
    good = {"p": "Alex"}
    mixed = encode_forwarded(3, [("player_leave", good), ("player_leave", {"p": 7}),
                                 ("player_dance", good), ("item_use", good)])  # fmt: skip
    await send_batch(game, "f6", mixed)
    (left_out,) = await until(lambda: rejected(mc, "forwarded_event"), "the unreadable")
    assert left_out.summary.startswith("forwarded_event: 2 unreadable")
    assert [e.data["player"] for e in game_events(mc)] == ["Alex"]
    assert connection.counters["rejected:forwarded_event"] == 2
    await until(lambda: connection.counters["unsubscribed_event"] == 1, "item_use, never asked")


async def test_a_hostile_peers_flood_is_bounded_per_connection(
    mc: mcbews_repl.Bridge, connect_game: ConnectGame
) -> None:
    game, connection = await forged_peer(mc, connect_game)
    connection._inbound.forward_gate.events_per_second = 30  # a small bound, to reach it
    batch = encode_forwarded(4, [("player_leave", {"p": "Alex"})] * FORWARD_BATCH_MAX_EVENTS)
    for n in range(3):
        await send_batch(game, f"flood{n}", batch)
    await until(lambda: connection.counters["forwarded_batches"] == 3, "three batches")
    assert len(game_events(mc)) == 30
    assert connection.counters["forwarded_dropped"] == 3 * FORWARD_BATCH_MAX_EVENTS - 30
    said = rejected(mc, "forwarded_dropped")
    assert len(said) == 3 and "past this connection's bound" in said[0].summary


async def test_batches_of_many_pages_arrive_in_the_order_they_happened() -> None:
    """On pull the next poll goes while a batch's other pages are pulled: each batch is
    still handed on after the one before it."""
    async with classroom("pull", ["Steve", "Alex", "Kai"]) as (mc, sim, game):
        await mc.subscribe("player_place_block")
        sent = []
        for tick in range(6):
            for k in range(40):  # about 4 KB a batch: 4 or 5 pages
                x, z = k, tick
                sim.place_block(("Alex", "Kai")[k % 2], x, 70, z, "stone")
                sent.append((x, z))
            await sim.advance(1)
        heard = await until(lambda: len(e := game_events(mc)) == len(sent) and e, "every block")
        assert [(e.data["x"], e.data["z"]) for e in heard] == sent
        assert game.counters["forwarded_batches"] >= 6


async def test_a_new_bridge_sets_right_what_an_earlier_one_left_forwarded() -> None:
    """The addon keeps its subscriptions when a bridge goes: a new bridge that gets events
    it never asked for counts them and asks the addon again for exactly what it wants."""
    async with SimWorld(make_world(["Steve", "Alex"]), fast=True) as sim:
        async with mcbews_repl.serve(host="127.0.0.1", port=0, transport="pull") as first:
            await sim.connect(first.url)
            await (await first.wait_connected(timeout=DEADLINE)).wait_ready()
            await first.subscribe("item_use")
        async with mcbews_repl.serve(host="127.0.0.1", port=0, transport="pull") as second:
            await sim.connect(second.url)
            game = await second.wait_connected(timeout=DEADLINE)
            await game.wait_ready()
            assert game.forwarding is None  # this bridge never asked
            sim.use_item("Alex", "bread")
            await until(lambda: game.forwarding == {}, "the addon set right")
            assert game.counters["unsubscribed_event"] == 1 and game_events(second) == []
            batches = game.counters["forwarded_batches"]
            sim.use_item("Alex", "bread")
            await sim.advance(2)
            polls = game.stats()["ui_chat_polls"]
            await until(lambda: game.stats()["ui_chat_polls"] >= polls + 3, "three more polls")
            assert game.counters["forwarded_batches"] == batches  # the addon sends no more
