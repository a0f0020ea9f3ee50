"""The shapes a block read works in: a box, one tile's answer, and the two unknown markers.

Shared by the reader (``blocks.py``) and the region it builds (``region.py``, which needs
numpy), so neither imports the other to get them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..exceptions import InvalidArgument
from .validate import COORDINATE_LIMIT

__all__ = ["OUT_OF_WORLD", "UNLOADED", "Box", "Tile", "states_key"]

UNLOADED = "<unloaded>"  # a position in a chunk that is not loaded: unknown, not air
OUT_OF_WORLD = "<out_of_world>"  # above or below the dimension's height range


@dataclass(frozen=True)
class Box:
    """Blocks from ``origin`` (the lowest corner) spanning ``size`` along x, y, z."""

    origin: tuple[int, int, int]
    size: tuple[int, int, int]

    @classmethod
    def between(cls, corner1: Sequence[int], corner2: Sequence[int]) -> Box:
        """The box with these two opposite corners, both inside it (like ``/fill``)."""
        a, b = _corner(corner1, "corner1"), _corner(corner2, "corner2")
        origin = (min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2]))
        return cls(origin, (abs(a[0] - b[0]) + 1, abs(a[1] - b[1]) + 1, abs(a[2] - b[2]) + 1))

    @property
    def volume(self) -> int:
        """How many positions the box holds."""
        return math.prod(self.size)

    @property
    def far(self) -> tuple[int, int, int]:
        """The corner opposite ``origin`` (the highest x, y, z inside the box)."""
        x, y, z = self.origin
        sx, sy, sz = self.size
        return x + sx - 1, y + sy - 1, z + sz - 1

    def chunks(self) -> int:
        """How many chunks (16x16 columns) the box touches."""
        (x0, _, z0), (x1, _, z1) = self.origin, self.far
        return ((x1 >> 4) - (x0 >> 4) + 1) * ((z1 >> 4) - (z0 >> 4) + 1)


def _corner(value: Sequence[int], argument: str) -> tuple[int, int, int]:
    how = f"{argument}=(x, y, z): whole numbers within ±{COORDINATE_LIMIT:,}"
    if isinstance(value, str | bytes) or len(value) != 3:
        raise InvalidArgument(argument, value, "is not three whole numbers", how)
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > COORDINATE_LIMIT:
            raise InvalidArgument(argument, value, "is not three whole numbers", how)
    return value[0], value[1], value[2]


@dataclass
class Tile:
    """One tile's answer: palette entries and the entry of each position, in reading order."""

    box: Box
    palette: list[str]
    states: list[dict[str, Any] | None]
    entries: list[int]  # len == box.volume once complete


def states_key(states: dict[str, Any] | None) -> str:
    """A block's states as one comparable string ("" for none): a palette key."""
    return "" if not states else json.dumps(states, sort_keys=True)
