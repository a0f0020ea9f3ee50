"""Undo and checkpoints (toolkit/undo.py) through the simulated world running the real addon:
a write undone reads back as it was (states too), undo only where the write changed
something, newest first, the byte bound dropping the oldest with a note, writes too large
refused without force, checkpoints restored, and the game time an undo takes."""

from __future__ import annotations

import numpy as np
import pytest

from mcbews_repl import NothingToUndo
from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.toolkit.blocks import read_blocks
from mcbews_repl.toolkit.region import BlockRegion
from mcbews_repl.toolkit.shapes import sphere
from mcbews_repl.toolkit.undo import Builder, Store, blocks_set, check_force, saved_from
from mcbews_repl.toolkit.writes import plan_write

from .conftest import World

BOX = ((-6, 60, -6), (9, 71, 9))  # 16 x 12 x 16 across terrain: ground, surface and sky


def states_at(region: BlockRegion) -> list[tuple[str, str]]:
    """Each position's block and states, in reading order, comparable between reads."""
    assert region.state_ids is not None and region.state_palette is not None
    keys = [(b, repr(sorted(s.items()))) for b, s in region.state_palette]
    return [keys[int(i)] for i in region.state_ids.ravel()]


async def test_a_write_undone_reads_back_as_it_was(world: World) -> None:
    before = await read_blocks(world.mc, *BOX, states=True)
    names = np.full(before.size, "glass", dtype=object)
    names[:, :4, :] = None  # holes: left as they are
    builder = Builder()
    written = await builder.write(world.mc, plan_write(before.origin, names))
    assert written.written > 1000 and written.notes == ()
    assert states_at(await read_blocks(world.mc, *BOX, states=True)) != states_at(before)
    undone = await builder.undo(world.mc)
    assert undone.notes == ("undid set_blocks 16x12x16 at (-6, 60, -6) in overworld",)
    assert undone.written == written.written  # only where the write changed something
    assert undone.kept == before.volume - written.written
    assert states_at(await read_blocks(world.mc, *BOX, states=True)) == states_at(before)
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        await builder.undo(world.mc)


async def test_undo_goes_newest_first_and_keeps_states(world: World) -> None:
    w = world.sim.world
    builder = Builder()
    logs = np.zeros((3, 1, 1), dtype=int)
    x_logs = plan_write((0, 90, 0), logs, palette=[("oak_log", {"pillar_axis": "x"})])
    await builder.write(world.mc, x_logs)
    await builder.write(world.mc, plan_write((1, 90, 0), np.full((1, 1, 1), "gold_block")))
    assert builder.undoable == [
        "set_blocks 1x1x1 at (1, 90, 0) in overworld",
        "set_blocks 3x1x1 at (0, 90, 0) in overworld",
    ]
    await builder.undo(world.mc)
    assert w.block("overworld", 1, 90, 0) == "minecraft:oak_log"
    assert w.states("overworld", 1, 90, 0) == {"pillar_axis": "x"}
    await builder.undo(world.mc)
    assert w.block("overworld", 1, 90, 0) == "minecraft:air"


async def test_a_shape_undone_puts_the_terrain_back(world: World) -> None:
    ball = sphere((0, 64, 0), 6, "red_wool")
    corner2 = tuple(o + s - 1 for o, s in zip(ball.origin, ball.size, strict=True))
    before = await read_blocks(world.mc, ball.origin, corner2, states=True)
    builder = Builder()
    await builder.write(world.mc, plan_write(ball.origin, ball), what="build")
    await builder.undo(world.mc)
    back = await read_blocks(world.mc, ball.origin, corner2, states=True)
    assert states_at(back) == states_at(before)


async def test_a_write_kept_under_a_key_is_undone_by_that_key(world: World) -> None:
    w = world.sim.world
    builder = Builder()
    await builder.write(world.mc, plan_write((0, 95, 0), np.full((1, 1, 1), "gold_block")),
                        key=("mine", 1))  # fmt: skip
    await builder.write(world.mc, plan_write((1, 95, 0), np.full((1, 1, 1), "glass")))
    undone = await builder.undo(world.mc, key=("mine", 1))  # not the newest
    assert undone.notes == ("undid set_blocks 1x1x1 at (0, 95, 0) in overworld",)
    assert w.block("overworld", 0, 95, 0) == "minecraft:air"
    assert w.block("overworld", 1, 95, 0) == "minecraft:glass"
    with pytest.raises(NothingToUndo, match=r"kept under \('mine', 1\)"):
        await builder.undo(world.mc, key=("mine", 1))
    assert builder.undoable == ["set_blocks 1x1x1 at (1, 95, 0) in overworld"]
    with pytest.raises(InvalidArgument, match="key"):  # numbers are the history's own
        await builder.write(world.mc, plan_write((2, 95, 0), np.full((1, 1, 1), "glass")), key=1)


