"""A box of blocks as arrays: ``BlockRegion`` (what ``mc.blocks(...)`` returns).

``ids`` is a numpy array indexed ``[x, y, z]`` from ``origin`` holding indices into
``palette``. Positions nobody could read are palette entries of their own, ``<unloaded>``
and ``<out_of_world>``, in every view: counts, frames, heightmaps and pictures. numpy is
imported here, pandas and matplotlib only by the methods that need them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..gameids import short_id
from ..optional import needs
from .boxes import OUT_OF_WORLD, UNLOADED, Box, Tile, states_key

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["AIR", "UNKNOWN", "BlockRegion", "stitch"]

AIR = "minecraft:air"
UNKNOWN = (UNLOADED, OUT_OF_WORLD)


@dataclass(frozen=True, eq=False)
class BlockRegion:
    """The blocks of a box. ``ids[x, y, z]`` (relative to ``origin``) indexes ``palette``.

    With ``states=True`` reads, ``state_ids`` indexes ``state_palette``: one entry per block
    id and states, ``(block, {state: value})``.
    """

    origin: tuple[int, int, int]
    ids: np.ndarray[Any, np.dtype[np.uint16]]
    palette: tuple[str, ...]
    dimension: str = "minecraft:overworld"
    state_ids: np.ndarray[Any, np.dtype[np.uint16]] | None = None
    state_palette: tuple[tuple[str, dict[str, Any]], ...] | None = None
    requests: int = 0  # get_blocks requests the read took
    seconds: float = field(default=0.0, compare=False)

    # --- shape ----------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int, int]:
        """The box's extent along x, y, z."""
        sx, sy, sz = self.ids.shape
        return int(sx), int(sy), int(sz)

    @property
    def volume(self) -> int:
        """How many positions the box holds."""
        return int(self.ids.size)

    def block(self, x: int, y: int, z: int) -> str:
        """The block id at world position x, y, z (inside the box).

        Raises:
            IndexError: the position is outside the region.
        """
        ox, oy, oz = self.origin
        if not all(
            0 <= v - o < s for v, o, s in zip((x, y, z), self.origin, self.size, strict=True)
        ):
            raise IndexError(
                f"({x}, {y}, {z}) is outside the region at {self.origin} of {self.size}"
            )
        return self.palette[int(self.ids[x - ox, y - oy, z - oz])]

    def mask(self, *blocks: str) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """True where the block is one of ``blocks`` (``minecraft:`` may be left out)."""
        wanted = {b if ":" in b or b.startswith("<") else f"minecraft:{b}" for b in blocks}
        hits = np.array([p in wanted for p in self.palette], dtype=bool)
        found: np.ndarray[Any, np.dtype[np.bool_]] = hits[self.ids]
        return found

    @property
    def known(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """True where the block was read; False where it is unloaded or out of the world."""
        return ~self.mask(*UNKNOWN)

    # --- views ----------------------------------------------------------------------------
    def counts(self) -> pd.Series:
        """How many of each block (by its short name, as every table names blocks: ``stone``,
        ``mypack:ruby``), most first; unknown positions are counted as themselves."""
        with needs():
            import pandas as pd

        tally = np.bincount(self.ids.ravel(), minlength=len(self.palette))
        names = pd.Index([short_id(p) for p in self.palette], name="block")
        series = pd.Series(tally, index=names, name="count")
        return series[series > 0].sort_values(ascending=False, kind="stable")

    def to_frame(self, *, states: bool | None = None) -> pd.DataFrame:
        """One row per block: x, y, z (world coordinates), ``block`` (the short name) and
        ``blockId`` (the full id), and ``states`` (a dict) when the read asked for them.
        Rows go x fastest, then z, then y.

        Raises:
            ValueError: ``states=True`` for a region read without states.
            MissingDependency: pandas is not installed.
        """
        with needs():
            import pandas as pd

        sx, sy, sz = self.size
        y, z, x = np.meshgrid(np.arange(sy), np.arange(sz), np.arange(sx), indexing="ij")
        flat = self.ids.transpose(1, 2, 0).ravel().astype(np.int64)
        names = pd.Index([short_id(p) for p in self.palette])
        frame = pd.DataFrame({
            "x": (x.ravel() + self.origin[0]).astype(np.int64),
            "y": (y.ravel() + self.origin[1]).astype(np.int64),
            "z": (z.ravel() + self.origin[2]).astype(np.int64),
            "block": pd.Categorical.from_codes(flat, categories=names),
            "blockId": pd.Categorical.from_codes(flat, categories=pd.Index(list(self.palette))),
        })  # fmt: skip
        with_states = self.state_ids is not None if states is None else states
        if with_states:
            if self.state_ids is None or self.state_palette is None:
                raise ValueError("this region was read without states: mc.blocks(..., states=True)")
            entries = self.state_ids.transpose(1, 2, 0).ravel()
            given = [self.state_palette[int(e)][1] for e in entries]
            frame["states"] = pd.Series(given, index=frame.index, dtype=object)
        return frame

    def heightmap(self, ignore: Iterable[str] = ()) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The world y of the highest block that is not air in each column, as ``[x, z]``.

        ``nan`` where that is unknown (an unread position lies above every block found);
        ``-inf`` where the column holds only air (and whatever ``ignore`` names, such as
        ``minecraft:water`` for the sea floor).
        """
        empty = self.mask(AIR, *ignore)
        unknown = ~self.known
        solid = ~empty & ~unknown
        top_solid = _highest(solid)
        top_unknown = _highest(unknown)
        heights = np.where(top_solid >= 0, top_solid + self.origin[1], -np.inf).astype(float)
        heights[top_unknown > top_solid] = np.nan
        return heights

    def surface(self, ignore: Iterable[str] = ()) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The palette index of each column's top block as ``[x, z]`` (the heightmap's
        block); -1 where the column holds none, -2 where the top is unknown."""
        heights = self.heightmap(ignore)
        top = np.full(heights.shape, -1, dtype=np.int64)
        top[np.isnan(heights)] = -2
        found = np.isfinite(heights)
        xs, zs = np.nonzero(found)
        ys = (heights[found] - self.origin[1]).astype(np.int64)
        top[xs, zs] = self.ids[xs, ys, zs]
        return top

    def plot(self, *, z: int | None = None, ignore: Iterable[str] = ()) -> Figure:
        """A top-down map (each column's top block) beside a cross-section at world ``z``
        (default: the middle of the box). Needs matplotlib (``pip install mcbews-repl[lab]``)."""
        with needs():
            from .regionplot import plot_region

        return plot_region(self, z=z, ignore=tuple(ignore))

    def describe(self) -> str:
        """One line: the size, where, how many kinds of block and how many unknown."""
        sx, sy, sz = self.size
        unknown = int(self.volume - self.known.sum())
        kinds = len({p for p in self.palette if p not in UNKNOWN})
        where = short_id(self.dimension)
        return (f"{sx}x{sy}x{sz} blocks at {self.origin} in {where}: {kinds} kinds, "
                f"{unknown} unknown")  # fmt: skip

    def __repr__(self) -> str:
        return f"<BlockRegion {self.describe()}>"


def _highest(cells: np.ndarray[Any, np.dtype[np.bool_]]) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Per [x, z] column, the index along y of the highest True cell, or -1."""
    flipped = cells[:, ::-1, :]
    found = flipped.any(axis=1)
    index = cells.shape[1] - 1 - flipped.argmax(axis=1)
    return np.where(found, index, -1).astype(np.int64)


def stitch(box: Box, dimension: str, tiles: Sequence[Tile], states: bool, requests: int,
           seconds: float) -> BlockRegion:  # fmt: skip
    """One region from the tiles' answers: a shared palette, arrays indexed [x, y, z]."""
    palette: dict[str, int] = {}
    entries: dict[tuple[str, str], int] = {}
    state_palette: list[tuple[str, dict[str, Any]]] = []
    ids = np.zeros(box.size, dtype=np.uint16)
    state_ids = np.zeros(box.size, dtype=np.uint16) if states else None
    for tile in tiles:
        to_block = np.array([palette.setdefault(b, len(palette)) for b in tile.palette])
        flat = np.asarray(tile.entries, dtype=np.int64)
        where = _slices(box, tile.box)
        ids[where] = _as_xyz(to_block[flat], tile.box)
        if state_ids is not None:
            keys = [(b, states_key(s)) for b, s in zip(tile.palette, tile.states, strict=True)]
            for key, (block, given) in zip(keys, zip(tile.palette, tile.states, strict=True),
                                           strict=True):  # fmt: skip
                if key not in entries:
                    entries[key] = len(state_palette)
                    state_palette.append((block, dict(given or {})))
            to_entry = np.array([entries[k] for k in keys])
            state_ids[where] = _as_xyz(to_entry[flat], tile.box)
    return BlockRegion(box.origin, ids, tuple(palette), dimension, state_ids,
                       tuple(state_palette) if states else None, requests, seconds)  # fmt: skip


def _slices(box: Box, tile: Box) -> tuple[slice, slice, slice]:
    return tuple(  # type: ignore[return-value]
        slice(t - b, t - b + s) for t, b, s in zip(tile.origin, box.origin, tile.size, strict=True)
    )


def _as_xyz(flat: np.ndarray[Any, Any], tile: Box) -> np.ndarray[Any, Any]:
    """Reading order (x fastest, then z, then y) to an array indexed [x, y, z]."""
    sx, sy, sz = tile.size
    return flat.reshape(sy, sz, sx).transpose(2, 0, 1)
