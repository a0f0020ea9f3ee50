"""``%mc sim``: a simulated world on the runtime thread, connected to this session's bridge.

The world and its QuickJS context belong to the runtime thread's loop. Notebook code runs
on another thread, so ``mc.sim`` is a :class:`SimHandle` whose methods hop onto that loop
and wait for the answer: ``mc.sim.ui_chat("Alex", "hi")`` is safe from any cell.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..sim import SimWorld, Vec3, default_world, make_player
from ..sim.commands import CommandResult as SimCommandResult
from ..sim.model import WorldState
from .handle import Minecraft
from .runtime import Pending

__all__ = ["SimHandle", "make_world", "start_sim"]

T = TypeVar("T")
# Where extra players asked for by name stand: a row along x, a few blocks apart.
_SPACING_BLOCKS = 4.0
# A call into the simulated world answers within a tick or two; this is only a safety net.
_SIM_CALL_TIMEOUT_SECONDS = 30.0


class SimHandle:
    """Thread-safe access to the simulated world for notebook and REPL code."""

    def __init__(self, world: SimWorld) -> None:
        self.raw = world  # the SimWorld itself: touch it only on the runtime thread

    def _on_loop(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None and running is self.raw.loop:
            return fn(*args)  # already on the simulator's loop: waiting would deadlock
        return self.raw.call_threadsafe(fn, *args).result(_SIM_CALL_TIMEOUT_SECONDS)

    def ui_chat(self, player: str, message: str) -> None:
        """``player`` types ``message`` into the addon's chat panel."""
        self._on_loop(self.raw.ui_chat, player, message)

    def chat(self, player: str, message: str) -> None:
        """``player`` types ``message`` in the game's own chat (a PlayerMessage of type chat)."""
        self._on_loop(self.raw.chat, player, message)

    def inbox(self, player: str) -> list[str]:
        """Everything ``player`` has been shown (text responses, tells, tellraw, say)."""
        return self._on_loop(self.raw.inbox, player)

    def run_command(self, line: str, as_player: str | None = None) -> SimCommandResult:
        """Run a command as a player, as if typed in the game's chat."""
        return self._on_loop(self.raw.run_command, line, as_player)

    def edit(self, fn: Callable[[WorldState], T]) -> T:
        """Change the world safely: ``mc.sim.edit(lambda w: w.players['Alex'] ...)``."""
        return self._on_loop(fn, self.raw.world)

    @property
    def world(self) -> WorldState:
        """The world state, for reading (use :meth:`edit` to change it)."""
        return self.raw.world

    @property
    def script_errors(self) -> list[str]:
        return self.raw.script_errors

    async def close(self) -> None:
        await self.raw.close()

    def __repr__(self) -> str:
        return f"<simulated world: {', '.join(self.world.players)}>"


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


def start_sim(
    mc: Minecraft,
    names: list[str] | None = None,
    *,
    legacy: bool = False,
    addon: str | Path | None = None,
) -> Pending[SimHandle]:
    """Start (or restart) the simulated world and connect it like ``/connect`` would.

    ``addon`` is the path of a simulator bundle to host instead of the shipped one (for
    prototyping a capability: build the addon, then point this at its ``sim_bundle.js``).
    """

    async def run() -> SimHandle:
        if mc.sim is not None:
            await mc.sim.close()
            mc.sim = None
        bundle: str | Path | bool = Path(addon) if addon is not None else True
        sim = SimWorld(make_world(names), legacy_events=legacy, addon=bundle)
        await sim.connect(mc.url)
        handle = mc.sim = SimHandle(sim)
        await mc.bridge.wait_connected(timeout=30)
        return handle

    return mc._submit(run(), "sim")
