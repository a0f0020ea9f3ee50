"""set_blocks end to end: the real addon bundle writes the simulated terrain with
BlockPermutation.resolve and setPermutation in a runJob, a request too large for one command
arrives in bulk parts, and what is written is what the world's commands and reads then see."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError
from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.facts import resolve_permutation


def statuses(answer: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for run in answer["status"].split(","):
        index, _, times = run.partition("*")
        out += [answer["codes"][int(index)]] * int(times or 1)
    return out


def positions(origin: list[int], size: list[int]) -> list[tuple[int, int, int]]:
    (x0, y0, z0), (sx, sy, sz) = origin, size
    return [
        (x0 + x, y0 + y, z0 + z) for y, z, x in itertools.product(range(sy), range(sz), range(sx))
    ]


async def test_a_write_is_what_the_world_then_holds(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    sim.run_command("setblock 2 70 0 stone")
    payload = {
        "origin": [0, 70, 0],
        "size": [4, 2, 1],
        "palette": ["stone", "oak_log", "<keep>", "air"],
        "states": [None, {"pillar_axis": "x"}, None, None],
        "runs": "0*3,1,2,3*3",
    }
    answer = await mc.call("set_blocks", payload)
    assert (
        statuses(answer) == ["written", "written", "already", "written", "kept"] + ["already"] * 3
    )  # the sky is air already
    assert (answer["written"], answer["already"], answer["kept"]) == (3, 4, 1)
    world = sim.world
    assert world.block("overworld", 0, 70, 0) == "minecraft:stone"
    assert world.block("overworld", 3, 70, 0) == "minecraft:oak_log"
    assert world.states("overworld", 3, 70, 0) == {"pillar_axis": "x"}
    # The world's own commands see it, and a read through the addon too.
    assert sim.run_command("testforblock 3 70 0 oak_log").status_code == 0
    read = await mc.call("get_blocks", {"from": [0, 70, 0], "to": [3, 70, 0]})
    assert read["palette"][int(read["runs"].split(",")[-1].split("*")[0])] == "minecraft:oak_log"


async def test_a_large_write_goes_in_parts_and_lands_whole(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    """A varied 16x4x16 write is far over one command line: bulk parts, every one sent."""
    mc, sim = linked
    palette = ["stone", "dirt", "glass", "red_wool", "gold_block"]
    size = [16, 4, 16]
    cells = positions([-8, 80, -8], size)
    entries = [(x * 7 + y * 3 + z) % len(palette) for x, y, z in cells]
    runs = ",".join(str(e) for e in entries)
    assert sim.client is not None
    sent = len(sim.client.received)
    answer = await mc.call(
        "set_blocks", {"origin": [-8, 80, -8], "size": size, "palette": palette, "runs": runs}
    )
    lines = [line for _, line in list(sim.client.received)[sent:]]
    parts = [line for line in lines if line.startswith("scriptevent mcbews:bulk ")]
    assert len(parts) > 3
    assert answer["written"] == len(cells)
    for (x, y, z), entry in zip(cells, entries, strict=True):
        assert sim.world.block("overworld", x, y, z) == f"minecraft:{palette[entry]}"


async def test_unknown_blocks_and_states_are_named_and_nothing_is_written(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    before = sim.world.block("overworld", 0, 90, 0)
    with pytest.raises(CapabilityError) as info:
        await mc.call(
            "set_blocks",
            {
                "origin": [0, 90, 0],
                "size": [3, 1, 1],
                "palette": ["stone", "minecraft:no_such_block", "oak_log"],
                "states": [None, None, {"no_such_state": 1}],
                "runs": "0,1,2",
            },
        )
    assert info.value.code == "INVALID_REQUEST"
    assert "minecraft:no_such_block" in info.value.message
    assert "no_such_state" in info.value.message
    assert sim.world.block("overworld", 0, 90, 0) == before


async def test_unloaded_chunks_and_the_height_limit_are_not_written(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    # Chunk 5 is past the simulation distance (test_get_blocks.py); 320 is over the top.
    answer = await mc.call(
        "set_blocks",
        {"origin": [79, 319, 0], "size": [2, 2, 1], "palette": ["glass"], "runs": "0*4"},
    )
    assert statuses(answer) == ["written", "unloaded", "out_of_world", "out_of_world"]
    assert (answer["unloaded"], answer["out_of_world"]) == (1, 2)
    assert sim.world.block("overworld", 80, 319, 0) == "minecraft:air"


def test_the_simulated_resolve_knows_the_vanilla_blocks() -> None:
    assert resolve_permutation("oak_log", {"pillar_axis": "x"}) == {
        "typeId": "minecraft:oak_log",
        "states": {"pillar_axis": "x"},
    }
    assert resolve_permutation("minecraft:red_wool", None)["typeId"] == "minecraft:red_wool"
    with pytest.raises(ValueError, match="not a block type"):
        resolve_permutation("minecraft:no_such_block", None)
    with pytest.raises(ValueError, match="has no state"):
        resolve_permutation("stone", {"pillar_axis": "x"})
    with pytest.raises(ValueError, match="takes a boolean"):
        resolve_permutation("oak_leaves", {"persistent_bit": 1})
