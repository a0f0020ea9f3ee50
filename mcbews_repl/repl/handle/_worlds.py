"""Several games connected at once, told apart by name: the roster and the routing.

A classroom connects every student's world to one bridge. Each world gets a name, its host
player's by default (``mc.world("Ana").rename("Table 4")`` changes it), and keeps it when
the game reconnects: a connection whose host player and address match a world that dropped
takes that world's place, so ``mc.world("Table 4")`` goes on working.

Which game a call goes to is decided in one place, :meth:`RoutedBridge.pick`. ``mc`` asks
its :class:`Roster` for "the only world" (and names them all when there are several:
nothing is sent to the newest by chance); ``mc.world("Ana")`` asks for that world. The
routed bridge is the same bridge, seen through that choice, so every call the handle makes
(the toolkit's, the live map's, the doctor's) goes where the handle is bound.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...exceptions import NotConnected, WhichWorld
from ...gateway import Bridge, GameConnection, LogEntry
from ...optional import needs
from ..show import tag, world_sentence

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CALLED",
    "DROPPED_WORLDS_KEPT",
    "WORLD_COLUMNS",
    "Roster",
    "RoutedBridge",
    "WorldRecord",
    "WorldRef",
    "call_text",
]

# Worlds that dropped and are remembered (their names, for a reconnect and for %mc): a
# classroom is tens of worlds; a soak test's thousands of short visits must not pile up.
DROPPED_WORLDS_KEPT = 200
# A world's connection ids remembered (for mc.world(id) and its events): a game that
# reconnects all day must not grow its record.
IDS_KEPT = 64
WORLD_COLUMNS = [
    "id", "name", "connected", "address", "encrypted", "connected since", "players", "pending",
    "last event",
]  # fmt: skip

WorldRef = str | int  # a world's name, or one of its connection ids
# What the handle's call was, as the WhichWorld message writes it after mc.world(...)
# ("inventory()"): set around each call by the handle (_minecraft.py), read where the world
# is chosen, on the bridge's thread (a context variable: each call's task has its own).
CALLED: contextvars.ContextVar[str] = contextvars.ContextVar("mcbews_called", default="")
# The calls mc.each makes on every world (_each.py).
_EACH_CALLS = ("players", "inventory", "command", "call")


def call_text(method: str, *args: object) -> str:
    """A call as the user wrote it, for the WhichWorld message: ``command('say hi')``
    (a long argument shortened: the message only has to show which call it was)."""
    shown = [repr(a) if len(repr(a)) <= 30 else repr(a)[:26] + "...'" for a in args]
    return f"{method}({', '.join(shown)})"


def _clock(at: float | None) -> str:
    return "" if at is None else dt.datetime.fromtimestamp(at).strftime("%H:%M:%S")


@dataclass
class WorldRecord:
    """One world as the roster knows it, connected now or dropped."""

    connection: GameConnection | None
    host: str | None
    ip: str  # the peer's address without its port (a reconnect comes from another port)
    address: str
    connected_at: float
    ids: list[int] = field(default_factory=list)  # its connection ids, oldest first
    renamed: str | None = None
    dropped_at: float | None = None
    players: list[str] = field(default_factory=list)  # as last seen in an answer
    last_event: LogEntry | None = None
    encrypted: bool = False  # as its latest connection was (kept after it drops)
    # UI chat callbacks registered on this world's handle, and the filters mc runs for them.
    callbacks: dict[Any, Any] = field(default_factory=dict, repr=False)
    builder: Any = field(default=None, repr=False)  # its writes' undo and checkpoints

    @property
    def id(self) -> int:
        return self.ids[-1]

    @property
    def name(self) -> str:
        return self.renamed or self.host or f"world #{self.id}"

    @property
    def connected(self) -> bool:
        return self.connection is not None and not self.connection.closed

    def row(self) -> dict[str, Any]:
        c = self.connection
        last = self.last_event
        seen = self.players or ([self.host] if self.host else [])
        return {
            "id": self.id,
            "name": self.name,
            "connected": self.connected,
            "address": self.address,
            "encrypted": self.encrypted,
            "connected since": dt.datetime.fromtimestamp(self.connected_at),
            "players": ", ".join(seen),
            "pending": c.pending if c is not None and self.connected else 0,
            "last event": f"{_clock(last.at)} {world_sentence(last)}" if last else "",
        }


def _ip(peer: str) -> str:
    host, _, _port = peer.rpartition(":")
    return host or peer


class Roster:
    """Every world this bridge has seen: names, reconnects, drops, the latest event.

    ``sync()`` brings it up to date with the bridge's connections; it runs on whichever
    thread asks (a cell, the bridge's loop), so a lock keeps the records whole.
    """

    def __init__(self, bridge: Bridge, clock: Callable[[], float]) -> None:
        self._bridge = bridge
        self._clock = clock
        self._lock = threading.Lock()
        self._records: list[WorldRecord] = []
        # Each connection's latest event, also before its record exists (bounded: oldest go).
        self._latest: OrderedDict[int, LogEntry] = OrderedDict()

    # --- keeping up -------------------------------------------------------------------------

    def sync(self) -> list[WorldRecord]:
        """The records, oldest first, after matching them to the open connections."""
        live = [c for c in self._bridge.connections if not c.closed]
        with self._lock:
            alive = set(live)
            placed = {}
            for record in self._records:
                if record.connection is not None and record.connection not in alive:
                    record.connection = None
                    record.dropped_at = self._clock()
                elif record.connection is not None:
                    placed[record.connection] = record
            for connection in live:
                self._place(connection, placed.get(connection))
            self._forget_oldest_dropped()
            return list(self._records)

    def _place(self, connection: GameConnection, mine: WorldRecord | None) -> None:
        if mine is not None:
            mine.encrypted = connection.encrypted
            if mine.host is None and connection.local_player:
                mine.host = connection.local_player
                self._take_over(mine)
            return
        record = WorldRecord(
            connection, connection.local_player, _ip(connection.peer), connection.peer,
            connection.connected_at, [connection.id],
        )  # fmt: skip
        record.last_event = self._latest.get(connection.id)
        record.encrypted = connection.encrypted
        self._records.append(record)
        if record.host:
            self._take_over(record)

    def _take_over(self, record: WorldRecord) -> None:
        """A reconnect: the newest dropped world with the same host and address lends the
        new connection its name, its history of ids and its place in the list."""
        same = [r for r in self._records if r is not record and r.connection is None
                and r.host == record.host and r.ip == record.ip]  # fmt: skip
        if not same:
            return
        old = same[-1]
        old.connection, old.address, old.connected_at = (
            record.connection, record.address, record.connected_at)  # fmt: skip
        old.ids += record.ids
        del old.ids[:-IDS_KEPT]  # in place: a world handle's event filter holds this list
        old.encrypted = record.encrypted
        old.dropped_at = None
        old.players = old.players or record.players
        self._records.remove(record)

    def _forget_oldest_dropped(self) -> None:
        dropped = [r for r in self._records if r.connection is None]
        for record in dropped[: max(len(dropped) - DROPPED_WORLDS_KEPT, 0)]:
            self._records.remove(record)

    def on_entry(self, entry: LogEntry) -> None:
        """An event log listener (on the bridge's loop): remember each world's latest."""
        if entry.connection is None:
            return
        latest = entry  # put in words only when the list is shown
        with self._lock:
            self._latest[entry.connection] = latest
            self._latest.move_to_end(entry.connection)
            if len(self._latest) > DROPPED_WORLDS_KEPT:
                self._latest.popitem(last=False)
            for record in self._records:
                if entry.connection in record.ids:
                    record.last_event = latest
                    return

    def saw_players(self, connection: GameConnection, names: Iterable[str]) -> None:
        """An answer from ``connection`` named these players (for the listing)."""
        with self._lock:
            for record in self._records:
                if record.connection is connection:
                    record.players = sorted(set(names))

    # --- finding one ------------------------------------------------------------------------

    def connected(self) -> list[WorldRecord]:
        return [r for r in self.sync() if r.connected]

    def find(self, ref: WorldRef) -> WorldRecord:
        """The world called ``ref`` (a name, or any of its connection ids).

        Raises:
            NotConnected: no world is called so.
            WhichWorld: several connected worlds have that name (the message gives ids).
        """
        if isinstance(ref, bool) or not isinstance(ref, (str, int)):
            raise TypeError(f"a world is named by its name or id, not {type(ref).__name__}")
        records = self.sync()
        if isinstance(ref, int):
            found = [r for r in records if ref in r.ids]
        else:
            found = [r for r in records if r.name == ref]
            found = found or [r for r in records if r.name.lower() == ref.lower()]
        if not found:
            raise NotConnected(f"no world {ref!r}; {self.listing(records)}")
        live = [r for r in found if r.connected]
        if len(live) > 1:  # two hosts with one name: never the newest by chance
            raise WhichWorld(
                f"{len(live)} connected worlds are called {ref!r} "
                f"({', '.join(f'id {r.id}' for r in live)}): name one by its id, "
                f"mc.world({live[0].id}), or rename one: mc.world({live[0].id}).rename(...)"
            )
        return sorted(found, key=lambda r: r.connected)[-1]  # a connected one first

    def rename(self, record: WorldRecord, name: str) -> None:
        name = name.strip()
        if not name:
            raise ValueError("a world's name cannot be empty")
        taken = [r for r in self.sync() if r is not record and r.name == name]
        if taken:
            raise ValueError(f"another world is already called {name!r} (id {taken[0].id})")
        with self._lock:
            record.renamed = name

    def only_one(self) -> GameConnection:
        """The one connected world, for a call that was not told which one.

        Raises:
            NotConnected: no game is connected (the message says what to type).
            WhichWorld: several are; the message lists them and how to choose.
        """
        live = [c for c in self._bridge.connections if not c.closed]
        if len(live) == 1:
            return live[0]  # every call of a one-world session: no bookkeeping needed
        connected = self.connected()
        if not connected:
            raise NotConnected(
                f"no game is connected; in Minecraft type: {self._bridge.connect_command}"
            )
        if len(connected) > 1:
            raise WhichWorld(ambiguity_message(connected, CALLED.get()))
        connection = connected[0].connection
        assert connection is not None
        return connection

    def connection_of(self, record: WorldRecord) -> GameConnection:
        """The open connection of ``record``'s world.

        Raises:
            NotConnected: the world left (the message says when, and who is connected).
        """
        game = record.connection
        if game is not None and not game.closed:
            return game  # the usual case, and mc.each's for every world: no bookkeeping
        self.sync()  # it may have reconnected since
        if record.connection is None or record.connection.closed:
            raise NotConnected(
                f"{record.name}'s world is not connected (it left at "
                f"{_clock(record.dropped_at)}); it keeps its name when it connects again. "
                f"{self.listing(self.connected())}"
            )
        return record.connection

    def name_of(self, connection_id: int | None) -> str | None:
        if connection_id is None:
            return None
        return next((r.name for r in self.sync() if connection_id in r.ids), None)

    def status_rows(self) -> list[dict[str, Any]]:
        """What the status panel says of each world (show/_status.py)."""
        return [
            {"name": r.name, "id": r.id, "ids": list(r.ids), "connected": r.connected,
             "since": r.connected_at, "dropped": r.dropped_at, "address": r.address}
            for r in self.sync()
        ]  # fmt: skip

    @staticmethod
    def listing(records: list[WorldRecord]) -> str:
        if not records:
            return "no world is connected"
        return "connected: " + ", ".join(f"{r.name} (id {r.id})" for r in records if r.connected)

    def frame(self) -> pd.DataFrame:
        """``mc.worlds``: one row per world, connected ones first, then the dropped; shown
        through the worlds view (show/_views.py)."""
        with needs():
            import pandas as pd

        records = sorted(self.sync(), key=lambda r: not r.connected)  # stable: oldest first
        rows = [r.row() for r in records]
        return tag(pd.DataFrame(rows, columns=WORLD_COLUMNS), "worlds")


def ambiguity_message(connected: list[WorldRecord], called: str) -> str:
    """Which worlds are connected, and how to send this call (``called``, such as
    ``inventory()``) to one of them: by name, or by id where two worlds share the name."""
    names = ", ".join(f"{r.name} (id {r.id})" for r in connected)
    first = connected[0]
    shared = sum(r.name == first.name for r in connected) > 1
    call = f".{called}" if called else ""
    by_name = f"mc.world({first.name!r}){call}, or " if not shared else ""
    twice = (f"; two worlds are called {first.name!r}, so name them by id or rename one "
             f"(mc.world({first.id}).rename(...))") if shared else ""  # fmt: skip
    each = called.split("(")[0] in _EACH_CALLS
    every = f"mc.each{call}" if each else "mc.each.players(), .inventory() ..."
    return (
        f"{len(connected)} worlds are connected ({names}), so this call needs to be told "
        f"which: {by_name}mc.world({first.id}){call}{twice}; {every} asks every world; "
        "in %mc: %mc --world NAME ... or %mc --all ..."
    )


class RoutedBridge(Bridge):
    """The bridge seen by one handle: the same server, connections and log, and calls that
    go to the world the handle chooses (``choose``) when no ``connection=`` is given.

    A view, not a second server: it shares the bridge's attributes (its ``__dict__``), so
    whatever the bridge does it sees, and it keeps its own choice in a slot.
    """

    __slots__ = ("_choose",)

    def __init__(self, bridge: Bridge, choose: Callable[[], GameConnection]) -> None:
        # No Bridge.__init__: that would make a second server. Sharing the instance
        # dictionary makes every attribute this view reads or sets the bridge's own.
        self.__dict__ = bridge.__dict__
        self._choose = choose

    def pick(self, connection: GameConnection | None = None) -> GameConnection:
        return connection if connection is not None else self._choose()
