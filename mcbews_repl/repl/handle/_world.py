"""``mc.world("Ana")``: the ``mc`` handle bound to one world.

:class:`BoundWorld` holds what a bound handle does differently; ``handle.World`` is
``BoundWorld`` over ``Minecraft`` (made there, so that this module needs no ``Minecraft``
at run time). A world handle has every call ``mc`` has (``command``, ``call``, ``players``,
``inventory``, the toolkit, the live map, ``doctor`` ...) and sends them all to its world,
found by name each time, so it follows the world through a reconnect. It is a view of
``mc``: whatever it does not hold itself (the runtime, the callbacks, the recording, the
stopped state) it reads from ``mc`` at the moment it is used.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...cleantext import clean_text
from ...gateway import GameConnection
from ..runtime import Pending
from ..show import Status
from ._connections import Connection
from ._worlds import RoutedBridge, WorldRecord

if TYPE_CHECKING:
    from ._events import EventCallback
    from ._minecraft import Minecraft, UiCallback

__all__ = ["BoundWorld"]


class BoundWorld:
    """What ``mc.world("Ana")`` does differently from ``mc``; mixed in before Minecraft."""

    if TYPE_CHECKING:
        _bridge: Any
        _submit: Any

    def __init__(self, parent: Minecraft, record: WorldRecord) -> None:
        # No Minecraft.__init__: a World owns nothing; __getattr__ lends it mc's state.
        self._parent = parent
        self._record = record
        roster = parent._roster
        self._bridge = RoutedBridge(parent._bridge, lambda: roster.connection_of(record))

    def __getattr__(self, name: str) -> Any:
        # Only reached for what this view does not hold: read it from mc, live.
        if name.startswith("__") or name in ("_parent", "_record"):
            raise AttributeError(name)
        return getattr(self._parent, name)

    @property
    def _stopped(self) -> bool:
        return bool(self._parent._stopped)

    @_stopped.setter
    def _stopped(self, value: bool) -> None:
        raise AttributeError("a world's handle cannot stop the bridge; mc.close() does")

    # --- which world ------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._record.name

    @property
    def id(self) -> int:
        """The id of its current (or last) game connection."""
        return self._record.id

    @property
    def connected(self) -> bool:
        return self._record.connected

    @property
    def connection(self) -> Connection:
        """Its game connection as a thread-safe handle (NotConnected once it left)."""
        return Connection(self._game(), self._submit)

    def _game(self) -> GameConnection:
        return self._parent._roster.connection_of(self._record)

    def rename(self, name: str) -> BoundWorld:
        """Call this world ``name`` from now on (it keeps the name when it reconnects)."""
        self._parent._roster.rename(self._record, name)
        return self

    @property
    def sim(self) -> Any:
        """This world's simulated game (``mc.simulate(worlds=N)``), or None."""
        return self._parent._sims_by_host().get(self._record.host or "")

    @sim.setter
    def sim(self, value: Any) -> None:
        raise AttributeError("start simulated worlds with mc.simulate(...)")

    # --- what differs from mc ---------------------------------------------------------------

    def _mc(self) -> Minecraft:
        return self._parent  # worlds, each and callbacks belong to mc itself

    def on_event(self, callback: EventCallback, kinds: Any = None) -> EventCallback:
        """Call ``callback(event)`` for events from this world only (see mc.on_event)."""
        self._parent._event_callbacks().add(callback, kinds, self._record.ids)
        return callback

    def close(self) -> None:
        """Close this world's connection (the player may /connect again); mc goes on."""
        if self._record.connected:
            self.connection.close().result(10)

    def simulate(self, *args: Any, **kwargs: Any) -> Pending[Any]:
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
        self._parent.on_ui_chat(from_this_world)
        return callback

    def off_ui_chat(self, callback: UiCallback | None = None) -> None:
        """Remove one of this world's callbacks, or all of them."""
        chosen = list(self._record.callbacks) if callback is None else [callback]
        for cb in chosen:
            wrapper = self._record.callbacks.pop(cb, None)
            if wrapper is not None:
                self._parent.off_ui_chat(wrapper)

    def status(self) -> Status:
        """The status panel of this world alone: its game, its latest events."""
        whole = self._parent.status()
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
