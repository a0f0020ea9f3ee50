"""Block commands and the Script API's block reads on the default world's terrain: setblock,
fill, clone and testforblock agree with the terrain and with each other, unloaded chunks are
outside the world for both, and a script's getBlock sees what the commands see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcbews_repl.sim import Interpreter, SimWorld, default_world
from mcbews_repl.sim.commands import EXECUTION_FAIL, CommandOutcome
from mcbews_repl.sim.selectors import CommandOrigin

from ..corpus import lang

SERVER = "globalThis.__mc_server"
FAR = 200  # x of a chunk more than 4 chunks from every player: not loaded


class Game:
    def __init__(self) -> None:
        self.world = default_world()
        self.interpreter = Interpreter(self.world)

    def run(self, line: str) -> CommandOutcome:
        steve = self.world.players["Steve"]
        return self.interpreter.execute(line, CommandOrigin("External", steve))


@pytest.fixture
def game() -> Game:
    return Game()


def test_testforblock_answers_from_the_terrain(game: Game) -> None:
    terrain = game.world.terrain
    assert terrain is not None
    x, z = 30, -40
    top = terrain.surface(x, z)
    found = terrain.block(x, top, z)
    name = found.split(":")[1]
    assert game.run(f"testforblock {x} {top} {z} {name}").status_message == (
        lang("commands.testforblock.success", x, top, z)
    )
    assert game.run(f"testforblock {x} -64 {z} bedrock").body()["matches"] is True
    assert game.run(f"testforblock {x} {top + 30} {z} air").body()["matches"] is True


def test_unloaded_chunks_are_outside_the_world(game: Game) -> None:
    checks = {
        f"testforblock {FAR} 64 0 air": "commands.testforblock.outOfWorld",
        f"setblock {FAR} 64 0 stone": "commands.setblock.outOfWorld",
        f"fill {FAR} 64 0 {FAR + 1} 64 1 stone": "commands.fill.outOfWorld",
        f"clone 0 64 0 1 64 1 {FAR} 64 0": "commands.fill.outOfWorld",
    }
    loaded = game.world.loaded_chunks("overworld")
    assert (4, 0) in loaded and (5, 0) not in loaded and (FAR >> 4, 0) not in loaded
    for line, key in checks.items():
        result = game.run(line)
        assert (result.status_code, result.status_message) == (EXECUTION_FAIL, lang(key)), line
    assert game.run("fill 60 64 0 79 64 0 stone").status_code == 0  # chunks 3 and 4
    beyond = game.run("fill 60 64 0 80 64 0 stone")  # one block into chunk 5
    assert beyond.status_message == lang("commands.fill.outOfWorld")


def test_a_player_loads_the_chunks_around_them(game: Game) -> None:
    assert game.run(f"testforblock {FAR} 64 0 air").status_code == EXECUTION_FAIL
    game.run(f"tp Alex {FAR} 80 0")
    assert game.run(f"testforblock {FAR} 100 0 air").body()["matches"] is True


def test_setblock_with_states_and_fill_count_what_changed(game: Game) -> None:
    world = game.world
    placed = game.run('setblock 1 64 1 oak_log ["pillar_axis"="x"]')
    assert placed.status_message == lang("commands.setblock.success")
    assert world.block("overworld", 1, 64, 1) == "minecraft:oak_log"
    assert world.states("overworld", 1, 64, 1) == {"pillar_axis": "x"}
    assert world.states("overworld", 2, 64, 2) == {"minecraft:cardinal_direction": "north"}
    filled = game.run("fill -3 60 -3 3 60 3 glass")  # 49 positions of dirt
    assert filled.status_message == lang("commands.fill.success", 49)
    again = game.run("fill -3 60 -3 3 60 3 glass")
    assert (again.status_code, again.status_message) == (
        EXECUTION_FAIL,
        lang("commands.fill.failed"),
    )
    kept = game.run("fill -3 60 -3 3 61 3 stone keep")  # y 61 is dirt too: nothing to keep
    assert kept.status_message == lang("commands.fill.failed")
    assert game.run("setblock 0 63 0 air").status_code == 0
    assert world.block("overworld", 0, 63, 0) == "minecraft:air"  # an edit of the terrain


def test_clone_copies_masks_moves_and_refuses_overlap(game: Game) -> None:
    world = game.world
    assert game.run("fill 10 70 10 11 71 11 gold_block").status_code == 0
    game.run('setblock 10 72 10 oak_log ["pillar_axis"="z"]')
    copied = game.run("clone 10 70 10 11 72 11 20 70 20")
    assert copied.status_message == lang("commands.clone.success", 12)
    assert world.block("overworld", 21, 71, 21) == "minecraft:gold_block"
    assert world.states("overworld", 20, 72, 20) == {"pillar_axis": "z"}
    masked = game.run("clone 10 70 10 11 72 11 30 70 30 masked")
    assert masked.status_message == lang("commands.clone.success", 9)  # 8 gold + 1 log
    overlap = game.run("clone 10 70 10 11 72 11 11 70 10")
    assert overlap.status_message == lang("commands.clone.noOverlap")
    moved = game.run("clone 10 70 10 11 71 11 10 80 10 replace move")
    assert moved.status_code == 0
    assert world.block("overworld", 10, 70, 10) == "minecraft:air"
    assert world.block("overworld", 10, 80, 10) == "minecraft:gold_block"
    only = game.run("clone 20 70 20 21 72 21 40 70 40 filtered normal oak_log")
    assert only.status_message == lang("commands.clone.success", 1)
    nothing = game.run("clone 30 90 30 31 91 31 40 90 40 masked")
    assert nothing.status_message == lang("commands.clone.failed")
    big = game.run("clone 0 0 0 40 40 40 0 100 0")
    assert big.status_message == lang("commands.clone.tooManyBlocks", 41**3, 32768)


def test_bad_block_states_are_a_syntax_error(game: Game) -> None:
    result = game.run('setblock 1 64 1 oak_log ["pillar_axis"]')
    assert result.status_code < 0 and "Syntax error" in result.status_message


# --- the Script API's block reads, from a script in the simulated world ------------------
READER = f"""
const {{ world, system, BlockVolume }} = {SERVER};
system.afterEvents.scriptEventReceive.subscribe((e) => {{
  const dim = world.getDimension("overworld");
  const [x, y, z] = JSON.parse(e.message);
  let out;
  try {{
    const block = dim.getBlock({{ x, y, z }});
    out = block === undefined ? "undefined"
      : block.typeId + " " + JSON.stringify(block.permutation.getAllStates());
  }} catch (err) {{ out = "threw " + err.name; }}
  world.setDynamicProperty("out", out + " loaded=" + dim.isChunkLoaded({{ x, y, z }})
    + " range=" + JSON.stringify(dim.heightRange));
}});
system.afterEvents.scriptEventReceive.subscribe((e) => {{
  if (e.id !== "test:contains") return;
  const dim = world.getDimension("overworld");
  const [from, to, filter, allow] = JSON.parse(e.message);
  let out;
  try {{ out = String(dim.containsBlock(new BlockVolume(from, to), filter, allow)); }}
  catch (err) {{ out = "threw " + err.name; }}
  world.setDynamicProperty("contains", out);
}});
let steps = 0;
system.afterEvents.scriptEventReceive.subscribe((e) => {{
  if (e.id !== "test:job") return;
  system.runJob((function* () {{ for (let i = 0; i < 40; i++) {{ steps++; yield; }} }})());
}});
system.runInterval(() => world.setDynamicProperty("steps", steps), 1);
"""


async def read_block(sim: SimWorld, x: int, y: int, z: int) -> str:
    sim.run_command(f"scriptevent test:read [{x},{y},{z}]")
    return str(sim.api.dynamic_properties["out"])


async def test_get_block_sees_what_commands_see(tmp_path: Path) -> None:
    bundle = tmp_path / "reader.js"
    bundle.write_text(READER, encoding="utf-8")
    async with SimWorld(clock="manual", addon=str(bundle)) as sim:
        range_text = ' range={"min":-64,"max":320}'
        assert await read_block(sim, 2, 64, 2) == (
            'minecraft:chest {"minecraft:cardinal_direction":"north"} loaded=true' + range_text
        )
        sim.run_command('setblock 3 64 3 oak_log ["pillar_axis"="x"]')
        assert await read_block(sim, 3, 64, 3) == (
            'minecraft:oak_log {"pillar_axis":"x"} loaded=true' + range_text
        )
        assert await read_block(sim, FAR, 64, 0) == "undefined loaded=false" + range_text
        assert (await read_block(sim, 0, 320, 0)).startswith(
            "threw LocationOutOfWorldBoundariesError"
        )


async def test_contains_block_answers_from_the_same_world(tmp_path: Path) -> None:
    bundle = tmp_path / "reader.js"
    bundle.write_text(READER, encoding="utf-8")

    async def contains(*args: object) -> str:
        sim.run_command("scriptevent test:contains " + json.dumps(list(args)))
        return str(sim.api.dynamic_properties["contains"])

    async with SimWorld(clock="manual", addon=str(bundle)) as sim:
        floor = ({"x": -4, "y": 63, "z": -4}, {"x": 4, "y": 63, "z": 4})
        assert await contains(*floor, {"excludeTypes": ["minecraft:stone"]}) == "false"
        assert await contains(*floor, {"includeTypes": ["stone"]}) == "true"
        build = ({"x": -4, "y": 64, "z": 0}, {"x": 4, "y": 64, "z": 4})
        assert await contains(*build, {"includeTypes": ["minecraft:chest"]}) == "true"
        far = ({"x": 70, "y": 100, "z": 0}, {"x": FAR, "y": 100, "z": 0})  # air, then unloaded
        assert (
            await contains(*far, {"excludeTypes": ["minecraft:air"]}) == "threw UnloadedChunksError"
        )
        assert await contains(*far, {"excludeTypes": ["minecraft:air"]}, True) == "false"
        high = ({"x": 0, "y": 319, "z": 0}, {"x": 0, "y": 320, "z": 0})
        assert await contains(*high, {}) == "threw LocationOutOfWorldBoundariesError"
        assert await contains(*floor, {"includeTags": ["stone"]}) == "threw Error"


async def test_run_job_spreads_a_generator_over_ticks(tmp_path: Path) -> None:
    bundle = tmp_path / "reader.js"
    bundle.write_text(READER, encoding="utf-8")
    async with SimWorld(clock="manual", addon=str(bundle)) as sim:
        sim.run_command("scriptevent test:job go")
        await sim.advance(1)
        assert sim.api.dynamic_properties["steps"] == 0  # the interval ran before the job
        await sim.advance(1)
        assert sim.api.dynamic_properties["steps"] == 16  # one tick's resumptions
        await sim.advance(3)
        assert sim.api.dynamic_properties["steps"] == 40
