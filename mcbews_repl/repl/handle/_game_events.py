"""``mc.on("BlockBroken", fn)``: the game's events as callbacks, subscriptions and tables.

A name is looked up in the one vocabulary (mcbews_repl/game_events.py) before anything is
sent: an unknown one raises :class:`UnknownEvent` listing the known ones, unless asked for
with ``unknown_ok=True``. ``mc.on`` (and ``mc.each.on``) hears every world and subscribes
everywhere, also in worlds that connect later; ``mc.world("Ana").on`` hears Ana's world
only and subscribes there, again after Ana reconnects. A WebSocket event (``BlockBroken``)
is the connected client's own: in a classroom where students join the teacher's world, the
teacher's connection hears the teacher only; an addon event (``player_break_block``) is
forwarded by the addon for every player, so it hears every student (docs/repl.md, "Whom
you hear").

``off`` removes callbacks and keeps the subscription (the log still records the events,
``mc.events(kind=...)`` shows them); ``unsubscribe`` stops the game sending them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, overload

from ...exceptions import NotConnected
from ...game_events import GAME_EVENTS, event_kind
from ...gateway import GameConnection, LogEntry, check_event_name, check_rate
from ...optional import needs
from ..runtime import Pending
from ..show import clean_rows, tag
from ._core import Core, Handle
from ._events import EventCallback, game_event_name

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["GameEvents", "event_listing", "game_events_frame"]

# How long mc.on waits for its subscription to reach the bridge's loop (not the game).
_SUBSCRIBE_WAIT_SECONDS = 10.0
_LEAD_COLUMNS = ["time", "connection"]
_LISTING_COLUMNS = ["event", "source", "covers", "status", "subscribed", "callbacks", "meaning"]


class GameEvents(Handle):
    """The game events part of a handle: ``on``, ``off``, ``subscribe``, ``unsubscribe``
    and ``subscriptions``. ``mc``'s hear every world; a world handle's, its own."""

    # --- where: every world (mc), or one (a world handle overrides these) -------------------

    def _event_connection(self) -> GameConnection | None:
        """The connection whose world a subscription is for (None: every world)."""
        return None

    def _event_world_ids(self) -> list[int] | None:
        """The connection ids a callback hears (None: every world's)."""
        return None

    # --- callbacks --------------------------------------------------------------------------

    @overload
    def on(
        self,
        name: str,
        callback: None = None,
        *,
        unknown_ok: bool = False,
        rate: int | None = None,
    ) -> Callable[[EventCallback], EventCallback]: ...
    @overload
    def on(
        self,
        name: str,
        callback: EventCallback,
        *,
        unknown_ok: bool = False,
        rate: int | None = None,
    ) -> EventCallback: ...
    def on(
        self,
        name: str,
        callback: EventCallback | None = None,
        *,
        unknown_ok: bool = False,
        rate: int | None = None,
    ) -> Any:
        """Call ``callback(event)`` for each game event ``name`` (``"BlockBroken"``), and
        subscribe to it; also a decorator: ``@mc.on("BlockBroken")``. ``event.block``,
        ``event.x`` ... are the typed event's fields, ``event.event`` the typed event,
        ``event.world`` the world's handle, ``event.reply(text)`` answers the player. The
        callback may be sync or async; it runs like UI chat callbacks do. ``rate``: at most
        that many events a second per player (``PlayerTravelled`` otherwise comes once a
        tick while the player moves), the rest dropped and counted; as with ``subscribe``,
        it is this subscription's, and none given is none.

        Raises:
            UnknownEvent: no event of that name is known (the message lists the known ones);
                ``unknown_ok=True`` subscribes to it anyway.
            ValueError: a rate out of range (0 to 20), or for PlayerMessage.
            NotConnected: on a world handle whose world is not connected.
            BridgeStopped: the bridge was stopped.
        """
        name = check_event_name(name, unknown_ok=unknown_ok)
        rate = check_rate(name, rate)
        if self.stopped:
            raise self._stopped_error("no event can arrive")
        connection = self._event_connection()

        def register(fn: EventCallback) -> EventCallback:
            if not callable(fn):
                raise TypeError(f"mc.on({name!r}, ...) takes a function, not {fn!r}")
            self._core.events.add(fn, None, self._event_world_ids(), frozenset([name]))
            self._subscribe(name, connection, unknown_ok, rate).result(_SUBSCRIBE_WAIT_SECONDS)
            return fn

        return register if callback is None else register(callback)

    def off(self, target: EventCallback | str | None = None) -> int:
        """Remove game event callbacks: one function, every callback of an event name, or
        (no argument) all of this handle's; returns how many went. Subscriptions stay
        (``unsubscribe`` stops the events)."""
        if isinstance(target, str):
            check_event_name(target, unknown_ok=True)
            return self._core.events.remove_game_events(None, target, self._event_world_ids())
        return self._core.events.remove_game_events(target, None, self._event_world_ids())

    # --- subscriptions ----------------------------------------------------------------------

    def subscribe(
        self, name: str, *, unknown_ok: bool = False, rate: int | None = None
    ) -> Pending[frozenset[str]]:
        """Have the game send the event ``name`` (here, or in every world for ``mc``); the
        Pending gives what the connection now hears. Kept across reconnects, its rate too.

        ``rate``: at most that many events a second per player, the rest dropped and
        counted (the status panel shows how many). For a noisy event of the game's own
        (``PlayerTravelled`` comes once a tick while the player moves) the bridge keeps
        the rate; for an addon event, the addon. The rate is this subscription's: a world's
        (``mc.world("Ana").subscribe(..., rate=5)``) stays with that world and comes before
        the one everywhere; subscribing again sets it again, and none given (or 0) is none.

        Raises:
            UnknownEvent: no event of that name is known; ``unknown_ok=True`` to insist.
            ValueError: a rate out of range (0 to 20), or for PlayerMessage.
            NotConnected: on a world handle whose world is not connected.
        """
        name = check_event_name(name, unknown_ok=unknown_ok)
        rate = check_rate(name, rate)
        return self._subscribe(name, self._event_connection(), unknown_ok, rate)

    def unsubscribe(self, name: str) -> Pending[frozenset[str]]:
        """Stop the event ``name`` (everywhere for ``mc``, else in this world); callbacks
        stay registered. PlayerMessage cannot be stopped (chat and answers need it)."""
        name = check_event_name(name, unknown_ok=True)
        connection = self._event_connection()

        async def run() -> frozenset[str]:
            return await self._bridge.unsubscribe(name, connection=connection)

        return self._submit(run(), f"unsubscribe {name}")

    def _subscribe(
        self,
        name: str,
        connection: GameConnection | None,
        unknown_ok: bool,
        rate: int | None = None,
    ) -> Pending[frozenset[str]]:
        async def run() -> frozenset[str]:
            return await self._bridge.subscribe(
                name, connection=connection, unknown_ok=unknown_ok, rate=rate
            )

        return self._submit(run(), f"subscribe {name}")

    @property
    def subscriptions(self) -> pd.DataFrame:
        """Every known game event: its source, who it covers, how sure the corpus is, and
        whether it is subscribed (here, everywhere) and how many callbacks it has."""
        return event_listing(self._core, self._event_connection_or_none())

    def _event_connection_or_none(self) -> GameConnection | None:
        try:
            return self._event_connection()
        except NotConnected:
            return None


def event_listing(core: Core, connection: GameConnection | None) -> pd.DataFrame:
    """The table of ``%mc events list`` and ``mc.subscriptions``."""
    with needs():
        import pandas as pd

    book = core.bridge.subscriptions
    heard = connection.events if connection is not None else frozenset()
    callbacks = core.events.game_event_callbacks()
    rows = []
    for name, kind in GAME_EVENTS.items():
        everywhere = kind.always or name in book.everywhere
        on = name in heard if connection is not None else everywhere
        rows.append({"event": name, "source": str(kind.source), "covers": str(kind.covers),
                     "status": str(kind.status) + ("" if kind.fires else ", reported not to fire"),
                     "subscribed": on, "callbacks": callbacks.get(name, 0),
                     "meaning": kind.meaning})  # fmt: skip
    for name in sorted(book.unknown_ok):
        rows.append({"event": name, "source": "websocket", "covers": "unknown",
                     "status": "not in the corpus (unknown_ok)",
                     "subscribed": name in (heard if connection else book.everywhere),
                     "callbacks": callbacks.get(name, 0), "meaning": ""})  # fmt: skip
    return tag(pd.DataFrame(clean_rows(rows), columns=_LISTING_COLUMNS), "game_events")


def game_events_frame(entries: list[LogEntry], name: str) -> pd.DataFrame:
    """One row per event ``name`` among ``entries``: when, which connection, and the event's
    own columns (the player's first), indexed by cursor."""
    with needs():
        import pandas as pd

    kind = event_kind(name)
    own = list(kind.columns) if kind is not None else ["player", "x", "y", "z", "properties"]
    chosen = [e for e in entries if game_event_name(e) == name]
    rows = []
    for e in chosen:
        data = e.data
        if name == "PlayerMessage":  # a chat entry: its fields by the event's names
            data = {"player": data.get("sender"), **data}
        row = {"time": dt.datetime.fromtimestamp(e.at), "connection": e.connection}
        rows.append(row | {c: data.get(c) for c in own})
    index = pd.Index([e.cursor for e in chosen], name="cursor", dtype="int64")
    frame = pd.DataFrame(clean_rows(rows), columns=_LEAD_COLUMNS + own, index=index)
    return tag(frame, f"game_event:{name}") if kind is not None else frame
