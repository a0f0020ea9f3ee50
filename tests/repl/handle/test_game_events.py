"""``mc.on("BlockBroken", fn)`` with two simulated worlds: every callback hears its own
world's events only, ``mc.on`` hears both, subscriptions come back after a reconnect, and
``mc.events(kind=...)`` is a table of the event's own columns. Real shell, real sockets,
the shipped addon in both worlds."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mcbews_repl.exceptions import UnknownEvent
from mcbews_repl.game_events import BlockBroken, ItemUsed
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.handle._simulate import SimHandle, make_world
from mcbews_repl.sim import SimWorld


def wait_until(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError("the condition never became true")
        time.sleep(0.02)
    return found


def rows_of(mc: Minecraft, kind: str) -> Any:
    """``mc.events(kind=kind)`` once it has a row."""
    wait_until(lambda: len(mc.events(kind=kind).result(10)) > 0)
    return mc.events(kind=kind).result(10)


@pytest.fixture(scope="module")
def two(shell: Any) -> Iterator[tuple[Minecraft, SimHandle, SimHandle]]:
    mc = shell.user_ns["mc"]
    assert isinstance(mc, Minecraft) and mc.sim is not None

    def alex_world() -> SimWorld:
        return SimWorld(make_world(["Alex", "Bea"]), fast=True)

    second = asyncio.run(SimHandle.launch(alex_world, mc.url, "mcbews-sim-events"))
    wait_until(lambda: [c.local_player for c in mc.connections] == ["Steve", "Alex"])
    yield mc, mc.sim, second
    mc.off()
    for name in ("Steve", "Alex"):
        mc.world(name).off()
    asyncio.run(second.close())
    wait_until(lambda: len(mc.connections) == 1)


def test_each_callback_hears_its_own_world(two: tuple[Minecraft, SimHandle, SimHandle]) -> None:
    mc, steve_sim, alex_sim = two
    heard: dict[str, list[Any]] = {"Steve": [], "Alex": []}
    for name in heard:
        mc.world(name).on("BlockBroken", heard[name].append)
    wait_until(lambda: "BlockBroken" in alex_sim.raw.client.subscriptions)
    assert "BlockBroken" in steve_sim.raw.client.subscriptions
    steve_sim.break_block("Steve", 1, 62, 1)
    alex_sim.break_block("Alex", 2, 62, 2)
    alex_sim.break_block("Bea", 3, 62, 3)  # Bea is not Alex's connected client: not heard
    wait_until(lambda: heard["Steve"] and heard["Alex"])
    time.sleep(0.3)  # let anything misrouted arrive before the counts are read
    (steve,), (alex,) = heard["Steve"], heard["Alex"]
    assert isinstance(steve.event, BlockBroken) and steve.event.player == "Steve"
    assert (alex.player, alex.world_name, alex.x) == ("Alex", "Alex", alex.event.x)
    assert alex.block_id.startswith("minecraft:") and alex.destruction_method == 0
    assert mc.world("Steve").off("BlockBroken") == 1 and mc.world("Alex").off() == 1


def test_mc_on_hears_every_world_sync_or_async(
    two: tuple[Minecraft, SimHandle, SimHandle],
) -> None:
    mc, steve_sim, alex_sim = two
    seen: list[tuple[str, str]] = []

    @mc.on("ItemUsed")
    async def used(event: Any) -> None:
        await asyncio.sleep(0)
        assert isinstance(event.event, ItemUsed)
        seen.append((str(event.world_name), str(event.item)))

    wait_until(lambda: "ItemUsed" in alex_sim.raw.client.subscriptions)
    steve_sim.use_item("Steve", "bread")
    alex_sim.use_item("Alex", "flint_and_steel")
    wait_until(lambda: len(seen) == 2)
    assert sorted(seen) == [("Alex", "flint_and_steel"), ("Steve", "bread")]
    assert mc.off(used) == 1


def test_the_addons_events_hear_every_player_of_each_world(
    two: tuple[Minecraft, SimHandle, SimHandle],
) -> None:
    """Bea is not her world's connected client: BlockBroken never hears her, the addon's
    player_break_block does, in her own world's callback."""
    mc, steve_sim, alex_sim = two
    heard: list[tuple[str, str]] = []
    mc.on("player_break_block", lambda e: heard.append((str(e.world_name), str(e.player))),
          rate=5)  # fmt: skip
    wait_until(lambda: all(c.raw.forwarding == {"player_break_block": 5} for c in mc.connections))
    steve_sim.break_block("Alex", 4, 62, 4)  # Steve's world has an Alex too
    alex_sim.break_block("Bea", 5, 62, 5)
    wait_until(lambda: len(heard) == 2)
    assert sorted(heard) == [("Alex", "Bea"), ("Steve", "Alex")]
    assert mc.off("player_break_block") == 1
    mc.unsubscribe("player_break_block").result(10)
    assert all(c.raw.forwarding == {} for c in mc.connections)


def test_subscriptions_come_back_after_a_reconnect(
    two: tuple[Minecraft, SimHandle, SimHandle],
) -> None:
    mc, _steve_sim, alex_sim = two
    alex = mc.world("Alex")
    alex.subscribe("PlayerDied").result(10)
    old = alex.id
    asyncio.run_coroutine_threadsafe(alex_sim.raw.disconnect(), alex_sim.raw.loop).result(10)
    wait_until(lambda: not mc.world("Alex").connected)
    alex_sim.connect(mc.url).result(10)
    wait_until(lambda: mc.world("Alex").connected and mc.world("Alex").id != old)
    wait_until(lambda: "PlayerDied" in alex_sim.raw.client.subscriptions)
    assert alex_sim.hurt("Alex", 100, "fall") is True
    rows = rows_of(mc, "PlayerDied")
    assert list(rows["player"]) == ["Alex"] and list(rows["cause"]) == [5]
    alex.unsubscribe("PlayerDied").result(10)
    wait_until(lambda: "PlayerDied" not in alex_sim.raw.client.subscriptions)


