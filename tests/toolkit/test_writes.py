"""Writing blocks: what a write takes (a BlockRegion, indices with a palette, names), its runs,
and whole writes through the simulated world (the real addon), read back block by block: a
read edited and written back, holes, unknown names, unloaded chunks and the height limit, two
worlds on one bridge, and a cancelled write that stops."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mcbews_repl
from mcbews_repl import CapabilityError
from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.sim import SimWorld, default_world
from mcbews_repl.toolkit.blocks import read_blocks
from mcbews_repl.toolkit.region import BlockRegion
from mcbews_repl.toolkit.writes import (
    KEEP,
    STATUS,
    WriteResult,
    decode_status,
    plan,
    plan_write,
    runs_of,
    write_blocks,
)

from .conftest import World

# --- the shapes a write takes ----------------------------------------------------------------


@given(st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=300))
def test_runs_round_trip(entries: list[int]) -> None:
    runs = runs_of(np.asarray(entries))
    expanded: list[int] = []
    for run in runs.split(","):
        index, _, times = run.partition("*")
        expanded += [int(index)] * int(times or 1)
    assert expanded == entries
    codes = list(STATUS)
    assert decode_status(runs, codes, len(entries)).tolist() == entries


@pytest.mark.parametrize("runs", ["0*3", "0*5", "x", "0*0"])
def test_status_runs_that_do_not_fit_are_refused(runs: str) -> None:
    with pytest.raises(ValueError):
        decode_status(runs, list(STATUS), 4)


def test_a_region_writes_its_palette_and_its_unknowns_are_holes() -> None:
    ids = np.array([0, 1, 2, 3], dtype=np.uint16).reshape(4, 1, 1)
    region = BlockRegion((0, 0, 0), ids, ("minecraft:air", "minecraft:stone", "<unloaded>",
                                          "<out_of_world>"))  # fmt: skip
    got, entries = plan(region)
    assert got.ravel().tolist() == [0, 1, 2, 3]
    assert entries == [("minecraft:air", None), ("minecraft:stone", None), (KEEP, None),
                       (KEEP, None)]  # fmt: skip


def test_a_region_read_with_states_writes_them() -> None:
    ids = np.zeros((1, 1, 2), dtype=np.uint16)
    state_ids = np.array([[[0, 1]]], dtype=np.uint16)
    region = BlockRegion((0, 0, 0), ids, ("minecraft:oak_log",), state_ids=state_ids,
                         state_palette=(("minecraft:oak_log", {"pillar_axis": "y"}),
                                        ("minecraft:oak_log", {"pillar_axis": "x"})))  # fmt: skip
    got, entries = plan(region)
    assert got.ravel().tolist() == [0, 1]
    assert entries[1] == ("minecraft:oak_log", {"pillar_axis": "x"})


def test_names_with_holes_and_indices_with_a_palette() -> None:
    names = np.array([["stone", None], ["air", "glass"]], dtype=object).reshape(2, 2, 1)
    ids, entries = plan(names, hole="glass")
    flat = [entries[i][0] for i in ids.ravel()]
    assert flat == ["stone", KEEP, "air", KEEP]
    ids, entries = plan(
        np.array([1, 0]).reshape(2, 1, 1), ["air", ("oak_log", {"pillar_axis": "z"})]
    )
    assert entries[ids[0, 0, 0]] == ("oak_log", {"pillar_axis": "z"})


@pytest.mark.parametrize(
    ("region", "palette", "message"),
    [
        (np.zeros((2, 2)), ["air"], "is not a 3-D box"),
        (np.zeros((0, 1, 1), dtype=int), ["air"], "is not a 3-D box"),
        (np.zeros((1, 1, 1), dtype=int), None, "is needed with an array of indices"),
        (np.full((1, 1, 1), 3), ["air"], "do not all index the palette"),
        (np.zeros((1, 1, 1), dtype=float), None, "holds neither names nor indices"),
        (np.zeros((1, 1, 1), dtype=int), [3], "is not a block"),
    ],
)
def test_mistakes_say_what_to_give(region: Any, palette: Any, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        plan(region, palette)


def test_a_bad_origin_or_dimension_is_refused() -> None:
    block = np.full((1, 1, 1), "stone", dtype=object)
    with pytest.raises(InvalidArgument, match="origin"):
        plan_write((0, 0.5, 0), block)
    with pytest.raises(InvalidArgument, match="dimension"):
        plan_write((0, 0, 0), block, dimension="moon")


def test_the_result_says_what_was_not_written_and_why() -> None:
    status = np.array([0, 1, 2, 3, 4, 4], dtype=np.uint8).reshape(6, 1, 1)
    result = WriteResult((10, 319, 0), status)
    assert result.counts == dict.fromkeys(STATUS, 1) | {"out_of_world": 2}
    assert (result.written, result.already, result.kept, result.not_written) == (1, 1, 1, 3)
    assert not result.complete
    assert result.positions("unloaded") == [(13, 319, 0)]
    assert result.describe() == (
        "6x1x1 blocks at (10, 319, 0) in overworld: 1 written, 1 already so, 1 left as is; "
        "3 NOT written (1 in an unloaded chunk, 2 outside the height range)"
    )
    assert result.to_frame()["count"].tolist() == [1, 1, 1, 1, 2]


# --- whole writes through the simulated world -------------------------------------------------


def names_at(region: BlockRegion) -> np.ndarray[Any, Any]:
    return np.asarray(region.palette, dtype=object)[region.ids]


async def test_a_read_edited_and_written_back_reads_back_the_same(world: World) -> None:
    box = ((-6, 60, -6), (9, 71, 9))  # 16 x 12 x 16 across terrain: ground, surface and sky
    region = await read_blocks(world.mc, *box)
    stone = region.palette.index("minecraft:stone") if "minecraft:stone" in region.palette else 0
    air = region.palette.index("minecraft:air")
    edited = region.ids.copy()
    edited[2:12, 5, 3:9] = stone  # a slab
    edited[:, 10:, :] = air  # explicit air over everything high up
    edited[0, 0, 0] = region.ids[0, 0, 0]
    changed = BlockRegion(region.origin, edited, region.palette)
    result = await write_blocks(world.mc, region.origin, changed)
    assert result.complete and result.written == int((edited != region.ids).sum())
    assert result.written + result.already == region.volume
    back = await read_blocks(world.mc, *box)
    assert (names_at(back) == names_at(changed)).all()


async def test_names_holes_air_and_states_land_as_given(world: World) -> None:
    world.sim.run_command("setblock 1 80 1 gold_block")
    names = np.full((3, 2, 3), "glass", dtype=object)
    names[1, 0, 1] = None  # a hole: the gold block stays
    names[0, 1, :] = "air"
    palette_write = await write_blocks(world.mc, (0, 80, 0), names)
    assert palette_write.kept == 1
    w = world.sim.world
    assert w.block("overworld", 1, 80, 1) == "minecraft:gold_block"
    assert w.block("overworld", 0, 81, 0) == "minecraft:air"
    assert w.block("overworld", 2, 81, 2) == "minecraft:glass"
    logs = np.zeros((2, 1, 1), dtype=int)
    await write_blocks(world.mc, (5, 80, 5), logs, palette=[("oak_log", {"pillar_axis": "x"})])
    assert w.states("overworld", 6, 80, 5) == {"pillar_axis": "x"}
    again = await write_blocks(
        world.mc, (5, 80, 5), logs, palette=[("oak_log", {"pillar_axis": "x"})]
    )
    assert (again.written, again.already) == (0, 2)


async def test_unknown_names_are_refused_before_anything_is_written(world: World) -> None:
    names = np.full((20, 1, 20), "stone", dtype=object)
    names[19, 0, 19] = "minecraft:unobtainium"  # in the last section of the write
    before = dict(world.sim.world.blocks)
    with pytest.raises(CapabilityError) as info:
        await write_blocks(world.mc, (0, 90, 0), names)
    assert info.value.code == "INVALID_REQUEST" and "minecraft:unobtainium" in info.value.message
    assert world.sim.world.blocks == before


async def test_unloaded_chunks_and_the_height_limit_are_reported(world: World) -> None:
    names = np.full((4, 3, 1), "glass", dtype=object)
    result = await write_blocks(world.mc, (78, 318, 0), names)  # chunk 5 is not loaded
    assert result.counts["out_of_world"] == 4  # y 320 is over the top
    assert result.counts["unloaded"] == 4  # x 80, 81 at y 318, 319
    assert result.positions("unloaded")[0] == (80, 318, 0)
    assert result.written == 4
    assert world.sim.world.block("overworld", 80, 318, 0) != "minecraft:glass"


async def test_each_write_goes_to_its_own_world() -> None:
    first, second = default_world(terrain_seed=1), default_world(terrain_seed=2)
    async with (
        mcbews_repl.serve(port=0) as mc,
        SimWorld(first, fast=True) as one,
        SimWorld(second, fast=True) as two,
    ):
        await one.connect(mc.url)
        a = await mc.wait_connected(timeout=5)
        await two.connect(mc.url)
        b = await mc.wait_connected(timeout=5)
        await write_blocks(mc, (0, 100, 0), np.full((2, 1, 1), "glass", dtype=object), connection=a)
        await write_blocks(
            mc, (0, 100, 0), np.full((2, 1, 1), "red_wool", dtype=object), connection=b
        )
        assert one.world.block("overworld", 1, 100, 0) == "minecraft:glass"
        assert two.world.block("overworld", 1, 100, 0) == "minecraft:red_wool"


async def test_a_cancelled_write_stops_and_writes_nothing_more() -> None:
    """At the game's clock a 64x16x64 write takes many ticks: cancel it midway."""
    async with mcbews_repl.serve(port=0) as mc, SimWorld() as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        names = np.full((64, 16, 64), "glass", dtype=object)
        task = asyncio.ensure_future(write_blocks(mc, (-32, 100, -32), names, timeout=30))
        deadline = time.monotonic() + 30
        while len(sim.world.blocks) < 2000 and not task.done():
            assert time.monotonic() < deadline, "the write never started"
            await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The addon hears of it and stops at its next slice: the count settles, short of all.
        settled, last, since = time.monotonic() + 30, -1, time.monotonic()
        while time.monotonic() < settled:
            now = len(sim.world.blocks)
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since > 1.0:  # 20 ticks of the game's clock with no write
                break
            await asyncio.sleep(0.05)
        assert 2000 <= last < names.size


