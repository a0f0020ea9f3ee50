"""``mc.world("Ana")``: a handle bound to one world.

A :class:`World` is made of the same parts as ``mc`` (every call: ``command``, ``call``,
``players``, ``inventory``, the toolkit, the live map, ``doctor`` ...) over the same
:class:`Core`, with a bridge that sends them all to its world, found by name each time, so
it follows the world through a reconnect. What ``mc`` owns (the runtime, the callbacks,
the recording, the stopped state) is the core's, so both see it alike.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...cleantext import clean_text
from ...gateway import GameConnection
from ..runtime import Pending
from ..show import Status
from ._calls import Calls
from ._classroom import ManyWorlds
from ._connections import Connection
from ._core import Core
from ._diagnose import Diagnosis
from ._events import EventCallback
from ._game_events import GameEvents
from ._recording import Recordings
from ._structures import StructureCalls
from ._toolkit import ToolkitCalls
from ._ui_chat import UiCallback
from ._watch import Watch
from ._worlds import RoutedBridge, WorldRecord

__all__ = ["World"]


class World(
    GameEvents, StructureCalls, ToolkitCalls, Watch, Recordings, Diagnosis, ManyWorlds, Calls
):
    """``mc`` bound to one world: ``await mc.world("Ana").inventory()``."""

    def __init__(self, core: Core, record: WorldRecord) -> None:
        roster = core.roster
        super().__init__(core, RoutedBridge(core.bridge, lambda: roster.connection_of(record)))
        self._record = record

    # --- which world ------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """What the world is called: as renamed, else its host player's name, else ``world #id``."""
        return self._record.name

    @property
    def id(self) -> int:
        """The id of its current (or last) game connection."""
        return self._record.id

    @property
    def connected(self) -> bool:
        """True while its game is connected (False once it left; it may reconnect)."""
        return self._record.connected

    @property
    def connection(self) -> Connection:
        """Its game connection as a thread-safe handle (NotConnected once it left)."""
        return Connection(self._game(), self._submit)

    def _game(self) -> GameConnection:
        return self._core.roster.connection_of(self._record)

    def rename(self, name: str) -> World:
        """Call this world ``name`` from now on (it keeps the name when it reconnects)."""
        self._core.roster.rename(self._record, name)
        return self

    @property
    def sim(self) -> Any:
        """This world's simulated game (``mc.simulate(worlds=N)``), or None."""
        return self._core.sims_by_host().get(self._record.host or "")

    @sim.setter
    def sim(self, value: Any) -> None:
        raise AttributeError("start simulated worlds with mc.simulate(...)")

    # --- what differs from mc ---------------------------------------------------------------

    def _event_connection(self) -> GameConnection | None:
        return self._game()  # NotConnected: subscribing needs the world here

    def _event_world_ids(self) -> list[int] | None:
        return self._record.ids  # the record's own list: it grows when the world reconnects

    def on_event(self, callback: EventCallback, kinds: Any = None) -> EventCallback:
        """Call ``callback(event)`` for events from this world only (see mc.on_event)."""
        self._core.events.add(callback, kinds, self._record.ids)
        return callback

    def close(self) -> None:
        """Close this world's connection (the player may /connect again); mc goes on."""
        if self._record.connected:
            self.connection.close().result(10)

    def simulate(self, *args: Any, **kwargs: Any) -> Pending[Any]:
        """Not on a world: simulated worlds start from ``mc`` (``mc.simulate(worlds=N)``).

        Raises:
            TypeError: always.
        """
        raise TypeError("simulated worlds are started from mc: mc.simulate(worlds=N)")

    def on_ui_chat(self, callback: UiCallback) -> UiCallback:
        """Call ``callback(msg)`` for UI chat from this world only (see mc.on_ui_chat)."""
        record = self._record

        def from_this_world(msg: Any) -> Any:
            if msg.connection is not None and msg.connection.id in record.ids:
                return callback(msg)
            return None

        from_this_world.__qualname__ = getattr(callback, "__qualname__", repr(callback))
        record.callbacks[callback] = from_this_world
        self._core.ui_chat.add(from_this_world)
        return callback

    def off_ui_chat(self, callback: UiCallback | None = None) -> None:
        """Remove one of this world's callbacks, or all of them."""
        chosen = list(self._record.callbacks) if callback is None else [callback]
        for cb in chosen:
            wrapper = self._record.callbacks.pop(cb, None)
            if wrapper is not None:
                self._core.ui_chat.remove(wrapper)

    def status(self) -> Status:
        """The status panel of this world alone: its game, its latest events."""
        whole = self._core.status()
        ids = self._record.ids
        return replace(
            whole,
            connections=[c for c in whole.connections if c["id"] in ids],
            recent=[e for e in whole.recent if e.connection in ids],
            worlds=[w for w in whole.worlds if w["id"] in ids],
            pending=self._record.row()["pending"],
        )

    def __repr__(self) -> str:
        r = self._record  # a world is named after its host: a player's name, cleaned
        if not r.connected:
            return clean_text(f"<world {r.name} (id {r.id}): not connected; it left, the name "
                              "waits for it>")  # fmt: skip
        said = f"<world {r.name} (id {r.id}) from {r.address}; mc.world({r.name!r}) ...>"
        return clean_text(said)
