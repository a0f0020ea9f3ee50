"""Queries and scoreboard actions end to end: the gateway, the simulated game, the parsers."""

from __future__ import annotations

from mcbews_repl.sim.defaults import make_player
from mcbews_repl.sim.model import Vec3
from mcbews_repl.toolkit import Scoreboard, WorldQueries

from .conftest import World


async def test_item_counts_count_without_removing(world: World) -> None:
    q = WorldQueries(world.mc)
    cobble = await q.item_count("Steve", "cobblestone")
    assert (cobble.known, cobble.value, cobble.item) == (True, 101, "minecraft:cobblestone")
    assert (await q.item_count("Steve", "cobblestone")).value == 101  # nothing was cleared
    red = await q.item_count("Steve", "wool", data=14)
    assert red.value == 5 and (await q.item_count("Steve", "wool", data=3)).value == 0
    assert (await q.item_count("Steve", "minecraft:diamond")).value == 0
    gone = await q.item_count("Herobrine", "dirt")
    assert (gone.known, gone.value, gone.reason) == (False, None, "no_target")


async def test_names_with_spaces_are_quoted(world: World) -> None:
    world.sim.world.add_player(make_player("Some One", Vec3(1, 64, 1), tags={"guest"}))
    q = WorldQueries(world.mc)
    assert (await q.item_count("Some One", "dirt")).value == 0
    assert (await q.tags("Some One")).tags == ("guest",)


async def test_tags_scores_and_testfor(world: World) -> None:
    q = WorldQueries(world.mc)
    assert (await q.tags("Alex")).tags == ("explorer", "vip")
    scores = await q.scores("Steve")
    assert {s.objective: s.value for s in scores.scores} == {"kills": 3, "coins": 120}
    assert list(scores.to_dataframe()["value"]) == [3, 120]
    nobody = await q.scores("#nobody")
    assert (nobody.known, nobody.scores) == (True, ())
    coins = await q.score("Alex", "coins")
    assert (coins.known, coins.found, coins.value) == (True, False, None)
    assert (await q.score("Steve", "coins")).value == 120
    assert (await q.testfor("@e[type=villager_v2]")).names == ("Bob",)
    assert (await q.testfor("@a[tag=nobody]")).matched is False


async def test_entities_frame_and_limits(world: World) -> None:
    q = WorldQueries(world.mc)
    everything = await q.entities(limit=64)
    frame = everything.to_dataframe()
    assert list(frame.columns) == ["id", "dimension", "dimensionId", "x", "y", "z", "yaw"]
    # Steve, Alex and three mobs (the stable pack, the default, spawns no bridge player)
    assert len(frame) == 5 and everything.complete and set(frame["dimension"]) == {"overworld"}
    nearest = await q.entities(limit=2)
    assert (len(nearest.entities), nearest.complete) == (2, False)
    near_alex = await q.entities(target="players", origin=(12, 70, -8), radius=3)
    assert [e.x for e in near_alex.entities] == [12.5]
    none = await q.entities(entity_type="minecraft:pig")
    assert (none.known, none.entities, none.complete) == (True, (), True)


async def test_blocks_and_regions(world: World) -> None:
    q = WorldQueries(world.mc)
    assert (await q.block(2, 64, 2, "chest")).matches is True
    other = await q.block(2, 64, 2, "stone")
    assert (other.matches, other.actual) == (False, "Chest")
    floor = await q.region((-5, 63, -5), (11, 1, 11), "stone")
    assert (floor.matched, floor.unknown, len(floor.checks)) == (81, 0, 121)
    edge = await q.region((0, 318, 0), (1, 3, 1), "air")
    assert (edge.matched, edge.unknown) == (2, 1)  # y=320 is outside the world, not air
    assert list(edge.to_dataframe()["reason"])[-1] == "out_of_world"


async def test_scoreboard_round_trip(world: World) -> None:
    board = Scoreboard(world.mc)
    assert (await board.add_objective("gems", "Gems")).acknowledged
    again = await board.add_objective("gems")
    assert (again.acknowledged, again.reason) == (False, "command_failed")
    assert [o.name for o in (await board.objectives()).objectives] == ["kills", "coins", "gems"]
    assert (await board.set("#pool", "gems", 10)).value == 10
    assert (await board.add("#pool", "gems", -3)).value == 7
    assert (await board.set("Steve", "gems", 2)).value == 2
    swapped = await board.operation("Steve", "gems", "><", "#pool", "gems")
    # The game answers an operation with a count only ("Updated [gems] for 1 entities").
    assert (swapped.known, swapped.value, swapped.reason) == (True, None, "not_reported")
    missing = await board.operation("Steve", "gems", "+=", "Alex", "gems")
    assert (missing.known, missing.value, missing.reason) == (False, None, "command_failed")
    whole = await board.objective_scores("gems")
    assert dict(whole.scores) == {"#pool": 2, "Steve": 7} and whole.known
    assert (await board.reset("#pool", "gems")).acknowledged
    assert (await board.get("#pool", "gems")).found is False
    assert (await board.setdisplay("sidebar", "gems", sort_order="descending")).acknowledged
    assert (await board.setdisplay("sidebar")).acknowledged
    assert (await board.remove_objective("gems")).acknowledged
    limited = await board.objective_scores("kills", limit=1)
    assert (limited.total, limited.truncated, limited.known) == (2, True, False)
