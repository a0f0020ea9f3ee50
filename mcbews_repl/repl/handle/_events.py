"""``mc.on_event``: Python callbacks for what happens in the worlds, each told its world.

The event log calls its listeners synchronously on the bridge's loop; a notebook callback
must run on the kernel's loop (between or during awaits of cells), like UI chat ones. Each
entry of the chosen kinds becomes a :class:`WorldEvent` carrying its world's handle, so
``event.world.command(...)`` and ``event.reply(...)`` act in the world it came from. At
most ``EVENT_CALLBACKS_WAITING`` deliveries wait at once; beyond that they are dropped and
counted (``dropped``): a chatty class must not grow memory without bound.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...game_events import GameEvent, OtherGameEvent, PlayerMessage, event_kind
from ...gateway import EventLog, LogEntry
from ...vocabulary import EventKind
from ..runtime import Pending
from ._callbacks import CallbackRunner

__all__ = [
    "DEFAULT_EVENT_KINDS",
    "EVENT_CALLBACKS_WAITING",
    "EventCallbacks",
    "WorldEvent",
    "game_event_name",
    "typed_event",
]

# What players do (chat, the panel) and worlds coming and going: not the bridge's own
# command and capability entries, which a callback's own calls would set off again.
DEFAULT_EVENT_KINDS = (
    EventKind.CHAT,
    EventKind.UI_CHAT,
    EventKind.CONNECTED,
    EventKind.DISCONNECTED,
)
# Deliveries queued for the kernel's loop at once; more are dropped and counted.
EVENT_CALLBACKS_WAITING = 256

EventCallback = Callable[["WorldEvent"], Any]


def game_event_name(entry: LogEntry) -> str | None:
    """The game event an entry records (``BlockBroken`` ...; a chat line is PlayerMessage's),
    or None for the bridge's own kinds."""
    if entry.kind == EventKind.GAME_EVENT:
        return str(entry.data.get("event", ""))
    return PlayerMessage.name if entry.kind == EventKind.CHAT else None


def typed_event(entry: LogEntry) -> GameEvent | None:
    """The typed event (mcbews_repl/game_events.py) of a game event's or a chat's entry."""
    name = game_event_name(entry)
    if name is None:
        return None
    data = entry.data
    if entry.kind == EventKind.CHAT:
        return PlayerMessage(player=data.get("sender"), message=data.get("message"),
                             type=data.get("type"), receiver=data.get("receiver"))  # fmt: skip
    kind = event_kind(name)
    if kind is None:
        return OtherGameEvent(event=name, **{k: v for k, v in data.items() if k != "event"})
    return kind.make(data)


@dataclass(frozen=True)
class WorldEvent:
    """One event as a callback sees it: what happened, and in which world. A game event's
    callback (``mc.on("BlockBroken", fn)``) also finds the typed event's fields here
    (``event.block``, ``event.x``), and the typed event itself as ``event.event``."""

    kind: str
    summary: str
    player: str | None
    at: float
    cursor: int
    data: Mapping[str, Any] = field(repr=False)
    world: Any = field(default=None, repr=False)  # mc bound to the world (None: it left)
    event: GameEvent | None = None  # the typed game event (mcbews_repl/game_events.py)

    def __getattr__(self, name: str) -> Any:
        # Only reached for names the dataclass lacks: the typed event's fields.
        event = self.__dict__.get("event")
        if event is not None and not name.startswith("_") and hasattr(event, name):
            return getattr(event, name)
        raise AttributeError(f"this {self.__dict__.get('kind', '')} event has no {name!r}")

    @property
    def world_name(self) -> str | None:
        """The name of the world the event came from (None once that world has left)."""
        return None if self.world is None else str(self.world.name)

    def reply(self, text: str) -> Pending[int]:
        """Answer the player in their addon panel, in the world the event came from.

        Raises:
            ValueError: the event names no player, or its world has left.
        """
        if self.world is None or not self.player:
            raise ValueError(f"this {self.kind} event has no player and world to answer")
        pending: Pending[int] = self.world.send_text(self.player, text)
        return pending


@dataclass
class _Registered:
    callback: EventCallback
    kinds: frozenset[str]
    world_ids: list[int] | None  # a world's connection ids (its record's, live) or all
    events: frozenset[str] | None = None  # game event names (mc.on): these, not ``kinds``

    def wants(self, entry: LogEntry) -> bool:
        if self.world_ids is not None and entry.connection not in self.world_ids:
            return False
        if self.events is None:
            return entry.kind in self.kinds
        return game_event_name(entry) in self.events


class EventCallbacks:
    """The event callbacks of one ``mc``; listens to the log while any is registered. The
    callbacks run through the one :class:`CallbackRunner`, as UI chat ones do."""

    def __init__(
        self, log: EventLog, runner: CallbackRunner, world_of_id: Callable[[int | None], Any]
    ) -> None:
        self._log = log
        self._runner = runner
        self._world_of_id = world_of_id
        self._registered: list[_Registered] = []
        self._remove: Callable[[], None] | None = None
        self.waiting = 0
        self.dropped = 0

    def add(
        self,
        callback: EventCallback,
        kinds: Any,
        world_ids: list[int] | None,
        events: frozenset[str] | None = None,
    ) -> None:
        """Call ``callback`` for entries of ``kinds`` (or, given ``events``, for those game
        events) from the worlds of ``world_ids`` (None: every world)."""
        chosen = frozenset([kinds] if isinstance(kinds, str) else kinds or DEFAULT_EVENT_KINDS)
        self._registered.append(_Registered(callback, chosen, world_ids, events))
        if self._remove is None:
            self._remove = self._log.add_listener(self._on_entry)

    def remove(self, callback: EventCallback | None) -> None:
        self._registered = [r for r in self._registered
                            if callback is not None and r.callback is not callback]  # fmt: skip
        self._stop_listening_if_idle()

    def remove_game_events(
        self, callback: EventCallback | None, name: str | None, world_ids: list[int] | None
    ) -> int:
        """Remove game event callbacks: this one, or those of ``name``, or all (of these
        worlds' when ``world_ids`` is given); returns how many went."""

        def goes(r: _Registered) -> bool:
            return (r.events is not None
                    and (callback is None or r.callback is callback)
                    and (name is None or name in r.events)
                    and (world_ids is None or r.world_ids is world_ids))  # fmt: skip

        before = len(self._registered)
        self._registered = [r for r in self._registered if not goes(r)]
        self._stop_listening_if_idle()
        return before - len(self._registered)

    def game_event_callbacks(self) -> dict[str, int]:
        """How many callbacks each game event has (for ``%mc events``)."""
        counts: dict[str, int] = {}
        for r in self._registered:
            for name in r.events or ():
                counts[name] = counts.get(name, 0) + 1
        return counts

    def _stop_listening_if_idle(self) -> None:
        if not self._registered and self._remove is not None:
            self._remove()
            self._remove = None

    def _on_entry(self, entry: LogEntry) -> None:
        chosen = [r for r in self._registered if r.wants(entry)]
        if not chosen:
            return
        if self.waiting >= EVENT_CALLBACKS_WAITING:
            self.dropped += 1
            return
        self.waiting += 1
        self._runner.soon(self._deliver, chosen, entry)

    def _deliver(self, chosen: list[_Registered], entry: LogEntry) -> None:
        self.waiting -= 1
        player = entry.data.get("player") or entry.data.get("sender")
        world = self._world_of_id(entry.connection)
        typed = typed_event(entry) if any(r.events for r in chosen) else None
        event = WorldEvent(entry.kind, entry.summary, None if player is None else str(player),
                           entry.at, entry.cursor, entry.data, world, typed)  # fmt: skip
        for registered in chosen:
            self._runner.invoke(registered.callback, event, f"{event.kind} event",
                                event.player or "the game", event.summary)  # fmt: skip
