"""The tick clock: the simulated world's only notion of time.

Three modes, because tests and humans want different things:

- ``realtime``: 20 ticks per second, like the game; a command waits up to one tick.
- ``fast``: the same real-time ticks, plus an immediate extra tick whenever work is due on
  the next tick (a queued command, a ``system.run``), so round trips cost an event-loop hop,
  not 50 ms, while long timers (``runTimeout(600)``) still take about their real time.
- ``manual``: ticks only happen in :meth:`TickClock.advance`; tests use it to hold
  commands in flight deterministically.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Literal

__all__ = ["ClockMode", "TickClock", "TickListener"]

log = logging.getLogger("mcbews_repl.sim")

ClockMode = Literal["realtime", "fast", "manual"]
TICKS_PER_SECOND = 20  # Bedrock's simulation rate

# A listener runs once per tick and returns the next tick it needs (None: nothing pending).
TickListener = Callable[[int], int | None]


class TickClock:
    """The game's 20 ticks a second: ``realtime`` paces them, ``fast`` runs the next tick
    as soon as work waits for it, ``manual`` only when :meth:`advance` is called.
    """

    def __init__(self, mode: ClockMode = "realtime", ticks_per_second: float = TICKS_PER_SECOND):
        self.mode: ClockMode = mode
        self.period_seconds = 1.0 / ticks_per_second
        self.tick = 0
        self._listeners: list[TickListener] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._next_due: int | None = None
        # A paused game (the pause menu of a single-player world) runs no ticks, so it
        # answers nothing until it goes on; advance() still steps it (tests drive it).
        self.paused = False

    def add_listener(self, listener: TickListener) -> None:
        """Run ``listener(tick)`` every tick; it returns the next tick it needs."""
        self._listeners.append(listener)

    def request_tick(self) -> None:
        """Work is waiting for the next tick; in fast mode, run it now."""
        if self.mode == "fast":
            self._wake.set()

    def step(self) -> None:
        """Run one tick synchronously: every listener, in registration order."""
        self.tick += 1
        due: list[int] = []
        for listener in self._listeners:
            try:
                wanted = listener(self.tick)
            except Exception:  # one broken listener must not stop the world
                log.exception("tick listener failed at tick %d", self.tick)
                continue
            if wanted is not None:
                due.append(wanted)
        self._next_due = min(due) if due else None

    async def advance(self, ticks: int = 1) -> None:
        """Fast-forward ``ticks`` ticks now, yielding to the loop between them so sockets
        get their frames out."""
        for _ in range(ticks):
            self.step()
            await asyncio.sleep(0)

    def start(self) -> None:
        """Start ticking on the running loop (nothing in ``manual`` mode)."""
        if self._task is None and self.mode != "manual":
            self._task = asyncio.get_running_loop().create_task(self._run(), name="sim-clock")

    async def stop(self) -> None:
        """Stop ticking; returns once the clock's task has ended."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _urgent(self) -> bool:
        return self._next_due is not None and self._next_due <= self.tick + 1

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.period_seconds
        while True:
            if self.mode == "fast" and self._urgent():
                await asyncio.sleep(0)  # let sockets breathe between back-to-back ticks
            else:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout_at(deadline):
                        await self._wake.wait()
            self._wake.clear()
            if loop.time() >= deadline:
                deadline = max(deadline + self.period_seconds, loop.time())
            if not self.paused:
                self.step()
