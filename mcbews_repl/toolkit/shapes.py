"""Shapes as regions to write: a filled box, a hollow box, a line, a sphere, a cylinder.

Each function returns a :class:`Shape`, a box of blocks like a ``BlockRegion`` (``ids``
indexed ``[x, y, z]`` from ``origin`` into ``palette``) whose palette is ``<keep>`` (the
positions outside the shape, left as they are) and the shape's block. Every shape is written
the one way any region is, ``await mc.set_blocks(shape.origin, shape)`` (``mc.build(shape)``),
so its answer says what was written, already so or not written. numpy is needed.

Which positions a round shape holds: those whose centre lies within the radius of the
centre block's (``x² + y² + z² <= r²``, so a sphere of radius 5 is 515 blocks); a hollow one
keeps those of them with a neighbour (one of the six) outside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import InvalidArgument
from .boxes import Box
from .writes import KEEP

__all__ = ["MAX_SHAPE_BLOCKS", "BlockSpec", "Shape", "cuboid", "cylinder", "line", "sphere"]

# The largest box a shape may span: 16 million positions (256 x 256 x 256), a few tens of MB
# of arrays; far more than one write is sensible for, and a mistaken radius stops here.
MAX_SHAPE_BLOCKS = 256**3
BlockSpec = str | tuple[str, Mapping[str, Any]]  # a block name, or a name and its states


@dataclass(frozen=True, eq=False)
class Shape:
    """A box of blocks to write: ``ids[x, y, z]`` 0 (leave as is) or 1 (``block``)."""

    origin: tuple[int, int, int]
    ids: np.ndarray[Any, np.dtype[np.uint8]]
    block: BlockSpec

    @property
    def palette(self) -> tuple[BlockSpec, ...]:
        """``(<keep>, block)``: what ``ids`` index."""
        return (KEEP, self.block)

    @property
    def size(self) -> tuple[int, int, int]:
        """The box's extent along x, y, z."""
        sx, sy, sz = self.ids.shape
        return int(sx), int(sy), int(sz)

    @property
    def count(self) -> int:
        """How many positions the shape holds (the rest of its box is left as is)."""
        return int(self.ids.sum())

    def __repr__(self) -> str:
        name = self.block if isinstance(self.block, str) else self.block[0]
        sx, sy, sz = self.size
        return f"<Shape of {self.count:,} {name} in {sx}x{sy}x{sz} at {self.origin}>"


def _point(value: Sequence[int], argument: str) -> tuple[int, int, int]:
    how = f"{argument}=(x, y, z): three whole numbers"
    if isinstance(value, str | bytes) or len(value) != 3:
        raise InvalidArgument(argument, value, "is not three whole numbers", how)
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int | np.integer):
            raise InvalidArgument(argument, value, "is not three whole numbers", how)
    return int(value[0]), int(value[1]), int(value[2])


def _block(block: Any) -> BlockSpec:
    if isinstance(block, str) and block:
        return block
    pair = isinstance(block, tuple) and len(block) == 2 and isinstance(block[0], str)
    if pair and block[0] and isinstance(block[1], Mapping):
        return block[0], dict(block[1])
    raise InvalidArgument(
        "block", block, "is not a block", "a name ('stone') or (name, {state: value})"
    )


def _radius(value: Any, argument: str = "radius") -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise InvalidArgument(argument, value, "is not a whole number from 0", f"{argument}=5")
    return int(value)


def _fits(sx: int, sy: int, sz: int) -> None:
    """Refuse a box over MAX_SHAPE_BLOCKS before any array of it is made."""
    if sx * sy * sz > MAX_SHAPE_BLOCKS:
        raise InvalidArgument(
            "size", f"{sx}x{sy}x{sz}", f"is over {MAX_SHAPE_BLOCKS:,} positions",
            "a smaller shape, or several",
        )  # fmt: skip


def _shape(origin: tuple[int, int, int], cells: np.ndarray[Any, Any], block: BlockSpec) -> Shape:
    return Shape(origin, cells.astype(np.uint8), block)


