"""The one runner of the user's callbacks: UI chat (``mc.on_ui_chat``) and events
(``mc.on_event``) alike.

A callback must run on the kernel's own loop (between or during awaits of cells, never in
parallel with them), while what sets it off arrives on the bridge's loop. :meth:`soon`
hops there; :meth:`invoke` calls the callback, runs a coroutine it returns as a task, and
sends every failure to :meth:`report`, the one place that counts, keeps and prints them:
the text goes to the cell that is running, the first ``CALLBACK_FAILURES_PRINTED`` only.
"""

from __future__ import annotations

import asyncio
import sys
import traceback
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from ...cleantext import clean_text
from ...limits import CALLBACK_FAILURES_KEPT, CALLBACK_FAILURES_PRINTED

__all__ = ["CallbackFailure", "CallbackRunner"]


@dataclass(frozen=True)
class CallbackFailure:
    """One failed callback: its name, the player and message that set it off, the error."""

    callback: str
    player: str
    message: str
    error: str
    traceback: str = field(repr=False)


class CallbackRunner:
    """Runs callbacks on ``kernel_loop`` (or, without one, on the loop that asks)."""

    def __init__(self, kernel_loop: asyncio.AbstractEventLoop | None) -> None:
        self.kernel_loop = kernel_loop
        # The newest failures; ``failure_count`` counts them all (limits.py).
        self.failures: deque[CallbackFailure] = deque(maxlen=CALLBACK_FAILURES_KEPT)
        self.failure_count = 0
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> int:
        """How many callbacks' coroutines are running now (each a referenced task)."""
        return len(self._tasks)

    def soon(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(*args)`` on the kernel's loop; called from the bridge's loop."""
        loop = self.kernel_loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(fn, *args)
        else:
            asyncio.get_running_loop().call_soon(fn, *args)

    def invoke(
        self, callback: Callable[[Any], Any], argument: Any, what: str, player: str, said: str
    ) -> asyncio.Task[None] | None:
        """Call ``callback(argument)`` now, on the running loop; a coroutine it returns runs
        as a task (returned, so the caller may wait for it). ``what``, ``player`` and ``said``
        name the failure if there is one ("UI chat", who wrote, what they wrote)."""
        try:
            outcome = callback(argument)
        except Exception as exc:
            self.report(callback, what, player, said, exc)
            return None
        if not asyncio.iscoroutine(outcome):
            return None
        task = asyncio.get_running_loop().create_task(
            self._await(callback, outcome, what, player, said)
        )
        self._tasks.add(task)  # referenced until it ends
        task.add_done_callback(self._tasks.discard)
        return task

    async def _await(
        self,
        callback: Callable[[Any], Any],
        outcome: Coroutine[Any, Any, Any],
        what: str,
        player: str,
        said: str,
    ) -> None:
        try:
            await outcome
        except Exception as exc:
            self.report(callback, what, player, said, exc)

    def report(
        self, callback: Callable[..., Any], what: str, player: str, said: str, exc: BaseException
    ) -> None:
        """Count, keep and (the first times) print one failure."""
        name = getattr(callback, "__qualname__", repr(callback))
        text = "".join(traceback.format_exception(exc))
        self.failures.append(CallbackFailure(name, player, said, repr(exc), text))
        self.failure_count += 1
        if self.failure_count > CALLBACK_FAILURES_PRINTED:
            return  # counted, shown by %mc, the newest kept: a flood must not flood the cell
        told = f"{what} callback {name} failed on {player}'s message "
        # The player's name and the traceback's message come from the game: cleaned.
        print(clean_text(f"{told}{said[:200]!r}:\n{text}"), file=sys.stderr)
        if self.failure_count == CALLBACK_FAILURES_PRINTED:
            print(
                f"UI chat callbacks failed {CALLBACK_FAILURES_PRINTED} times; later failures "
                f"are not printed: %mc counts them and mc.callback_failures keeps the newest "
                f"{CALLBACK_FAILURES_KEPT}.",
                file=sys.stderr,
            )
