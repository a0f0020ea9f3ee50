"""get_blocks end to end: the real addon bundle reads the simulated terrain with getBlock in a
runJob, and its answer (decoded here on its own, not with the Python API) is the world."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError
from mcbews_repl.sim import SimWorld


def positions(answer: dict[str, Any]) -> list[tuple[int, int, int]]:
    """The documented order: x fastest, then z, then y."""
    (x0, y0, z0), (sx, sy, sz) = answer["origin"], answer["size"]
    return [
        (x0 + x, y0 + y, z0 + z) for y, z, x in itertools.product(range(sy), range(sz), range(sx))
    ]


def entries(answer: dict[str, Any]) -> list[int]:
    out: list[int] = []
    for run in answer["runs"].split(","):
        index, _, times = run.partition("*")
        out += [int(index)] * int(times or 1)
    return out


async def test_the_answer_is_the_world(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    mc, sim = linked
    sim.run_command('setblock 3 66 -2 oak_log ["pillar_axis"="x"]')
    answer = await mc.call("get_blocks", {"from": [7, 50, 6], "to": [-8, 69, -5], "states": True})
    assert (answer["origin"], answer["size"], answer["order"]) == (
        [-8, 50, -5],
        [16, 20, 12],
        "xzy",
    )
    assert (answer["start"], answer["count"]) == (0, 16 * 20 * 12)
    world = sim.world
    read = entries(answer)
    assert len(read) == answer["count"]
    for (x, y, z), index in zip(positions(answer), read, strict=True):
        assert answer["palette"][index] == world.block("overworld", x, y, z), (x, y, z)
        assert answer["states"][index] == world.states("overworld", x, y, z), (x, y, z)
    assert {"minecraft:chest", "minecraft:stone", "minecraft:air"} <= set(answer["palette"])


async def test_unloaded_and_out_of_world_stay_unknown(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    edge = await mc.call("get_blocks", {"from": [76, 318, 0], "to": [83, 321, 0]})
    by_position = dict(
        zip(positions(edge), (edge["palette"][i] for i in entries(edge)), strict=True)
    )
    assert by_position[(79, 319, 0)] == "minecraft:air"  # chunk 4: loaded
    assert by_position[(80, 319, 0)] == "<unloaded>"  # chunk 5: beyond the simulation distance
    assert by_position[(76, 320, 0)] == "<out_of_world>"
    assert by_position[(83, 321, 0)] == "<out_of_world>"  # out of height wins over unloaded
    assert "minecraft:air" in edge["palette"] and sim.world.terrain is not None


async def test_a_request_is_spread_over_ticks(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    mc, sim = linked
    before = sim.clock.tick
    answer = await mc.call("get_blocks", {"from": [0, 0, 0], "to": [15, 15, 15]})
    assert answer["count"] == 4096
    # 4096 positions, a yield every 256: 16 resumptions, the sim's one tick's worth; then
    # the answer's chunks leave four a tick.
    assert sim.clock.tick - before >= 2


async def test_bad_requests_name_what_to_fix(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    mc, _ = linked
    with pytest.raises(CapabilityError, match="more than 4096 per request"):
        await mc.call("get_blocks", {"from": [0, 0, 0], "to": [16, 16, 16]})
    with pytest.raises(CapabilityError, match="dimension must be one of"):
        await mc.call("get_blocks", {"from": [0, 0, 0], "to": [1, 1, 1], "dimension": "moon"})


async def test_changes_between_reads_are_seen(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    """The script host keeps sections between reads, but never past a change to the world."""
    mc, sim = linked
    box = {"from": [0, 63, 0], "to": [3, 63, 0]}  # the stone floor at the spawn
    assert (await mc.call("get_blocks", box))["runs"] == "0*4"
    sim.run_command("setblock 1 63 0 gold_block")  # a command, not a script: no JS call at all
    sim.world.set_block("overworld", 3, 63, 0, "minecraft:glass")  # an edit from Python
    again = await mc.call("get_blocks", box)
    assert again["palette"] == ["minecraft:stone", "minecraft:gold_block", "minecraft:glass"]
    assert again["runs"] == "0,1,0,2"
    far = {"from": [200, 64, 0], "to": [200, 64, 0]}
    assert (await mc.call("get_blocks", far))["palette"] == ["<unloaded>"]
    sim.run_command("tp Alex 200 70 0")
    assert (await mc.call("get_blocks", far))["palette"] == ["minecraft:air"]
