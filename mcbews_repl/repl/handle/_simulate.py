"""``%mc sim``: a simulated world on a thread of its own, connected to this session's bridge.

Each world and its QuickJS context belong to their own event-loop thread (a
:class:`~.runtime.Runtime` named ``mcbews-sim...``), not to the bridge's: a script that runs
long there (up to the watchdog's hang threshold, docs/sim.md) holds up that world only, never
the bridge or another game. The world still reaches the bridge over a real WebSocket, as the
game does. Notebook code runs on yet another thread, so ``mc.sim`` is a :class:`SimHandle`
whose methods hop onto the world's loop and wait for the answer: ``mc.sim.ui_chat("Alex",
"hi")`` is safe from any cell.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ...cleantext import clean_text
from ...exceptions import RequestTimeout, wrong_type
from ...sim import (
    ENGLISH,
    CommandOutcome,
    Edition,
    Pack,
    SimWorld,
    Vec3,
    WorldState,
    default_world,
    languages,
    make_player,
)
from ..runtime import Pending, Runtime
from ..show import GameText
from ._scratch import make_scratch, remove_scratch

if TYPE_CHECKING:
    from ._core import Core

__all__ = [
    "AddonChoice",
    "SimHandle",
    "SimOptions",
    "addon_choice",
    "check_names",
    "make_world",
    "start_sim",
]

log = logging.getLogger("mcbews_repl.repl")
T = TypeVar("T")
# Where extra players asked for by name stand: a row along x, a few blocks apart.
_SPACING_BLOCKS = 4.0
# A call into the simulated world answers within a tick or two; this is only a safety net.
_SIM_CALL_TIMEOUT_SECONDS = 30.0
# How often ask() looks at the player's screen while it waits for the answer.
_ASK_POLL_SECONDS = 0.05
# How long closing a world may wait for its thread: a script job there ends within the hang
# threshold and the engine's grace (3.5 s); mc.close() gives everything 5 s.
_SIM_CLOSE_SECONDS = 4.0

_SWITCH = {"on": True, "off": False, "true": True, "false": False}


@dataclass(frozen=True)
class SimOptions:
    """Which pack the simulated world runs, with Beta APIs or not, in which edition.

    ``beta_apis="auto"`` sets the world up for the pack: on for the beta pack, off for the
    stable one. An Education world has no Beta APIs at all.
    """

    pack: Pack = "stable"
    beta_apis: bool | str = "auto"
    edition: Edition = "bedrock"
    language: str = ENGLISH  # the game's language (the sim's lang files: zh_CN, ja_JP ...)

    def resolved(self) -> tuple[Pack, bool, Edition]:
        """Pack, Beta APIs and edition, checked (and the language).

        Raises:
            ValueError: a choice that does not exist or fit (the message says which).
        """
        if self.language not in languages():
            shipped = ", ".join(sorted(languages()))
            raise ValueError(f"the game has no language {self.language!r}; it ships {shipped}")
        if self.pack not in ("stable", "beta"):
            raise ValueError(f"pack must be stable or beta, not {self.pack!r}")
        if self.edition not in ("bedrock", "education"):
            raise ValueError(f"edition must be bedrock or education, not {self.edition!r}")
        beta = self.beta_apis
        if isinstance(beta, str):
            if beta.lower() not in (*_SWITCH, "auto"):
                raise ValueError(f"beta_apis must be on, off or auto, not {beta!r}")
            beta = self.pack == "beta" if beta.lower() == "auto" else _SWITCH[beta.lower()]
        if self.edition == "education":
            asked = self.beta_apis
            if asked is True or (isinstance(asked, str) and _SWITCH.get(asked.lower())):
                raise ValueError("Minecraft Education has no Beta APIs (no experiments toggle)")
            beta = False
        return self.pack, bool(beta), self.edition


class SimHandle:
    """Thread-safe access to a simulated world that runs on a thread of its own."""

    def __init__(self, world: SimWorld, thread: Runtime) -> None:
        self.raw = world  # the SimWorld itself: touch it only on its own thread (raw.loop)
        self._thread = thread
        self._scratch: Path | None = None  # the packs folder made for it, removed on close

    @classmethod
    async def launch(
        cls, make: Callable[[], SimWorld], url: str | None, name: str = "mcbews-sim"
    ) -> SimHandle:
        """Start a thread named ``name``, make the world there (its addon loaded) and, given
        a ``url``, connect it (what ``/connect`` does); awaitable from any loop."""
        thread = Runtime(name=name)
        thread.start()

        async def begin() -> SimWorld:
            world = make()
            await (world.start() if url is None else world.connect(url))
            return world

        try:
            world = await thread.submit(begin(), f"{name}: start")
        except BaseException:
            thread.stop()
            raise
        return cls(world, thread)

    def packs_folder(self) -> Path:
        """The world's development behavior packs folder: the one it was given, else a
        temporary one made now and removed when the world closes (_scratch.py)."""
        folder = self.raw.behavior_packs
        if folder is None:
            folder = self._scratch = make_scratch("mcbews-sim-packs-")
            self.on_loop(setattr, self.raw, "behavior_packs", folder)
        return folder

    def connect(self, url: str) -> Pending[None]:
        """``/connect <url>`` in this world (a new connection replaces its old one)."""
        return self._submit(self.raw.connect(url), "connect the simulated world")

    def _submit(self, coro: Coroutine[Any, Any, T], label: str) -> Pending[T]:
        return self._thread.submit(coro, label)

    def on_loop(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the simulated world's own thread, waited for: the way to touch
        ``raw`` (the SimWorld) from a cell, a script or another thread."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None and running is self.raw.loop:
            return fn(*args)  # already on the simulator's loop: waiting would deadlock

        async def call() -> T:
            return fn(*args)

        return self._submit(call(), "the simulated world").result(_SIM_CALL_TIMEOUT_SECONDS)

    def ui_chat(self, player: str, message: str) -> None:
        """``player`` types ``message`` into the addon's chat panel."""
        self.on_loop(self.raw.ui_chat, player, message)

    def ask(self, player: str, message: str, *, timeout: float = 10.0) -> Pending[GameText]:
        """``player`` types ``message`` into the addon's panel; the answer is the next thing
        they are shown (a ``UI chat`` callback's reply): ``await mc.sim.ask("Alex", "hi")``.

        Raises:
            ValueError: no player called ``player`` is in the simulated world.
            RequestTimeout: (from the Pending) nothing was shown within ``timeout`` seconds.
        """
        if player not in self.world.players:
            raise ValueError(f"no player {player!r} in the simulated world: {self._people()}")

        async def run() -> GameText:
            loop = asyncio.get_running_loop()
            screen = self.raw.world.players[player].inbox
            seen, deadline = len(screen), loop.time() + timeout
            self.raw.ui_chat(player, message)
            while len(screen) <= seen:
                if loop.time() > deadline:
                    raise RequestTimeout(
                        f"{player} was shown nothing within {timeout:g} s of asking "
                        f"{message[:40]!r}: is a callback registered with @mc.on_ui_chat?"
                    )
                await asyncio.sleep(_ASK_POLL_SECONDS)
            return GameText(screen[seen])

        pending: Pending[GameText] = self._submit(run(), f"ask as {player}")
        return pending

    def chat(self, player: str, message: str) -> None:
        """``player`` types ``message`` in the game's own chat (a PlayerMessage of type chat)."""
        self.on_loop(self.raw.chat, player, message)

    # --- what players do (sim/doings.py): the world changes, the connected client's own
    # player's doings are sent as game events to a bridge that subscribed, and everyone's
    # fire the world.afterEvents the addon forwards ----------------------------------------

    def break_block(self, player: str, x: int, y: int, z: int) -> str:
        """``player`` breaks the block at x, y, z by hand (BlockBroken); returns what it was."""
        return self.on_loop(self.raw.break_block, player, x, y, z)

    def place_block(self, player: str, x: int, y: int, z: int, block: str) -> None:
        """``player`` places ``block`` at x, y, z by hand (BlockPlaced; /setblock sends none)."""
        self.on_loop(self.raw.place_block, player, x, y, z, block)

    def walk(self, player: str, x: float, y: float, z: float) -> float:
        """``player`` walks to x, y, z (PlayerTravelled, PlayerTransform); returns metres."""
        return self.on_loop(self.raw.walk, player, x, y, z)

    def teleport(self, player: str, x: float, y: float, z: float, cause: str = "command") -> None:
        """``player`` is teleported (PlayerTeleported; cause command, projectile, chorus_fruit)."""
        self.on_loop(lambda: self.raw.teleport(player, x, y, z, cause=cause))

    def hurt(self, player: str, damage: float, cause: str = "entity") -> bool:
        """``player`` takes ``damage`` half hearts; at 0 they die (PlayerDied) and respawn."""
        return self.on_loop(lambda: self.raw.hurt(player, damage, cause=cause))

    def kill_mob(self, player: str, mob: str = "minecraft:zombie") -> Any:
        """``player`` kills a ``mob`` (MobKilled); returns where it died."""
        return self.on_loop(self.raw.kill_mob, player, mob)

    def use_item(self, player: str, item: str | None = None, use_method: str | None = None) -> None:
        """``player`` eats food or lights a fire with flint and steel (ItemUsed)."""
        self.on_loop(lambda: self.raw.use_item(player, item, use_method=use_method))

    def start_use(self, player: str, item: str | None = None, duration: int = 32) -> None:
        """``player`` begins to charge an item: eat, draw a bow (item_start_use)."""
        self.on_loop(lambda: self.raw.start_use(player, item, duration=duration))

    def complete_use(self, player: str, item: str | None = None) -> None:
        """``player``'s charge is full: the food eaten (item_complete_use)."""
        self.on_loop(self.raw.complete_use, player, item)

    def release_use(self, player: str, item: str | None = None, ticks_left: int = 0) -> None:
        """``player`` lets go of a charging item, a bow shot (item_release_use)."""
        self.on_loop(lambda: self.raw.release_use(player, item, ticks_left=ticks_left))

    def stop_use(self, player: str, item: str | None = None, ticks_left: int = 0) -> None:
        """``player`` stops charging an item (item_stop_use)."""
        self.on_loop(lambda: self.raw.stop_use(player, item, ticks_left=ticks_left))

    def start_use_on(self, player: str, x: int, y: int, z: int, face: str = "Up") -> str:
        """``player`` uses what they hold on the block at x, y, z (item_start_use_on)."""
        return self.on_loop(self.raw.start_use_on, player, x, y, z, face)

    def stop_use_on(self, player: str, x: int, y: int, z: int) -> str:
        """``player`` lets go of use on the block at x, y, z (item_stop_use_on)."""
        return self.on_loop(self.raw.stop_use_on, player, x, y, z)

    def hit_block(self, player: str, x: int, y: int, z: int, face: str = "Up") -> str:
        """``player`` hits the block at x, y, z on ``face`` (entity_hit_block: the addon's,
        as mcpi's block hits); returns the block."""
        return self.on_loop(self.raw.hit_block, player, x, y, z, face)

    def interact_block(self, player: str, x: int, y: int, z: int, face: str = "Up") -> str:
        """``player`` uses the block at x, y, z (player_interact_with_block); returns it."""
        return self.on_loop(self.raw.interact_block, player, x, y, z, face)

    def push_button(self, player: str, x: int, y: int, z: int) -> None:
        """``player`` pushes the button at x, y, z (button_push)."""
        self.on_loop(self.raw.push_button, player, x, y, z)

    def flip_lever(self, player: str, x: int, y: int, z: int, powered: bool = True) -> None:
        """``player`` flips the lever at x, y, z on or off (lever_action)."""
        self.on_loop(lambda: self.raw.flip_lever(player, x, y, z, powered=powered))

    def join(self, player: str) -> None:
        """A new player joins the world (player_spawn)."""
        self.on_loop(self.raw.join, player)

    def leave(self, player: str) -> None:
        """``player`` leaves the world (player_leave)."""
        self.on_loop(self.raw.leave, player)

    def fire_event(self, name: str, player: str, **values: Any) -> bool:
        """Send any event of the corpus for ``player`` (its body keys as the game spells them
        in ``values``); True if it went out (the connected client's player, subscribed)."""
        return self.on_loop(lambda: self.raw.fire_event(name, player, **values))

    def lively(
        self, on: bool = True, rate: float | None = None, players: list[str] | None = None
    ) -> Any:
        """Let the players act by themselves at random (walk, break and place blocks, kill
        mobs, get hurt, eat), ``rate`` doings a second each (default 1); ``lively(False)``
        stops them. Returns the lively mode (its ``done`` counts, its latest ``log``).

        Raises:
            ValueError: a rate that is not a positive number up to 200, or an unknown player.
        """
        return self.on_loop(lambda: self.raw.lively(on, rate, players))

    def pause(self) -> None:
        """Pause the game, as its pause menu does: no ticks, so nothing is answered."""
        self.on_loop(setattr, self.raw.clock, "paused", True)

    def resume(self) -> None:
        """Let a paused game go on: what waited is answered at its next ticks."""
        self.on_loop(setattr, self.raw.clock, "paused", False)

    def inbox(self, player: str) -> list[str]:
        """Everything ``player`` has been shown (text responses, tells, tellraw, say)."""
        return self.on_loop(self.raw.inbox, player)

    def run_command(self, line: str, as_player: str | None = None) -> CommandOutcome:
        """Run a command as a player, as if typed in the game's chat."""
        return self.on_loop(self.raw.run_command, line, as_player)

    def edit(self, fn: Callable[[WorldState], T]) -> T:
        """Change the world safely: ``mc.sim.edit(lambda w: w.players['Alex'] ...)``."""
        return self.on_loop(fn, self.raw.world)

    @property
    def world(self) -> WorldState:
        """The world state, for reading (use :meth:`edit` to change it)."""
        return self.raw.world

    @property
    def script_errors(self) -> list[str]:
        """Every error the addon's scripts threw so far, each its place, message and stack."""
        return self.raw.script_errors

    @property
    def pack(self) -> str:
        """The pack the world runs: ``stable`` or ``beta``."""
        return self.raw.pack

    @property
    def addon_refused(self) -> str | None:
        """Why the world did not load the pack (a beta pack without Beta APIs), or None."""
        return self.raw.addon_refused

    @property
    def watchdog(self) -> str:
        """Which watchdog bounds its scripts: ``engine`` or ``loops`` (docs/sim.md)."""
        return self.raw.watchdog

    async def close(self) -> None:
        """Close the world on its thread, then end the thread (awaitable from any loop). A
        world still busy after a while is left to its thread, which the process ends. The
        packs folder made for it goes too."""
        try:
            await self._close_thread()
        finally:
            if self._scratch is not None:
                remove_scratch(self._scratch)
                self._scratch = None

    async def _close_thread(self) -> None:
        if not self._thread.running:
            return
        closing = self._submit(self.raw.close(), "close the simulated world")

        async def closed() -> None:
            await closing

        try:
            await asyncio.wait_for(closed(), _SIM_CLOSE_SECONDS)
        except TimeoutError:
            log.warning("the simulated world did not close within %g s", _SIM_CLOSE_SECONDS)
            self._thread.stop(join_seconds=0.0)
            return
        except Exception:  # its thread ends all the same
            log.warning("the simulated world failed to close cleanly", exc_info=True)
        self._thread.stop()

    def _people(self) -> str:
        """The players' names, for messages and the repr: cleaned (players chose them)."""
        players = list(self.world.players.values())  # the world's thread may add one meanwhile
        return clean_text(", ".join(p.name for p in players if not p.simulated))

    def __repr__(self) -> str:
        # The addon's own simulated player (MCBEWS_BRIDGE) is plumbing, not a player.
        raw = self.raw
        if not raw.hosts_addon:
            return f"<simulated world: {self._people()}; no addon>"
        beta = "Beta APIs on" if raw.beta_apis else "no Beta APIs"
        where = "Minecraft Education" if raw.edition == "education" else beta
        refused = ", not loaded" if raw.addon_refused else ""
        return f"<simulated world: {self._people()}; {raw.pack} pack{refused}, {where}>"


