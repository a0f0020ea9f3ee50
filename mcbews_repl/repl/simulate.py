"""``%mc sim``: a simulated world on the runtime thread, connected to this session's bridge."""

from __future__ import annotations

from ..sim import SimWorld, Vec3, default_world, make_player
from ..sim.model import WorldState
from .handle import Minecraft
from .runtime import Pending

__all__ = ["make_world", "start_sim"]

# Where extra players asked for by name stand: a row along x, a few blocks apart.
_SPACING_BLOCKS = 4.0


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
    mc: Minecraft, names: list[str] | None = None, *, legacy: bool = False
) -> Pending[SimWorld]:
    """Start (or restart) the simulated world and connect it like ``/connect`` would."""

    async def run() -> SimWorld:
        if mc.sim is not None:
            await mc.sim.close()
            mc.sim = None
        sim = SimWorld(make_world(names), legacy_events=legacy)
        await sim.connect(mc.url)
        mc.sim = sim
        await mc.bridge.wait_connected(timeout=30)
        return sim

    return mc._submit(run(), "sim")
