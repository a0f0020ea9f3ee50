"""The event log: a bounded record of what happened, replayable by cursor.

Every entry gets the next integer cursor, so a reader that remembers the last cursor it saw
can ask for everything after it (``since``) and never sees an entry twice. The log is
bounded three ways (``mcbews_repl.limits``): by entries, by estimated bytes in all, and by
each connection's share of those bytes. Each owner (a connection, or ``None`` for the
bridge's own entries) is guaranteed an even part of both bounds (``shares``: the most
games plus the bridge): when the log is full, an owner holding more than that part loses
its oldest entries first (the one appending, if it is over, else the heaviest), so five
flooding peers push out their own history and not a quiet game's. Only when every owner
is within its part does the log's oldest entry go. Cursors keep counting, so a gap is
visible as a jump. Text longer than ``text_chars`` keeps its head and tail around a
visible marker, and the entry's ``data["truncated"]`` records each field's full length.
Live readers either register a listener (called synchronously on append) or iterate
:meth:`EventLog.follow`, which replays and then waits for new entries without a queue of
its own, so a slow reader costs no memory beyond the log.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..limits import (
    LOG_CAPACITY_ENTRIES,
    LOG_CONNECTION_MAX_BYTES,
    LOG_ENTRY_OVERHEAD_BYTES,
    LOG_MAX_BYTES,
    LOG_TEXT_CHARS,
    MAX_CONNECTIONS,
)
from ..vocabulary import EventKind

__all__ = ["CommandFields", "ConnectionLog", "EventLog", "LogEntry", "truncate_text"]

_log = logging.getLogger("mcbews_repl.gateway")
# Of a truncated text, the share kept from its end (a traceback's last line says the most).
_TAIL_SHARE = 4


def truncate_text(text: str, limit: int) -> str:
    """``text`` if it fits ``limit`` characters, else its head and tail around a marker."""
    if len(text) <= limit:
        return text
    marker = f" …[{len(text):,} chars, cut to {limit:,}]… "
    room = max(limit - len(marker), 0)
    tail = room // _TAIL_SHARE
    return text[: room - tail] + marker + (text[-tail:] if tail else "")


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One thing that happened. ``kind`` says what: an ``EventKind`` (mcbews_repl/vocabulary.py),
    equal to its string (``entry.kind == "chat"``); ``data`` holds the details, the fields
    that kind lists."""

    cursor: int
    at: float  # wall-clock seconds (time.time()), for display
    kind: EventKind
    connection: int | None
    summary: str
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)


Listener = Callable[[LogEntry], object]

_COMMAND_KEYS = ("command", "status_code", "status_message", "elapsed")


class CommandFields(Mapping[str, Any]):
    """An answered command entry's ``data``: its four values in one small object, read as
    the dict ``{"command", "status_code", "status_message", "elapsed"}`` it stands for.

    A command is the most frequent entry (a burst logs thousands a second), and a dict
    per entry is most of what one holds; this holds the same values in slots, and a reader
    sees the same mapping (``dict(fields)`` gives the dict)."""

    __slots__ = ("_code", "_elapsed", "_line", "_message")

    def __init__(self, line: str, code: int, message: str, elapsed: float) -> None:
        self._line = line
        self._code = code
        self._message = message
        self._elapsed = elapsed

    def __getitem__(self, key: str) -> Any:
        if key == "command":
            return self._line
        if key == "status_code":
            return self._code
        if key == "status_message":
            return self._message
        if key == "elapsed":
            return self._elapsed
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(_COMMAND_KEYS)

    def __len__(self) -> int:
        return len(_COMMAND_KEYS)

    def __contains__(self, key: object) -> bool:
        return key in _COMMAND_KEYS

    def __repr__(self) -> str:
        return repr(dict(self))


# The fields object itself (sys.getsizeof(CommandFields(...)): header and four slots).
_FIELDS_BYTES = sys.getsizeof(CommandFields("", 0, "", 0.0))
# What a command entry holds beyond LOG_ENTRY_OVERHEAD_BYTES and its fields' own sizes:
# tracemalloc over 2,000 entries (tests/gateway/test_eventlog.py) shows 312 bytes for the
# entry object, its cursor, time and the log's books, 72 more than that constant, which a
# data dict's sys.getsizeof makes up for in the other kinds; the fields object has no slack.
_COMMAND_BOOKS_BYTES = 72