async def test_a_read_with_states_written_back_is_already_so(world: World) -> None:
    """Every block and state the simulated world holds is one resolve knows: the default
    world (chest, logs, leaves, water, bedrock ...) written back changes nothing."""
    box = ((-3, -64, -3), (3, 70, 3))
    region = await read_blocks(world.mc, *box, states=True)
    assert region.state_palette is not None and len(region.state_palette) > 5
    result = await write_blocks(world.mc, region.origin, region)
    assert (result.written, result.already) == (0, region.volume)


async def test_only_the_part_that_sets_something_is_sent(world: World) -> None:
    """A wall in the middle of a 32x32x32 box of holes: one request for the wall (its own
    32x32x1 box) beside the palette's check, not one for each of the box's eight sections;
    the rest of the box is reported left as is, and the blocks around it stay."""
    world.sim.run_command("setblock 0 100 5 gold_block")
    names = np.full((32, 32, 32), None, dtype=object)
    names[:, :, 16] = "red_wool"
    names[::2, :, 16] = "white_concrete"
    result = await write_blocks(world.mc, (-16, 90, -16), names)
    assert result.requests == 2  # the check and the wall
    assert (result.written, result.kept) == (32 * 32, 32 * 32 * 31)
    assert result.mask("written")[:, :, 16].all()
    w = world.sim.world
    assert w.block("overworld", -16, 90, 0) == "minecraft:white_concrete"
    assert w.block("overworld", -15, 121, 0) == "minecraft:red_wool"
    assert w.block("overworld", 0, 100, 5) == "minecraft:gold_block"
    nothing = await write_blocks(world.mc, (0, 90, 0), np.full((4, 4, 4), None, dtype=object))
    assert (nothing.requests, nothing.kept) == (1, 64)  # the check alone
