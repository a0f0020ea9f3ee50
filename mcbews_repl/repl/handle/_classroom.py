"""Many worlds on one ``mc``: the listing, the bound handles, ``mc.each``, simulated classes.

:class:`ManyWorlds` is the part of ``mc`` that knows several worlds can be connected:
``mc.worlds`` (a table), ``mc.world("Ana")`` (``mc`` bound to one), ``mc.each`` (all of
them at once). ``mc.simulate(worlds=5)`` starts a simulated classroom: one world per
student, each hosted by its student, with its own seed and its own starter kit, connected
to this bridge as each student's ``/connect`` would.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...sim import ItemStack, SimWorld, Vec3, WorldState, default_world, make_player
from ..runtime import Pending
from ._core import Core, Handle
from ._each import Each
from ._events import EventCallback
from ._simulate import SimHandle, SimOptions
from ._worlds import WorldRef

if TYPE_CHECKING:
    import pandas as pd

    from ...gateway import Bridge

__all__ = ["CLASS_NAMES", "ManyWorlds", "classroom_world", "start_classroom"]

# The students of a simulated class, in order; past the last, names repeat with a number.
CLASS_NAMES = ("Ana", "Ben", "Chloe", "Dev", "Emma", "Finn", "Grace", "Hugo", "Iris", "Jack",
               "Kim", "Leo", "Maya", "Noah", "Olga", "Priya", "Quinn", "Ravi", "Sara", "Tom",
               "Uma", "Vic", "Wen", "Xavi", "Yara", "Zoe")  # fmt: skip
# What a student may carry: (item, most in a stack, at most this many in the kit).
_KIT = (("minecraft:bread", 64, 16), ("minecraft:torch", 64, 32), ("minecraft:oak_log", 64, 24),
        ("minecraft:cobblestone", 64, 64), ("minecraft:apple", 64, 8),
        ("minecraft:wheat_seeds", 64, 20), ("minecraft:book", 64, 3))  # fmt: skip
_TOOLS = (("minecraft:wooden_pickaxe", 59), ("minecraft:stone_axe", 131),
          ("minecraft:iron_shovel", 250))  # fmt: skip
_SPACING_BLOCKS = 4.0  # classmates in one world stand a few blocks apart
_CONNECT_TIMEOUT_SECONDS = 60.0


def class_names(count: int) -> list[str]:
    """``count`` distinct student names: Ana, Ben, ... Zoe, Ana2, Ben2 ..."""
    return [CLASS_NAMES[k % len(CLASS_NAMES)] + (str(k // len(CLASS_NAMES) + 1)
            if k >= len(CLASS_NAMES) else "") for k in range(count)]  # fmt: skip


def _starter_kit(rng: random.Random) -> dict[int, ItemStack]:
    kit = {slot: ItemStack(item, amount=rng.randint(1, most), max_amount=stack)
           for slot, (item, stack, most) in enumerate(rng.sample(_KIT, 3))}  # fmt: skip
    tool, durability = rng.choice(_TOOLS)
    kit[3] = ItemStack(tool, damage=rng.randrange(durability // 2), max_durability=durability,
                       max_amount=1)  # fmt: skip
    return kit


def classroom_world(players: list[str], seed: int) -> WorldState:
    """A world hosted by ``players[0]``, with these players only, each with a starter kit
    drawn from ``seed`` (the terrain and the world's dice use it too)."""
    world = default_world(terrain_seed=seed)
    world.players = {}
    rng = random.Random(seed)
    for k, name in enumerate(players):
        player = make_player(name, Vec3(0.5 + k * _SPACING_BLOCKS, 64.0, 0.5))
        for slot, stack in _starter_kit(rng).items():
            player.inventory[slot] = stack
        world.add_player(player)
    world.local_player = players[0]
    world.objectives = {}  # the default world's scores are Steve's and Alex's
    return world


def _worlds_players(worlds: int, players: Any) -> list[list[str]]:
    """``players``: None (one student per world, named from CLASS_NAMES), one host name per
    world, or one list of names per world (its first hosts it)."""
    if worlds < 1:
        raise ValueError(f"worlds must be 1 or more, not {worlds}")
    if players is None:
        return [[name] for name in class_names(worlds)]
    if not isinstance(players, (list, tuple)) or len(players) != worlds:
        raise ValueError(
            f"players= takes {worlds} entries for worlds={worlds}: a host name per world "
            "(['Ana', 'Ben']) or a list of names per world ([['Ana', 'Kai'], ['Ben']])"
        )
    chosen = [[p] if isinstance(p, str) else list(p) for p in players]
    hosts = [names[0] if names else "" for names in chosen]
    if not all(hosts) or len(set(hosts)) != len(hosts):
        raise ValueError(f"every world needs its own host (a first name), got {hosts}")
    return chosen


def start_classroom(
    core: Core, worlds: int, players: Any, options: SimOptions
) -> Pending[list[SimHandle]]:
    """Start ``worlds`` simulated worlds (replacing an earlier class) and connect them all."""
    rosters = _worlds_players(worlds, players)
    pack, beta_apis, edition = options.resolved()

    def world(names: list[str], seed: int) -> Callable[[], SimWorld]:
        return lambda: SimWorld(classroom_world(names, seed), pack=pack, beta_apis=beta_apis,
                                edition=edition, seed=seed,
                                language=options.language)  # fmt: skip

    async def run() -> list[SimHandle]:
        await asyncio.gather(*(sim.close() for sim in core.sims))
        core.sims = []
        # Each world on a thread of its own (_simulate.py), started side by side, then
        # connected one after another, so that the connections' ids follow the class list.
        launched = await asyncio.gather(
            *(SimHandle.launch(world(names, seed), None, f"mcbews-sim-{names[0]}")
              for seed, names in enumerate(rosters, start=1)),
            return_exceptions=True,
        )  # fmt: skip
        core.sims = [h for h in launched if isinstance(h, SimHandle)]
        for failed in launched:
            if isinstance(failed, BaseException):
                raise failed
        for sim in core.sims:
            await sim.connect(core.bridge.url)
        async with asyncio.timeout(_CONNECT_TIMEOUT_SECONDS):
            await _all_ready(core.bridge, {names[0] for names in rosters})
        return list(core.sims)

    return core.submit(run(), f"{worlds} simulated worlds")


async def _all_ready(bridge: Bridge, hosts: set[str]) -> None:
    """Until every host's game is connected, its handshake done and its transport chosen."""
    while True:
        ready = {c.local_player for c in bridge.connections
                 if not c.closed and c.transport not in ("probing",)}  # fmt: skip
        if hosts <= ready:
            return
        await asyncio.sleep(0.02)


class ManyWorlds(Handle):
    """The worlds part of a handle: ``worlds``, ``world()``, ``each``, ``on_event``."""

    @property
    def worlds(self) -> pd.DataFrame:
        """One row per world: id, name, connected, address, encrypted, connected since,
        players (as last seen in an answer), pending calls, its latest event. Worlds that
        dropped stay listed (not connected) and keep their names for a reconnect."""
        return self._core.roster.frame()

    def world(self, ref: WorldRef) -> Any:
        """``mc`` bound to one world, by name (``"Ana"``) or connection id (``3``).

        Raises:
            NotConnected: no world of that name or id.
        """
        return self._core.world(ref)

    @property
    def each(self) -> Each:
        """Every connected world at once: ``await mc.each.inventory()`` (one table)."""
        return Each(self._core)

    def on_event(self, callback: EventCallback, kinds: Any = None) -> EventCallback:
        """Call ``callback(event)`` for each event of ``kinds`` (default: chat, ui_chat,
        connected, disconnected) from any world; ``event.world`` is that world's handle and
        ``event.reply(text)`` answers the player there. Runs like UI chat callbacks do.

        Raises:
            BridgeStopped: the bridge was stopped, so no event can arrive.
        """
        if self.stopped:
            raise self._stopped_error("no event can arrive")
        self._core.events.add(callback, kinds, None)
        return callback

    def off_event(self, callback: EventCallback | None = None) -> None:
        """Remove one event callback, or all of them."""
        self._core.events.remove(callback)
