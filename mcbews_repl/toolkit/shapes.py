"""Shapes as regions to write: a filled box, a hollow box, a line, a sphere, a cylinder, and a
picture made of coloured blocks (:func:`pixel_art`).

Each function returns a :class:`Shape`, a box of blocks like a ``BlockRegion`` (``ids``
indexed ``[x, y, z]`` from ``origin`` into ``palette``) whose palette is ``<keep>`` (the
positions outside the shape, left as they are) and the shape's block. Every shape is written
the one way any region is, ``await mc.set_blocks(shape.origin, shape)`` (``mc.build(shape)``),
so its answer says what was written, already so or not written. numpy is needed.

Which positions a round shape holds: those whose centre lies within the radius of the
centre block's (``x² + y² + z² <= r²``, so a sphere of radius 5 is 515 blocks); a hollow one
keeps those of them with a neighbour (one of the six) outside.

A picture's blocks are those whose colour is nearest each pixel's (the distance in sRGB)
among the wool, concrete and terracotta colours of ``block_colours.json``: the mean colour of
each block's texture in the game's resource pack (Mojang/bedrock-samples, the commit the file
names; ``tools/gen_palette.py`` makes it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import InvalidArgument
from .boxes import Box
from .colours import FAMILIES, block_colours
from .writes import KEEP

__all__ = [
    "FAMILIES",
    "MAX_SHAPE_BLOCKS",
    "BlockSpec",
    "PixelArt",
    "Shape",
    "block_colours",
    "cuboid",
    "cylinder",
    "line",
    "pixel_art",
    "sphere",
]

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


# --- pixel art ------------------------------------------------------------------------------

_PLANES = ("wall", "ground")
_ALONG = ("x", "z")
# Pixel-colour distances worked out at a time: a few MB of int32s, whatever the picture.
_NEAREST_CELLS = 1 << 20
_OPAQUE = 128  # an RGBA pixel with alpha below this is a hole: the world there is left as is


def _palette_colours(palette: Any) -> dict[str, tuple[int, int, int]]:
    if isinstance(palette, Mapping):
        how = "{block name: (r, g, b)} with each of r, g, b a whole number 0-255"
        out: dict[str, tuple[int, int, int]] = {}
        for block, rgb in palette.items():
            ok = isinstance(block, str) and block and not isinstance(rgb, str | bytes)
            values = tuple(rgb) if ok and isinstance(rgb, Sequence | np.ndarray) else ()
            if len(values) != 3 or not all(
                isinstance(v, int | np.integer) and not isinstance(v, bool) and 0 <= v <= 255
                for v in values
            ):
                raise InvalidArgument("palette", {block: rgb}, "is not a block and its colour", how)
            out[block] = (int(values[0]), int(values[1]), int(values[2]))
        if not out:
            raise InvalidArgument("palette", palette, "holds no block", how)
        return out
    return block_colours(palette)


def _image(image: Any) -> np.ndarray[Any, np.dtype[np.uint8]]:
    how = ("an array of shape (height, width, 3) of dtype uint8 (RGB 0-255), or (..., 4) with "
           "alpha: np.array(rows, dtype=np.uint8); from floats 0-1: "
           "(image * 255).round().astype(np.uint8)")  # fmt: skip
    if not isinstance(image, np.ndarray):
        raise InvalidArgument("image", f"a {type(image).__name__}", "is not a numpy array", how)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise InvalidArgument("image", f"an array of shape {image.shape}",
                              "is not (height, width, 3) or (height, width, 4)", how)  # fmt: skip
    if image.dtype != np.uint8:
        raise InvalidArgument("image", f"an array of dtype {image.dtype}", "is not uint8", how)
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise InvalidArgument("image", f"an array of shape {image.shape}", "has no pixels", how)
    return image


@dataclass(frozen=True, eq=False)
class PixelArt:
    """A picture made of blocks: ``ids[x, y, z]`` indexes ``palette`` (``<keep>`` first,
    for transparent pixels, then each block used), written by ``mc.build(art)``.

    ``image`` is the picture as given; ``blocks[row, column]`` the block each pixel became
    (None where it is transparent), and :meth:`rgb` the picture in those blocks' colours.
    """

    origin: tuple[int, int, int]
    ids: np.ndarray[Any, np.dtype[np.uint8]]
    palette: tuple[str, ...]
    image: np.ndarray[Any, np.dtype[np.uint8]]
    pixels: np.ndarray[Any, np.dtype[np.uint8]]  # [row, column]: the index into palette
    colours: Mapping[str, tuple[int, int, int]]

    @property
    def size(self) -> tuple[int, int, int]:
        """The box's extent along x, y, z."""
        sx, sy, sz = self.ids.shape
        return int(sx), int(sy), int(sz)

    @property
    def count(self) -> int:
        """How many blocks the picture sets (transparent pixels set none)."""
        return int((self.ids > 0).sum())

    @property
    def blocks(self) -> np.ndarray[Any, np.dtype[np.object_]]:
        """``[row, column]``: the block each pixel became (None: transparent)."""
        names = np.array([None, *self.palette[1:]], dtype=object)
        out: np.ndarray[Any, np.dtype[np.object_]] = names[self.pixels]
        return out

    def counts(self) -> dict[str, int]:
        """How many of each block the picture uses, most first."""
        used = np.bincount(self.pixels.ravel(), minlength=len(self.palette))[1:]
        order = np.argsort(-used, kind="stable")
        return {self.palette[i + 1]: int(used[i]) for i in order if used[i]}

    def rgb(self) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The picture as its blocks show it: ``(height, width, 3)`` uint8, each pixel its
        block's colour (white where transparent)."""
        table = np.array([(255, 255, 255), *(self.colours[b] for b in self.palette[1:])],
                         dtype=np.uint8)  # fmt: skip
        out: np.ndarray[Any, np.dtype[np.uint8]] = table[self.pixels]
        return out

    def __repr__(self) -> str:
        sx, sy, sz = self.size
        rows, columns = self.pixels.shape
        return (f"<PixelArt of {rows}x{columns} pixels: {self.count:,} blocks of "
                f"{len(self.palette) - 1} kinds in {sx}x{sy}x{sz} at {self.origin}>")  # fmt: skip