def make_world(names: list[str] | None) -> WorldState:
    """The default world, or one with exactly the named players (the first hosts the game)."""
    world = default_world()
    if not names:
        return world
    keep = {n: world.players[n] for n in names if n in world.players}
    world.players = {}
    for k, name in enumerate(names):
        player = keep.get(name) or make_player(name, Vec3(k * _SPACING_BLOCKS, 64.0, 0.5))
        world.add_player(player)
    world.local_player = names[0]
    return world


AddonChoice = str | os.PathLike[str] | bool | None
ADDON_ACCEPTED = (
    "addon must be False (no addon), True or None (the shipped pack), or the path of a "
    "simulator bundle (.js) or a pack folder"
)


def addon_choice(addon: object) -> Path | bool:
    """What a simulated world hosts: False (no addon: a world as the game is without the
    pack), True or None (the shipped pack), or a path: a simulator bundle (a build's
    ``sim_stable.js``) or a pack folder (an exported or deployed pack).

    Raises:
        TypeError: anything else, saying what is accepted.
        FileNotFoundError: a path where nothing is.
    """
    if addon is None or isinstance(addon, bool):
        return addon is not False
    if not isinstance(addon, str | os.PathLike):
        raise wrong_type(ADDON_ACCEPTED, addon)
    path = Path(addon).expanduser()
    if not path.exists():
        raise FileNotFoundError(
            f"no simulator bundle or pack folder at {addon} (npm run build in addon/ writes "
            "sim_stable.js and sim_beta.js; mc.addon.export() and deploy() write packs)"
        )
    return path


