"""A lively world, for demos: the simulated players act by themselves, at random.

Every game tick each player of the world (not the addon's simulated bridge player) may do
something, through the same doings a cell calls (doings.py): walk a few blocks (staying
near where they started), break the block on top of the ground next to them, place a block
there (what they hold when it is a block, else one of ``PLACED``), kill the nearest mob (or
one in front of them), get hurt (and now and then die), or eat. So a lively world sends
the game's events as those doings do: the connected client's own over the WebSocket, and
whatever the addon forwards.

``rate`` is doings a second of game time per player (20 ticks): each tick a player acts
``rate / 20`` times on average (whole doings, the rest as a chance). The choices come from
one ``random.Random`` seeded with the world's seed, and happen on the world's own ticks,
so a world on the manual clock acts the same way in every run (tests). Nothing is decided
from the wall clock.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .clock import TICKS_PER_SECOND
from .doings import FOODS
from .model import AIR, Player, Vec3

if TYPE_CHECKING:
    from .doings import PlayerDoings

__all__ = [
    "LIVELY_LOG_KEPT",
    "LIVELY_MAX_RATE",
    "LIVELY_RATE",
    "PLACED",
    "WANDER_BLOCKS",
    "Doing",
    "Lively",
]

# Doings a second per player when not told: a walk about every other second, a block
# broken every few, a mob now and then; a demo's map and tables fill within a minute.
LIVELY_RATE = 1.0
# At most ten doings a tick per player: enough for a flood (the events benchmark) and a
# bound on the work one tick can be given.
LIVELY_MAX_RATE = 10.0 * TICKS_PER_SECOND
# How far from where they started a player wanders (blocks, either way along x and z).
WANDER_BLOCKS = 16.0
# The latest doings kept, for a look at what the world did (``Lively.log``).
LIVELY_LOG_KEPT = 1000
# What a player places when they hold no block (something a player would build with).
PLACED = ("minecraft:cobblestone", "minecraft:oak_planks", "minecraft:torch",
          "minecraft:dirt", "minecraft:glass")  # fmt: skip
# Mobs a player meets when none stands near them.
MOBS = ("minecraft:zombie", "minecraft:skeleton", "minecraft:spider", "minecraft:creeper",
        "minecraft:cow", "minecraft:pig", "minecraft:sheep", "minecraft:chicken")  # fmt: skip
# How far a player looks for a mob of the world to fight (blocks).
_MOB_REACH_BLOCKS = 16.0
# What hurts, and how much (half hearts): mostly a scratch, now and then a death.
_HURTS = ("entity", "fall", "projectile", "fire", "drowning")
_DAMAGE = (1.0, 2.0, 3.0, 4.0, 6.0, 20.0)
# How far up and down a player looks for the ground beside them (blocks).
_GROUND_REACH = 4
# Each doing and how often it is chosen.
_WEIGHTS = {"walk": 45, "break": 20, "place": 12, "kill": 10, "hurt": 8, "eat": 5}
# Blocks a player never breaks (the game's unbreakable ones; water and lava are not blocks
# one breaks by hand).
_UNBREAKABLE = frozenset({"minecraft:bedrock", "minecraft:water", "minecraft:lava",
                          "minecraft:barrier", "minecraft:chest"})  # fmt: skip


@dataclass(frozen=True, slots=True)
class Doing:
    """One thing a player did: at which tick, who, what (walk, break ...), and a detail."""

    tick: int
    player: str
    doing: str
    detail: str


class Lively:
    """The lively mode of one world: off until turned on (``SimWorld.lively``)."""

    def __init__(self, world: PlayerDoings, seed: int = 0, rate: float = LIVELY_RATE) -> None:
        self._world = world
        self.on = False
        self.rate = check_rate(rate)
        self.players: frozenset[str] | None = None  # None: every player of the world
        self.rng = random.Random(f"lively:{seed}")
        self.done: Counter[str] = Counter()  # doings by kind, since made
        self.skipped = 0  # doings that found nothing to do (no ground beside, a full world)
        self.log: deque[Doing] = deque(maxlen=LIVELY_LOG_KEPT)
        self._homes: dict[str, Vec3] = {}
        self._acts: dict[str, Callable[[Player], str | None]] = {
            "walk": self._walk, "break": self._break, "place": self._place,
            "kill": self._kill, "hurt": self._hurt, "eat": self._eat,
        }  # fmt: skip

    def set(
        self, on: bool, rate: float | None = None, players: Iterable[str] | None = None
    ) -> None:
        """Turn it on or off; ``rate`` when given (else as it was), ``players`` who acts
        (None: everyone)."""
        chosen = None if players is None else frozenset(str(p) for p in players)
        unknown = sorted((chosen or frozenset()) - set(self._world.world.players))
        if unknown:
            raise ValueError(f"no player {', '.join(unknown)} in the simulated world")
        if rate is not None:
            self.rate = check_rate(rate)
        self.players = chosen
        self.on = bool(on)

    @property
    def doings(self) -> int:
        """How many doings so far."""
        return sum(self.done.values())

    # --- every tick ---------------------------------------------------------------------------

    def on_tick(self, tick: int) -> int | None:
        """The clock's listener: each player acts ``rate / 20`` times on average. Asks for no
        tick of its own (None), so a fast clock does not spin for it."""
        if not self.on:
            return None
        each = self.rate / TICKS_PER_SECOND
        for player in list(self._world.world.players.values()):
            if player.simulated or (self.players is not None and player.name not in self.players):
                continue
            times = int(each) + (self.rng.random() < each % 1)
            for _ in range(times):
                self._act(tick, player)
        return None

    def _act(self, tick: int, player: Player) -> None:
        self._homes.setdefault(player.name, player.location)
        doing = self.rng.choices(list(_WEIGHTS), weights=list(_WEIGHTS.values()))[0]
        try:
            detail = self._acts[doing](player)
        except ValueError:  # outside the world's height, an item without a known use ...
            detail = None
        if detail is None:
            self.skipped += 1
            return
        self.done[doing] += 1
        self.log.append(Doing(tick, player.name, doing, detail))

    # --- the doings ---------------------------------------------------------------------------

    def _ground(self, player: Player, x: int, z: int) -> int | None:
        """The y of the top block (not air) in column x, z near the player's feet."""
        feet = math.floor(player.location.y)
        for y in range(feet + _GROUND_REACH, feet - _GROUND_REACH - 1, -1):
            if self._world.world.block(player.dimension, x, y, z) != AIR:
                return y
        return None

    def _beside(self, player: Player) -> tuple[int, int]:
        """A column next to the player (never their own)."""
        here = player.location
        while True:
            dx, dz = self.rng.randint(-2, 2), self.rng.randint(-2, 2)
            if dx or dz:
                return math.floor(here.x) + dx, math.floor(here.z) + dz

    def _walk(self, player: Player) -> str | None:
        home, here = self._homes[player.name], player.location
        angle = self.rng.uniform(0, 2 * math.pi)
        step = self.rng.uniform(1.0, 4.0)
        x, z = here.x + step * math.cos(angle), here.z + step * math.sin(angle)
        if abs(x - home.x) > WANDER_BLOCKS or abs(z - home.z) > WANDER_BLOCKS:
            x, z = here.x + (home.x - here.x) / 4, here.z + (home.z - here.z) / 4  # turn back
        x, z = round(x, 1), round(z, 1)
        ground = self._ground(player, math.floor(x), math.floor(z))
        y = here.y if ground is None else float(ground + 1)
        metres = self._world.walk(player.name, x, y, z)
        return f"to {x:g}, {y:g}, {z:g} ({metres:.1f} m)"

    def _break(self, player: Player) -> str | None:
        x, z = self._beside(player)
        y = self._ground(player, x, z)
        if y is None:
            return None
        if self._world.world.block(player.dimension, x, y, z) in _UNBREAKABLE:
            return None
        broken = self._world.break_block(player.name, x, y, z)
        return f"{broken} at {x}, {y}, {z}"

    def _place(self, player: Player) -> str | None:
        x, z = self._beside(player)
        y = self._ground(player, x, z)
        if y is None:
            return None
        held = player.inventory[player.selected_slot]
        block = held.type_id if held is not None and _is_block(held.type_id) else None
        block = block or self.rng.choice(PLACED)
        self._world.place_block(player.name, x, y + 1, z, block)
        return f"{block} at {x}, {y + 1}, {z}"

    def _kill(self, player: Player) -> str | None:
        near = [e for e in self._world.world.entities
                if e.dimension == player.dimension and not e.is_player
                and e.location.distance2(player.location) <= _MOB_REACH_BLOCKS**2]  # fmt: skip
        mob = self.rng.choice(near).type_id if near else self.rng.choice(MOBS)
        where = self._world.kill_mob(player.name, mob)
        return f"{mob} at {where.x:g}, {where.y:g}, {where.z:g}"

    def _hurt(self, player: Player) -> str | None:
        cause, damage = self.rng.choice(_HURTS), self.rng.choice(_DAMAGE)
        died = self._world.hurt(player.name, damage, cause=cause)
        return f"{damage:g} by {cause}" + (", and died" if died else "")

    def _eat(self, player: Player) -> str | None:
        held = player.inventory[player.selected_slot]
        food = held.type_id if held is not None and held.type_id in FOODS else "minecraft:bread"
        self._world.use_item(player.name, food)
        return food

    def __repr__(self) -> str:
        state = "on" if self.on else "off"
        who = "every player" if self.players is None else ", ".join(sorted(self.players))
        kinds = ", ".join(f"{k} {n}" for k, n in self.done.most_common())
        return (f"<lively world: {state}, {self.rate:g} doings a second for {who}; "
                f"{self.doings} so far{': ' + kinds if kinds else ''}>")  # fmt: skip


def check_rate(rate: object) -> float:
    """``rate`` as doings a second per player.

    Raises:
        ValueError: not a number from 0 (exclusive) to ``LIVELY_MAX_RATE``.
    """
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not math.isfinite(rate):
        raise ValueError(f"rate is doings a second per player (e.g. 2), not {rate!r}")
    if not 0 < rate <= LIVELY_MAX_RATE:
        raise ValueError(
            f"rate={rate:g}: more than 0 and at most {LIVELY_MAX_RATE:g} doings a second per "
            "player (ten a tick)"
        )
    return float(rate)


def _is_block(type_id: str) -> bool:
    """Whether a held item is one a player places as a block (a guess from the name: the
    world has no item registry; tools, food and weapons are not)."""
    short = type_id.rpartition(":")[2]
    return type_id not in FOODS and not short.endswith(_NOT_BLOCKS)


# The endings of items a player holds that are not blocks (tools, weapons, armour, food).
_NOT_BLOCKS = ("sword", "pickaxe", "axe", "shovel", "hoe", "bow", "arrow", "map", "apple",
               "bread", "shield", "helmet", "chestplate", "leggings", "boots", "beef")  # fmt: skip
