"""The default simulated world: Steve (the host who typed /connect) and Alex, a few mobs,
a scoreboard and a small build on seeded terrain, chosen so that every capability has
something to show (stacks, named and enchanted items, damaged tools, armour, tags, scores,
blocks).
"""

from __future__ import annotations

from .model import Enchantment, Entity, ItemStack, Objective, Player, Vec3, WorldState
from .terrain import Terrain

__all__ = ["TERRAIN_SEED", "default_world", "make_player"]

TERRAIN_SEED = 0  # the default world's terrain (docs/sim.md, "Terrain")


def make_player(name: str, location: Vec3, **fields: object) -> Player:
    """A player with an empty inventory; ``fields`` override any Player attribute."""
    player = Player(type_id="minecraft:player", location=location, player_name=name)
    for key, value in fields.items():
        setattr(player, key, value)
    return player


def _steve() -> Player:
    steve = make_player("Steve", Vec3(0.5, 64.0, 0.5), tags={"builder"}, xp_level=12)
    steve.xp_points = 7
    inv = steve.inventory
    inv[0] = ItemStack(
        "minecraft:diamond_sword",
        name_tag="Excalibur",
        lore=["Pulled from a stone", "§6Legendary"],
        enchantments=[Enchantment("sharpness", 5), Enchantment("unbreaking", 3)],
        damage=120,
        max_durability=1561,
        max_amount=1,
    )
    inv[1] = ItemStack("minecraft:iron_pickaxe", damage=200, max_durability=250, max_amount=1)
    inv[2] = ItemStack("minecraft:cobblestone", amount=64)
    inv[3] = ItemStack("minecraft:cobblestone", amount=37)
    inv[4] = ItemStack("minecraft:bread", amount=12)
    inv[8] = ItemStack("minecraft:torch", amount=30)
    inv[9] = ItemStack("minecraft:oak_log", amount=16)
    inv[20] = ItemStack("minecraft:wool", amount=5, data=14)  # red wool: aux value 14
    steve.equipment["Head"] = ItemStack(
        "minecraft:iron_helmet", damage=30, max_durability=165, max_amount=1
    )
    steve.equipment["Chest"] = ItemStack(
        "minecraft:diamond_chestplate",
        enchantments=[Enchantment("protection", 4)],
        max_durability=528,
        max_amount=1,
    )
    steve.equipment["Offhand"] = ItemStack("minecraft:shield", max_durability=336, max_amount=1)
    return steve


def _alex() -> Player:
    alex = make_player("Alex", Vec3(12.5, 70.0, -8.5), yaw=90.0, health=14.0, game_mode="creative")
    alex.tags = {"explorer", "vip"}
    alex.xp_level = 3
    alex.selected_slot = 1
    inv = alex.inventory
    inv[0] = ItemStack("minecraft:bow", enchantments=[Enchantment("infinity", 1)],
                       damage=17, max_durability=384, max_amount=1)  # fmt: skip
    inv[1] = ItemStack("minecraft:arrow", amount=1)
    inv[2] = ItemStack("minecraft:map", name_tag="Treasure §cX", lore=["Marks the spot"])
    inv[5] = ItemStack("minecraft:golden_apple", amount=3)
    alex.equipment["Feet"] = ItemStack(
        "minecraft:leather_boots", damage=60, max_durability=65, max_amount=1
    )
    return alex


def _scoreboard() -> dict[str, Objective]:
    kills = Objective("kills", "Kills", scores={"Steve": 3, "Alex": 7})
    coins = Objective("coins", "§eCoins", scores={"Steve": 120})
    return {o.name: o for o in (kills, coins)}


def _blocks() -> dict[tuple[str, int, int, int], str]:
    blocks: dict[tuple[str, int, int, int], str] = {}
    for x in range(-4, 5):  # a 9x9 stone floor under spawn, in the flat grass there
        for z in range(-4, 5):
            blocks[("overworld", x, 63, z)] = "minecraft:stone"
    blocks[("overworld", 2, 64, 2)] = "minecraft:chest"
    blocks[("overworld", -2, 64, 2)] = "minecraft:crafting_table"
    blocks[("nether", 0, 64, 0)] = "minecraft:netherrack"
    return blocks


def default_world(terrain_seed: int = TERRAIN_SEED) -> WorldState:
    """A fresh copy of the default world (module docstring) on terrain ``terrain_seed``."""
    world = WorldState(terrain=Terrain(terrain_seed))
    world.add_player(_steve())
    world.add_player(_alex())
    world.entities = [
        Entity("minecraft:cow", Vec3(5.0, 64.0, 5.0)),
        Entity("minecraft:zombie", Vec3(-20.0, 64.0, 14.0), health=18.0),
        Entity("minecraft:villager_v2", Vec3(3.0, 64.0, -6.0), name_tag="Bob", tags={"trader"}),
    ]
    world.objectives = _scoreboard()
    world.blocks = _blocks()
    return world
