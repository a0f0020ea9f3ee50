"""What one call did on the wire, and the switch that stops it: a :class:`CallScope`.

A call a user makes (``mc.blocks(...)``, ``mc.inventory()``, ``mc.each.players()``) may send
many commands and capability requests, from tasks of its own. asyncio runs every task in a
copy of the context it was created in, so a scope set in a context variable when the call
starts is seen by all of them. The command window counts what it sends against it and
what it withdraws from its queue; once the scope is cancelled the window sends nothing
more in its name, so even a task that nobody cancelled cannot reach the game afterwards.
The scope is shared between threads (the notebook reads it to say what was cancelled):
its fields are plain counters written on the bridge's loop only.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

__all__ = ["CallScope", "current_scope", "enter_scope", "in_no_scope", "run_in_scope"]

T = TypeVar("T")


@dataclass(eq=False)
class CallScope:
    """One call's traffic: commands sent and withdrawn, capability requests made."""

    label: str = ""
    commands_sent: int = 0
    commands_withdrawn: int = 0  # queued in the window, never sent
    requests: int = 0  # capability requests made (each one or more commands)
    cancelled: bool = False
    # Set once the call's coroutine has ended on the bridge's loop (its clean-up done).
    finished: threading.Event = field(default_factory=threading.Event, repr=False)
    # Calls made on its behalf with scopes of their own (``mc.each``: one per world).
    parts: list[CallScope] = field(default_factory=list, repr=False)
    # The task the call runs in (run_in_scope): a cancel asked of it stops the sends of all
    # its tasks at once, before the CancelledError has even reached it.
    task: asyncio.Task[object] | None = field(default=None, repr=False)

    def cancel(self) -> None:
        """Mark it and its parts cancelled (any thread): nothing more is sent for them."""
        self.cancelled = True
        for part in self.parts:
            part.cancel()

    def total(self, counter: str) -> int:
        """``counter`` (``commands_sent``, ``commands_withdrawn``, ``requests``) with parts."""
        own: int = getattr(self, counter)
        return own + sum(part.total(counter) for part in self.parts)

    def wait_finished(self, timeout: float) -> bool:
        """Wait until this call and its parts have ended; False if not within ``timeout``."""
        deadline = time.monotonic() + timeout
        return all(
            scope.finished.wait(max(deadline - time.monotonic(), 0.0))
            for scope in (self, *self.parts)
        )

    def check(self) -> None:
        """Return if the call may go on; nothing more may be sent for a cancelled one.

        Raises:
            asyncio.CancelledError: the call was cancelled (or its task is being cancelled).
        """
        if self.cancelled or (self.task is not None and self.task.cancelling()):
            raise asyncio.CancelledError(f"{self.label or 'the call'} was cancelled")

    def summary(self) -> str:
        """What had gone to the game: ``12 requests (40 commands)``, or ``3 commands``."""
        sent, requests = self.total("commands_sent"), self.total("requests")
        commands = f"{sent} command{'' if sent == 1 else 's'}"
        if not requests:
            return commands
        return f"{requests} request{'' if requests == 1 else 's'} ({commands})"


_SCOPE: contextvars.ContextVar[CallScope | None] = contextvars.ContextVar(
    "mcbews_call_scope", default=None
)


def current_scope() -> CallScope | None:
    """The scope of the call running in this context, if any."""
    return _SCOPE.get()


def enter_scope(scope: CallScope) -> contextvars.Token[CallScope | None]:
    """Make ``scope`` the current one for this context (and the tasks it starts)."""
    return _SCOPE.set(scope)


def in_no_scope() -> contextvars.Context:
    """A context with no scope: for the bridge's own housekeeping (a cancel notice) that
    must go out although the call that caused it was cancelled."""
    context = contextvars.copy_context()
    context.run(_SCOPE.set, None)
    return context


async def run_in_scope(work: Awaitable[T], scope: CallScope) -> T:
    """Await ``work`` with ``scope`` current (the tasks it starts inherit it); a cancellation
    marks the scope cancelled, and ``finished`` is set once the work has ended."""
    enter_scope(scope)
    scope.task = asyncio.current_task()
    try:
        return await work
    except asyncio.CancelledError:
        scope.cancelled = True
        raise
    finally:
        scope.task = None
        scope.finished.set()