def _estimate(summary: str, data: dict[str, Any]) -> int:
    """What an entry holds: the entry itself, its summary, its data dict (which grows with
    its keys: a game event has about twenty) and every value that is an object of its own
    (strings, floats, large ints; not None, booleans or the small ints Python shares), one
    level into a list or dict value. Within a few percent of what tracemalloc sees held."""
    size = LOG_ENTRY_OVERHEAD_BYTES + sys.getsizeof(summary) + sys.getsizeof(data)
    for value in data.values():
        size += _value_bytes(value)
        if isinstance(value, dict):
            size += sum(_value_bytes(v) for v in value.values())
        elif isinstance(value, list | tuple):
            size += sum(_value_bytes(v) for v in value)
    return size


_FLOAT_BYTES = sys.getsizeof(0.5)


def _value_bytes(value: object) -> int:
    if value is None or isinstance(value, bool) or (isinstance(value, int) and -5 <= value < 257):
        return 0  # shared by the interpreter, not held by the entry
    return sys.getsizeof(value)


class EventLog:
    """At most ``capacity`` entries and ``max_bytes`` (estimated), with growing cursors."""

    def __init__(
        self,
        capacity: int = LOG_CAPACITY_ENTRIES,
        *,
        max_bytes: int = LOG_MAX_BYTES,
        connection_max_bytes: int = LOG_CONNECTION_MAX_BYTES,
        text_chars: int = LOG_TEXT_CHARS,
        shares: int = MAX_CONNECTIONS + 1,
        clock: Callable[[], float] = time.time,
    ):
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.connection_max_bytes = min(connection_max_bytes, max_bytes)
        self.text_chars = text_chars
        # What each owner keeps whoever floods: an even part of each bound.
        self.reserved_entries = max(capacity // shares, 1)
        self.reserved_bytes = max_bytes // shares
        # What the bounds did: truncated entries, entries dropped before the entry cap
        # would have dropped them (for the bytes in all, for one connection's share).
        self.counters: Counter[str] = Counter()
        self._entries: OrderedDict[int, LogEntry] = OrderedDict()
        # Per connection (None: the bridge's own entries), oldest first: (cursor, bytes).
        self._owned: dict[int | None, deque[tuple[int, int]]] = {}
        self._owned_bytes: Counter[int | None] = Counter()
        # Owners holding more than their reserved entries / bytes: at most ``shares`` each,
        # so choosing whom to evict never scans every owner.
        self._over_entries: set[int | None] = set()
        self._over_bytes: set[int | None] = set()
        self._bytes = 0
        self._clock = clock
        self._last = 0
        self._listeners: list[Listener] = []
        self._waiters: list[asyncio.Future[None]] = []

    @property
    def last_cursor(self) -> int:
        """The cursor of the newest entry (0 before the first)."""
        return self._last

    @property
    def size_bytes(self) -> int:
        """The estimated size of the entries held."""
        return self._bytes

    def connection_bytes(self, connection: int | None) -> int:
        """The estimated size of one connection's entries (None: the bridge's own)."""
        return self._owned_bytes.get(connection, 0)

    def __len__(self) -> int:
        return len(self._entries)

    def append(
        self, kind: EventKind, summary: str, connection: int | None = None, **data: Any
    ) -> LogEntry:
        """Record one entry (long text cut to ``text_chars``) and tell the listeners and
        followers; returns it. ``connection`` is its owner (None: the bridge's own)."""
        summary, size = self._bound_text(summary, data)
        self._last += 1
        entry = LogEntry(self._last, self._clock(), kind, connection, summary, data)
        return self._publish(entry, size)

    def append_command(
        self, connection: int | None, line: str, code: int, message: str, elapsed: float
    ) -> LogEntry:
        """Record an answered command (``kind`` ``command``) with :class:`CommandFields` for
        its data: the same entry :meth:`append` makes from those four fields, in fewer
        objects and steps. Text past ``text_chars`` takes :meth:`append`'s way."""
        summary = f"/{line[:60]} → {code}"
        limit = self.text_chars
        if len(line) > limit or len(message) > limit or len(summary) > limit:
            fields = {"status_code": code, "status_message": message, "elapsed": elapsed}
            return self.append(EventKind.COMMAND, summary, connection, command=line, **fields)
        size = (
            LOG_ENTRY_OVERHEAD_BYTES
            + _COMMAND_BOOKS_BYTES
            + sys.getsizeof(summary)
            + _FIELDS_BYTES
            + sys.getsizeof(line)
            + sys.getsizeof(message)
            + _value_bytes(code)
            + _FLOAT_BYTES
        )
        self._last += 1
        entry = LogEntry(
            self._last,
            self._clock(),
            EventKind.COMMAND,
            connection,
            summary,
            CommandFields(line, code, message, elapsed),
        )
        return self._publish(entry, size)

    def _publish(self, entry: LogEntry, size: int) -> LogEntry:
        """Keep ``entry`` (``size`` estimated bytes), wake the followers, tell the listeners."""
        self._keep(entry, size)
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

    def _bound_text(self, summary: str, data: dict[str, Any]) -> tuple[str, int]:
        """Truncate long text in place; return the summary and the entry's estimated size."""
        limit, cut = self.text_chars, {}
        if len(summary) > limit:
            cut["summary"], summary = len(summary), truncate_text(summary, limit)
        for key, value in data.items():
            if isinstance(value, str) and len(value) > limit:
                cut[key] = len(value)
                data[key] = truncate_text(value, limit)
        if cut:
            data["truncated"] = cut
            self.counters["truncated"] += 1
        return summary, _estimate(summary, data)

    def _keep(self, entry: LogEntry, size: int) -> None:
        owner = entry.connection
        self._entries[entry.cursor] = entry
        owned = self._owned.setdefault(owner, deque())
        owned.append((entry.cursor, size))
        self._owned_bytes[owner] += size
        self._bytes += size
        while self._owned_bytes[owner] > self.connection_max_bytes and len(owned) > 1:
            # The owner's own oldest go: the over-reserve sets matter only after this loop.
            self._drop_oldest_of(owner, reclassify=False)
            self.counters["dropped_for_connection_share"] += 1
        self._reclassify(owner)
        while len(self._entries) > self.capacity:
            self._drop_oldest_of(self._evictee(owner, self._over_entries, by_bytes=False))
        while self._bytes > self.max_bytes:
            self.counters["dropped_for_bytes"] += 1
            self._drop_oldest_of(self._evictee(owner, self._over_bytes, by_bytes=True))

    def _evictee(
        self, appender: int | None, over: set[int | None], *, by_bytes: bool
    ) -> int | None:
        """Whose oldest entry makes room: the appender's if it is over its reserve, else the
        heaviest owner over it, else (everyone within) the log's oldest entry's owner."""
        if appender in over:
            return appender
        if over:
            if by_bytes:
                return max(over, key=self._owned_bytes.__getitem__)
            return max(over, key=lambda o: len(self._owned[o]))
        return next(iter(self._entries.values())).connection

    def _reclassify(self, owner: int | None) -> None:
        """Keep ``owner``'s membership of the over-reserve sets true after a change."""
        owned = self._owned.get(owner)
        if owned is not None and len(owned) > self.reserved_entries:
            self._over_entries.add(owner)
        else:
            self._over_entries.discard(owner)
        if self._owned_bytes.get(owner, 0) > self.reserved_bytes:
            self._over_bytes.add(owner)
        else:
            self._over_bytes.discard(owner)

    def _drop_oldest_of(self, owner: int | None, *, reclassify: bool = True) -> None:
        """Drop ``owner``'s oldest entry (``reclassify``: update the over-reserve sets now)."""
        owned = self._owned[owner]
        cursor, size = owned.popleft()
        del self._entries[cursor]
        self._bytes -= size
        self._owned_bytes[owner] -= size
        if not owned:
            del self._owned[owner], self._owned_bytes[owner]
        if reclassify:
            self._reclassify(owner)

    def since(self, cursor: int = 0) -> list[LogEntry]:
        """Every entry still held whose cursor is greater than ``cursor``."""
        if cursor >= self._last or not self._entries:
            return []
        if cursor < next(iter(self._entries)):
            return list(self._entries.values())
        newer: list[LogEntry] = []
        for entry in reversed(self._entries.values()):
            if entry.cursor <= cursor:
                break
            newer.append(entry)
        newer.reverse()
        return newer

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


class ConnectionLog:
    """One game connection's entries: each carries its id, and a text cut to the log's
    bound is counted on the connection's own ``counters`` (``log_truncated``). Its parts
    record through this, not through the connection."""

    __slots__ = ("_counters", "_id", "_log")

    def __init__(self, log: EventLog, connection_id: int, counters: Counter[str]) -> None:
        self._log = log
        self._id = connection_id
        self._counters = counters

    def record(self, kind: EventKind, summary: str, **data: Any) -> LogEntry:
        """Append one entry of this connection's."""
        entry = self._log.append(kind, summary, self._id, **data)
        if "truncated" in entry.data:  # long text cut to the log's bound: say so per game
            self._counters["log_truncated"] += 1
        return entry

    def record_command(self, line: str, code: int, message: str, elapsed: float) -> LogEntry:
        """Append an answered command of this connection's (EventLog.append_command)."""
        entry = self._log.append_command(self._id, line, code, message, elapsed)
        if "truncated" in entry.data:
            self._counters["log_truncated"] += 1
        return entry
