"""Reading blocks: splitting a box, decoding answers, and whole reads through the simulated
world (the real addon), checked block by block against the world itself."""

from __future__ import annotations

import asyncio
import itertools
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mcbews_repl
from mcbews_repl import CapabilityError, RequestTimeout
from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.sim import SimWorld, default_world
from mcbews_repl.toolkit.blocks import (
    ANSWER_BUDGET_BYTES,
    MAX_BLOCKS_PER_REQUEST,
    OUT_OF_WORLD,
    REQUESTS_IN_FLIGHT,
    UNLOADED,
    WORST_RUN_BYTES,
    Box,
    decode_runs,
    read_blocks,
    split_box,
)

from .conftest import World

GET_BLOCKS_TS = Path(__file__).resolve().parents[2] / "addon/src/capabilities/getBlocks.ts"


def task_name(task: asyncio.Task[Any]) -> str:
    return getattr(task.get_coro(), "__qualname__", "")


def ts_constant(name: str) -> str:
    found = re.search(rf"export const {name} = ([^;]+);", GET_BLOCKS_TS.read_text("utf-8"))
    assert found, name
    return found.group(1).strip().strip('"')


def test_the_limits_are_the_addons_and_fit_an_answer() -> None:
    assert int(ts_constant("MAX_BLOCKS_PER_REQUEST")) == MAX_BLOCKS_PER_REQUEST
    assert (ts_constant("UNLOADED"), ts_constant("OUT_OF_WORLD")) == (UNLOADED, OUT_OF_WORLD)
    # 128 chunks x 256 code points, under 64 KiB: even a box with no two neighbours alike
    # leaves more than a third of the answer for the palette.
    assert ANSWER_BUDGET_BYTES == 128 * 256 < 64 * 1024
    assert MAX_BLOCKS_PER_REQUEST * WORST_RUN_BYTES < ANSWER_BUDGET_BYTES * 2 / 3


# --- splitting ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "tiles"),
    [((16, 16, 16), 1), ((32, 32, 32), 8), ((64, 32, 64), 32), ((64, 1, 64), 1),
     ((10, 300, 10), 8), ((1, 1, 1), 1), ((17, 16, 16), 2)],
)  # fmt: skip
def test_split_box_counts(size: tuple[int, int, int], tiles: int) -> None:
    assert len(split_box(Box((0, 0, 0), size))) == tiles


@given(
    origin=st.tuples(*[st.integers(-1000, 1000)] * 3),
    size=st.tuples(*[st.integers(1, 48)] * 3),
    limit=st.sampled_from([27, 100, 4096]),
)
def test_tiles_cover_the_box_exactly_once(
    origin: tuple[int, int, int], size: tuple[int, int, int], limit: int
) -> None:
    box = Box(origin, size)
    seen = np.zeros(size, dtype=np.int64)
    for tile in split_box(box, limit):
        assert 1 <= tile.volume <= limit
        lo = [t - o for t, o in zip(tile.origin, origin, strict=True)]
        seen[lo[0] : lo[0] + tile.size[0], lo[1] : lo[1] + tile.size[1],
             lo[2] : lo[2] + tile.size[2]] += 1  # fmt: skip
    assert (seen == 1).all()


def test_corners_in_any_order_and_bad_ones_refused() -> None:
    assert Box.between((3, 70, -1), (1, 64, 2)) == Box((1, 64, -1), (3, 7, 4))
    for bad in [(0, 0), (0, 0.5, 0), (0, True, 0), "123", (0, 0, 40_000_000)]:
        with pytest.raises(InvalidArgument, match="corner1"):
            Box.between(bad, (0, 0, 0))  # type: ignore[arg-type]


# --- decoding ----------------------------------------------------------------------------


def encode(entries: list[int]) -> str:
    """Runs as the addon writes them (addon/README.md), written here independently."""
    runs = [(k, len(list(g))) for k, g in itertools.groupby(entries)]
    return ",".join(f"{k}*{n}" if n > 1 else str(k) for k, n in runs)


@given(st.lists(st.integers(0, 20), min_size=1, max_size=300))
def test_runs_round_trip(entries: list[int]) -> None:
    assert decode_runs(encode(entries), 21) == entries


@pytest.mark.parametrize("runs", ["3", "0*0", "x", "0*2,", "-1"])
def test_malformed_runs_are_refused(runs: str) -> None:
    with pytest.raises(ValueError):
        decode_runs(runs, 3)


# --- whole reads through the simulated world ---------------------------------------------


def assert_is_the_world(region: Any, sim: SimWorld, step: int = 1) -> None:
    world, (x0, y0, z0) = sim.world, region.origin
    sx, sy, sz = region.size
    for x, y, z in itertools.product(range(0, sx, step), range(0, sy, step), range(0, sz, step)):
        wx, wy, wz = x0 + x, y0 + y, z0 + z
        if not world.in_height_range("overworld", wy):
            expected = OUT_OF_WORLD
        elif not world.is_loaded("overworld", wx, wz):
            expected = UNLOADED
        else:
            expected = world.block("overworld", wx, wy, wz)
        assert region.palette[region.ids[x, y, z]] == expected, (wx, wy, wz)