def test_the_events_table_has_the_events_own_columns(
    two: tuple[Minecraft, SimHandle, SimHandle],
) -> None:
    mc, steve_sim, _alex_sim = two
    mc.world("Steve").subscribe("BlockPlaced").result(10)
    wait_until(lambda: "BlockPlaced" in steve_sim.raw.client.subscriptions)  # the game has it
    steve_sim.place_block("Steve", 4, 70, 4, "minecraft:oak_planks")
    frame = rows_of(mc, "BlockPlaced")
    assert list(frame.columns)[:8] == ["time", "connection", "player", "x", "y", "z",
                                       "dimension", "yaw"]  # fmt: skip
    assert {"block", "block_id", "placement_method", "placed_underwater", "tool"} <= set(
        frame.columns
    )
    assert frame.iloc[-1]["block_id"] == "minecraft:oak_planks"
    assert frame.index.name == "cursor"
    with pytest.raises(UnknownEvent, match="did you mean 'BlockPlaced'"):
        mc.events(kind="BlockPlace")


def test_each_on_and_subscribe_reach_every_world(
    two: tuple[Minecraft, SimHandle, SimHandle],
) -> None:
    """``mc.each.on`` hears every world's event in one callback and subscribes it in each;
    ``mc.each.off`` removes the callback and leaves the subscriptions; ``mc.each.subscribe``
    and ``mc.each.unsubscribe`` subscribe and stop an event in every world."""
    mc, steve_sim, alex_sim = two
    sims = (steve_sim, alex_sim)
    heard: list[tuple[str, str, int]] = []
    mc.each.on("PlayerTeleported",
               lambda e: heard.append((str(e.world_name), str(e.player), e.cause)))  # fmt: skip
    wait_until(lambda: all("PlayerTeleported" in s.raw.client.subscriptions for s in sims))
    steve_sim.teleport("Steve", 5, 70, 5)
    alex_sim.teleport("Alex", 6, 70, 6, cause="chorus_fruit")
    wait_until(lambda: len(heard) == 2)
    assert sorted(heard) == [("Alex", "Alex", 2), ("Steve", "Steve", 3)]
    assert mc.each.off("PlayerTeleported") == 1
    assert all("PlayerTeleported" in s.raw.client.subscriptions for s in sims)  # they stay
    mc.each.unsubscribe("PlayerTeleported").result(10)
    wait_until(lambda: not any("PlayerTeleported" in s.raw.client.subscriptions for s in sims))

    mc.each.subscribe("ItemAcquired").result(10)
    wait_until(lambda: all("ItemAcquired" in s.raw.client.subscriptions for s in sims))
    assert steve_sim.fire_event("ItemAcquired", "Steve") is True
    assert alex_sim.fire_event("ItemAcquired", "Alex") is True
    wait_until(lambda: len(mc.events(kind="ItemAcquired").result(10)) == 2)
    rows = mc.events(kind="ItemAcquired").result(10)
    assert sorted(rows["player"]) == ["Alex", "Steve"]
    assert set(rows["acquisition_method"]) == {2}  # the captured frame's: crafted
    mc.each.unsubscribe("ItemAcquired").result(10)
    wait_until(lambda: not any("ItemAcquired" in s.raw.client.subscriptions for s in sims))


def raw_of(mc: Minecraft, host: str) -> Any:
    """The open gateway connection of ``host``'s world (read from the test's thread)."""
    return next(c.raw for c in mc.connections if c.local_player == host and not c.closed)


def test_each_world_keeps_its_own_rate_across_a_reconnect(
    two: tuple[Minecraft, SimHandle, SimHandle],
) -> None:
    """A world's rate is its own: Alex's world subscribing at 1 leaves Steve's at 5, and
    Alex's comes back with its subscription after Alex reconnects."""
    mc, _steve_sim, alex_sim = two
    mc.world("Steve").subscribe("item_use", rate=5).result(10)
    mc.world("Alex").subscribe("item_use", rate=1).result(10)
    mc.world("Alex").subscribe("PlayerTravelled", rate=2).result(10)
    steve, alex = raw_of(mc, "Steve"), raw_of(mc, "Alex")
    assert steve.forwarding == {"item_use": 5} and alex.forwarding == {"item_use": 1}
    assert alex.event_rates() == {"item_use": 1, "PlayerTravelled": 2}
    old = mc.world("Alex").id
    asyncio.run_coroutine_threadsafe(alex_sim.raw.disconnect(), alex_sim.raw.loop).result(10)
    wait_until(lambda: not mc.world("Alex").connected)
    alex_sim.connect(mc.url).result(10)
    wait_until(lambda: mc.world("Alex").connected and mc.world("Alex").id != old)
    wait_until(lambda: raw_of(mc, "Alex").forwarding == {"item_use": 1})
    assert raw_of(mc, "Alex").event_rates() == {"item_use": 1, "PlayerTravelled": 2}
    assert raw_of(mc, "Steve").forwarding == {"item_use": 5}
    for name in ("Steve", "Alex"):
        mc.world(name).unsubscribe("item_use").result(10)
    mc.world("Alex").unsubscribe("PlayerTravelled").result(10)
