"""The simulated terrain: deterministic from its seed, layered like an overworld, and the
same block whichever way it is reached (a section, one block, any generation order)."""

from __future__ import annotations

import collections
import itertools

import pytest

from mcbews_repl.sim.terrain import SEA_LEVEL, SPAWN_HEIGHT, Terrain
from mcbews_repl.sim.terrain_features import LAVA_LEVEL, ORES, Ore

from ..corpus import read

CHUNKS = list(itertools.product(range(-3, 3), range(-3, 3)))


def column(terrain: Terrain, x: int, z: int) -> list[str]:
    return [terrain.block(x, y, z) for y in range(-64, 100)]


def census(terrain: Terrain, sections: range = range(-4, 6)) -> collections.Counter[str]:
    counts: collections.Counter[str] = collections.Counter()
    for (cx, cz), sy in itertools.product(CHUNKS[:9], sections):
        counts.update(terrain.section(cx, sy, cz))
    return counts


def test_the_same_seed_makes_the_same_world_in_any_order() -> None:
    first, second = Terrain(7), Terrain(7)
    order = [(cx, sy, cz) for (cx, cz), sy in itertools.product(CHUNKS, range(-4, 6))]
    for key in order:
        first.section(*key)
    for key in reversed(order):  # the other way round: caves and trees cross sections
        second.section(*key)
    assert all(first.section(*key) == second.section(*key) for key in order)
    assert Terrain(8).section(0, 3, 0) != first.section(0, 3, 0)


def test_a_block_is_the_same_from_its_section() -> None:
    terrain = Terrain(0)
    section = terrain.section(-2, -1, 3)
    for i in (0, 17, 255, 256, 1000, 4095):
        x, y, z = -32 + i % 16, -16 + i // 256, 48 + (i // 16) % 16
        assert Terrain(0).block(x, y, z) == section[i]


def test_the_layers_of_a_column() -> None:
    terrain = Terrain(0)
    for x, z in [(40, -70), (-90, 15), (5, 5), (120, 120)]:
        blocks, top = column(terrain, x, z), terrain.surface(x, z)
        assert blocks[0] == "minecraft:bedrock"  # y -64, always
        above = {"minecraft:air", "minecraft:water", "minecraft:oak_log", "minecraft:oak_leaves"}
        assert set(blocks[top + 65 :]) <= above
        if top >= SEA_LEVEL:
            assert (
                "minecraft:water" not in blocks[top + 65 :] and blocks[top + 64] != "minecraft:air"
            )
        else:
            assert blocks[SEA_LEVEL + 64] == "minecraft:water"  # filled up to sea level
        deep = [b for b in blocks[6:60] if b not in ("minecraft:air", "minecraft:lava")]
        assert all("deepslate" in b for b in deep)  # y -58 .. -5: deepslate and its ores


def test_the_spawn_is_flat_grass_at_63() -> None:
    terrain = Terrain(0)
    for x, z in itertools.product(range(-14, 15, 7), range(-14, 15, 7)):  # within 20 blocks
        assert terrain.surface(x, z) == SPAWN_HEIGHT
        assert terrain.block(x, SPAWN_HEIGHT, z) == "minecraft:grass_block"
        assert terrain.block(x, SPAWN_HEIGHT + 1, z) == "minecraft:air"


def test_there_is_something_to_analyse() -> None:
    counts = census(Terrain(0))
    wanted = ["water", "sand", "oak_log", "oak_leaves", "lava", "coal_ore", "deepslate_diamond_ore"]
    for block in wanted:
        assert counts[f"minecraft:{block}"] > 0, block
    assert counts["minecraft:air"] > 1000  # caves and sky


@pytest.mark.parametrize("ore", ORES, ids=lambda o: o.name)
def test_ores_keep_to_their_depths(ore: Ore) -> None:
    terrain = Terrain(0)
    found = []
    for (cx, cz), sy in itertools.product(CHUNKS[:9], range(-4, 8)):
        for i, block in enumerate(terrain.section(cx, sy, cz)):
            if block.endswith(f"{ore.name}_ore"):
                found.append(sy * 16 + i // 256)
    assert found and ore.low <= min(found) and max(found) <= ore.high


def test_lava_lies_only_deep_down() -> None:
    terrain = Terrain(0)
    for (cx, cz), sy in itertools.product(CHUNKS, range(-4, -2)):
        for i, block in enumerate(terrain.section(cx, sy, cz)):
            if block == "minecraft:lava":
                assert sy * 16 + i // 256 <= LAVA_LEVEL


def test_every_generated_block_has_its_states_on_record() -> None:
    """Each block type the terrain makes is in evidence/blocks.json, with states or without."""
    blocks = read("blocks")
    recorded = set(blocks["default_states"]) | set(blocks["stateless"])
    made = set(census(Terrain(0), range(-4, 8)))
    assert made <= recorded, made - recorded
