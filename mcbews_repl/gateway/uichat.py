"""UI chat on its way to the callbacks: a bounded queue per game connection.

A player (or a broken addon, or anything that reaches the port) can send UI chat far
faster than a slow callback answers it. One task per message once left 5,006 tasks alive
after 5,000 messages, and 256 waiting messages of 2 MiB took a notebook to 580 MB. Here
each connection runs at most ``in_flight`` messages at once (one worker task each,
referenced until it ends) and keeps at most ``backlog`` messages and ``backlog_bytes``
waiting; a message beyond either is dropped, counted, and :meth:`UiChatQueue.put` says
so for its caller to report: never silently. When the game leaves,
:meth:`UiChatQueue.close` drops what still waits, so its memory goes with the game (the
messages already running finish).

For each message every registered callback is called in turn: a sync one inline, an
awaitable result awaited (several awaited together). A callback's failure is reported
through ``on_failure`` and the others still run.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .results import UiChat

__all__ = ["UiChatCallback", "UiChatHooks", "UiChatQueue", "held_bytes"]

UiChatCallback = Callable[[UiChat], object]


def held_bytes(message: UiChat) -> int:
    """What a waiting message holds: the object and its strings, as Python keeps them."""
    size = sys.getsizeof(message) + sys.getsizeof(message.message)
    size += sys.getsizeof(message.player) + sys.getsizeof(message.message_id)
    if message.conversation_id is not None:
        size += sys.getsizeof(message.conversation_id)
    return size


@dataclass(frozen=True, slots=True)
class UiChatHooks:
    """What the bridge lends every connection's queue.

    ``callbacks`` is the bridge's own list (registrations show up at once); ``spawn``
    starts a task the bridge references until it ends (and cancels on close);
    ``on_failure`` reports a callback that raised.
    """

    callbacks: Sequence[UiChatCallback]
    spawn: Callable[[Awaitable[Any]], asyncio.Future[Any]]
    on_failure: Callable[[UiChatCallback, UiChat, BaseException], None]


class UiChatQueue:
    """One connection's UI chat messages: a few running, a bounded backlog, drops counted."""

    def __init__(
        self,
        hooks: UiChatHooks,
        *,
        in_flight: int,
        backlog: int,
        backlog_bytes: int,
    ) -> None:
        self._callbacks = hooks.callbacks
        self._spawn = hooks.spawn
        self._on_failure = hooks.on_failure
        self.in_flight_limit = in_flight
        self.backlog_limit = backlog
        self.backlog_bytes_limit = backlog_bytes
        self.running = 0
        self.dropped = 0
        self.queued_bytes = 0  # held_bytes() of what waits
        self._backlog: deque[UiChat] = deque()

    @property
    def queued(self) -> int:
        """UI chat messages waiting for the callbacks."""
        return len(self._backlog)

    def put(self, message: UiChat) -> bool:
        """Hand ``message`` to the callbacks, now or later; False if it was dropped (the
        caller records why: the queue only says so)."""
        if not self._callbacks:
            return True  # nobody listens: the event log has it, nothing to run
        if self.running < self.in_flight_limit:
            self.running += 1
            self._spawn(self._work(message))
            return True
        size = held_bytes(message)
        if len(self._backlog) < self.backlog_limit and (
            self.queued_bytes + size <= self.backlog_bytes_limit
        ):
            self._backlog.append(message)
            self.queued_bytes += size
            return True
        self.dropped += 1
        return False

    def close(self) -> tuple[int, int]:
        """Drop every waiting message (the game left); ``(messages, bytes)`` dropped. The
        messages already running finish; their workers then find nothing more."""
        dropped = len(self._backlog), self.queued_bytes
        self._backlog.clear()
        self.queued_bytes = 0
        self.dropped += dropped[0]
        return dropped

    async def _work(self, message: UiChat) -> None:
        """Run ``message``, then whatever waits, until the backlog is empty."""
        try:
            while True:
                await self._run(message)
                if not self._backlog:
                    return
                message = self._backlog.popleft()
                self.queued_bytes -= held_bytes(message)
        finally:
            self.running -= 1

    async def _run(self, message: UiChat) -> None:
        waiting: list[tuple[UiChatCallback, Awaitable[Any]]] = []
        for callback in list(self._callbacks):
            try:
                outcome = callback(message)
            except Exception as exc:
                self._on_failure(callback, message, exc)
                continue
            if inspect.isawaitable(outcome):
                waiting.append((callback, outcome))
        if len(waiting) == 1:  # the usual case: awaited here, no task of its own
            callback, awaitable = waiting[0]
            try:
                await awaitable
            except Exception as exc:
                self._on_failure(callback, message, exc)
            return
        # Several awaitables run together (gather makes one task each, awaited here). If
        # this worker is cancelled (the bridge closing), the await raises; a cancellation
        # among the results is the callback's own doing, reported like an error.
        results = await asyncio.gather(*(w for _, w in waiting), return_exceptions=True)
        for (callback, _), result in zip(waiting, results, strict=True):
            if isinstance(result, BaseException):
                self._on_failure(callback, message, result)