async def test_a_large_box_is_split_read_and_stitched(world: World) -> None:
    seen: list[tuple[int, int]] = []
    region = await read_blocks(world.mc, (-20, 40, -3), (19, 71, 30),
                               progress=lambda n, total: seen.append((n, total)))  # fmt: skip
    assert region.size == (40, 32, 34) and region.origin == (-20, 40, -3)
    assert region.requests == len(split_box(Box((-20, 40, -3), (40, 32, 34)))) > 8
    assert_is_the_world(region, world.sim, step=3)
    assert [n for n, _ in seen] == sorted(n for n, _ in seen) and seen[-1] == (43520, 43520)


async def test_a_read_of_many_tiles_asks_from_a_few_tasks(world: World) -> None:
    box = Box((-64, 0, -64), (128, 24, 128))
    tiles = len(split_box(box))
    assert tiles > 4 * REQUESTS_IN_FLIGHT
    peak, reading = 0, True

    async def sample() -> None:
        nonlocal peak
        while reading:
            named = [t for t in asyncio.all_tasks() if "_Reader" in task_name(t)]
            peak = max(peak, len(named))
            await asyncio.sleep(0)

    sampler = asyncio.create_task(sample())
    try:
        region = await read_blocks(world.mc, box.origin, box.far)
    finally:
        reading = False
        await sampler
    assert region.size == box.size
    # A task a tile would be one for each of them; at most REQUESTS_IN_FLIGHT ask at once.
    assert 1 <= peak <= REQUESTS_IN_FLIGHT, (peak, tiles)


async def test_unknown_positions_stay_unknown(world: World) -> None:
    region = await read_blocks(world.mc, (70, 318, -2), (85, 321, 2))
    assert_is_the_world(region, world.sim)
    counts = region.counts()
    assert counts[UNLOADED] == 6 * 2 * 5  # x 80..85 beyond the simulation distance, y 318..319
    assert counts[OUT_OF_WORLD] == 16 * 2 * 5  # y 320 and 321
    assert not region.known[10:, :, :].any() and region.known[:10, :2, :].all()


async def test_states_when_asked(world: World) -> None:
    world.sim.run_command('setblock 2 64 3 oak_log ["pillar_axis"="z"]')
    region = await read_blocks(world.mc, (1, 63, 1), (3, 64, 3), states=True)
    frame = region.to_frame()
    row = frame[(frame.x == 2) & (frame.y == 64) & (frame.z == 3)].iloc[0]
    assert (row.block, row.blockId, row.states) == ("oak_log", "minecraft:oak_log",
                                                    {"pillar_axis": "z"})  # fmt: skip
    chest = frame[(frame.x == 2) & (frame.y == 64) & (frame.z == 2)].iloc[0]
    assert chest.states == {"minecraft:cardinal_direction": "north"}
    plain = await read_blocks(world.mc, (1, 63, 1), (3, 64, 3))
    assert plain.state_ids is None and "states" not in plain.to_frame().columns


async def test_a_box_too_varied_for_one_answer_is_read_in_parts(world: World) -> None:
    for i in range(16 * 16 * 4):  # 1024 positions, each a different long id
        x, z, y = i % 16, (i // 16) % 16, i // 256
        world.sim.world.set_block("overworld", x, 100 + y, z, f"custom:block_{'x' * 60}_{i}")
    region = await read_blocks(world.mc, (0, 100, 0), (15, 103, 15))
    assert region.requests > 1  # one tile, asked for again where each answer stopped
    assert_is_the_world(region, world.sim)


async def test_mistakes_and_silence(world: World) -> None:
    with pytest.raises(InvalidArgument, match="dimension"):
        await read_blocks(world.mc, (0, 0, 0), (1, 1, 1), "moon")
    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True, addon=False) as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        with pytest.raises(RequestTimeout, match=r"nothing arrived for 0\.3 s"):
            await read_blocks(mc, (0, 0, 0), (40, 0, 0), timeout=0.3)


class OldAddon:
    """A world whose addon predates get_blocks, as the bridge reports it."""

    async def call(self, capability: str, payload: Any = None, /, **options: Any) -> Any:
        raise CapabilityError(
            "UNSUPPORTED_CAPABILITY", f"no such capability: {capability}", capability
        )


async def test_an_addon_without_get_blocks_says_what_to_do() -> None:
    with pytest.raises(CapabilityError, match="mcbews-repl addon export"):
        await read_blocks(OldAddon(), (0, 0, 0), (1, 1, 1))


async def test_each_world_answers_for_itself() -> None:
    """Two games on one bridge, each with its own terrain: a read goes where it is sent."""
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
        assert a is not b
        box = ((40, 40, 40), (55, 60, 55))
        read_a = await read_blocks(mc, *box, connection=a)
        read_b = await read_blocks(mc, *box, connection=b)
        assert_is_the_world(read_a, one)
        assert_is_the_world(read_b, two)
        assert (read_a.ids != read_b.ids).any()
