"""Shapes: which positions each holds (a sphere of radius 5 is 515 blocks), mistakes refused
before any array is made, and every shape written through set_blocks in the simulated world
and read back: the shape's positions hold its block, the rest of its box is untouched."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.toolkit.blocks import read_blocks
from mcbews_repl.toolkit.shapes import MAX_SHAPE_BLOCKS, Shape, cuboid, cylinder, line, sphere
from mcbews_repl.toolkit.writes import KEEP, write_blocks

from .conftest import World


def cells(shape: Shape) -> set[tuple[int, int, int]]:
    xs, ys, zs = np.nonzero(shape.ids)
    ox, oy, oz = shape.origin
    return {(int(x) + ox, int(y) + oy, int(z) + oz) for x, y, z in zip(xs, ys, zs, strict=True)}


@pytest.mark.parametrize(("radius", "count"), [(0, 1), (1, 7), (2, 33), (5, 515)])
def test_a_sphere_holds_the_positions_within_its_radius(radius: int, count: int) -> None:
    shape = sphere((10, 64, -3), radius, "stone")
    assert shape.count == count
    assert shape.origin == (10 - radius, 64 - radius, -3 - radius)
    assert all(
        (x - 10) ** 2 + (y - 64) ** 2 + (z + 3) ** 2 <= radius**2 for x, y, z in cells(shape)
    )


def test_hollow_shapes_are_their_solid_ones_outer_cells() -> None:
    solid, hollow = sphere((0, 0, 0), 6, "glass"), sphere((0, 0, 0), 6, "glass", hollow=True)
    assert cells(hollow) < cells(solid) and (0, 0, 0) not in cells(hollow)
    assert (6, 0, 0) in cells(hollow) and (5, 0, 0) not in cells(hollow)
    assert cuboid((0, 0, 0), (2, 2, 2), "stone", hollow=True).count == 26
    assert cuboid((0, 0, 0), (4, 4, 4), "stone", hollow=True).count == 125 - 27
    wall = cylinder((0, 0, 0), 3, 4, "stone", hollow=True)
    assert wall.count == 16 * 4  # the disc's rim, every layer: open at both ends
    assert cylinder((0, 0, 0), 3, 4, "stone").count == 29 * 4


def test_a_shape_is_a_region_of_keep_and_its_block() -> None:
    shape = cylinder((5, 60, 5), 2, 3, ("oak_log", {"pillar_axis": "y"}))
    assert shape.palette == (KEEP, ("oak_log", {"pillar_axis": "y"}))
    assert shape.size == (5, 3, 5) and shape.origin == (3, 60, 3)
    assert repr(shape) == "<Shape of 39 oak_log in 5x3x5 at (3, 60, 3)>"


points = st.tuples(*[st.integers(min_value=-40, max_value=40)] * 3)


@given(points, points)
def test_a_line_joins_its_ends_a_step_at_a_time(start: Any, end: Any) -> None:
    shape = line(start, end, "stone")
    found = cells(shape)
    assert start in found and end in found
    assert shape.count == max(abs(a - b) for a, b in zip(start, end, strict=True)) + 1
    ordered = sorted(found, key=lambda p: sum((a - s) ** 2 for a, s in zip(p, start, strict=True)))
    for a, b in itertools.pairwise(ordered):
        assert max(abs(u - v) for u, v in zip(a, b, strict=True)) == 1


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: sphere((0, 0, 0), -1, "stone"), "radius"),
        (lambda: sphere((0, 0, 0), 1000, "stone"), f"over {MAX_SHAPE_BLOCKS:,} positions"),
        (lambda: cuboid((0, 0, 0), (300, 300, 300), "stone"), "over"),
        (lambda: cylinder((0, 0, 0), 2, 0, "stone"), "height"),
        (lambda: line((0, 0), (1, 1, 1), "stone"), "start"),
        (lambda: sphere((0, 0, 0), 2, ""), "is not a block"),
        (lambda: sphere((0, 0, 0), 2, ("oak_log", "x")), "is not a block"),
        (lambda: sphere((0, 0.5, 0), 2, "stone"), "center"),
    ],
)
def test_mistakes_are_refused_before_any_array_is_made(make: Any, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        make()


async def test_every_shape_lands_as_drawn(world: World) -> None:
    shapes = [
        sphere((0, 100, 0), 4, "glass", hollow=True),
        cuboid((10, 95, -3), (14, 99, 1), "red_wool", hollow=True),
        cylinder((-12, 95, 0), 3, 5, ("oak_log", {"pillar_axis": "x"})),
        line((-5, 95, 10), (8, 104, 13), "gold_block"),
    ]
    for shape in shapes:
        box = (
            shape.origin,
            tuple(o + s - 1 for o, s in zip(shape.origin, shape.size, strict=True)),
        )
        before = await read_blocks(world.mc, *box)
        result = await write_blocks(world.mc, shape.origin, shape)
        assert result.complete and result.kept == shape.ids.size - shape.count
        after = await read_blocks(world.mc, *box, states=True)
        name = shape.block if isinstance(shape.block, str) else shape.block[0]
        inside = shape.ids.astype(bool)
        assert (after.mask(name) == inside | (before.mask(name) & ~inside)).all()
        names_before = np.asarray(before.palette, dtype=object)[before.ids]
        names_after = np.asarray(after.palette, dtype=object)[after.ids]
        assert (names_before[~inside] == names_after[~inside]).all()  # the rest untouched
    x, y, z = -12, 97, 0
    assert world.sim.world.states("overworld", x, y, z) == {"pillar_axis": "x"}
