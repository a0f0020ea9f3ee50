"""One connection's command deadlines: a heap, and one timer for the earliest of them.

A command waits for a slot, for its reply, or for a completion after a refusal; it must
stop waiting when its timeout passes, wherever it waits. ``asyncio.timeout`` does that with
a context manager, a timer handle and a task cancellation per command (about 4 µs of a
command's CPU in a 10,000-command burst, docs/benchmarks.md). Here each command holds one
entry, ``[when, sequence, waiting]``, in its connection's heap; the one timer
(``loop.call_at``) is set for the earliest entry, and when it fires it fails the future
each expired command is waiting on with ``TimeoutError``. The waiter then raises it, so a
timed-out command unwinds exactly as it did under ``asyncio.timeout`` (its slot released,
its late reply counted as unknown), without a cancellation to undo.

Entries of commands that finished stay in the heap until the timer reaches them or until
they are more than half of it, when it is rebuilt without them (the rule asyncio applies
to its own cancelled timers), so the heap holds at most about twice the commands the
window and its queue hold.
"""

from __future__ import annotations

import asyncio
import heapq
from typing import Any

__all__ = ["Deadlines", "Entry"]

# An entry is a list, compared by C code in the heap: [when, sequence, waiting] where
# waiting is None (between waits), the future the command waits on, _DONE or _EXPIRED.
Entry = list[Any]
_DONE = object()
_EXPIRED = object()
# Rebuild the heap once finished entries are more than half of it and at least this many
# (asyncio's _MIN_SCHEDULED_TIMER_HANDLES and _MIN_CANCELLED_TIMER_HANDLES_FRACTION).
_MIN_COMPACT = 100


class Deadlines:
    """The deadlines of one connection's commands."""

    __slots__ = ("_finished", "_heap", "_loop", "_sequence", "_timer", "_timer_at")

    def __init__(self) -> None:
        self._heap: list[Entry] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._sequence = 0
        self._finished = 0

    def __len__(self) -> int:
        return len(self._heap)

    def add(self, seconds: float) -> Entry:
        """A new deadline ``seconds`` from now; finish it with :meth:`finish`."""
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        when = loop.time() + seconds
        self._sequence += 1
        entry: Entry = [when, self._sequence, None]
        heapq.heappush(self._heap, entry)
        if self._timer is None or when < self._timer_at:
            self._arm(when)
        return entry

    @staticmethod
    def wait_on(entry: Entry, future: asyncio.Future[Any]) -> None:
        """The command now waits on ``future``: fail it with TimeoutError at the deadline.

        Raises:
            TimeoutError: the deadline has already passed.
        """
        if entry[2] is _EXPIRED:
            raise TimeoutError
        entry[2] = future

    @staticmethod
    def check(entry: Entry) -> None:
        """Raise TimeoutError if the deadline has passed (between waits)."""
        if entry[2] is _EXPIRED:
            raise TimeoutError
        entry[2] = None

    def finish(self, entry: Entry) -> None:
        """The command is over: its deadline no longer applies."""
        if entry[2] is _EXPIRED:
            return  # already out of the heap
        entry[2] = _DONE
        self._finished += 1
        heap = self._heap
        if self._finished > _MIN_COMPACT and 2 * self._finished > len(heap):
            self._heap = [e for e in heap if e[2] is not _DONE]
            heapq.heapify(self._heap)
            self._finished = 0
            if not self._heap and self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def close(self) -> None:
        """Stop the timer (the connection closed; its commands were failed)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._heap.clear()
        self._finished = 0

    def _arm(self, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        assert self._loop is not None
        self._timer = self._loop.call_at(when, self._fire)
        self._timer_at = when

    def _fire(self) -> None:
        self._timer = None
        assert self._loop is not None
        now = self._loop.time()
        heap = self._heap
        while heap and heap[0][0] <= now:
            entry = heapq.heappop(heap)
            waiting = entry[2]
            if waiting is _DONE:
                self._finished -= 1
                continue
            entry[2] = _EXPIRED
            if waiting is not None and not waiting.done():
                waiting.set_exception(TimeoutError())
        if heap:
            self._arm(heap[0][0])