async def test_the_oldest_undo_is_dropped_first_with_a_note(world: World) -> None:
    one = np.full((4, 4, 4), "glass", dtype=object)  # in the sky: air and <keep> are kept
    per_write = 4 * 4 * 4 * 2 + 2 * 64  # two bytes a position, 64 an entry
    bound = 2 * per_write + 100
    builder = Builder(undo_max_bytes=bound)
    await builder.write(world.mc, plan_write((0, 100, 0), one))
    await builder.write(world.mc, plan_write((10, 100, 0), one))
    third = await builder.write(world.mc, plan_write((20, 100, 0), one))
    assert third.notes == (
        "dropped the oldest undo, set_blocks 4x4x4 at (0, 100, 0) in overworld, to stay within "
        f"{bound:,} bytes (undo_max_bytes)",
    )
    assert len(builder.history) == 2
    big = await builder.write(world.mc, plan_write((0, 110, 0), np.full((8, 8, 8), "stone")))
    assert big.notes[0].startswith("set_blocks 8x8x8 at (0, 110, 0) in overworld is not kept")
    await builder.undo(world.mc)  # the third write: the big one was never kept
    assert world.sim.world.block("overworld", 20, 100, 0) == "minecraft:air"
    assert world.sim.world.block("overworld", 0, 110, 0) == "minecraft:stone"


async def test_a_large_write_asks_for_force_before_anything_is_sent(world: World) -> None:
    planned = plan_write((0, 100, 0), np.full((10, 10, 10), "glass", dtype=object))
    assert blocks_set(planned) == 1000
    before = dict(world.sim.world.blocks)
    with pytest.raises(InvalidArgument) as info:
        await Builder().write(world.mc, planned, confirm_above=999)
    assert "would set 1,000 blocks (10x10x10), more than the 999" in str(info.value)
    assert "force=True" in str(info.value)
    assert world.sim.world.blocks == before
    assert check_force(planned, 999, force=True) == 1000
    done = await Builder().write(world.mc, planned, confirm_above=999, force=True)
    assert done.written == 1000


async def test_a_checkpoint_restored_reads_back_as_saved(world: World) -> None:
    builder = Builder()
    notes = await builder.checkpoint(world.mc, "start", *BOX)
    assert notes == ["saved checkpoint 'start': 16x12x16 at (-6, 60, -6) in overworld"]
    saved = await read_blocks(world.mc, *BOX, states=True)
    await builder.write(world.mc, plan_write((-6, 60, -6), np.full((16, 12, 16), "air")))
    restored = await builder.restore(world.mc, "start")
    assert restored.notes[0] == "restored checkpoint 'start': 16x12x16 at (-6, 60, -6) in overworld"
    assert states_at(await read_blocks(world.mc, *BOX, states=True)) == states_at(saved)
    await builder.undo(world.mc)  # the restore is a write of its own
    after = await read_blocks(world.mc, *BOX)
    assert set(after.palette) == {"minecraft:air"}
    with pytest.raises(InvalidArgument, match="one of: 'start'"):
        await builder.restore(world.mc, "nope")
    builder.forget("start")
    with pytest.raises(InvalidArgument, match="none yet"):
        builder.checkpoint_named("start")


def test_a_store_drops_the_oldest_and_refuses_what_is_over_it_whole() -> None:
    ids = np.zeros((2, 2, 2), dtype=np.uint16)
    region = BlockRegion((0, 0, 0), ids, ("minecraft:air",), state_ids=ids,
                         state_palette=(("minecraft:air", {}),))  # fmt: skip
    saved = saved_from("a", region, np.ones((2, 2, 2), dtype=bool))
    assert saved.nbytes == 16 + 2 * 64
    store = Store(saved.nbytes * 2, "checkpoint")
    assert store.put("a", saved) == [] and store.put("b", saved) == []
    assert store.put("c", saved)[0].startswith("dropped the oldest checkpoint, a,")
    assert store.keys() == ["b", "c"] and store.nbytes == 2 * saved.nbytes
    assert store.put("b", saved) == [] and store.keys() == ["c", "b"]  # replaced: the newest
    with pytest.raises(ValueError):
        Store(0, "undo")


async def test_undo_of_a_32_cube_takes_the_game_time_of_its_write(world: World) -> None:
    """The undo is one write of what was replaced: about the ticks the write itself took
    (the read before the write is extra, and counted apart)."""
    clock = world.sim.clock
    side = 32
    names = np.full((side, side, side), "stone", dtype=object)
    planned = plan_write((-16, 60, -16), names)
    builder = Builder()
    start = clock.tick
    corner2 = (15, 91, 15)
    await read_blocks(world.mc, (-16, 60, -16), corner2, states=True)
    read_ticks = clock.tick - start
    start = clock.tick
    written = await builder.write(world.mc, planned, force=True)
    write_ticks = clock.tick - start - read_ticks  # its own read is about as long as one
    start = clock.tick
    undone = await builder.undo(world.mc)
    undo_ticks = clock.tick - start
    assert undone.written == written.written
    assert undo_ticks <= max(2 * write_ticks, write_ticks + 10), (read_ticks, write_ticks,
                                                                 undo_ticks)  # fmt: skip
