"""The simulated world's state: plain, mutable dataclasses that tests may inspect and edit.

Nothing here knows about commands, WebSockets or JavaScript; the command interpreter and the
script host both read and write these objects, so an edit made from Python (``world.players``)
is what the next command or capability sees.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "EQUIPMENT_SLOTS",
    "INVENTORY_SIZE",
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

# Unique ids in the game are signed 64-bit numbers; players get negative ones in captures.
_ids = itertools.count(1)


def _next_id() -> str:
    return str(-4294967295 - next(_ids))


def display_name(type_id: str) -> str:
    """``minecraft:diamond_sword`` -> ``Diamond Sword`` (the game localises; we title-case)."""
    return type_id.split(":")[-1].replace("_", " ").title()


@dataclass
class Vec3:
    x: float
    y: float
    z: float

    def to_dict(self) -> dict[str, float]:
        return {"x": self.x, "y": self.y, "z": self.z}

    def distance2(self, other: Vec3) -> float:
        return (self.x - other.x) ** 2 + (self.y - other.y) ** 2 + (self.z - other.z) ** 2


@dataclass
class Enchantment:
    type_id: str  # e.g. "sharpness" (the Script API drops the namespace)
    level: int


@dataclass
class ItemStack:
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
        return self.name_tag or display_name(self.type_id)

    @property
    def is_player(self) -> bool:
        return False


@dataclass
class Player(Entity):
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
        return self.player_name

    @property
    def is_player(self) -> bool:
        return True


@dataclass
class Objective:
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
    players: dict[str, Player] = field(default_factory=dict)
    entities: list[Entity] = field(default_factory=list)
    objectives: dict[str, Objective] = field(default_factory=dict)
    blocks: dict[tuple[str, int, int, int], str] = field(default_factory=dict)
    time_of_day: int = 1000  # ticks into the 24000-tick day ("day" is 1000)
    absolute_time: int = 0
    weather: str = "clear"
    max_players: int = 10
    local_player: str = "Steve"  # the player who typed /connect: @s for WebSocket commands

    def all_entities(self) -> list[Entity]:
        return [*self.players.values(), *self.entities]

    def find_player(self, name: str) -> Player | None:
        wanted = name.lower()
        return next((p for p in self.players.values() if p.name.lower() == wanted), None)

    def block(self, dimension: str, x: int, y: int, z: int) -> str:
        return self.blocks.get((dimension, x, y, z), "minecraft:air")

    def add_player(self, player: Player) -> Player:
        self.players[player.name] = player
        return player

    def remove_entity(self, entity: Entity) -> None:
        if isinstance(entity, Player):
            self.players.pop(entity.name, None)
        elif entity in self.entities:
            self.entities.remove(entity)
