"""A lively world: the players act by themselves through the doings a cell calls, the same
way in every run of the same seed, at the rate asked, near where they started; the
connected client's doings are sent as the game's events, the others' change the world."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.cli import _parser
from mcbews_repl.sim.lively import LIVELY_MAX_RATE, LIVELY_RATE, WANDER_BLOCKS, Doing

from .test_doings import Recorder as Sent


class Recorder(Sent):
    """The connection's part: every event sent, no commands to answer on a tick."""

    def on_tick(self, tick: int) -> None:
        return None


def lively_world(seed: int = 7, rate: float = 5.0) -> tuple[SimWorld, Recorder]:
    world = SimWorld(clock="manual", addon=False, seed=seed, lively=rate)
    world.client = recorder = Recorder()
    return world, recorder


def run(world: SimWorld, ticks: int) -> list[Doing]:
    async def go() -> None:
        await world.start()
        await world.advance(ticks)

    asyncio.run(go())
    return list(world.liveliness.log)


def bodies(recorder: Recorder) -> list[Any]:
    """What was sent, but the player's id (each world numbers its players anew)."""
    sent = []
    for frame in recorder.sent:
        body = dict(frame["body"], player=dict(frame["body"]["player"], id=0))
        sent.append((frame["header"]["eventName"], body))
    return sent


def sent_names(recorder: Recorder) -> list[str]:
    return [f["header"]["eventName"] for f in recorder.sent]


def test_the_same_seed_does_the_same_things() -> None:
    first, first_sent = lively_world(seed=7)
    second, second_sent = lively_world(seed=7)
    other, _ = lively_world(seed=8)
    done = run(first, 200)
    assert done == run(second, 200) and bodies(first_sent) == bodies(second_sent)
    assert done != run(other, 200)
    assert {d.player for d in done} == {"Steve", "Alex"}
    assert set(first.liveliness.done) == {"walk", "break", "place", "kill", "hurt", "eat"}


def test_only_the_connected_clients_doings_are_sent() -> None:
    world, recorder = lively_world()
    done = run(world, 200)
    names = sent_names(recorder)
    assert {"PlayerTravelled", "PlayerTransform", "BlockBroken", "MobKilled"} <= set(names)
    assert {f["body"]["player"]["name"] for f in recorder.sent} == {"Steve"}
    steve_walks = sum(1 for d in done if d.player == "Steve" and d.doing == "walk")
    assert names.count("PlayerTravelled") == steve_walks
    alex = world.world.players["Alex"]
    assert any(d.player == "Alex" and d.doing == "walk" for d in done)
    assert (alex.location.x, alex.location.z) != (12.5, -8.5)  # Alex moved all the same


def test_the_rate_is_doings_a_second_of_game_time_per_player() -> None:
    world, _ = lively_world(rate=20.0)  # one a tick
    run(world, 100)
    lively = world.liveliness
    assert lively.doings + lively.skipped == 2 * 100  # two players, a hundred ticks
    slow, _ = lively_world(rate=LIVELY_RATE)
    run(slow, 400)  # 20 s of game time: about 20 doings each
    assert 20 <= slow.liveliness.doings + slow.liveliness.skipped <= 60


def test_players_wander_near_where_they_started() -> None:
    world, _ = lively_world(rate=40.0)
    homes = {n: p.location for n, p in world.world.players.items()}
    run(world, 400)
    for name, player in world.world.players.items():
        home = homes[name]
        assert abs(player.location.x - home.x) <= WANDER_BLOCKS + 4
        assert abs(player.location.z - home.z) <= WANDER_BLOCKS + 4
        assert math.isfinite(player.location.y)


def test_broken_and_placed_blocks_are_in_the_world() -> None:
    world, _ = lively_world(rate=40.0)
    done = run(world, 100)
    placed = [d for d in done if d.doing == "place"]
    assert placed
    block, _, where = placed[-1].detail.partition(" at ")
    x, y, z = (int(v) for v in where.split(", "))
    later = [d for d in done if d.doing == "break" and d.detail.endswith(f" at {where}")]
    if not later or done.index(later[-1]) < done.index(placed[-1]):
        assert world.world.block("overworld", x, y, z) == block


def test_it_can_be_turned_off_and_limited_to_some_players() -> None:
    world, _ = lively_world()
    world.lively(True, players=["Alex"])
    done = run(world, 100)
    assert done and {d.player for d in done} == {"Alex"}
    quiet, _ = lively_world()
    quiet.lively(False)
    assert run(quiet, 100) == [] and "off" in repr(quiet.liveliness)


@pytest.mark.parametrize("rate", [0, -1, LIVELY_MAX_RATE + 1, float("nan"), True, "2"])
def test_a_rate_out_of_bounds_says_what_it_takes(rate: Any) -> None:
    world, _ = lively_world()
    with pytest.raises(ValueError, match="doings a second per player"):
        world.lively(True, rate)


def test_an_unknown_player_is_named() -> None:
    world, _ = lively_world()
    with pytest.raises(ValueError, match="no player Zed in the simulated world"):
        world.lively(True, players=["Zed"])


def test_the_command_line_takes_a_rate_and_a_seed() -> None:
    args = _parser().parse_args(["--url", "ws://x", "--lively", "--seed", "3"])
    assert (args.lively, args.seed) == (LIVELY_RATE, 3)
    assert _parser().parse_args(["--url", "ws://x", "--lively", "4"]).lively == 4.0
    assert _parser().parse_args(["--url", "ws://x"]).lively is None
