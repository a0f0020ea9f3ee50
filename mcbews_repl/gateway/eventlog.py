"""The event log: a bounded ring buffer of what happened, replayable by cursor.

Every entry gets the next integer cursor, so a reader that remembers the last cursor it saw
can ask for everything after it (``since``) and never sees an entry twice. Old entries fall
off the front once the buffer is full; cursors keep counting, so a gap is visible as a jump.
Live readers either register a listener (called synchronously on append) or iterate
:meth:`EventLog.follow`, which replays and then waits for new entries without a queue of
its own, so a slow reader costs no memory beyond the ring.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EventLog", "LogEntry"]

_log = logging.getLogger("mcbews_repl.gateway")


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One thing that happened. ``kind`` is a stable word; ``data`` holds its details.

    Kinds: ``connected``, ``disconnected``, ``refused``, ``chat``, ``command``,
    ``capability``, ``ui_chat``, ``callback_error``, ``text``, ``rejected``, ``expired``.
    """

    cursor: int
    at: float  # wall-clock seconds (time.time()), for display
    kind: str
    connection: int | None
    summary: str
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)


Listener = Callable[[LogEntry], object]


class EventLog:
    """A ring of at most ``capacity`` entries with monotonically increasing cursors."""

    def __init__(self, capacity: int = 10_000, *, clock: Callable[[], float] = time.time):
        self.capacity = capacity
        self._entries: deque[LogEntry] = deque(maxlen=capacity)
        self._clock = clock
        self._last = 0
        self._listeners: list[Listener] = []
        self._waiters: list[asyncio.Future[None]] = []

    @property
    def last_cursor(self) -> int:
        """The cursor of the newest entry (0 before the first)."""
        return self._last

    def __len__(self) -> int:
        return len(self._entries)

    def append(
        self, kind: str, summary: str, connection: int | None = None, **data: Any
    ) -> LogEntry:
        self._last += 1
        entry = LogEntry(self._last, self._clock(), kind, connection, summary, data)
        self._entries.append(entry)
        if self._waiters:
            waiters, self._waiters = self._waiters, []
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)
        for listener in self._listeners:
            try:
                listener(entry)
            except Exception:  # a listener's bug must not stop the gateway recording
                _log.exception("event log listener %r failed", listener)
        return entry

    def since(self, cursor: int = 0) -> list[LogEntry]:
        """Every entry still held whose cursor is greater than ``cursor``."""
        if cursor >= self._last or not self._entries:
            return []
        first = self._entries[0].cursor
        skip = max(cursor - first + 1, 0)
        return list(itertools.islice(self._entries, skip, None))

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(entry)`` on every new entry; returns a function that removes it."""
        self._listeners.append(listener)

        def remove() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return remove

    async def follow(self, since: int | None = None) -> AsyncIterator[LogEntry]:
        """Entries after ``since`` (default: from now on), then new ones as they arrive."""
        cursor = self._last if since is None else since
        while True:
            batch = self.since(cursor)
            if not batch:
                waiter = asyncio.get_running_loop().create_future()
                self._waiters.append(waiter)
                await waiter
                continue
            for entry in batch:
                cursor = entry.cursor
                yield entry