def pixel_art(
    image: Any,
    origin: Sequence[int],
    *,
    palette: str | Sequence[str] | Mapping[str, Sequence[int]] = FAMILIES,
    plane: str = "wall",
    along: str = "x",
) -> PixelArt:
    """A picture made of blocks: each pixel of ``image`` (a numpy array, ``(height, width,
    3)`` of uint8 RGB; with a fourth channel, a pixel of alpha under 128 leaves the world as
    it is) becomes the block of ``palette`` nearest its colour.

    ``palette``: ``"wool"``, ``"concrete"``, ``"terracotta"`` or several (all three unless
    told), or ``{block: (r, g, b)}`` of your own. ``origin`` is the box's lowest corner.
    ``plane="wall"`` stands the picture up, its bottom row at ``origin``'s y and its columns
    along ``along`` (``"x"``: to the east, ``"z"``: to the south); ``plane="ground"`` lays it
    flat at ``origin``'s y as a map shows it (north up): its columns to the east and its top
    row to the north with ``along="x"``, its columns to the south and its top row to the east
    with ``along="z"``.

    Raises:
        InvalidArgument: ``image`` is not such an array (the message says what to pass), or
            ``origin``, ``palette``, ``plane`` or ``along`` is not one it takes, or the box is
            over MAX_SHAPE_BLOCKS.
    """
    pixels = _image(image)
    corner = _point(origin, "origin")
    if plane not in _PLANES:
        raise InvalidArgument("plane", plane, "is not a plane", "plane='wall' or plane='ground'")
    if along not in _ALONG:
        raise InvalidArgument("along", along, "is not an axis", "along='x' or along='z'")
    colours = _palette_colours(palette)
    rows, columns = int(pixels.shape[0]), int(pixels.shape[1])
    _fits(rows, columns, 1)
    names = list(colours)
    table = np.array([colours[b] for b in names], dtype=np.int32)
    nearest = np.empty((rows, columns), dtype=np.int64)  # [row, column] into names
    step = max(1, _NEAREST_CELLS // (columns * len(names)))  # rows at a time: bounded memory
    for top in range(0, rows, step):
        rgb = pixels[top : top + step, :, :3].astype(np.int32)
        distance = ((rgb[:, :, None, :] - table[None, None, :, :]) ** 2).sum(axis=3)
        nearest[top : top + step] = distance.argmin(axis=2)  # the first of equals: stable
    opaque = pixels[:, :, 3] >= _OPAQUE if pixels.shape[2] == 4 else np.ones_like(nearest, bool)
    used = np.unique(nearest[opaque])
    index = np.zeros(len(names), dtype=np.int64)
    index[used] = np.arange(1, len(used) + 1)
    cells = np.where(opaque, index[nearest], 0).astype(np.uint8)  # [row, column]
    up = cells[::-1, :]  # [height from the bottom, column]
    if plane == "wall":
        grid = up.T[:, :, None] if along == "x" else up[None, :, :]  # [x, y, z]
    else:
        grid = cells.T[:, None, :] if along == "x" else up[:, None, :]
    return PixelArt(corner, np.ascontiguousarray(grid), (KEEP, *(names[i] for i in used)),
                    pixels, cells, dict(colours))  # fmt: skip
