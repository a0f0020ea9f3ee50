"""The simulated world's state: plain, mutable dataclasses that tests may inspect and edit.

Nothing here knows about commands, WebSockets or JavaScript; the command interpreter and the
script host both read and write these objects, so an edit made from Python (``world.players``)
is what the next command or capability sees.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from .facts import HEIGHT_RANGES, SIMULATION_DISTANCE_CHUNKS, default_states
from .terrain import Terrain

__all__ = [
    "AIR",
    "EQUIPMENT_SLOTS",
    "INVENTORY_SIZE",
    "BlockKey",
    "ChatLine",
    "Enchantment",
    "Entity",
    "ItemStack",
    "Objective",
    "Player",
    "Vec3",
    "WorldState",
    "display_name",
]

INVENTORY_SIZE = 36  # a player's container: 9 hotbar + 27 storage slots, as in the game
EQUIPMENT_SLOTS = ("Head", "Chest", "Legs", "Feet", "Offhand")
AIR = "minecraft:air"
BlockKey = tuple[str, int, int, int]  # dimension, x, y, z

# Unique ids in the game are signed 64-bit numbers; players get negative ones in captures.
_ids = itertools.count(1)


def _next_id() -> str:
    return str(-4294967295 - next(_ids))


def display_name(type_id: str) -> str:
    """``minecraft:diamond_sword`` -> ``Diamond Sword`` (the game localises; we title-case)."""
    return type_id.split(":")[-1].replace("_", " ").title()


@dataclass
class Vec3:
    """A position (or a vector) in blocks: x and z horizontal, y up."""

    x: float
    y: float
    z: float

    def to_dict(self) -> dict[str, float]:
        """``{"x": .., "y": .., "z": ..}``, the Script API's Vector3 shape."""
        return {"x": self.x, "y": self.y, "z": self.z}

    def distance2(self, other: Vec3) -> float:
        """The squared distance to ``other`` (selectors compare it with ``r`` squared)."""
        return (self.x - other.x) ** 2 + (self.y - other.y) ** 2 + (self.z - other.z) ** 2


@dataclass
class Enchantment:
    """One enchantment on an item: its type and level."""

    type_id: str  # e.g. "sharpness" (the Script API drops the namespace)
    level: int


@dataclass
class ItemStack:
    """A stack in a slot: item id, amount, custom name, lore, enchantments, wear."""

    type_id: str
    amount: int = 1
    name_tag: str | None = None
    lore: list[str] = field(default_factory=list)
    enchantments: list[Enchantment] = field(default_factory=list)
    damage: int = 0
    max_durability: int = 0  # 0: the item has no durability component
    data: int = 0  # the legacy aux value that `clear <item> <data>` matches
    max_amount: int = 64

    def to_js(self) -> dict[str, Any]:
        """The shape the script shim builds its ItemStack from."""
        return {
            "typeId": self.type_id,
            "amount": self.amount,
            "nameTag": self.name_tag,
            "lore": list(self.lore),
            "enchantments": [{"type": e.type_id, "level": e.level} for e in self.enchantments],
            "damage": self.damage,
            "maxDurability": self.max_durability,
            "maxAmount": self.max_amount,
        }


@dataclass
class Entity:
    """A mob or other entity of the simulated world (:class:`Player` for players)."""

    type_id: str
    location: Vec3
    dimension: str = "overworld"
    name_tag: str = ""
    tags: set[str] = field(default_factory=set)
    health: float = 20.0
    max_health: float = 20.0
    yaw: float = 0.0
    pitch: float = 0.0
    id: str = field(default_factory=_next_id)

    @property
    def name(self) -> str:
        """What the game calls it: its name tag, else its type's display name."""
        return self.name_tag or display_name(self.type_id)

    @property
    def is_player(self) -> bool:
        """False: an entity that is not a player."""
        return False


@dataclass
class Player(Entity):
    """A player: an entity with a name, game mode, experience, inventory and equipment,
    and the ``inbox`` of everything it has been shown."""

    player_name: str = ""
    game_mode: str = "survival"
    xp_level: int = 0
    xp_points: int = 0
    selected_slot: int = 0
    inventory: list[ItemStack | None] = field(
        default_factory=lambda: [None] * INVENTORY_SIZE, repr=False
    )
    equipment: dict[str, ItemStack | None] = field(
        default_factory=lambda: dict.fromkeys(EQUIPMENT_SLOTS), repr=False
    )
    simulated: bool = False  # created by spawnSimulatedPlayer (the bridge player)
    inbox: list[str] = field(
        default_factory=list, repr=False
    )  # everything this player has been shown

    @property
    def name(self) -> str:
        """The player's name (selectors and commands match it case-insensitively)."""
        return self.player_name

    @property
    def is_player(self) -> bool:
        """True: a player."""
        return True


