"""What the game sends on one connection: read, open, decode, dispatch, record.

The connection's reader (:meth:`Inbound.read`) hands every frame here, and so does the
encryption handshake for every frame it does not claim. Once a session cipher is agreed
the frame is opened first; then the sans-I/O :class:`BridgeProtocol` turns it into
events, and each event either settles a waiting future (command window, capability
calls), goes to the UI chat callbacks' queue, or becomes an event-log entry. Remote input
never raises: what the peer got wrong is counted and recorded as ``rejected``, and a bug
in our own handling is logged and counted so the connection keeps serving. Nothing here
calls back into the connection: what a frame needs is handed over when it is made.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed as WebSocketClosed

from ..game_events import GameEvent, OtherGameEvent, event_kind
from ..limits import GAME_EVENTS_PER_SECOND, READER_FRAMES_PER_TURN, SUBSCRIBE_ACKS_AWAITED
from ..sansio import (
    BridgeEvent,
    BridgeProtocol,
    BufferExpired,
    CapabilityFailed,
    CapabilityResult,
    ChatMessage,
    CommandResponse,
    ForwardedBatch,
    FrameRejected,
    GameError,
    GameEventReceived,
    OtherEvent,
    RequestExpired,
    UiChatMessage,
    UnknownFrame,
    decode_other_event,
)
from ..vocabulary import EventKind
from .calls import CapabilityCalls, Record
from .encryption import SessionCipher
from .forwarding import ForwardGate
from .link import Link
from .observer import ui_chat_outcome
from .rates import PlayerRates
from .results import UiChat
from .uichat import UiChatQueue
from .window import CommandWindow, Reply

__all__ = ["Inbound", "event_summary", "event_values"]

_log = logging.getLogger("mcbews_repl.gateway")
_PLAYER_COLUMNS = frozenset(("player", "x", "y", "z", "dimension", "yaw"))


def event_values(event: GameEvent) -> dict[str, object]:
    """The event's fields that have a value (a log entry's data besides ``event``)."""
    names = event.__dataclass_fields__
    return {n: v for n in names if n != "event" and (v := getattr(event, n)) is not None}


def event_summary(event: GameEvent) -> str:
    """One line for the log: the event, who, and its first few own fields."""
    if isinstance(event, OtherGameEvent):
        return f"{event.event} ({event.player or 'no player'})"
    kind = event_kind(event.name)
    own = [c for c in (kind.columns if kind else ()) if c not in _PLAYER_COLUMNS]
    said = [f"{c} {_shown(getattr(event, c))}" for c in own if not c.endswith("_id")]
    shown = ", ".join(s for s in said if not s.endswith(" None"))[:120]
    where = "" if event.x is None else f" at {event.x:.0f} {event.y:.0f} {event.z:.0f}"
    return f"{event.name} by {event.player or '?'}{where}" + (f": {shown}" if shown else "")


def _shown(value: object) -> str:
    """A field's value for a person: a float to two decimals at most (3.54, 12)."""
    if isinstance(value, float):
        said = f"{value:.2f}".rstrip("0").rstrip(".")
        return "0" if said == "-0" else said
    return str(value)