def _hollow(solid: np.ndarray[Any, np.dtype[np.bool_]], axes: Sequence[int] = (0, 1, 2)) -> Any:
    """The cells of ``solid`` with a neighbour along ``axes`` outside it."""
    padded = np.pad(solid, 1, constant_values=False)
    inner = padded.copy()
    for axis in axes:
        inner &= np.roll(padded, 1, axis) & np.roll(padded, -1, axis)
    return solid & ~inner[1:-1, 1:-1, 1:-1]


def cuboid(
    corner1: Sequence[int], corner2: Sequence[int], block: BlockSpec, *, hollow: bool = False
) -> Shape:
    """Every position between two corners (both inside, any order, like ``/fill``); with
    ``hollow=True`` only its six faces.

    Raises:
        InvalidArgument: a point, the block or a size is not one it takes, or the box is
            over MAX_SHAPE_BLOCKS.
    """
    box, block = Box.between(_point(corner1, "corner1"), _point(corner2, "corner2")), _block(block)
    _fits(*box.size)
    cells = np.ones(box.size, dtype=bool)
    return _shape(box.origin, _hollow(cells) if hollow else cells, block)


def line(start: Sequence[int], end: Sequence[int], block: BlockSpec) -> Shape:
    """The positions along a straight line from ``start`` to ``end``, both ends included,
    one a step along the longest axis (each rounded to the nearest block).

    Raises:
        InvalidArgument: a point, the block or a size is not one it takes, or the box is
            over MAX_SHAPE_BLOCKS.
    """
    a, b = np.array(_point(start, "start")), np.array(_point(end, "end"))
    block = _block(block)
    steps = int(np.abs(b - a).max())
    t = np.arange(steps + 1)[:, None] / max(steps, 1)
    points = np.floor(a + (b - a) * t + 0.5).astype(np.int64)
    low = points.min(axis=0)
    size = points.max(axis=0) - low + 1
    cells = np.zeros(tuple(int(s) for s in size), dtype=bool)
    rel = points - low
    cells[rel[:, 0], rel[:, 1], rel[:, 2]] = True
    return _shape((int(low[0]), int(low[1]), int(low[2])), cells, block)


def sphere(center: Sequence[int], radius: int, block: BlockSpec, *, hollow: bool = False) -> Shape:
    """The positions within ``radius`` of ``center`` (a radius of 5 holds 515); with
    ``hollow=True`` only its outer shell.

    Raises:
        InvalidArgument: a point, the block or a size is not one it takes, or the box is
            over MAX_SHAPE_BLOCKS.
    """
    c, r, block = _point(center, "center"), _radius(radius), _block(block)
    side = 2 * r + 1
    _fits(side, side, side)
    d = np.arange(-r, r + 1)
    x, y, z = np.meshgrid(d, d, d, indexing="ij")
    solid = x * x + y * y + z * z <= r * r
    origin = (c[0] - r, c[1] - r, c[2] - r)
    return _shape(origin, _hollow(solid) if hollow else solid, block)


def cylinder(
    base: Sequence[int], radius: int, height: int, block: BlockSpec, *, hollow: bool = False
) -> Shape:
    """An upright cylinder: the disc of ``radius`` around ``base`` (its centre at the bottom)
    repeated ``height`` blocks up; with ``hollow=True`` only its wall (open at both ends).

    Raises:
        InvalidArgument: a point, the block or a size is not one it takes, or the box is
            over MAX_SHAPE_BLOCKS.
    """
    c, r, h = _point(base, "base"), _radius(radius), _radius(height, "height")
    block = _block(block)
    if h == 0:
        raise InvalidArgument("height", height, "is not a whole number from 1", "height=10")
    side = 2 * r + 1
    _fits(side, h, side)
    d = np.arange(-r, r + 1)
    x, z = np.meshgrid(d, d, indexing="ij")
    disc = x * x + z * z <= r * r
    solid = np.repeat(disc[:, None, :], h, axis=1)
    origin = (c[0] - r, c[1], c[2] - r)
    return _shape(origin, _hollow(solid, axes=(0, 2)) if hollow else solid, block)
