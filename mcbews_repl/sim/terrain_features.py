"""What the simulated terrain puts into its layers: ore veins, caves and trees.

Each feature works on one 16x16x16 section at a time (a list of 4096 ids, x fastest, then
z, then y) and depends only on the seed and positions, so sections can be generated in any
order and always agree at their borders: an ore vein stays inside its section, a tree inside
its chunk, and a cave (a chain of spheres started in one chunk, never reaching more than two
chunks away) is carved by every section it touches.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "AIR",
    "DEEPSLATE",
    "LAVA",
    "LAVA_LEVEL",
    "ORES",
    "SEA_LEVEL",
    "STONE",
    "Caves",
    "Lru",
    "Ore",
    "Trees",
    "mix",
    "place_ores",
]

AIR, STONE, DEEPSLATE, LAVA = (
    "minecraft:air", "minecraft:stone", "minecraft:deepslate", "minecraft:lava")  # fmt: skip
LOG, LEAVES = "minecraft:oak_log", "minecraft:oak_leaves"
SEA_LEVEL = 62  # water fills every column up to here, as in the game's overworld
LAVA_LEVEL = -55  # caves at or below this y hold lava instead of air, as the game's do
_CAVE_REACH_CHUNKS = 2  # a cave never reaches further than this from its starting chunk
_CAVE_MAX_STEPS = 26  # with radius <= 3.2: at most 29.2 blocks from the start, < 2 chunks
_CAVE_BELOW_SURFACE = 5  # caves stay this far under the surface: no holes in the ground
_TREE_FREE_RADIUS = 28  # no trees this close to the spawn
_SIDE = 16
_LAYER = _SIDE * _SIDE

_K = TypeVar("_K")
_V = TypeVar("_V")
Surface = Callable[[int, int], int]


def mix(*values: int) -> int:
    """A 32-bit hash of integers, the same on every run and platform."""
    h = 0x9E3779B9
    for value in values:
        h = (h ^ (value & 0xFFFFFFFF)) * 0x85EBCA6B & 0xFFFFFFFF
        h ^= h >> 13
        h = h * 0xC2B2AE35 & 0xFFFFFFFF
        h ^= h >> 16
    return h


class Lru(OrderedDict[_K, _V]):
    """A dict that forgets its least recently used entries beyond ``capacity``."""

    def __init__(self, capacity: int) -> None:
        super().__init__()
        self.capacity = capacity

    def __reduce__(self) -> Any:
        # OrderedDict rebuilds a subclass by calling it with no arguments; pass the capacity so
        # a world holding one can be copied (copy.deepcopy) like the rest of WorldState.
        return (type(self), (self.capacity,), None, None, iter(self.items()))

    def get_or_make(self, key: _K, make: Callable[[], _V]) -> _V:
        """The value for ``key``, made with ``make()`` and kept if absent (the least
        recently used one goes past the capacity).
        """
        value = self.get(key)
        if value is None:
            value = self[key] = make()
            if len(self) > self.capacity:
                self.popitem(last=False)
        else:
            self.move_to_end(key)
        return value


def _index(x: int, y: int, z: int) -> int:
    return ((y & 15) * _SIDE + (z & 15)) * _SIDE + (x & 15)


# --- ores ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ore:
    """Veins of one ore: most common at ``peak``, none outside ``low``..``high``."""

    name: str
    low: int
    high: int
    peak: int
    veins: float  # veins per section at the peak depth
    sizes: tuple[int, int]  # blocks per vein

    def weight(self, y: int) -> float:
        """How likely a vein is at height ``y``: 0 outside the ore's range, 1 at its peak."""
        if not self.low <= y <= self.high:
            return 0.0
        if y <= self.peak:
            return 1.0 if self.peak == self.low else (y - self.low) / (self.peak - self.low)
        return (self.high - y) / (self.high - self.peak)


# The shape of the game's ore distribution (coal high, iron and copper in the middle,
# redstone and diamonds deepest), not its exact numbers.
ORES = (
    Ore("coal", 0, 192, 96, 6.0, (4, 12)),
    Ore("copper", -16, 112, 48, 4.0, (3, 9)),
    Ore("iron", -24, 80, 16, 4.0, (3, 9)),
    Ore("lapis", -64, 64, 0, 1.0, (2, 6)),
    Ore("gold", -64, 32, -16, 1.5, (2, 7)),
    Ore("redstone", -64, 16, -64, 3.0, (2, 7)),
    Ore("diamond", -64, 16, -64, 1.5, (1, 6)),
)
_HOST_ROCK = {STONE: "minecraft:{}_ore", DEEPSLATE: "minecraft:deepslate_{}_ore"}


def place_ores(blocks: list[str], origin: tuple[int, int, int], rng: random.Random) -> None:
    """Scatter ore veins through the stone and deepslate of one section."""
    y0 = origin[1]
    for ore in ORES:
        attempts = int(ore.veins) + (rng.random() < ore.veins % 1)
        for _ in range(attempts):
            x, y, z = rng.randrange(_SIDE), rng.randrange(_SIDE), rng.randrange(_SIDE)
            if rng.random() >= ore.weight(y0 + y):
                continue
            for _ in range(rng.randint(*ore.sizes)):
                i = (y * _SIDE + z) * _SIDE + x
                pattern = _HOST_ROCK.get(blocks[i])
                if pattern is not None:
                    blocks[i] = pattern.format(ore.name)
                axis, step = rng.randrange(3), rng.choice((-1, 1))
                x, y, z = (min(max(v + step * (axis == k), 0), _SIDE - 1)
                           for k, v in enumerate((x, y, z)))  # fmt: skip


