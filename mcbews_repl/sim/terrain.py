"""The simulated overworld's terrain: a small, seeded block world generated on demand.

Enough of a world to analyse, nothing more: rolling hills of grass over dirt and stone, lakes
and seas up to sea level (y 62) over sand and gravel, deepslate below y 0 (mixed with stone
up to y 7), a bedrock floor at y -64 (ragged up to -60), ore veins whose depths follow the
game's familiar pattern (coal high, diamonds and redstone deep), worm-like caves that turn to
lava below y -55, and oak trees. Around the spawn (0, 0) the ground is flat at y 63 for 20
blocks, so the default world's players and mobs stand on it.

Everything is a pure function of the seed and the position: the same seed gives the same
world on every machine and every run (integer hashing and ``random.Random`` seeded per
chunk or section, never Python's salted ``hash()``). Blocks are generated one 16x16x16
section at a time, in the wire order of ``get_blocks`` (x fastest, then z, then y), and kept
in a bounded cache. Only the overworld has terrain; edits (``setblock``, ``fill``, ...)
live in :class:`~mcbews_repl.sim.model.WorldState` on top of it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .terrain_features import AIR, DEEPSLATE, SEA_LEVEL, STONE, Caves, Lru, Trees, mix, place_ores

__all__ = ["SEA_LEVEL", "SECTION", "SPAWN_HEIGHT", "Terrain", "mix"]

SECTION = 16  # blocks along each side of a section; a chunk is 16 x 16 columns
SPAWN_HEIGHT = 63  # the flat ground around the spawn: players at y 64 stand on it
_SPAWN_FLAT_BLOCKS = 20  # flat within this distance of the spawn ...
_SPAWN_BLEND_BLOCKS = 16  # ... then blending into the hills over this distance
_BEDROCK_FLOOR = -64
_DEEPSLATE_TOP = 8  # below 0 all deepslate; 0..7 a mix thinning upwards
_FILLER_DEPTH = 3  # dirt (or sand, gravel) under the top block
_SECTIONS_CACHED = 1024  # about 32 MB of references at most
_CHUNKS_CACHED = 4096

BEDROCK = "minecraft:bedrock"
GRASS, DIRT, SAND, GRAVEL, WATER = (
    "minecraft:grass_block", "minecraft:dirt", "minecraft:sand", "minecraft:gravel",
    "minecraft:water")  # fmt: skip


def _unit(*values: int) -> float:
    return mix(*values) / 4294967296.0


def _smooth(t: float) -> float:
    return t * t * (3.0 - 2.0 * t)


class Terrain:
    """The blocks of a seeded overworld. ``block`` and ``section`` never fail for a y inside
    the overworld's height range; checking that range is the caller's business."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._caves = Caves(seed)
        self._trees = Trees(seed, self.surface)
        self._heights: Lru[tuple[int, int], list[int]] = Lru(_CHUNKS_CACHED)
        self._sections: Lru[tuple[int, int, int], list[str]] = Lru(_SECTIONS_CACHED)

    def __repr__(self) -> str:
        return f"Terrain(seed={self.seed})"

    # --- the surface ----------------------------------------------------------------
    def surface(self, x: int, z: int) -> int:
        """The y of the top solid block of the column (before edits)."""
        heights = self._heights.get_or_make((x >> 4, z >> 4), lambda: self._chunk_heights(x, z))
        return heights[(z & 15) * SECTION + (x & 15)]

    def _chunk_heights(self, x: int, z: int) -> list[int]:
        x0, z0 = x & ~15, z & ~15
        return [self._height(x0 + i % 16, z0 + i // 16) for i in range(SECTION * SECTION)]

    def _noise(self, x: int, z: int, cell: int, salt: int) -> float:
        """Value noise in [0, 1): hashed lattice corners every ``cell`` blocks, smoothed."""
        gx, fx = divmod(x, cell)
        gz, fz = divmod(z, cell)
        tx, tz = _smooth(fx / cell), _smooth(fz / cell)
        a, b = _unit(self.seed, salt, gx, gz), _unit(self.seed, salt, gx + 1, gz)
        c, d = _unit(self.seed, salt, gx, gz + 1), _unit(self.seed, salt, gx + 1, gz + 1)
        return (a + (b - a) * tx) * (1 - tz) + (c + (d - c) * tx) * tz

    def _height(self, x: int, z: int) -> int:
        hills = 67 + 28 * (self._noise(x, z, 48, 1) - 0.5) + 10 * (self._noise(x, z, 16, 2) - 0.5)
        away = math.hypot(x, z) - _SPAWN_FLAT_BLOCKS
        weight = min(max(away / _SPAWN_BLEND_BLOCKS, 0.0), 1.0)
        return round(SPAWN_HEIGHT + (hills - SPAWN_HEIGHT) * weight)

    # --- blocks ---------------------------------------------------------------------
    def block(self, x: int, y: int, z: int) -> str:
        """The generated block id at x, y, z (from its section, built once and kept)."""
        section = self.section(x >> 4, y >> 4, z >> 4)
        return section[((y & 15) * SECTION + (z & 15)) * SECTION + (x & 15)]

    def section(self, cx: int, sy: int, cz: int) -> Sequence[str]:
        """The 4096 block ids of one section, x fastest, then z, then y."""
        return self._sections.get_or_make((cx, sy, cz), lambda: self._generate(cx, sy, cz))

    def _generate(self, cx: int, sy: int, cz: int) -> list[str]:
        blocks = [AIR] * SECTION**3
        x0, y0, z0 = cx * SECTION, sy * SECTION, cz * SECTION
        for i in range(SECTION * SECTION):
            x, z = x0 + (i & 15), z0 + (i >> 4)
            h = self.surface(x, z)
            if y0 > max(h, SEA_LEVEL):
                continue  # only air here
            blocks[i :: SECTION * SECTION] = [self._layer(x, y, z, h) for y in range(y0, y0 + 16)]
        origin = (x0, y0, z0)
        place_ores(blocks, origin, random.Random(mix(self.seed, 3, cx, sy, cz)))
        self._caves.carve(blocks, origin, self.surface)
        self._trees.plant(blocks, origin)
        return blocks

    def _layer(self, x: int, y: int, z: int, h: int) -> str:
        """The block of a column of surface ``h`` at ``y``, before ores, caves and trees."""
        if y > h:
            return WATER if y <= SEA_LEVEL else AIR
        if y == _BEDROCK_FLOOR or (
            y < _BEDROCK_FLOOR + 5 and _unit(self.seed, 4, x, y, z) * 5 < _BEDROCK_FLOOR + 5 - y
        ):
            return BEDROCK
        if y > h - 1 - _FILLER_DEPTH:
            return self._cover(y == h, h)
        if y < 0 or (y < _DEEPSLATE_TOP and _unit(self.seed, 5, x, y, z) * 9 < _DEEPSLATE_TOP - y):
            return DEEPSLATE
        return STONE

    @staticmethod
    def _cover(top: bool, h: int) -> str:
        """Grass over dirt on land, sand on the shore and shallow beds, gravel deeper."""
        if h > SEA_LEVEL:
            return GRASS if top else DIRT
        return SAND if h >= SEA_LEVEL - 4 else GRAVEL
