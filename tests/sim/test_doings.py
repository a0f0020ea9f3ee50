"""What the simulated players do changes the world, and reports it as the game would."""

from __future__ import annotations

from typing import Any

import pytest

from mcbews_repl.sim import ItemStack, SimWorld
from mcbews_repl.sim.model import AIR, Entity, Vec3


class Recorder:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def report_event(self, name: str, frame: dict[str, Any]) -> bool:
        self.sent.append(frame)
        return True


def world_with_recorder() -> tuple[SimWorld, Recorder]:
    world = SimWorld(fast=True, addon=False)
    world.client = recorder = Recorder()
    return world, recorder


def test_breaking_a_block_makes_it_air_and_names_it_and_the_tool() -> None:
    world, sent = world_with_recorder()
    steve = world.world.players["Steve"]
    steve.inventory[steve.selected_slot] = ItemStack("minecraft:iron_pickaxe", max_amount=1)
    before = world.world.block("overworld", 0, 62, 0)
    assert world.break_block("Steve", 0, 62, 0) == before != AIR
    assert world.world.block("overworld", 0, 62, 0) == AIR
    body = sent.sent[0]["body"]
    namespace, short = before.split(":")
    assert body["block"] == {"aux": 0, "id": short, "namespace": namespace}
    assert (body["tool"]["id"], body["tool"]["stackSize"]) == ("iron_pickaxe", 1)
    assert world.break_block("Steve", 0, 62, 0) == AIR and len(sent.sent) == 1  # air: nothing


def test_placing_a_block_uses_one_from_the_hand() -> None:
    world, sent = world_with_recorder()
    steve = world.world.players["Steve"]
    steve.inventory[steve.selected_slot] = ItemStack("minecraft:bookshelf", amount=64)
    world.place_block("Steve", 5, 70, 5, "bookshelf")
    assert world.world.block("overworld", 5, 70, 5) == "minecraft:bookshelf"
    body = sent.sent[0]["body"]
    assert body["tool"]["stackSize"] == 63 and body["placementMethod"] == 0
    assert body["placedUnderWater"] is False


def test_walking_reports_the_metres_and_then_the_transform() -> None:
    world, sent = world_with_recorder()
    start = world.world.players["Steve"].location
    metres = world.walk("Steve", start.x + 3, start.y, start.z + 4)
    assert metres == pytest.approx(5.0)
    assert [f["header"]["eventName"] for f in sent.sent] == ["PlayerTravelled", "PlayerTransform"]
    assert sent.sent[0]["body"]["metersTravelled"] == pytest.approx(5.0)


def test_hurt_kills_at_zero_health_and_the_player_respawns() -> None:
    world, sent = world_with_recorder()
    assert world.hurt("Steve", 5) is False and sent.sent == []
    assert world.hurt("Steve", 100, cause="lava") is True
    assert sent.sent[0]["body"]["cause"] == 8
    steve = world.world.players["Steve"]
    assert steve.health == steve.max_health
    with pytest.raises(ValueError, match="cause is one of"):
        world.hurt("Steve", 1, cause="boredom")


def test_killing_a_mob_removes_the_nearest_and_says_where() -> None:
    world, sent = world_with_recorder()
    zombie = Entity("minecraft:zombie", Vec3(7.0, 64.0, 7.0))
    world.world.entities.append(zombie)
    assert world.kill_mob("Steve", "zombie") == Vec3(7.0, 64.0, 7.0)
    assert zombie not in world.world.entities
    body = sent.sent[0]["body"]
    assert body["victim"]["type"] == "minecraft:zombie" and body["isMonster"] is True
    world.kill_mob("Steve", "minecraft:sheep")
    assert sent.sent[1]["body"]["isMonster"] is False


def test_using_items_eats_food_and_lights_fires() -> None:
    world, sent = world_with_recorder()
    steve = world.world.players["Steve"]
    steve.inventory[steve.selected_slot] = ItemStack("minecraft:bread", amount=2)
    world.use_item("Steve")
    world.use_item("Steve", "flint_and_steel")
    assert [f["body"]["useMethod"] for f in sent.sent] == [1, 10]
    assert steve.inventory[steve.selected_slot] is not None
    assert steve.inventory[steve.selected_slot].amount == 1
    with pytest.raises(ValueError, match="use_method="):
        world.use_item("Steve", "compass")


def test_bad_input_says_what_to_fix() -> None:
    world, _ = world_with_recorder()
    with pytest.raises(ValueError, match=r"no player 'Zed'.*Steve"):
        world.break_block("Zed", 0, 0, 0)
    with pytest.raises(ValueError, match="outside the overworld's height"):
        world.place_block("Steve", 0, 400, 0, "stone")