# --- caves --------------------------------------------------------------------------------
Sphere = tuple[float, float, float, float]  # centre x, y, z and radius


class Caves:
    """Worm caves: from each chunk, zero to two chains of overlapping spheres."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._worms: Lru[tuple[int, int], list[Sphere]] = Lru(4096)

    def _chunk_worms(self, cx: int, cz: int) -> list[Sphere]:
        rng = random.Random(mix(self.seed, 7, cx, cz))
        spheres: list[Sphere] = []
        for _ in range(rng.choice((0, 1, 1, 2))):
            x, z = cx * 16 + rng.random() * 16, cz * 16 + rng.random() * 16
            y, radius = rng.uniform(-58.0, 40.0), rng.uniform(1.6, 2.8)
            yaw, pitch = rng.uniform(0, math.tau), rng.uniform(-0.3, 0.3)
            for _ in range(rng.randint(12, _CAVE_MAX_STEPS)):
                spheres.append((x, y, z, radius))
                x += math.cos(yaw) * math.cos(pitch)
                z += math.sin(yaw) * math.cos(pitch)
                y += math.sin(pitch)
                yaw += rng.uniform(-0.4, 0.4)
                pitch = min(max(pitch + rng.uniform(-0.15, 0.15), -0.5), 0.5)
                radius = min(max(radius + rng.uniform(-0.25, 0.25), 1.4), 3.2)
        return spheres

    def worms(self, cx: int, cz: int) -> list[Sphere]:
        """The spheres of the caves that start in chunk ``cx, cz``."""
        return self._worms.get_or_make((cx, cz), lambda: self._chunk_worms(cx, cz))

    def carve(self, blocks: list[str], origin: tuple[int, int, int], surface: Surface) -> None:
        """Carve into a section's ``blocks`` the caves of the chunks around it that reach it."""
        cx, cz = origin[0] >> 4, origin[2] >> 4
        reach = range(-_CAVE_REACH_CHUNKS, _CAVE_REACH_CHUNKS + 1)
        for dx in reach:
            for dz in reach:
                for sphere in self.worms(cx + dx, cz + dz):
                    if _touches(sphere, origin):
                        _carve_sphere(blocks, origin, sphere, surface)


def _touches(sphere: Sphere, origin: tuple[int, int, int]) -> bool:
    x, y, z, r = sphere
    return all(o - r <= c < o + _SIDE + r for c, o in zip((x, y, z), origin, strict=True))


def _carve_sphere(
    blocks: list[str], origin: tuple[int, int, int], sphere: Sphere, surface: Surface
) -> None:
    x0, y0, z0 = origin
    sx, sy, sz, r = sphere

    def span(centre: float, start: int) -> range:
        return range(
            max(start, math.ceil(centre - r)), min(start + _SIDE, math.floor(centre + r) + 1)
        )

    for y in span(sy, y0):
        if y <= -63:
            continue  # keep the bedrock floor whole
        for z in span(sz, z0):
            for x in span(sx, x0):
                if (x - sx) ** 2 + (y - sy) ** 2 + (z - sz) ** 2 > r * r:
                    continue
                i = _index(x, y, z)
                rock = blocks[i]
                carvable = rock in _HOST_ROCK or rock.endswith("_ore") or rock == "minecraft:dirt"
                if carvable and y <= surface(x, z) - _CAVE_BELOW_SURFACE:
                    blocks[i] = LAVA if y <= LAVA_LEVEL else AIR


# --- trees --------------------------------------------------------------------------------
class Trees:
    """Oak trees on grass, kept inside their chunk (trunks 2..13 blocks from its edge)."""

    def __init__(self, seed: int, surface: Surface) -> None:
        self.seed = seed
        self.surface = surface
        self._chunks: Lru[tuple[int, int], dict[tuple[int, int, int], str]] = Lru(4096)

    def _chunk_trees(self, cx: int, cz: int) -> dict[tuple[int, int, int], str]:
        rng = random.Random(mix(self.seed, 11, cx, cz))
        placed: dict[tuple[int, int, int], str] = {}
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            x, z, height = (
                cx * 16 + rng.randint(2, 13),
                cz * 16 + rng.randint(2, 13),
                rng.randint(4, 5),
            )
            ground = self.surface(x, z)
            if ground <= SEA_LEVEL or math.hypot(x, z) < _TREE_FREE_RADIUS:
                continue  # on the shore, under water or at the spawn: no tree
            for dy, radius in ((height - 2, 2), (height - 1, 2), (height, 1), (height + 1, 1)):
                for dx in range(-radius, radius + 1):
                    for dz in range(-radius, radius + 1):
                        corner = abs(dx) == abs(dz) == radius
                        if corner and (radius == 2 or dy == height + 1):
                            continue  # rounded crowns
                        placed[(x + dx, ground + dy, z + dz)] = LEAVES
            for dy in range(1, height + 1):
                placed[(x, ground + dy, z)] = LOG
        return placed

    def plant(self, blocks: list[str], origin: tuple[int, int, int]) -> None:
        """Put into a section's ``blocks`` the trees of its chunk that reach it."""
        x0, y0, z0 = origin
        cx, cz = x0 >> 4, z0 >> 4
        trees = self._chunks.get_or_make((cx, cz), lambda: self._chunk_trees(cx, cz))
        for (x, y, z), block in trees.items():
            if y0 <= y < y0 + _SIDE and blocks[_index(x, y, z)] == AIR:
                blocks[_index(x, y, z)] = block
