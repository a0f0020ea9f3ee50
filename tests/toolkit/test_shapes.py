"""Shapes: which positions each holds (a sphere of radius 5 is 515 blocks), mistakes refused
before any array is made, and every shape written through set_blocks in the simulated world
and read back: the shape's positions hold its block, the rest of its box is untouched.
Pixel art: each pixel the nearest of the game's colours, a wall or the ground, a wrong
picture refused saying what to pass, and a picture written and read back."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.toolkit.blocks import read_blocks
from mcbews_repl.toolkit.shapes import (
    MAX_SHAPE_BLOCKS,
    Shape,
    block_colours,
    cuboid,
    cylinder,
    line,
    pixel_art,
    sphere,
)
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


# --- pixel art ------------------------------------------------------------------------------


def picture(*rows: list[tuple[int, int, int]]) -> np.ndarray[Any, np.dtype[np.uint8]]:
    return np.array(rows, dtype=np.uint8)


RED, WHITE, BLUE = (255, 0, 0), (255, 255, 255), (0, 0, 255)


def test_each_pixel_becomes_the_nearest_colour() -> None:
    own = {"red_wool": (200, 30, 30), "white_wool": (240, 240, 240), "blue_wool": (30, 30, 200)}
    art = pixel_art(picture([RED, WHITE], [(250, 100, 100), BLUE]), (0, 0, 0), palette=own)
    assert art.blocks.tolist() == [["red_wool", "white_wool"], ["red_wool", "blue_wool"]]
    assert art.counts() == {"red_wool": 2, "white_wool": 1, "blue_wool": 1}
    assert art.rgb()[1, 1].tolist() == [30, 30, 200]
    wool = pixel_art(picture([RED, WHITE, BLUE]), (0, 0, 0), palette="wool")
    assert wool.blocks.tolist() == [["minecraft:red_wool", "minecraft:white_wool",
                                     "minecraft:blue_wool"]]  # fmt: skip
    concrete = pixel_art(picture([(0, 0, 0)]), (0, 0, 0), palette="concrete")
    assert concrete.blocks.tolist() == [["minecraft:black_concrete"]]


def test_a_wall_stands_up_and_the_ground_reads_as_a_map() -> None:
    own = {"a": (255, 0, 0), "b": (0, 255, 0), "c": (0, 0, 255), "d": (255, 255, 255)}
    image = picture([RED, (0, 255, 0)], [BLUE, WHITE])  # a b / c d

    def at(art: Any) -> dict[tuple[int, int, int], str]:
        names = np.asarray(art.palette, dtype=object)[art.ids]
        return {(int(x), int(y), int(z)): names[x, y, z] for x, y, z in np.ndindex(art.size)}

    wall = pixel_art(image, (10, 64, 5), palette=own)
    assert wall.size == (2, 2, 1) and wall.origin == (10, 64, 5)
    assert at(wall) == {(0, 1, 0): "a", (1, 1, 0): "b", (0, 0, 0): "c", (1, 0, 0): "d"}
    side = pixel_art(image, (0, 0, 0), palette=own, along="z")
    assert at(side) == {(0, 1, 0): "a", (0, 1, 1): "b", (0, 0, 0): "c", (0, 0, 1): "d"}
    ground = pixel_art(image, (0, 0, 0), palette=own, plane="ground")
    assert at(ground) == {(0, 0, 0): "a", (1, 0, 0): "b", (0, 0, 1): "c", (1, 0, 1): "d"}
    turned = pixel_art(image, (0, 0, 0), palette=own, plane="ground", along="z")
    assert at(turned) == {(1, 0, 0): "a", (1, 0, 1): "b", (0, 0, 0): "c", (0, 0, 1): "d"}


def test_transparent_pixels_leave_the_world_as_it_is() -> None:
    image = np.array([[[255, 0, 0, 255], [0, 0, 255, 0]]], dtype=np.uint8)
    art = pixel_art(image, (0, 0, 0), palette="wool")
    assert art.palette == (KEEP, "minecraft:red_wool") and art.count == 1
    assert art.blocks.tolist() == [["minecraft:red_wool", None]]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: pixel_art([[RED]], (0, 0, 0)), "image='a list': is not a numpy array.*np.array"),
        (lambda: pixel_art(np.zeros((4, 4), np.uint8), (0, 0, 0)), r"shape \(4, 4\)"),
        (lambda: pixel_art(np.zeros((4, 4, 3)), (0, 0, 0)), r"dtype float64.*\* 255"),
        (lambda: pixel_art(np.zeros((0, 4, 3), np.uint8), (0, 0, 0)), "has no pixels"),
        (lambda: pixel_art(picture([RED]), (0, 0)), "origin"),
        (lambda: pixel_art(picture([RED]), (0, 0, 0), plane="up"), "plane='wall'"),
        (lambda: pixel_art(picture([RED]), (0, 0, 0), along="y"), "along='x'"),
        (lambda: pixel_art(picture([RED]), (0, 0, 0), palette="glass"), "'wool', 'concrete'"),
        (lambda: pixel_art(picture([RED]), (0, 0, 0), palette={"a": (1, 2)}), "r, g, b"),
        (lambda: pixel_art(picture([RED]), (0, 0, 0), palette={"a": (1, 2, 300)}), "0-255"),
        (lambda: pixel_art(picture([RED]), (0, 0, 0), palette={}), "holds no block"),
    ],
)
def test_a_wrong_picture_or_palette_says_what_to_pass(make: Any, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        make()


def test_a_picture_the_size_of_a_billboard_is_matched_a_few_rows_at_a_time() -> None:
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (300, 500, 3), dtype=np.uint8)
    art = pixel_art(image, (0, 0, 0))
    assert art.size == (500, 300, 1) and art.count == 150_000
    table = np.array([block_colours()[b] for b in art.palette[1:]], dtype=np.int32)
    chosen = table[art.pixels - 1]
    best = ((image.astype(np.int32)[:, :, None] - np.array(list(block_colours().values()))
             [None, None]) ** 2).sum(axis=3).min(axis=2)  # fmt: skip
    assert (((image.astype(np.int32) - chosen) ** 2).sum(axis=2) == best).all()


async def test_pixel_art_lands_as_drawn_and_reads_back(world: World) -> None:
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (6, 9, 4), dtype=np.uint8)
    image[..., 3] = np.where(rng.random((6, 9)) < 0.2, 0, 255)
    for plane, along in (("wall", "x"), ("wall", "z"), ("ground", "x")):
        art = pixel_art(image, (3, 70, -4), plane=plane, along=along)
        top = tuple(o + s - 1 for o, s in zip(art.origin, art.size, strict=True))
        before = await read_blocks(world.mc, art.origin, top)
        result = await write_blocks(world.mc, art.origin, art)
        assert result.complete and result.kept == int((image[..., 3] == 0).sum())
        after = await read_blocks(world.mc, art.origin, top)
        wanted = np.asarray(art.palette, dtype=object)[art.ids]
        got = np.asarray(after.palette, dtype=object)[after.ids]
        old = np.asarray(before.palette, dtype=object)[before.ids]
        assert (got == np.where(art.ids > 0, wanted, old)).all()
