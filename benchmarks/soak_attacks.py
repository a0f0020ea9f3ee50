"""The soak's attacks seen from the bridge's side: a probe of the good game, and the
attacks that run in the bridge's own process (``bench_soak.py`` drives them; the games'
process, ``soak_games.py``, plays the others).

- :class:`Probe` asks the good game (a world that never leaves) one command every 50 ms
  while an attack runs and keeps the round trips: the table's p99 per attack.
- :func:`hung_prototype` starts a simulated world on a thread of its own (as the notebook's
  ``%mc sim`` does), loads a prototype into its addon that hangs (an ``eval``'d endless
  loop, which only the engine's interrupt stops) and calls it; it returns once the
  watchdog has stopped the job, and how long a new game's WebSocket open took meanwhile.
- :func:`cancellation_storm` starts a big block read on the storm world and cancels it a
  few seconds later, again and again, the way an impatient notebook user interrupts cells:
  after each cancel, how long until nothing is pending, and whether anything was sent
  after it.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from hang_scenario import hang_source
from websockets.asyncio.client import connect

from mcbews_repl import Bridge, GameConnection, McbewsError
from mcbews_repl.gateway.scope import CallScope, run_in_scope
from mcbews_repl.repl.handle import SimHandle, make_world
from mcbews_repl.sim import SimWorld
from mcbews_repl.toolkit import read_blocks

__all__ = [
    "GOOD_WORLD",
    "STORM_WORLD",
    "CancelStorm",
    "Probe",
    "cancellation_storm",
    "good_game",
    "hung_prototype",
]

PROBE_EVERY_SECONDS = 0.05
GOOD_WORLD = "world=good"
STORM_WORLD = "world=storm"
# A read of about a million blocks: far longer than the few seconds it runs before a cancel.
STORM_BOX = ((-64, 0, -64), (63, 63, 63))


def good_game(mc: Bridge, world: str = GOOD_WORLD) -> GameConnection | None:
    """The connection of a world that never leaves (the good one, or the storm's)."""
    found = [c for c in mc.connections if c.path.endswith(world) and c.local_player]
    return found[0] if found else None


@dataclass
class Probe:
    """Round trips of the good game's commands while something else happens."""

    rtts_ms: list[float] = field(default_factory=list)
    failed: int = 0

    async def run(self, mc: Bridge, stop: asyncio.Event) -> None:
        while not stop.is_set():
            game = good_game(mc)
            if game is not None:
                start = time.perf_counter()
                try:
                    await game.command("testfor @a", timeout=10)
                    self.rtts_ms.append((time.perf_counter() - start) * 1000)
                except McbewsError:
                    self.failed += 1
            await asyncio.sleep(PROBE_EVERY_SECONDS)

    def p99_ms(self) -> float:
        if len(self.rtts_ms) < 2:
            return self.rtts_ms[0] if self.rtts_ms else float("nan")
        return statistics.quantiles(self.rtts_ms, n=100)[98]


@dataclass
class CancelStorm:
    cancels: int = 0
    settle_ms: list[float] = field(default_factory=list)  # cancel -> nothing pending
    sent_after: int = 0  # commands counted against a scope after its cancel (target 0)
    commands_before: int = 0


async def cancellation_storm(mc: Bridge, seconds: float, rng: random.Random) -> CancelStorm:
    """Big reads on the storm world, each cancelled after 1-4 s, for ``seconds``."""
    storm = CancelStorm()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game = good_game(mc, STORM_WORLD)
        if game is None:
            await asyncio.sleep(0.1)
            continue
        scope = CallScope("storm read")
        read = read_blocks(mc, *STORM_BOX, connection=game)
        task = asyncio.ensure_future(run_in_scope(read, scope))
        await asyncio.sleep(rng.uniform(1.0, 4.0))
        cancelled_at, sent = time.perf_counter(), scope.commands_sent
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        storm.cancels += 1
        storm.commands_before += sent
        while game.pending and not game.closed and time.perf_counter() - cancelled_at < 30:
            await asyncio.sleep(0.005)
        storm.settle_ms.append((time.perf_counter() - cancelled_at) * 1000)
        await asyncio.sleep(1.0)  # anything sent in the cancelled call's name would show now
        storm.sent_after += scope.commands_sent - sent
    return storm


async def _until(condition: Callable[[], bool], seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def hung_prototype(mc: Bridge, kind: str = "eval") -> str:
    """A world whose prototype hangs, on a thread of its own, while the bridge serves the
    others; what the watchdog did and how a new game fared meanwhile."""
    url = f"{mc.url}?hang"
    handle = await SimHandle.launch(lambda: SimWorld(make_world(None), fast=True), url)
    try:
        await _until(lambda: any(c.path.endswith("?hang") and c.local_player
                                 for c in mc.connections))  # fmt: skip
        game = next(c for c in mc.connections if c.path.endswith("?hang"))
        host = handle.raw.host
        assert host is not None
        await asyncio.to_thread(handle.on_loop, host.define_prototype, "hang", hang_source(kind))
        before = len(handle.script_errors)
        started = time.perf_counter()
        call = asyncio.ensure_future(mc.call("hang", connection=game, timeout=30))
        opened = time.perf_counter()
        async with connect(mc.url, open_timeout=30):
            opened_ms = (time.perf_counter() - opened) * 1000
        stopped = await _until(lambda: call.done() or len(handle.script_errors) > before)
        hung_s = time.perf_counter() - started
        call.cancel()
        await asyncio.gather(call, return_exceptions=True)
    finally:
        await handle.close()
    outcome = f"stopped by the watchdog ({handle.watchdog}) after {hung_s:.1f} s" if stopped else (
        "**not stopped within 60 s**"
    )  # fmt: skip
    return f"{kind}: {outcome}; a new game's WebSocket opened in {opened_ms:.0f} ms meanwhile"
