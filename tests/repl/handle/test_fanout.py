"""mc.inventory() of a whole class: one call per player, gathered, stitched into one answer.

Twelve players with every slot full make an answer of about 140 chunks asked at once, more
than one chat message may have; per player, each answer is small. Both transports, through
the simulated world running the real addon.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError
from mcbews_repl.repl.handle._fanout import snapshot_everyone
from mcbews_repl.sim import Enchantment, ItemStack, SimWorld, Vec3, WorldState, make_player

CLASS = 12
ITEMS = ["minecraft:cobblestone", "minecraft:oak_log", "minecraft:torch", "minecraft:bread"]


def full_class() -> WorldState:
    world = WorldState()
    for k in range(CLASS):
        player = make_player(f"Pupil{k:02d}", Vec3(k * 2.0, 64.0, 0.5))
        for slot in range(len(player.inventory)):
            stack = ItemStack(ITEMS[(slot + k) % 4], amount=1 + slot, name_tag=f"kit {k}")
            player.inventory[slot] = stack
        player.equipment["Head"] = ItemStack(
            "minecraft:iron_helmet", max_amount=1, damage=3, max_durability=165,
            enchantments=[Enchantment("protection", 3)],
        )  # fmt: skip
        world.add_player(player)
    return world


async def call(mc: mcbews_repl.Bridge, capability: str, **payload: Any) -> dict[str, Any]:
    return await mc.call(capability, payload, timeout=30.0)


@pytest.mark.parametrize("transport", ["chat", "pull"])
async def test_every_full_inventory_arrives_in_the_worlds_order(transport: str) -> None:
    async with (
        mcbews_repl.serve(port=0, transport=transport) as mc,
        SimWorld(full_class(), fast=True, pack="beta", beta_apis=True) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        stitched = await snapshot_everyone(partial(call, mc), "get_inventory_snapshot")
        names = [p["name"] for p in stitched["players"]]
        assert names == [f"Pupil{k:02d}" for k in range(CLASS)]
        assert all(len(p["slots"]) == 36 for p in stitched["players"])
        assert stitched["players"][5]["slots"][0]["nameTag"] == "kit 5"
        # The same world asked in one call: now paged on chat rather than refused.
        whole = await call(mc, "get_inventory_snapshot")
        assert whole == stitched


async def test_a_player_who_left_meanwhile_is_left_out() -> None:
    async def fake(capability: str, **payload: Any) -> dict[str, Any]:
        if capability == "get_player_snapshot":
            return {"players": [{"name": "Ann"}, {"name": "Bob"}]}
        if payload["target"] == "Bob":
            raise CapabilityError("CAPABILITY_FAILED", "no player named Bob is online", capability)
        return {"players": [{"name": payload["target"], "slots": []}]}

    assert await snapshot_everyone(fake, "get_inventory_snapshot") == {
        "players": [{"name": "Ann", "slots": []}]
    }


async def test_any_other_failure_raises_as_one_call_would() -> None:
    async def fake(capability: str, **payload: Any) -> dict[str, Any]:
        if capability == "get_player_snapshot":
            return {"players": [{"name": "Ann"}]}
        raise CapabilityError("CAPABILITY_FAILED", "snapshot failed: boom", capability)

    with pytest.raises(CapabilityError, match="boom"):
        await snapshot_everyone(fake, "get_inventory_snapshot")