def check_names(players: object) -> list[str] | None:
    """``players`` of one simulated world: None (Steve and Alex) or a list of names.

    Raises:
        TypeError: a string (one name is ``["Ana"]``) or anything but names.
    """
    if players is None:
        return None
    accepted = "players must be a list of names (['Ana', 'Kai'], the first hosts)"
    if isinstance(players, str):
        raise TypeError(f"{accepted}, not the string {players!r}: players=[{players!r}]")
    if not isinstance(players, list | tuple):
        raise wrong_type(accepted, players)
    for name in players:
        if not isinstance(name, str):
            raise wrong_type("players must be names (strings)", name)
    return list(players)


def start_sim(
    core: Core,
    names: list[str] | None = None,
    *,
    legacy: bool = False,
    addon: AddonChoice = None,
    options: SimOptions | None = None,
) -> Pending[SimHandle]:
    """Start (or restart) the simulated world and connect it like ``/connect`` would.

    ``addon``: see :func:`addon_choice` (a bundle or pack folder of your own prototypes a
    capability without a build; see ``mc.addon``).
    ``options`` say which pack, Beta APIs or not, which edition (default: ``mc``'s
    ``sim_defaults``). The world and its connection are ready (the transport chosen) when
    the Pending resolves.
    """
    options = options or SimOptions(**core.sim_defaults)
    pack, beta_apis, edition = options.resolved()
    bundle = addon_choice(addon)

    async def run() -> SimHandle:
        if core.sim is not None:
            await core.sim.close()
            core.sim = None

        def world() -> SimWorld:
            return SimWorld(make_world(names), legacy_events=legacy, addon=bundle, pack=pack,
                            beta_apis=beta_apis, edition=edition,
                            language=options.language)  # fmt: skip

        handle = core.sim = await SimHandle.launch(world, core.bridge.url)
        await core.bridge.wait_connected(timeout=30)
        return handle

    return core.submit(run(), "sim")
