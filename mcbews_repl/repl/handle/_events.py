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

from ...gateway import EventLog, LogEntry
from ...vocabulary import EventKind
from ..runtime import Pending
from ._callbacks import CallbackRunner

__all__ = ["DEFAULT_EVENT_KINDS", "EVENT_CALLBACKS_WAITING", "EventCallbacks", "WorldEvent"]

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


@dataclass(frozen=True)
class WorldEvent:
    """One event as a callback sees it: what happened, and in which world."""

    kind: str
    summary: str
    player: str | None
    at: float
    cursor: int
    data: Mapping[str, Any] = field(repr=False)
    world: Any = field(default=None, repr=False)  # mc bound to the world (None: it left)

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

    def add(self, callback: EventCallback, kinds: Any, world_ids: list[int] | None) -> None:
        chosen = frozenset([kinds] if isinstance(kinds, str) else kinds or DEFAULT_EVENT_KINDS)
        self._registered.append(_Registered(callback, chosen, world_ids))
        if self._remove is None:
            self._remove = self._log.add_listener(self._on_entry)

    def remove(self, callback: EventCallback | None) -> None:
        self._registered = [r for r in self._registered
                            if callback is not None and r.callback is not callback]  # fmt: skip
        if not self._registered and self._remove is not None:
            self._remove()
            self._remove = None

    def _on_entry(self, entry: LogEntry) -> None:
        chosen = [r for r in self._registered if entry.kind in r.kinds
                  and (r.world_ids is None or entry.connection in r.world_ids)]  # fmt: skip
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
        event = WorldEvent(entry.kind, entry.summary, None if player is None else str(player),
                           entry.at, entry.cursor, entry.data, world)  # fmt: skip
        for registered in chosen:
            self._runner.invoke(registered.callback, event, f"{event.kind} event",
                                event.player or "the game", event.summary)  # fmt: skip
