"""Rates over the wire: the game's own noisy events kept at a subscription's rate per player
by the gateway, a connection's second's worth of them bounded, and each world keeping its
own rates (the addon's too), again after a reconnect. Real connections on 127.0.0.1 to the
simulated world running the shipped addon."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

import mcbews_repl
from mcbews_repl.gateway import GameConnection
from mcbews_repl.repl.handle._counters import counter_rows
from mcbews_repl.repl.handle._simulate import make_world
from mcbews_repl.sim import SimWorld

from .test_forwarded import rejected
from .test_subscriptions import DEADLINE, game_events, linked, until


def limits_rows(mc: mcbews_repl.Bridge, game: GameConnection) -> list[str]:
    """The status panel's row of what the bounds did on ``game``."""
    return [text for what, text in counter_rows(mc, 0, 0) if what == f"game #{game.id} limits"]


async def test_a_websocket_events_rate_is_kept_per_player_and_the_rest_counted() -> None:
    async with linked() as (mc, sim, game):
        await mc.subscribe("PlayerTravelled", rate=2)
        assert game.event_rates() == {"PlayerTravelled": 2}
        await until(lambda: "PlayerTravelled" in sim.client.subscriptions, "the subscription")
        for k in range(10):  # ten steps at once: far more than two a second
            sim.walk("Steve", 0.5 + k, 63.0, 0.5)
        await until(lambda: len(game_events(mc, "PlayerTravelled")) + game.counters["rate_dropped"]
                    == 10, "every step handled")  # fmt: skip
        kept = game_events(mc, "PlayerTravelled")
        assert 2 <= len(kept) < 10 and game.counters["rate_dropped"] == 10 - len(kept)
        # However slow the machine, no second held more than two of them.
        assert all(kept[k + 2].at - kept[k].at >= 0.9 for k in range(len(kept) - 2))
        assert kept[0].data["meters_travelled"] > 0
        (row,) = limits_rows(mc, game)
        assert f"{10 - len(kept)} game events over their subscription's rate dropped" in row


async def test_subscribing_again_without_a_rate_is_none() -> None:
    async with linked() as (mc, sim, game):
        await mc.subscribe("PlayerTravelled", rate=1)
        await mc.subscribe("PlayerTravelled")
        assert game.event_rates() == {}
        await until(lambda: "PlayerTravelled" in sim.client.subscriptions, "the subscription")
        for k in range(5):
            sim.walk("Steve", 0.5 + k, 63.0, 0.5)
        await until(lambda: len(game_events(mc, "PlayerTravelled")) == 5, "every step")
        assert game.counters["rate_dropped"] == 0


async def test_a_flood_of_the_games_own_events_is_bounded_per_connection() -> None:
    async with linked() as (mc, sim, game):
        game._inbound.event_gate.events_per_second = 5  # a small bound, to reach it
        await mc.subscribe("BlockBroken")
        await until(lambda: "BlockBroken" in sim.client.subscriptions, "the subscription")
        for k in range(12):
            sim.break_block("Steve", k, 62, 0)
        await until(lambda: len(game_events(mc, "BlockBroken")) + game.counters[
            "game_events_dropped"] == 12, "every block handled")  # fmt: skip
        dropped = game.counters["game_events_dropped"]
        assert dropped >= 1 and len(game_events(mc, "BlockBroken")) == 12 - dropped
        said = rejected(mc, "game_events_dropped")
        assert 1 <= len(said) <= 3  # one entry a second, not one an event
        assert "past 5 game events a second" in said[0].summary
        (row,) = limits_rows(mc, game)
        assert f"{dropped} game event" in row and "past this connection's bound" in row


@asynccontextmanager
async def two_worlds() -> AsyncIterator[
    tuple[mcbews_repl.Bridge, tuple[SimWorld, SimWorld], tuple[GameConnection, GameConnection]]
]:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0, transport="pull") as mc,
        SimWorld(make_world(["Ana", "Kai"]), fast=True) as ana_sim,
        SimWorld(make_world(["Ben", "Mia"]), fast=True) as ben_sim,
    ):
        await ana_sim.connect(mc.url)
        ana = await mc.wait_connected(timeout=DEADLINE)
        await ana.wait_ready()
        await ben_sim.connect(mc.url)
        (ben,) = await until(lambda: [c for c in mc.connections if c is not ana], "Ben's world")
        await ben.wait_ready()
        assert (ana.local_player, ben.local_player) == ("Ana", "Ben")
        yield mc, (ana_sim, ben_sim), (ana, ben)


async def test_each_world_keeps_its_own_rate_and_gets_it_again_after_a_reconnect() -> None:
    async with two_worlds() as (mc, (ana_sim, _ben_sim), (ana, ben)):
        await mc.subscribe("item_use", connection=ana, rate=5)
        await mc.subscribe("item_use", connection=ben, rate=1)
        await mc.subscribe("PlayerTravelled", connection=ana, rate=3)
        await mc.subscribe("PlayerTravelled", connection=ben, rate=2)
        assert ana.forwarding == {"item_use": 5} and ben.forwarding == {"item_use": 1}
        assert ana.event_rates() == {"item_use": 5, "PlayerTravelled": 3}
        await mc.subscribe("item_use", connection=ben)  # again, no rate: none
        assert ben.forwarding == {"item_use": 0} and ana.forwarding == {"item_use": 5}
        assert ben.event_rates() == {"PlayerTravelled": 2}
        await ana_sim.disconnect()
        await until(lambda: ana.closed, "Ana's world to go")
        await ana_sim.connect(mc.url)
        (again,) = await until(lambda: [c for c in mc.connections if c not in (ana, ben)],
                               "Ana's world back")  # fmt: skip
        await again.wait_ready()
        assert again.forwarding == {"item_use": 5}
        assert again.event_rates() == {"item_use": 5, "PlayerTravelled": 3}
        assert ben.forwarding == {"item_use": 0}
        for _ in range(6):  # within a second: Kai's five kept by the addon
            ana_sim.use_item("Kai", "bread")
        await until(lambda: game_events(mc, "item_use"), "Kai's item use")
        (said,) = await until(lambda: rejected(mc, "forwarded_dropped_by_addon"), "the drops")
        assert said.data["detail"] == "the addon dropped item_use 1" and said.connection == again.id


async def test_a_rate_everywhere_is_each_worlds_unless_it_has_its_own() -> None:
    async with two_worlds() as (mc, _sims, (ana, ben)):
        await mc.subscribe("player_break_block", connection=ana, rate=7)
        await mc.subscribe("player_break_block", rate=2)
        assert ana.forwarding == {"player_break_block": 7}
        assert ben.forwarding == {"player_break_block": 2}
        await mc.unsubscribe("player_break_block")  # everywhere: Ana's own goes too
        assert ana.forwarding == {} and ben.forwarding == {}


@pytest.mark.parametrize("rate", [21, -1])
async def test_a_rate_out_of_range_is_refused(rate: int) -> None:
    async with mcbews_repl.serve(host="127.0.0.1", port=0) as mc:
        with pytest.raises(ValueError, match="0 \\(none\\) to 20"):
            await mc.subscribe("PlayerTravelled", rate=rate)
        with pytest.raises(ValueError, match="PlayerMessage has no rate"):
            await mc.subscribe("PlayerMessage", rate=2)