class Inbound:
    """The inbound half of one connection: frames in, futures settled, entries recorded."""

    def __init__(
        self,
        proto: BridgeProtocol,
        window: CommandWindow,
        calls: CapabilityCalls,
        record: Record,
        *,
        link: Link,
        ui_chats: UiChatQueue,
        stray_forwarded: Callable[[], None] | None = None,
    ) -> None:
        self.frames_in = 0
        self.cipher: SessionCipher | None = None  # set once ws:encrypt is agreed
        self.event_version: int | None = None  # header version of the game's first event
        # Request ids of our subscribe frames: their acknowledgements are expected, not
        # stray (oldest first, at most SUBSCRIBE_ACKS_AWAITED: a game may never answer).
        self.subscriptions: dict[str, None] = {}
        # The game events this connection subscribed to: only these are kept (a peer's
        # unasked events are counted and dropped), and of those the corpus does not know,
        # the ones asked for with unknown_ok (kept as OtherGameEvent).
        self.listening: set[str] = set()
        self.unknown_ok: set[str] = set()
        # The gateway's own bound on what the addon forwards (forwarding.py), and whom to
        # tell when the addon forwards a kind this connection did not ask for (an earlier
        # session's subscription): the connection sets the addon right.
        self.forward_gate = ForwardGate()
        # The game's own events: a subscription's rate per player (name to rate, set by the
        # connection from its book; the addon rates its own), and a second's worth in all.
        self.rates: dict[str, int] = {}
        self.player_rates = PlayerRates()
        self.event_gate = ForwardGate(events_per_second=GAME_EVENTS_PER_SECOND)
        self._gate_told = float("-inf")  # when a drop past event_gate was last recorded
        self._stray_forwarded = stray_forwarded
        self._proto = proto
        self._window = window
        self._calls = calls
        self._record = record
        self._link = link  # shows frames to the observers; its owner answers UI chat
        self._ui_chats = ui_chats
        self._id = link.connection_id
        self._frame: str | bytes = ""  # the frame being handled, for sizes in logs

    async def read(self, websocket: ServerConnection) -> BaseException:
        """Feed every frame to :meth:`feed` until the socket closes; return why it did."""
        while True:
            for _ in range(READER_FRAMES_PER_TURN):
                try:
                    message = await websocket.recv()
                except WebSocketClosed as exc:
                    return exc
                self.feed(message)
            # recv() returns frames already parsed without suspending, and one socket read
            # can hold a thousand small ones: yield so other connections are served too.
            await asyncio.sleep(0)

    def feed(self, message: str | bytes) -> None:
        """Handle one received frame; never raises."""
        self.frames_in += 1
        if self.cipher is not None:
            opened = self.cipher.open(message)
            if opened is None:
                self._link.tap("in", message)
                self._proto.counters["rejected:plaintext_after_encryption"] += 1
                self._frame = message
                self._on_rejected(FrameRejected("plaintext_after_encryption", "text frame"))
                self._frame = ""
                return
            if isinstance(message, str):
                self._proto.counters["plaintext_race"] += 1
            message = opened
        self._link.tap("in", message)
        self._frame = message
        try:
            for event in self._proto.receive_text(message, time.monotonic()):
                self._dispatch(event)
        except Exception:  # our bug, not the peer's: keep the connection serving
            self._proto.counters["internal_error"] += 1
            _log.exception("connection #%d: failed to handle a frame", self._id)
        finally:
            self._frame = ""  # do not keep a large frame alive until the next one

    def expire(self, now: float) -> None:
        """Drop bridge buffers past their TTL and record what was dropped."""
        for event in self._proto.expire(now):
            self._dispatch(event)

    def handle(self, event: BridgeEvent) -> None:
        """Dispatch an event that came another way (the pull transport's UI chat)."""
        self._dispatch(event)

    def reject(self, reason: str, detail: str, message_id: str | None) -> None:
        """Count and record input refused on its way in another way (a UI chat poll's
        reply): the core counts what it refuses itself, this counts the rest."""
        self._proto.counters[f"rejected:{reason}"] += 1
        self._dispatch(FrameRejected(reason, detail, message_id))

    def _dispatch(self, event: BridgeEvent) -> None:
        match event:
            case CommandResponse() | GameError():
                self._on_reply(event)
            case ChatMessage():
                self._on_chat(event)
            case CapabilityResult() | CapabilityFailed() | RequestExpired():
                self._calls.settle(event)
            case UiChatMessage():
                self._on_ui_chat_message(event)
            case ForwardedBatch():
                self._on_forwarded(event)
            case FrameRejected():
                self._on_rejected(event)
            case UnknownFrame(purpose=purpose):
                self._proto.counters["rejected:unknown_purpose"] += 1
                self._on_rejected(FrameRejected("unknown_purpose", purpose[:40]))
            case BufferExpired(channel=channel, message_id=mid, received=got, total=total):
                self._record(
                    EventKind.EXPIRED,
                    f"partial {channel} message dropped ({got}/{total})",
                    channel=channel,
                    message_id=mid,
                    received=got,
                    total=total,
                )
            case GameEventReceived(event=game_event, protocol_version=version):
                self.event_version = self.event_version or version
                self._on_websocket_event(game_event)
            case OtherEvent(event_name=name, body=body, protocol_version=version):
                self.event_version = self.event_version or version
                if name in self.listening and name in self.unknown_ok:
                    other = decode_other_event(name, body)
                    if isinstance(other, OtherGameEvent):
                        self._on_websocket_event(other)
                    return
                self._proto.counters["unsubscribed_event"] += 1
                _log.debug("connection #%d: event %s ignored", self._id, name[:64])

    def _on_reply(self, reply: Reply) -> None:
        if self._window.resolve(reply):
            return
        if reply.request_id in self.subscriptions:
            del self.subscriptions[reply.request_id]  # the game acknowledged subscribe
            return
        reason = "late_response" if reply.request_id else "game_error"
        self._proto.counters[reason] += 1
        detail = f"status {reply.status_code}: {reply.status_message[:80]}"
        self._on_rejected(FrameRejected(reason, detail, reply.request_id or None))

    def expect_ack(self, request_id: str) -> None:
        """A subscribe or unsubscribe frame went out: its answer is not a stray."""
        self.subscriptions[request_id] = None
        while len(self.subscriptions) > SUBSCRIBE_ACKS_AWAITED:
            del self.subscriptions[next(iter(self.subscriptions))]

    def _on_websocket_event(self, event: GameEvent) -> None:
        """One of the game's own events: kept unless over its subscription's rate for its
        player, or past this connection's second's worth (each dropped and counted)."""
        name = event.event if isinstance(event, OtherGameEvent) else event.name
        if name not in self.listening:
            self._on_game_event(event)  # counted as unsubscribed there
            return
        now = time.monotonic()
        rate = self.rates.get(name, 0)
        if rate and not self.player_rates.admit(now, name, event.player, rate):
            self._proto.counters["rate_dropped"] += 1
            return
        if not self.event_gate.admit(now, 1, 0):
            self._proto.counters["game_events_dropped"] += 1
            if now - self._gate_told >= 1.0:  # one entry a second, not one an event
                self._gate_told = now
                self._record(
                    EventKind.REJECTED,
                    f"game_events_dropped: {name} and the rest of this second's past "
                    f"{self.event_gate.events_per_second:,} game events a second",
                    reason="game_events_dropped",
                    detail=f"{name} by {event.player or '?'}",
                )
            return
        self._on_game_event(event)

    def _on_game_event(self, event: GameEvent) -> None:
        """Keep a subscribed event as a log entry of its columns; drop and count the rest."""
        name = event.event if isinstance(event, OtherGameEvent) else event.name
        if name not in self.listening:
            self._proto.counters["unsubscribed_event"] += 1
            _log.debug("connection #%d: unsubscribed event %s dropped", self._id, name)
            return
        values = event_values(event)
        self._record(EventKind.GAME_EVENT, event_summary(event), event=name, **values)

    def _on_forwarded(self, batch: ForwardedBatch) -> None:
        """A batch of the addon's forwarded events: each kept as a game event, like the
        game's own; what the addon dropped, what could not be read and what passes this
        connection's bound counted and recorded."""
        counters = self._proto.counters
        counters["forwarded_batches"] += 1
        if batch.dropped:
            lost = sum(n for _, n in batch.dropped)
            counters["forwarded_dropped_by_addon"] += lost
            said = ", ".join(f"{kind} {n}" for kind, n in batch.dropped)
            self._forward_loss("forwarded_dropped_by_addon", f"the addon dropped {said}",
                               batch)  # fmt: skip
        if batch.refused:
            counters["rejected:forwarded_event"] += batch.refused
            self._forward_loss("forwarded_event", f"{batch.refused} unreadable: "
                               f"{batch.refused_detail}", batch)  # fmt: skip
        passed = self.forward_gate.admit(time.monotonic(), len(batch.events), batch.size)
        if passed < len(batch.events):
            over = len(batch.events) - passed
            counters["forwarded_dropped"] += over
            self._forward_loss("forwarded_dropped", f"{over} events past this connection's "
                               "bound on forwarded events a second", batch)  # fmt: skip
        kept = batch.events[:passed]
        if self._stray_forwarded is not None and any(e.name not in self.listening for e in kept):
            self._stray_forwarded()
        for event in kept:
            self._on_game_event(event)

    def _forward_loss(self, reason: str, detail: str, batch: ForwardedBatch) -> None:
        _log.info("connection #%d: %s (batch %s)", self._id, detail[:120], batch.message_id)
        self._record(
            EventKind.REJECTED,
            f"{reason}: {detail[:120]}",
            reason=reason,
            detail=detail,
            message_id=batch.message_id,
            frame_bytes=batch.size,
        )

    def _on_chat(self, chat: ChatMessage) -> None:
        self._record(
            EventKind.CHAT,
            f"<{chat.sender}> {chat.message[:80]}",
            sender=chat.sender,
            message=chat.message,
            type=chat.type,
            is_echo=chat.is_echo,
        )

    def _on_ui_chat_message(self, event: UiChatMessage) -> None:
        self._record(
            EventKind.UI_CHAT,
            f"[panel] <{event.player}> {event.message[:80]}",
            player=event.player,
            message=event.message,
            conversation_id=event.conversation_id,
        )
        link = self._link
        if link.observers.active:
            link.observers.outcome(link.owner, ui_chat_outcome(event))
        message = UiChat(
            event.player, event.message, event.conversation_id, event.message_id, link.owner
        )
        if not self._ui_chats.put(message):
            self._ui_chat_dropped(message)

    def _ui_chat_dropped(self, message: UiChat) -> None:
        self._proto.counters["ui_chat_dropped"] += 1
        queue = self._ui_chats
        waiting, size = queue.queued, queue.queued_bytes
        _log.info("connection #%d dropped a UI chat message: %d already wait", self._id, waiting)
        self._record(
            EventKind.REJECTED,
            f"ui_chat_dropped: {waiting} UI chat messages already wait for the callbacks "
            f"({size:,} of {queue.backlog_bytes_limit:,} bytes)",
            reason="ui_chat_dropped",
            detail=f"{message.player}'s message {message.message_id}",
            message_id=message.message_id,
        )

    def _frame_bytes(self) -> int:
        frame = self._frame
        return len(frame) if isinstance(frame, bytes) else len(frame.encode("utf-8", "replace"))

    def _on_rejected(self, event: FrameRejected) -> None:
        size = self._frame_bytes()
        _log.info(
            "connection #%d dropped input: %s (%d-byte frame, id %s)",
            self._id,
            event.reason,
            size,
            event.message_id,
        )
        _log.debug("connection #%d: %s: %s", self._id, event.reason, event.detail)
        self._record(
            EventKind.REJECTED,
            f"{event.reason} ({size} bytes)",
            reason=event.reason,
            detail=event.detail,
            message_id=event.message_id,
            frame_bytes=size,
        )