@dataclass
class Objective:
    """A scoreboard objective and every participant's score in it."""

    name: str
    display_name: str
    criteria: str = "dummy"
    scores: dict[str, int] = field(default_factory=dict)  # participant name -> score


@dataclass(frozen=True)
class ChatLine:
    """One chat event as the game reports it to a WebSocket subscriber (PlayerMessage)."""

    sender: str
    message: str
    type: str  # chat | tell | say | me | title | tellraw
    receiver: str = ""


@dataclass
class WorldState:
    """Everything the simulated game knows: players, entities, scoreboard, edited blocks on
    top of the terrain, time, weather, and who typed /connect. Commands and the script host
    both read and change this one object."""

    players: dict[str, Player] = field(default_factory=dict)
    entities: list[Entity] = field(default_factory=list)
    objectives: dict[str, Objective] = field(default_factory=dict)
    # Blocks changed on top of the terrain (setblock, fill, clone, or an edit from Python):
    # block ids, air included; the states of those placed with explicit ones.
    blocks: dict[BlockKey, str] = field(default_factory=dict)
    block_states: dict[BlockKey, dict[str, Any]] = field(default_factory=dict)
    terrain: Terrain | None = None  # the overworld's generated blocks; None: air everywhere
    simulation_distance: int = SIMULATION_DISTANCE_CHUNKS  # chunks loaded around each player
    time_of_day: int = 1000  # ticks into the 24000-tick day ("day" is 1000)
    absolute_time: int = 0
    weather: str = "clear"
    max_players: int = 10
    local_player: str = "Steve"  # the player who typed /connect: @s for WebSocket commands
    _edit_index: dict[tuple[str, int, int, int], set[BlockKey]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _index_of: dict[BlockKey, str] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _indexed: int = field(default=-1, init=False, repr=False, compare=False)
    _edits: int = field(default=0, init=False, repr=False, compare=False)

    def all_entities(self) -> list[Entity]:
        """Players first, then the other entities (the order selectors start from)."""
        return [*self.players.values(), *self.entities]

    def find_player(self, name: str) -> Player | None:
        """The player called ``name`` (any case), or None."""
        wanted = name.lower()
        return next((p for p in self.players.values() if p.name.lower() == wanted), None)

    def add_player(self, player: Player) -> Player:
        """Put ``player`` in the world under its name (replacing one of the same name)."""
        self.players[player.name] = player
        return player

    def remove_entity(self, entity: Entity) -> None:
        """Take ``entity`` (a player or not) out of the world; nothing if it is not in it."""
        if isinstance(entity, Player):
            self.players.pop(entity.name, None)
        elif entity in self.entities:
            self.entities.remove(entity)

    # --- blocks -------------------------------------------------------------------------
    @staticmethod
    def height_range(dimension: str) -> tuple[int, int]:
        """The dimension's ``[min, max)`` block heights, as ``Dimension.heightRange``."""
        return HEIGHT_RANGES.get(dimension, HEIGHT_RANGES["overworld"])

    def in_height_range(self, dimension: str, y: int) -> bool:
        """Whether height ``y`` is inside the dimension's :meth:`height_range`."""
        low, high = self.height_range(dimension)
        return low <= y < high

    def loaded_chunks(self, dimension: str) -> set[tuple[int, int]]:
        """The chunks (x, z) within the simulation distance of a player in the dimension."""
        reach = self.simulation_distance
        loaded: set[tuple[int, int]] = set()
        for player in self.players.values():
            if player.dimension != dimension:
                continue
            pcx = math.floor(player.location.x) >> 4
            pcz = math.floor(player.location.z) >> 4
            for dx in range(-reach, reach + 1):
                for dz in range(-reach, reach + 1):
                    if dx * dx + dz * dz <= reach * reach:
                        loaded.add((pcx + dx, pcz + dz))
        return loaded

    def blocks_version(self) -> str:
        """Changes whenever a block or the set of loaded chunks may have: what a reader's
        cache of sections is checked against."""
        where = sorted(
            (p.dimension, math.floor(p.location.x) >> 4, math.floor(p.location.z) >> 4)
            for p in self.players.values()
        )
        return (
            f"{self._edits}:{len(self.blocks)}:{id(self.blocks)}:{self.simulation_distance}:{where}"
        )

    def is_loaded(self, dimension: str, x: int, z: int) -> bool:
        """Whether the chunk of column x, z is within a player's simulation distance."""
        return (x >> 4, z >> 4) in self.loaded_chunks(dimension)

    def box_loaded(self, dimension: str, low: tuple[int, int], high: tuple[int, int]) -> bool:
        """Whether every chunk of the columns ``low``..``high`` (x, z, inclusive) is loaded."""
        loaded = self.loaded_chunks(dimension)
        return all(
            (cx, cz) in loaded
            for cx in range(low[0] >> 4, (high[0] >> 4) + 1)
            for cz in range(low[1] >> 4, (high[1] >> 4) + 1)
        )

    def _generated(self, dimension: str, x: int, y: int, z: int) -> str:
        if dimension == "overworld" and self.terrain is not None:
            return self.terrain.block(x, y, z)
        return AIR

    def block(self, dimension: str, x: int, y: int, z: int) -> str:
        """The block id at a position inside the height range (loaded or not: callers that
        play the game check :meth:`is_loaded` first)."""
        edited = self.blocks.get((dimension, x, y, z))
        return edited if edited is not None else self._generated(dimension, x, y, z)

    def states(self, dimension: str, x: int, y: int, z: int) -> dict[str, Any]:
        """The block's states: as placed, or the block type's defaults."""
        key = (dimension, x, y, z)
        placed = self.block_states.get(key)
        return dict(placed) if placed is not None else default_states(self.block(*key))

    def section_blocks(self, dimension: str, cx: int, sy: int, cz: int) -> list[str]:
        """The 4096 block ids of a section (x fastest, then z, then y), edits included."""
        if dimension == "overworld" and self.terrain is not None:
            blocks = list(self.terrain.section(cx, sy, cz))
        else:
            blocks = [AIR] * 4096
        for key in self._edits_in(dimension, cx, sy, cz):
            _, x, y, z = key
            blocks[((y & 15) * 16 + (z & 15)) * 16 + (x & 15)] = self.blocks[key]
        return blocks

    def _edits_in(self, dimension: str, cx: int, sy: int, cz: int) -> list[BlockKey]:
        """The edited positions in a section, from an index kept beside ``blocks`` (rebuilt
        when ``blocks`` was replaced or changed size behind :meth:`set_block`'s back)."""
        self._index_current()
        found = self._edit_index.get((dimension, cx, sy, cz), ())
        return [key for key in found if key in self.blocks]

    def _index_current(self) -> None:
        """Rebuild the index of edits by section when ``blocks`` was replaced or changed size
        behind :meth:`set_block`'s back."""
        if self._index_of is not self.blocks or self._indexed != len(self.blocks):
            self._edit_index = {}
            for key in self.blocks:
                self._edit_index.setdefault(_section_of(key), set()).add(key)
            self._index_of, self._indexed = self.blocks, len(self.blocks)

    def set_block(
        self,
        dimension: str,
        x: int,
        y: int,
        z: int,
        block: str,
        states: dict[str, Any] | None = None,
    ) -> None:
        """Place ``block`` (with ``states``, else its defaults) at a position; placing what
        the terrain has there anyway keeps no edit."""
        key = (dimension, x, y, z)
        self.block_states.pop(key, None)
        explicit = bool(states) and states != default_states(block)
        if explicit:
            self.block_states[key] = dict(states or {})
        self._edits += 1
        self._index_current()  # a write of 32,768 blocks once spent 6 s listing sections
        if block == self._generated(*key) and not explicit:
            self.blocks.pop(key, None)  # back to what the world made: no edit to keep
        else:
            self.blocks[key] = block
            self._edit_index.setdefault(_section_of(key), set()).add(key)
        self._indexed = len(self.blocks)


def _section_of(key: BlockKey) -> tuple[str, int, int, int]:
    return key[0], key[1] >> 4, key[2] >> 4, key[3] >> 4
